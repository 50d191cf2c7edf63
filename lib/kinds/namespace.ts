import { field, type FieldError } from "../status";
import { qualifiedNameErrors } from "../validation/labels";
import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { namespaceSchema } from "./schema/namespace";
import type { KubeObject } from "./types";

export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

/** The finalizer kube-apiserver puts on every namespace: the namespace controller removes the content, then it. */
export const KUBERNETES_FINALIZER = "kubernetes";
/** The label kube-apiserver keeps equal to the namespace's name (selectable like any label). */
export const NAME_LABEL = "kubernetes.io/metadata.name";
export const ACTIVE = "Active";
export const TERMINATING = "Terminating";

const standardFinalizers = new Set([KUBERNETES_FINALIZER, "orphan", "foregroundDeletion"]);

// --- strategy -----------------------------------------------------------------------------------------------

/** SetDefaults_Namespace and SetDefaults_NamespaceStatus: the name label always, phase Active when unset. */
function applyDefaults(ns: Namespace): void {
  if (typeof ns.spec !== "object" || ns.spec === null) ns.spec = {};
  if (typeof ns.status !== "object" || ns.status === null) ns.status = {};
  if (!ns.status.phase) ns.status.phase = ACTIVE;
  setNameLabel(ns);
}

/** Also kube's Canonicalize: a generated name is only known after defaulting ran on create. */
function setNameLabel(ns: Namespace): void {
  const name = ns.metadata.name;
  if (!name) return;
  if (typeof ns.metadata.labels !== "object" || ns.metadata.labels === null) ns.metadata.labels = {};
  ns.metadata.labels[NAME_LABEL] = name;
}

/** A new namespace is Active and carries the `kubernetes` finalizer, whatever the client sent. */
function prepareForCreate(ns: Namespace): void {
  ns.status = { phase: ACTIVE };
  const finalizers = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
  ns.spec = { ...ns.spec, finalizers: finalizers.includes(KUBERNETES_FINALIZER) ? finalizers : [...finalizers, KUBERNETES_FINALIZER] };
}

/** Main-resource writes change neither spec.finalizers (that is /finalize) nor status (that is /status). */
function prepareForUpdate(ns: Namespace, old: Namespace): void {
  ns.spec = { ...(typeof ns.spec === "object" && ns.spec !== null ? ns.spec : {}) };
  if (old.spec?.finalizers === undefined) delete ns.spec.finalizers;
  else ns.spec.finalizers = structuredClone(old.spec.finalizers);
  if (old.status === undefined) delete ns.status;
  else ns.status = structuredClone(old.status);
}

/** validateFinalizerName: a qualified name, and an unprefixed one must be a standard finalizer. */
function finalizerNameErrors(name: unknown, path: string): FieldError[] {
  const value = typeof name === "string" ? name : "";
  const errs = qualifiedNameErrors(value).map((m) => field.invalid(path, value, m));
  if (!value.includes("/") && !standardFinalizers.has(value)) {
    errs.push(field.invalid(path, value, "name is neither a standard finalizer name nor is it fully qualified"));
  }
  return errs;
}

const finalizersOf = (ns: Namespace): unknown[] => (Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : []);

/** ValidateNamespace: every spec finalizer is checked, each reported at the list's path (no index) as upstream. */
function validate(ns: Namespace): FieldError[] {
  return finalizersOf(ns).flatMap((f) => finalizerNameErrors(f, "spec.finalizers"));
}

/** ValidateNamespaceStatusUpdate: the phase follows the deletion timestamp (upstream's path really is `status.Phase`). */
function validateStatusUpdate(ns: Namespace): FieldError[] {
  const phase = ns.status?.phase ?? "";
  if (!ns.metadata.deletionTimestamp) {
    return phase === ACTIVE ? [] : [field.invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === TERMINATING ? [] : [field.invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** ValidateNamespaceFinalizeUpdate: finalizer names, reported at their index. */
function validateFinalizeUpdate(ns: Namespace): FieldError[] {
  return finalizersOf(ns).flatMap((f, i) => finalizerNameErrors(f, `spec.finalizers[${i}]`));
}

/**
 * The finalize strategy: the body is taken as for a main-resource update except that status stays as stored
 * (kube's namespaceFinalizeStrategy); system metadata is carried over from the stored object as for any update.
 */
function mergeFinalize(body: Namespace, old: Namespace): Namespace {
  const m = body.metadata ?? {};
  const o = old.metadata;
  const obj: Namespace = { ...body, metadata: { ...m } };
  const meta = obj.metadata;
  if (!meta.uid) meta.uid = o.uid;
  meta.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) meta.deletionTimestamp = o.deletionTimestamp; else delete meta.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  delete meta.namespace;
  if (old.status === undefined) delete obj.status; else obj.status = old.status;
  return obj;
}

/** The first delete keeps a namespace that still has spec finalizers, Terminating, for the namespace controller. */
// kube-apiserver marks every namespace Terminating on its first delete; one without spec.finalizers is then
// removed at once (metadata.finalizers permitting), one with them waits for the namespace controller.
function beginDeletion(ns: Namespace): Namespace | undefined {
  // kube-apiserver sets only the deletion timestamp on a namespace: no grace period.
  delete ns.metadata.deletionGracePeriodSeconds;
  ns.status = { ...ns.status, phase: TERMINATING };
  return ns;
}

// --- declaration --------------------------------------------------------------------------------------------

export const namespace = defineKind<Namespace>({
  kind: "Namespace",
  schema: namespaceSchema,
  plural: "namespaces",
  singular: "namespace",
  shortNames: ["ns"],
  categories: [],
  namespaced: false,
  nameRule: "dns1123-label",
  hasStatus: true,
  deleteCollection: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: { "status.phase": (ns) => ns.status?.phase },
  fieldSelectorError: "label-not-supported",

  columns: [
    nameColumn,
    column<Namespace>({ name: "Status", description: "The status of the namespace", cell: (ns) => ns.status?.phase ?? "" }),
    ageColumn,
  ],

  template: {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "team-a", labels: { team: "a" } },
  },

  updateSubresources: {
    finalize: { merge: mergeFinalize, validateUpdate: validateFinalizeUpdate },
  },
  applyDefaults,
  prepareForCreate,
  prepareForUpdate,
  validate,
  statusStrategy: { validateUpdate: validateStatusUpdate },
  canonicalize: setNameLabel,
  beginDeletion,
  holdsDeletion: (ns) => finalizersOf(ns).length > 0,
  deletionPendingMessage: "The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.",
});

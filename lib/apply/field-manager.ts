// kube-apiserver's field manager (apimachinery's managedfields, NewDefaultFieldManager), one request at a time:
//
//   update (create, update, non-apply patch): take the managedFields the client sent (a `[]` or `[{}]`
//     resets them; an undecodable or empty list keeps the stored ones; a subresource write always keeps the
//     stored ones), then record the fields this write added or changed for its manager (an `Update` entry
//     per manager, apiVersion and subresource, stamped with the time when it took anything), taking them
//     from whoever owned them. An object stored without managedFields stays untracked until applied to.
//   apply: merge the configuration into the live object and record it as the manager's `Apply` entry (see
//     updater.ts for ownership, pruning and conflicts). Before the first apply to an untracked object, its
//     fields are recorded for `before-first-apply`. For the manager `kubectl`, conflicts with fields that
//     kubectl's client-side apply set are forgiven and the last-applied annotation is kept up to date.
//
// System metadata (name, uid, resourceVersion, ...) is never owned; at most 10 Update entries are kept, the
// oldest merged into `ancient-changes`.
import { errors, isStatusError } from "../status";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Schema } from "../kinds/schema/schema";
import { apiVersionOf } from "../kinds";
import { conflictError } from "./conflicts";
import { emptyObject } from "./empty-object";
import { FieldSet } from "./field-set";
import { ignoredFields } from "./ignored-fields";
import { allowedConflicts, buildLastApplied, hasLastApplied, KUBECTL_MANAGER, setLastApplied } from "./last-applied";
import {
  emptyManaged, encodeManagedFields, managerIdentifier, tryDecodeManagedFields, type Managed, type ManagedFieldsEntry,
} from "./managed-fields";
import { apply as applyFields, ConflictsError, update as updateFields, type UpdaterOptions } from "./updater";
import { formatValidationErrors, validateConfiguration } from "./validate";

/** Where a write arrives: the kind as the request's group serves it, and the subresource ("" for the object). */
export interface FieldManagerScope {
  kind: AnyKind;
  subresource?: string;
}

export const MAX_UPDATE_MANAGERS = 10;
const CURRENT_OPERATION = "current-operation";
const BEFORE_FIRST_APPLY = "before-first-apply";
const ANCIENT_CHANGES = "ancient-changes";

const NEVER_OWNED = FieldSet.of(
  [{ field: "apiVersion" }], [{ field: "kind" }], [{ field: "metadata" }],
  ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"]
    .map((f) => [{ field: "metadata" }, { field: f }]),
);

const nowSeconds = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The kind's field structure: its schema, or a custom kind's from its CRD version's schema. */
const structureOf = (kind: AnyKind): Schema | undefined => kind.schema ?? kind.fieldStructure;

function options(scope: FieldManagerScope): UpdaterOptions {
  return { schema: structureOf(scope.kind), apiVersion: apiVersionOf(scope.kind), ignored: ignoredFields(scope.kind, scope.subresource ?? "") };
}

/** The object without its managedFields (a shallow copy down to metadata). */
function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !("managedFields" in obj.metadata)) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** `[]`, or one entry with nothing in it: the client asks to drop all managedFields. */
function isReset(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  if (entries.length !== 1 || !isMap(entries[0])) return false;
  return Object.values(entries[0]).every((v) => v === undefined || v === null || v === "");
}

function stripNeverOwned(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(NEVER_OWNED);
  if (set.isEmpty()) managed.fields.delete(id);
  else managed.fields.set(id, { ...vs, set });
}

/** capManagersManager: merges the oldest Update entries into one `ancient-changes` entry per version. */
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const secs = (id: string) => {
    const t = managed.times.get(id);
    return t ? Math.floor(Date.parse(t) / 1000) || 0 : 0;
  };
  updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i];
    const vs = managed.fields.get(id)!;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: "Update", apiVersion: vs.apiVersion });
    const first = firstByVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstByVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      managed.fields.set(bucket, managed.fields.get(first)!);
      managed.fields.delete(first);
    }
    managed.fields.set(bucket, { set: vs.set.union(managed.fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(id);
    length--;
    managed.times.set(bucket, managed.times.get(id));
  }
}

/** The tracked part of an update: ownership of what `next` changed goes to `manager`'s Update entry. */
function recordUpdate(scope: FieldManagerScope, live: KubeObject, next: KubeObject, managed: Managed, manager: string): Managed {
  const id = managerIdentifier({ manager: manager || "unknown", operation: "Update", apiVersion: apiVersionOf(scope.kind), subresource: scope.subresource });
  const out: Managed = {
    fields: updateFields(withoutManagedFields(live), withoutManagedFields(next), managed.fields, CURRENT_OPERATION, options(scope)),
    times: new Map(managed.times),
  };
  stripNeverOwned(out, CURRENT_OPERATION);
  const taken = out.fields.get(CURRENT_OPERATION);
  if (taken) {
    out.fields.delete(CURRENT_OPERATION);
    const previous = out.fields.get(id);
    out.fields.set(id, { set: previous ? taken.set.union(previous.set) : taken.set, apiVersion: taken.apiVersion, applied: false });
    out.times.set(id, nowSeconds());
  }
  capUpdateManagers(out);
  return out;
}

/** Sets (or removes) `metadata.managedFields` on `obj`. */
export function setManagedFields(obj: KubeObject, entries: ManagedFieldsEntry[] | undefined): KubeObject {
  if (entries) obj.metadata.managedFields = entries as KubeObject["metadata"]["managedFields"];
  else delete obj.metadata.managedFields;
  return obj;
}

/**
 * Records a non-apply write of `next` (the object about to be stored) over `live` (undefined on create) for
 * `manager`; returns `next` with its managedFields set. Never fails: on any trouble the stored managedFields
 * are kept, as kube's UpdateNoErrors does.
 */
export function trackUpdate(scope: FieldManagerScope, live: KubeObject | undefined, next: KubeObject, manager: string): KubeObject {
  const liveObj = live ?? emptyObject(scope.kind);
  const sent = next.metadata?.managedFields;
  const stored = () => tryDecodeManagedFields(liveObj.metadata?.managedFields) ?? emptyManaged();
  let managed: Managed;
  if (scope.subresource) managed = stored();
  else if (isReset(sent)) managed = emptyManaged();
  else {
    const decoded = tryDecodeManagedFields(sent);
    managed = decoded && decoded.fields.size ? decoded : stored();
  }
  next.metadata ??= {};
  delete next.metadata.managedFields;
  try {
    // An existing object without managedFields is not tracked until something applies to it.
    if (managed.fields.size === 0 && liveObj.metadata?.uid) return next;
    return setManagedFields(next, encodeManagedFields(recordUpdate(scope, liveObj, next, managed, manager)));
  } catch (err) {
    if (isStatusError(err)) throw err;
    return setManagedFields(next, liveObj.metadata?.managedFields as ManagedFieldsEntry[] | undefined);
  }
}

export interface ApplyOutcome {
  /** The live object with the configuration merged in (without managedFields); the live object when nothing changed. */
  object: KubeObject;
  /** The managedFields to store with it. */
  managedFields: ManagedFieldsEntry[] | undefined;
}

/** GroupVersionKind.String() of an applied configuration, as kube prints it. */
function gvkString(config: Record<string, unknown>): string {
  const apiVersion = typeof config.apiVersion === "string" ? config.apiVersion : "";
  const kind = typeof config.kind === "string" ? config.kind : "";
  const parts = apiVersion.split("/");
  if (parts.length > 2) return "/, Kind=";
  const [group, version] = parts.length === 2 ? parts : ["", parts[0]];
  return `${group}/${version}, Kind=${kind}`;
}

function expectedGvk(kind: AnyKind): string {
  const [group, version] = apiVersionOf(kind).includes("/") ? apiVersionOf(kind).split("/") : ["", apiVersionOf(kind)];
  return `${group}/${version}, Kind=${kind.kind}`;
}

/** Go drops JSON nulls when it decodes into typed objects: a null field is an absent one. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (!isMap(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = dropNulls(x);
  return out;
}

/**
 * Server-side apply of `config` by `manager` to `live` (undefined: the object does not exist yet, and the
 * configuration is applied to an empty one). Throws kube's 400s for a configuration it cannot apply and its
 * 409 for conflicts.
 */
export function applyConfiguration(scope: FieldManagerScope, live: KubeObject | undefined, config: unknown, manager: string, force: boolean): ApplyOutcome {
  const liveObj = live ?? emptyObject(scope.kind);
  if (!isMap(config)) throw errors.badRequest(`invalid object type: ${gvkString({})}`);
  // kube answers 500 for stored managedFields it cannot decode; such data can only predate this server's
  // bookkeeping, so the object is treated as untracked instead (its fields go to before-first-apply).
  const managed = tryDecodeManagedFields(liveObj.metadata?.managedFields) ?? emptyManaged();
  const gvk = gvkString(config);
  if (gvk !== expectedGvk(scope.kind)) throw errors.badRequest(`invalid object type: ${gvk}`);

  const attempt = (forced: boolean) => applyOnce(scope, liveObj, config, managed, manager || "unknown", forced);
  let outcome: { object: KubeObject; managed: Managed };
  try {
    outcome = attempt(force);
  } catch (err) {
    if (!(err instanceof ConflictsError)) throw err;
    const allowed = manager === KUBECTL_MANAGER ? allowedConflicts(withoutManagedFields(liveObj), structureOf(scope.kind), apiVersionOf(scope.kind)) : undefined;
    if (!allowed) throw conflictError(err.conflicts);
    const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length) throw conflictError(remaining);
    outcome = attempt(true);
  }
  const object = dropNulls(outcome.object) as KubeObject;
  if (manager === KUBECTL_MANAGER && hasLastApplied(object)) setLastApplied(object, buildLastApplied(config));
  return { object, managedFields: encodeManagedFields(outcome.managed) };
}

function applyOnce(scope: FieldManagerScope, liveObj: KubeObject, config: Record<string, unknown>, stored: Managed, manager: string, force: boolean) {
  let managed = stored;
  if (managed.fields.size === 0) managed = recordUpdate(scope, emptyObject(scope.kind), liveObj, managed, BEFORE_FIRST_APPLY);
  const id = managerIdentifier({ manager, operation: "Apply", apiVersion: apiVersionOf(scope.kind), subresource: scope.subresource });
  const meta = config.metadata;
  if (isMap(meta) && meta.managedFields !== undefined && meta.managedFields !== null) throw errors.badRequest("metadata.managedFields must be nil");
  const structure = structureOf(scope.kind);
  if (structure) {
    const problems = validateConfiguration(config, structure);
    if (problems.length) {
      const ns = isMap(meta) && typeof meta.namespace === "string" ? meta.namespace : "";
      const name = isMap(meta) && typeof meta.name === "string" ? meta.name : "";
      // kube answers 500 here (a plain error); it is the client's mistake, so 400 (reference decision 11).
      throw errors.badRequest(`failed to create typed patch object (${ns}/${name}; ${gvkString(config)}): ${formatValidationErrors(problems)}`);
    }
  }
  const live = withoutManagedFields(liveObj);
  const result = applyFields(live, config, managed.fields, id, force, options(scope));
  const out: Managed = { fields: result.managers, times: new Map(managed.times) };
  stripNeverOwned(out, id);
  if (result.object !== undefined) out.times.set(id, nowSeconds());
  return { object: structuredClone((result.object ?? live) as KubeObject), managed: out };
}

// OpenShift's SecurityContextConstraint admission (security.openshift.io/SecurityContextConstraint): a pod is
// admitted by the first SCC, in OpenShift's order, that its creator or its ServiceAccount may use and that the
// pod satisfies once that SCC's strategies have defaulted it; the pod is annotated `openshift.io/scc`. Otherwise
// 403 with every reason, as OpenShift lists them. Creates may be defaulted; updates must already satisfy an SCC.
// A pod annotated `openshift.io/required-scc` (OpenShift 4.14+) is tried against that one SCC only.
import { errors, type FieldError } from "../status";
import type { UserInfo } from "../auth/user-info";
import type { Authorizer } from "../authz/attributes";
import type { KubeObject } from "../kinds/types";
import { MCS_ANNOTATION, UID_RANGE_ANNOTATION } from "../scc/namespace-ranges";
import { sortSCCs } from "../scc/scc-order";
import { renderError, SccProvider } from "../scc/scc-provider";
import { deepEqual } from "../validation/generation";
import { isObject, listOf, objectOf, stringOf, type JsonObject } from "../validation/zero-values";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

export const VALIDATED_SCC_ANNOTATION = "openshift.io/scc";
/** Pins the one SCC a pod may be admitted by; it may not change once the pod exists. */
export const REQUIRED_SCC_ANNOTATION = "openshift.io/required-scc";
/** Annotations OpenShift's network plug-in writes on running pods: changing only these is not re-admitted. */
const IGNORED_ANNOTATIONS = ["k8s.ovn.org/pod-networks"];
export const SCC_GROUP = "security.openshift.io";
export const SCC_RESOURCE = "securitycontextconstraints";

/** The SCCs the cluster operator always creates; admission refuses pods while any is missing, as OpenShift does. */
export const STANDARD_SCC_NAMES = [
  "anyuid", "hostaccess", "hostmount-anyuid", "hostnetwork", "hostnetwork-v2", "nonroot", "nonroot-v2", "privileged", "restricted", "restricted-v2",
];

/** How long a pod waits for its namespace's UID range and MCS level (OpenShift: 10 s). */
const NAMESPACE_WAIT_MS = 10_000;
const NAMESPACE_POLL_MS = 50;

export interface SccLookups {
  /** Every SCC as the cache holds it. */
  listSCCs(): KubeObject[];
  namespace(name: string): KubeObject | undefined;
  /** Brings the cache up to the latest committed write. */
  catchUp?(): Promise<void>;
}

/** kube's serviceaccount.UserInfo: the name and the two service-account groups (no system:authenticated). */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { username: `system:serviceaccount:${namespace}:${name}`, groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`] };
}

/** Aggregate of field errors as Go prints one: duplicates dropped, one message bare, several in brackets. */
function aggregate(errs: FieldError[]): string {
  const messages = [...new Set(errs.map(renderError))];
  if (messages.length === 0) return "<nil>";
  return messages.length === 1 ? messages[0] : `[${messages.join(", ")}]`;
}

/** %v of a field.ErrorList: every error, space-separated in brackets. */
const errorList = (errs: FieldError[]) => `[${errs.map(renderError).join(" ")}]`;

/** Only the fields the garbage collector writes, or the ignored annotations, differ (OpenShift's shouldIgnoreMetaChanges). */
function onlyIgnoredFieldsChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const annotations = { ...o.metadata.annotations };
    for (const key of IGNORED_ANNOTATIONS) delete annotations[key];
    return { ...o, metadata: { ...o.metadata, annotations, ownerReferences: undefined, finalizers: undefined, resourceVersion: undefined } };
  };
  return deepEqual(strip(obj), strip(old));
}

const annotationOf = (o: KubeObject | undefined, key: string) => o?.metadata.annotations?.[key] ?? "";

interface Outcome { pod?: KubeObject; scc?: string; errs: FieldError[] }

export class SecurityContextConstraintsAdmission implements AdmissionPlugin {
  readonly name = "security.openshift.io/SecurityContextConstraint";

  constructor(
    private readonly lookups: SccLookups,
    private readonly authorizer: Authorizer,
    private readonly waitMs = NAMESPACE_WAIT_MS,
  ) {}

  async admit(req: AdmissionRequest): Promise<void> {
    const pod = this.podToCheck(req);
    if (!pod) return;
    const create = req.operation === "CREATE";
    const required = annotationOf(pod, REQUIRED_SCC_ANNOTATION);
    if (!create && required !== annotationOf(req.oldObject, REQUIRED_SCC_ANNOTATION)) {
      throw forbidden(req, `invalid change of required security context constraint annotation: ${REQUIRED_SCC_ANNOTATION}`);
    }
    // OpenShift's mutating phase takes no hint: a client's own `openshift.io/scc` does not pick the SCC.
    const outcome = await this.compute(req, pod, create, required, "");
    if (!outcome.pod) throw forbidden(req, `unable to validate against any security context constraint: ${aggregate(outcome.errs)}`);
    const chosen = outcome.pod;
    chosen.metadata.annotations = { ...chosen.metadata.annotations, [VALIDATED_SCC_ANNOTATION]: outcome.scc! };
    for (const key of Object.keys(pod)) delete pod[key];
    Object.assign(pod, chosen);
  }

  async validate(req: AdmissionRequest): Promise<void> {
    const pod = this.podToCheck(req);
    if (!pod) return;
    const required = annotationOf(pod, REQUIRED_SCC_ANNOTATION);
    const hint = annotationOf(pod, VALIDATED_SCC_ANNOTATION);
    if (required && required !== hint) throw forbidden(req, `required scc/${required} does not match the suggested scc/${hint}`);
    const outcome = await this.compute(req, pod, false, required, hint);
    if (outcome.pod && deepEqual(pod, outcome.pod)) return;
    throw forbidden(req, `unable to validate against any security context constraint: ${errorList(outcome.errs)}`);
  }

  /** The pod this plug-in governs in `req`, or undefined (other kinds, subresources, Windows pods, GC-only updates, the server's own writes). */
  private podToCheck(req: AdmissionRequest): KubeObject | undefined {
    if (req.operation === "DELETE" || req.kind.kind !== "Pod" || req.kind.group || req.subresource) return undefined;
    if (!req.user || !req.object) return undefined;
    const spec = objectOf(req.object.spec);
    if (stringOf(objectOf(spec.os).name) === "windows") return undefined;
    if (req.operation === "UPDATE" && req.oldObject && onlyIgnoredFieldsChanged(req.object, req.oldObject)) return undefined;
    return req.object;
  }

  /** `required`: the only SCC considered; `hint`: tried first when the pod may not be changed. */
  private async compute(req: AdmissionRequest, pod: KubeObject, mutationAllowed: boolean, required: string, hint: string): Promise<Outcome> {
    const all = this.lookups.listSCCs();
    const present = new Set(all.map((s) => s.metadata.name));
    const missing = STANDARD_SCC_NAMES.filter((n) => !present.has(n));
    if (missing.length) throw forbidden(req, `securitycontextconstraints.security.openshift.io cache is missing ${missing.join(", ")}`);
    const candidates = required ? all.filter((s) => s.metadata.name === required) : all;
    if (!candidates.length) {
      throw forbidden(req, `failed to retrieve the required SCC ${JSON.stringify(required)}: ${SCC_RESOURCE}.${SCC_GROUP} ${JSON.stringify(required)} not found`);
    }

    const sorted = sortSCCs(candidates as unknown as JsonObject[]) as unknown as KubeObject[];
    if (hint && !mutationAllowed) {
      const i = sorted.findIndex((s) => s.metadata.name === hint);
      if (i > 0) sorted.unshift(...sorted.splice(i, 1));
    }
    const namespace = await this.annotatedNamespace(req);
    const providers: SccProvider[] = [];
    const creationErrors: string[] = [];
    for (const scc of sorted) {
      try { providers.push(new SccProvider(scc as unknown as JsonObject, namespace)); } catch (err) { creationErrors.push((err as Error).message); }
    }
    if (creationErrors.length) throw forbidden(req, creationErrors.length === 1 ? creationErrors[0] : `[${creationErrors.join(", ")}]`);

    const user = req.user!;
    const saName = stringOf(objectOf(pod.spec).serviceAccountName) || "default";
    const saUser = serviceAccountUser(req.namespace, saName);
    const usable = (p: SccProvider) => this.appliesTo(p, user, req.namespace) || this.appliesTo(p, saUser, req.namespace);
    const tryOn = (p: SccProvider): { copy: KubeObject; errs: FieldError[] } => {
      const copy = structuredClone(pod);
      return { copy, errs: p.apply(copy) };
    };

    const errs: FieldError[] = [];
    const denied = new Set<string>();
    let chosen: Outcome | undefined;
    for (const p of providers) {
      if (!usable(p)) {
        denied.add(p.name);
        errs.push({ type: "FieldValueForbidden", field: `provider ${JSON.stringify(p.name)}`, detail: "Forbidden: not usable by user or serviceaccount" });
        continue;
      }
      const attempt = tryOn(p);
      if (attempt.errs.length) { errs.push(...attempt.errs); continue; }
      // An update may not be changed by admission: only an SCC the pod already satisfies as it is will do.
      if (mutationAllowed || deepEqual(pod, attempt.copy)) { chosen = { pod: attempt.copy, scc: p.name, errs }; break; }
    }
    if (chosen) return chosen;
    const restrictedV2 = providers.find((p) => p.name === "restricted-v2");
    const restricted = providers.find((p) => p.name === "restricted");
    if (restrictedV2 && restricted && denied.has("restricted") && tryOn(restricted).errs.length === 0) {
      errs.push({
        type: "FieldValueForbidden",
        field: "no access to scc/restricted",
        detail: "Forbidden: the pod fails to validate against the `restricted-v2` security context constraint, but would validate successfully against the `restricted` security context constraint",
      });
    }
    return { errs };
  }

  /** ConstraintAppliesTo: named in the SCC's users, a member of one of its groups, or allowed to `use` it by RBAC. */
  private appliesTo(p: SccProvider, user: UserInfo, namespace: string): boolean {
    if (p.users.includes(user.username)) return true;
    if (user.groups.some((g) => p.groups.includes(g))) return true;
    return this.authorizer.authorize({
      type: "resource", user, verb: "use", apiGroup: SCC_GROUP, resource: SCC_RESOURCE, subresource: "", namespace, name: p.name,
    }).allowed;
  }

  /** The pod's namespace once it carries its UID range and MCS level (the allocation controller adds them). */
  private async annotatedNamespace(req: AdmissionRequest): Promise<KubeObject> {
    const deadline = Date.now() + this.waitMs;
    let lastError = "";
    let caughtUp = false;
    for (;;) {
      const ns = this.lookups.namespace(req.namespace);
      const annotations = ns?.metadata.annotations ?? {};
      if (!ns) lastError = `namespaces "${req.namespace}" not found`;
      else if (!(UID_RANGE_ANNOTATION in annotations)) lastError = `unable to find annotation ${UID_RANGE_ANNOTATION}`;
      else if (!(MCS_ANNOTATION in annotations)) lastError = `unable to find annotation ${MCS_ANNOTATION}`;
      else return ns;
      if (!caughtUp && this.lookups.catchUp) { caughtUp = true; await this.lookups.catchUp(); continue; }
      if (Date.now() >= deadline) throw forbidden(req, `error fetching namespace "${req.namespace}": ${lastError}`);
      await new Promise((r) => setTimeout(r, NAMESPACE_POLL_MS));
    }
  }
}

/** admission.NewForbidden: `pods "<name or generateName>" is forbidden: <reason>`. */
function forbidden(req: AdmissionRequest, reason: string) {
  const meta = req.object?.metadata;
  const name = req.name || meta?.name || meta?.generateName || "Unknown";
  return errors.forbidden(`pods "${name}" is forbidden: ${reason}`, "pods", name);
}


// The twelve kinds served under /api/v1 and the later additions (RBAC, Lease, CustomResourceDefinition), each declared once in its own file. Everything kind-specific lives
// here; generic code (registry, storage, api, console) looks kinds up through this list and never names one.
// Pure data and functions: no I/O and nothing server-side, so the browser imports it too.
import { configMap } from "./config-map";
import { endpoints } from "./endpoints";
import { event } from "./event";
import { limitRange } from "./limit-range";
import { namespace } from "./namespace";
import { persistentVolume } from "./persistent-volume";
import { persistentVolumeClaim } from "./persistent-volume-claim";
import { pod } from "./pod";
import { resourceQuota } from "./resource-quota";
import { secret } from "./secret";
import { securityContextConstraints } from "./security-context-constraints";
import { service } from "./service";
import { serviceAccount } from "./service-account";
import { role } from "./role";
import { clusterRole } from "./cluster-role";
import { roleBinding } from "./role-binding";
import { clusterRoleBinding } from "./cluster-role-binding";
import { lease } from "./lease";
import { customResourceDefinition } from "./custom-resource-definition";
import type { ApiGroupNaming } from "./schema/resource";
import type { AnyKind } from "./types";

export type { AnyKind, Column, KindDefinition, KubeObject, NameRule, ObjectMeta } from "./types";

/** In spec section 1 order. */
export const kinds: AnyKind[] = [
  endpoints,
  securityContextConstraints,
  secret,
  event,
  limitRange,
  resourceQuota,
  pod,
  configMap,
  persistentVolume,
  persistentVolumeClaim,
  service,
  serviceAccount,
  namespace,
  role,
  clusterRole,
  roleBinding,
  clusterRoleBinding,
  lease,
  customResourceDefinition,
];

const byPlural = new Map(kinds.map((k) => [k.plural, k]));

/** The copy of `kind` served at `group` (one of its `alsoServedBy`): same names and hooks, that group's schema. */
function servedView(kind: AnyKind, naming: ApiGroupNaming): AnyKind {
  const schema = kind.schema?.type === "object" && kind.schema.gvk
    ? { ...kind.schema, name: naming.typeName(kind.kind), gvk: { ...kind.schema.gvk, group: naming.group } }
    : kind.schema;
  return { ...kind, group: naming.group, alsoServedBy: undefined, servedFrom: kind, schema };
}

const views = new Map<string, AnyKind[]>();
for (const k of kinds) {
  for (const naming of k.alsoServedBy ?? []) views.set(naming.group, [...(views.get(naming.group) ?? []), servedView(k, naming)]);
}

/**
 * The kinds served at `<group>/v1` ("" = core): the group's own kinds, then copies of kinds declared elsewhere
 * that this group also serves (their `servedFrom` is the declared kind).
 */
export function kindsServedBy(group: string): AnyKind[] {
  return [...kinds.filter((k) => (k.group ?? "") === group), ...(views.get(group) ?? [])];
}

/** Every API group with kinds, besides core: declared groups and `alsoServedBy` ones. */
export function servedGroups(): string[] {
  return [...new Set([...kinds.map((k) => k.group ?? ""), ...views.keys()])].filter((g) => g !== "");
}

/** The kind served at `<group>/v1/<plural>`, or undefined. */
export function kindServedAt(group: string, plural: string): AnyKind | undefined {
  const declared = byPlural.get(plural);
  if (!declared) return undefined;
  if ((declared.group ?? "") === group) return declared;
  return views.get(group)?.find((k) => k.plural === plural);
}

/** The apiVersions a body for `kind` may carry: its own, and for a served copy also the declared kind's. */
export function acceptedApiVersions(kind: AnyKind): string[] {
  const own = apiVersionOf(kind);
  return kind.servedFrom ? [own, apiVersionOf(kind.servedFrom)] : [own, ...(kind.alsoServedBy ?? []).map((n) => `${n.group}/v1`)];
}
const byKind = new Map(kinds.map((k) => [k.kind, k]));

/** `v1`, or `<group>/v1` for kinds outside the core group. */
export function apiVersionOf(kind: AnyKind): string {
  return kind.group ? `${kind.group}/v1` : "v1";
}

/** kube's group-resource string used in messages: `pods`, `roles.rbac.authorization.k8s.io`. */
export function groupResource(kind: AnyKind, subresource?: string): string {
  const r = subresource ? `${kind.plural}/${subresource}` : kind.plural;
  return kind.group ? `${r}.${kind.group}` : r;
}

/** The URL prefix of a kind's group version: `/api/v1` or `/apis/<group>/v1`. */
export function groupVersionPath(kind: AnyKind): string {
  return kind.group ? `/apis/${kind.group}/v1` : "/api/v1";
}

/** The kind served at `<group version>/<plural>`, e.g. `configmaps` (plurals are unique across groups here). */
export function kindByPlural(plural: string): AnyKind | undefined {
  return byPlural.get(plural);
}

/** The kind named in an object's `kind` field, e.g. `ConfigMap` (exact case). */
export function kindByKind(kind: string): AnyKind | undefined {
  return byKind.get(kind);
}

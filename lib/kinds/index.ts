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

// --- kinds added at run time (custom resources) -------------------------------------------------------------
// A CustomResourceDefinition, once Established, adds its kind here: one declaration per served version, the
// storage version's first, the others served from it (`servedFrom`, conversion None). Every lookup below reads
// this set, so routing, discovery, authorization and the registry follow it at once.

/**
 * Keyed by the adding source (a CRD's name): the declarations it serves, one per served version. Kept on
 * globalThis, as lib/server/runtime.ts keeps the runtime: server.ts and the Next.js bundle (route handlers, the
 * console's server pages) load this module separately, and both must see the kinds the one controller adds.
 * `generation` grows with every change.
 */
const shared = globalThis as { __clusterCoreAddedKinds?: { added: Map<string, AnyKind[]>; listeners: Set<() => void>; generation: number } };
shared.__clusterCoreAddedKinds ??= { added: new Map(), listeners: new Set(), generation: 0 };
const addedState = shared.__clusterCoreAddedKinds;
const { added, listeners } = addedState;

/** Grows with every change of the added kinds: a reader that derives tables from them rebuilds when it moved. */
export function addedKindsGeneration(): number {
  return addedState.generation;
}

/** Serve `declared` (one per version; `[]` removes) under `source`, replacing what it served before. */
export function setAddedKinds(source: string, declared: AnyKind[]): void {
  if (declared.length) added.set(source, declared); else if (!added.delete(source)) return;
  addedState.generation++;
  for (const l of listeners) l();
}

/** Called after every change of the added kinds (discovery drops its cached documents). */
export function onKindsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every kind added at run time, every served version. */
export function addedKinds(): AnyKind[] {
  return [...added.values()].flat();
}

/** The declared kinds served at `<group>/v1` (the OpenAPI documents, built once, describe only these). */
export function declaredKindsServedBy(group: string): AnyKind[] {
  return [...kinds.filter((k) => (k.group ?? "") === group), ...(views.get(group) ?? [])];
}

/** The groups of the declared kinds, besides core. */
export function declaredGroups(): string[] {
  return [...new Set([...kinds.map((k) => k.group ?? ""), ...views.keys()])].filter((g) => g !== "");
}

/** The kinds added at run time as their objects are stored: one declaration (the storage version's) per CRD. */
export function addedStoredKinds(): AnyKind[] {
  return [...added.values()].map((list) => list[0]);
}

/** Every kind served: the declared ones, then those added at run time (every version). */
export function servedKinds(): AnyKind[] {
  return added.size ? [...kinds, ...addedKinds()] : kinds;
}

/** The version a kind is served at (`v1` unless it says otherwise). */
export function versionOf(kind: AnyKind): string {
  return kind.version ?? "v1";
}

/** The storage key's resource: `plural`, or a custom kind's `<plural>.<group>`. */
export function storageResourceOf(kind: AnyKind): string {
  return kind.storageResource ?? kind.plural;
}

/** The kind stored under `resource` (its storage version for a custom kind), or undefined. */
export function kindByStorageResource(resource: string): AnyKind | undefined {
  const declared = byPlural.get(resource);
  if (declared) return declared;
  for (const list of added.values()) if (list[0] && storageResourceOf(list[0]) === resource) return list[0];
  return undefined;
}

/**
 * The kinds served at `<group>/<version>` ("" = core): the group's own kinds, then copies of kinds declared elsewhere
 * that this group also serves (their `servedFrom` is the declared kind), then kinds added at run time.
 */
export function kindsServedBy(group: string, version = "v1"): AnyKind[] {
  const declared = version === "v1" ? declaredKindsServedBy(group) : [];
  return [...declared, ...addedKinds().filter((k) => (k.group ?? "") === group && versionOf(k) === version)];
}

/** Every API group with kinds, besides core: declared groups, `alsoServedBy` ones and those of added kinds. */
export function servedGroups(): string[] {
  return [...new Set([...kinds.map((k) => k.group ?? ""), ...views.keys(), ...addedKinds().map((k) => k.group ?? "")])].filter((g) => g !== "");
}

/** The versions served for `group`: `v1` for declared groups, an added kind's served versions otherwise. */
export function servedVersions(group: string): string[] {
  const versions = new Set<string>();
  if (kinds.some((k) => (k.group ?? "") === group) || views.has(group)) versions.add("v1");
  for (const k of addedKinds()) if ((k.group ?? "") === group) versions.add(versionOf(k));
  return [...versions];
}

/** The kind served at `<group>/<version>/<plural>`, or undefined. */
export function kindServedAt(group: string, plural: string, version = "v1"): AnyKind | undefined {
  const declared = version === "v1" ? byPlural.get(plural) : undefined;
  if (declared && (declared.group ?? "") === group) return declared;
  const view = version === "v1" ? views.get(group)?.find((k) => k.plural === plural) : undefined;
  if (view) return view;
  for (const list of added.values()) {
    const k = list.find((c) => c.plural === plural && (c.group ?? "") === group && versionOf(c) === version);
    if (k) return k;
  }
  return undefined;
}

/** The apiVersions a body for `kind` may carry: its own, and for a served copy also the declared kind's. */
export function acceptedApiVersions(kind: AnyKind): string[] {
  const own = apiVersionOf(kind);
  return kind.servedFrom ? [own, apiVersionOf(kind.servedFrom)] : [own, ...(kind.alsoServedBy ?? []).map((n) => `${n.group}/v1`)];
}
const byKind = new Map(kinds.map((k) => [k.kind, k]));

/** `v1`, or `<group>/v1` for kinds outside the core group. */
export function apiVersionOf(kind: AnyKind): string {
  return kind.group ? `${kind.group}/${versionOf(kind)}` : versionOf(kind);
}

/** kube's group-resource string used in messages: `pods`, `roles.rbac.authorization.k8s.io`. */
export function groupResource(kind: AnyKind, subresource?: string): string {
  const r = subresource ? `${kind.plural}/${subresource}` : kind.plural;
  return kind.group ? `${r}.${kind.group}` : r;
}

/** The URL prefix of a kind's group version: `/api/v1` or `/apis/<group>/v1`. */
export function groupVersionPath(kind: AnyKind): string {
  return kind.group ? `/apis/${kind.group}/${versionOf(kind)}` : "/api/v1";
}

/** The kind served at `<group version>/<plural>`, e.g. `configmaps` (plurals are unique across groups here). */
export function kindByPlural(plural: string): AnyKind | undefined {
  return byPlural.get(plural);
}

/** The kind named in an object's `kind` field, e.g. `ConfigMap` (exact case). */
export function kindByKind(kind: string): AnyKind | undefined {
  return byKind.get(kind);
}

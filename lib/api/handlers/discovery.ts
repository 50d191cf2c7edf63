// Discovery documents in their legacy forms (APIVersions at /api, APIGroupList at /apis, APIGroup at
// /apis/<group>, APIResourceList at /api/v1 and /apis/<group>/v1) and /version, generated from the kind list
// (each kind's group, names, scope and subresources) and the review table (lib/request/review-resources.ts).
// The aggregated form is built from these (aggregated-discovery.ts), so the two cannot disagree.
import { createHash } from "node:crypto";
import { kinds, kindsServedBy, onKindsChanged, servedGroups, servedVersions, versionOf } from "../../kinds";
import { kubeVersionOrder } from "../../kinds/version-order";
import { ACTION_SUBRESOURCES } from "../../kinds/reviews";
import type { AnyKind } from "../../kinds/types";
import { reviewResources } from "../../request/review-resources";


const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/** kube's StorageVersionHash: the first 8 bytes of sha256("<group>/<storage version>/<kind>"), base64. */
const storageVersionHash = (group: string, version: string, kind: string) =>
  createHash("sha256").update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString("base64");


/**
 * kube-apiserver's order of the built-in groups in /apis (its group priorities); groups not in this list follow
 * in name order.
 */
const GROUP_ORDER = [
  "apiregistration.k8s.io", "apps", "authentication.k8s.io", "authorization.k8s.io", "autoscaling", "batch",
  "certificates.k8s.io", "networking.k8s.io", "policy", "rbac.authorization.k8s.io", "storage.k8s.io",
];

export function apiVersions(serverAddress: string) {
  return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] };
}

function groupNames(): string[] {
  const names = new Set<string>([...servedGroups(), ...reviewResources.map((r) => r.group)]);
  names.delete("");
  const rank = (g: string) => {
    const i = GROUP_ORDER.indexOf(g);
    return i < 0 ? GROUP_ORDER.length : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A group's versions, preferred first (v1 for declared groups and the reviews' groups). */
export function groupVersions(name: string): string[] {
  const served = servedVersions(name);
  return (served.length ? served : ["v1"]).sort(kubeVersionOrder);
}

function groupEntry(name: string) {
  const versions = groupVersions(name).map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions, preferredVersion: versions[0] };
}

// Built once and again whenever kinds are added or removed at run time (custom resources).
let groupNamesCache: string[] | undefined;
let groupListCache: { kind: string; apiVersion: string; groups: ReturnType<typeof groupEntry>[] } | undefined;
const resourceLists = new Map<string, unknown>();
const changeListeners = new Set<() => void>();
onKindsChanged(() => {
  groupNamesCache = undefined;
  groupListCache = undefined;
  resourceLists.clear();
  for (const l of changeListeners) l();
});

/** Called whenever the discovery documents change (the aggregated documents drop their cached copies). */
export function onDiscoveryChanged(listener: () => void): void {
  changeListeners.add(listener);
}

/** The groups under /apis, in kube's order. */
export function apiGroupNames(): string[] {
  return (groupNamesCache ??= groupNames());
}

/** `/apis`: every group served besides the core group, each with its versions, preferred first. */
export function apiGroupList() {
  return (groupListCache ??= { kind: "APIGroupList", apiVersion: "v1", groups: apiGroupNames().map(groupEntry) });
}

/** `/apis/<group>`: the APIGroup document, or undefined for a group not served (answer 404). */
export function apiGroup(name: string) {
  return apiGroupNames().includes(name) ? { kind: "APIGroup", apiVersion: "v1", ...groupEntry(name) } : undefined;
}

export type ApiResource = Record<string, unknown>;

/** A kind's entries: the resource, then its subresources in name order (`namespaces/finalize` before `/status`). */
function kindResources(k: AnyKind): ApiResource[] {
  const sub = (name: string, verbs: string[], kind: Record<string, string> = { kind: k.kind }): [string, ApiResource] => [
    name,
    { name: `${k.plural}/${name}`, singularName: "", namespaced: k.namespaced, ...kind, verbs },
  ];
  const subresources: [string, ApiResource][] = [
    ...(k.hasStatus ? [sub("status", ["get", "patch", "update"])] : []),
    ...(k.scale ? [sub("scale", ["get", "patch", "update"], { group: "autoscaling", version: "v1", kind: "Scale" })] : []),
    ...Object.keys(k.updateSubresources ?? {}).map((name) => sub(name, ["update"])),
    ...(k.actionSubresources ?? []).flatMap((name) => {
      const action = ACTION_SUBRESOURCES[name];
      return action ? [sub(name, action.verbs, { group: action.group, version: action.version, kind: action.kind })] : [];
    }),
  ];
  subresources.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    {
      name: k.plural, singularName: k.singular, namespaced: k.namespaced, kind: k.kind,
      verbs: k.verbs ?? (k.deleteCollection === false ? VERBS.filter((v) => v !== "deletecollection") : VERBS),
      ...(k.shortNames.length ? { shortNames: k.shortNames } : {}),
      ...(k.categories.length ? { categories: k.categories } : {}),
      storageVersionHash: storageVersionHash(k.group ?? "", versionOf(k.servedFrom ?? k), k.kind),
    },
    ...subresources.map(([, r]) => r),
  ];
}

function buildResourceList(groupVersion: string): unknown {
  if (groupVersion === "v1") {
    // The core list keeps the kinds' declaration order (a stable order kubectl does not depend on).
    return { kind: "APIResourceList", groupVersion, resources: kinds.filter((k) => !k.group).flatMap(kindResources) };
  }
  const slash = groupVersion.lastIndexOf("/");
  const group = slash > 0 ? groupVersion.slice(0, slash) : undefined;
  const version = groupVersion.slice(slash + 1);
  if (!group || !apiGroupNames().includes(group) || !groupVersions(group).includes(version)) return undefined;
  const stored = kindsServedBy(group, version).map((k) => kindResources(k));
  const reviews = reviewResources
    .filter((r) => r.group === group && version === "v1")
    .map((r) => [{ name: r.plural, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: ["create"] }]);
  // kube-apiserver installs a group version's paths sorted, so its resources come in name order.
  const resources = [...stored, ...reviews].sort((a, b) => (a[0].name as string).localeCompare(b[0].name as string)).flat();
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}

/** `/api/v1` (groupVersion "v1") or `/apis/<group>/<version>`; undefined for a group version not served (answer 404). */
export function apiResourceList(groupVersion = "v1"): unknown {
  if (!resourceLists.has(groupVersion)) {
    const list = buildResourceList(groupVersion);
    if (list === undefined) return undefined;
    resourceLists.set(groupVersion, list);
  }
  return resourceLists.get(groupVersion);
}

export const versionInfo = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-cluster-core",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-11-22T00:00:00Z",
  goVersion: "go1.23.3",
  compiler: "gc",
  platform: "linux/amd64",
};

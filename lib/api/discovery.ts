// Discovery documents (/api, /apis, /api/v1) and /version, generated from the kind list.
import { createHash } from "node:crypto";
import { kinds } from "../kinds";

const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

const storageVersionHash = (kind: string) => createHash("sha256").update(`/v1/${kind}`).digest().subarray(0, 8).toString("base64");

export function apiVersions(serverAddress: string) {
  return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] };
}

export const apiGroupList = { kind: "APIGroupList", apiVersion: "v1", groups: [] as unknown[] };

let resourceList: unknown;
export function apiResourceList() {
  resourceList ??= {
    kind: "APIResourceList",
    groupVersion: "v1",
    resources: [
      { name: "namespaces", singularName: "namespace", namespaced: false, kind: "Namespace", verbs: ["get", "list"], shortNames: ["ns"], storageVersionHash: storageVersionHash("Namespace") },
      ...kinds.flatMap((k) => [
      {
        name: k.plural, singularName: k.singular, namespaced: k.namespaced, kind: k.kind, verbs: VERBS,
        ...(k.shortNames.length ? { shortNames: k.shortNames } : {}),
        ...(k.categories.length ? { categories: k.categories } : {}),
        storageVersionHash: storageVersionHash(k.kind),
      },
      ...(k.hasStatus ? [{ name: `${k.plural}/status`, singularName: "", namespaced: k.namespaced, kind: k.kind, verbs: ["get", "patch", "update"] }] : []),
      ]),
    ],
  };
  return resourceList;
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

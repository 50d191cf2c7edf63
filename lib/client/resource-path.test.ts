import { describe, expect, it } from "vitest";
import { kindByPlural, type AnyKind } from "../kinds";
import { collectionPath, listUrl, objectPath, watchUrl } from "./resource-path";

const configMaps = kindByPlural("configmaps")!;
const roles: AnyKind = { ...configMaps, kind: "Role", plural: "roles", group: "rbac.authorization.k8s.io" };
const clusterRoles: AnyKind = { ...roles, kind: "ClusterRole", plural: "clusterroles", namespaced: false };

describe("resource paths", () => {
  it("serve core kinds under /api/v1 and other groups under /apis/<group>/v1", () => {
    expect(collectionPath(configMaps, "dev")).toBe("/api/v1/namespaces/dev/configmaps");
    expect(collectionPath(roles, "dev")).toBe("/apis/rbac.authorization.k8s.io/v1/namespaces/dev/roles");
    expect(objectPath(clusterRoles, "dev", "edit")).toBe("/apis/rbac.authorization.k8s.io/v1/clusterroles/edit");
    expect(listUrl(roles, {})).toBe("/apis/rbac.authorization.k8s.io/v1/roles");
    expect(watchUrl(roles, { namespace: "dev" }, "12")).toBe("/apis/rbac.authorization.k8s.io/v1/namespaces/dev/roles?watch=true&resourceVersion=12&allowWatchBookmarks=true");
  });
});

import { describe, expect, it } from "vitest";
import { apiGroup, apiGroupList, apiResourceList } from "./discovery";

type Resource = { name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[]; [k: string]: unknown };
const resources = (gv: string) => (apiResourceList(gv) as { resources: Resource[] }).resources;
const byName = (gv: string) => new Map(resources(gv).map((r) => [r.name, r]));
const RBAC = "rbac.authorization.k8s.io";

describe("/apis and /apis/<group>", () => {
  it("lists the served groups in kube's order, each with v1 preferred", () => {
    expect(apiGroupList.kind).toBe("APIGroupList");
    expect(apiGroupList.groups.map((g) => g.name)).toEqual(["authentication.k8s.io", "authorization.k8s.io", RBAC, "coordination.k8s.io", "security.openshift.io"]);
    expect(apiGroupList.groups[2]).toEqual({
      name: RBAC,
      versions: [{ groupVersion: `${RBAC}/v1`, version: "v1" }],
      preferredVersion: { groupVersion: `${RBAC}/v1`, version: "v1" },
    });
  });

  it("answers one APIGroup per served group and nothing for others", () => {
    expect(apiGroup("authorization.k8s.io")).toEqual({
      kind: "APIGroup", apiVersion: "v1", name: "authorization.k8s.io",
      versions: [{ groupVersion: "authorization.k8s.io/v1", version: "v1" }],
      preferredVersion: { groupVersion: "authorization.k8s.io/v1", version: "v1" },
    });
    expect(apiGroup("apps")).toBeUndefined();
  });
});

describe("APIResourceList", () => {
  it("lists the RBAC kinds in name order with every verb and kube's storage version hash", () => {
    const list = apiResourceList(`${RBAC}/v1`) as { kind: string; apiVersion: string; groupVersion: string };
    expect(list).toMatchObject({ kind: "APIResourceList", apiVersion: "v1", groupVersion: `${RBAC}/v1` });
    expect(resources(`${RBAC}/v1`).map((r) => `${r.name}:${r.namespaced}:${r.kind}`)).toEqual([
      "clusterrolebindings:false:ClusterRoleBinding", "clusterroles:false:ClusterRole", "rolebindings:true:RoleBinding", "roles:true:Role",
    ]);
    // sha256("rbac.authorization.k8s.io/v1/Role")[:8], as a 1.32 cluster publishes it.
    expect(byName(`${RBAC}/v1`).get("roles")).toEqual({
      name: "roles", singularName: "role", namespaced: true, kind: "Role",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"], storageVersionHash: "7FuwZcIIItM=",
    });
  });

  it("lists the review resources as create-only, without a storage hash", () => {
    expect(resources("authentication.k8s.io/v1")).toEqual([
      { name: "selfsubjectreviews", singularName: "selfsubjectreview", namespaced: false, kind: "SelfSubjectReview", verbs: ["create"] },
      { name: "tokenreviews", singularName: "tokenreview", namespaced: false, kind: "TokenReview", verbs: ["create"] },
    ]);
    expect(resources("authorization.k8s.io/v1").map((r) => `${r.name}:${r.namespaced}`)).toEqual([
      "localsubjectaccessreviews:true", "selfsubjectaccessreviews:false", "selfsubjectrulesreviews:false", "subjectaccessreviews:false",
    ]);
  });

  it("keeps /api/v1's core kinds with their status, update and action subresources", () => {
    const core = apiResourceList("v1") as { kind: string; groupVersion: string; apiVersion?: string };
    expect(core.groupVersion).toBe("v1");
    expect(core.apiVersion).toBeUndefined();
    const r = byName("v1");
    expect(r.get("pods")).toMatchObject({ shortNames: ["po"], categories: ["all"], storageVersionHash: "xPOwRZ+Yhw8=" });
    expect(r.get("pods/status")).toEqual({ name: "pods/status", singularName: "", namespaced: true, kind: "Pod", verbs: ["get", "patch", "update"] });
    expect(r.get("serviceaccounts/token")).toEqual({
      name: "serviceaccounts/token", singularName: "", namespaced: true, group: "authentication.k8s.io", version: "v1", kind: "TokenRequest", verbs: ["create"],
    });
    expect(r.get("namespaces/finalize")).toMatchObject({ namespaced: false, kind: "Namespace", verbs: ["update"] });
    const names = resources("v1").map((x) => x.name);
    expect(names.indexOf("namespaces/finalize")).toBe(names.indexOf("namespaces/status") - 1);
    expect(names.some((n) => n.startsWith("role"))).toBe(false);
  });

  it("answers nothing for a group version not served", () => {
    expect(apiResourceList("apps/v1")).toBeUndefined();
    expect(apiResourceList(`${RBAC}/v1beta1`)).toBeUndefined();
  });
});

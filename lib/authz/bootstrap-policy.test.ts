import { describe, expect, it } from "vitest";
import type { UserInfo } from "../auth/user-info";
import type { Attributes } from "./attributes";
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from "./bootstrap-policy";
import { RbacAuthorizer } from "./rbac-authorizer";

function loaded() {
  const a = new RbacAuthorizer();
  a.load([
    ...bootstrapClusterRoles().map((o) => ({ key: { resource: "clusterroles", namespace: "", name: o.metadata.name }, object: o })),
    ...bootstrapClusterRoleBindings().map((o) => ({ key: { resource: "clusterrolebindings", namespace: "", name: o.metadata.name }, object: o })),
  ]);
  return a;
}
const jane: UserInfo = { username: "jane", groups: ["system:authenticated"] };
function res(user: UserInfo, verb: string, resource: string, ns: string, o: Partial<{ group: string; sub: string; name: string }> = {}): Attributes {
  return { type: "resource", user, verb, apiGroup: o.group ?? "", resource, subresource: o.sub ?? "", namespace: ns, name: o.name ?? "" };
}

describe("bootstrap policy", () => {
  it("marks every object as an auto-updated RBAC default", () => {
    for (const o of [...bootstrapClusterRoles(), ...bootstrapClusterRoleBindings()]) {
      expect(o.metadata.labels?.["kubernetes.io/bootstrapping"]).toBe("rbac-defaults");
      expect(o.metadata.annotations?.["rbac.authorization.kubernetes.io/autoupdate"]).toBe("true");
      expect(o.apiVersion).toBe("rbac.authorization.k8s.io/v1");
    }
    const names = bootstrapClusterRoles().map((r) => r.metadata.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user", "system:public-info-viewer", "system:service-account-issuer-discovery"]));
  });

  it("ships admin/edit/view with kube's aggregation labels and rules filled in", () => {
    const roles = new Map(bootstrapClusterRoles().map((r) => [r.metadata.name, r]));
    expect(roles.get("edit")?.metadata.labels?.["rbac.authorization.k8s.io/aggregate-to-admin"]).toBe("true");
    expect(roles.get("view")?.metadata.labels?.["rbac.authorization.k8s.io/aggregate-to-edit"]).toBe("true");
    expect(roles.get("admin")?.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { "rbac.authorization.k8s.io/aggregate-to-admin": "true" } }],
    });
    expect(roles.get("view")?.rules?.length).toBeGreaterThan(5);
    expect(bootstrapClusterRoles({ aggregated: false }).find((r) => r.metadata.name === "admin")?.rules).toBeNull();
  });

  it("gives view, edit and admin their kube powers over our resources", () => {
    const a = new RbacAuthorizer();
    a.load(bootstrapClusterRoles().map((o) => ({ key: { resource: "clusterroles", namespace: "", name: o.metadata.name }, object: o })));
    const bind = (user: string, role: string) =>
      a.apply({
        type: "ADDED",
        key: { resource: "rolebindings", namespace: "t", name: user },
        object: { metadata: { name: user, namespace: "t" }, subjects: [{ kind: "User", name: user }], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role } },
      });
    bind("v", "view");
    bind("e", "edit");
    bind("ad", "admin");
    const v = { username: "v", groups: [] };
    const e = { username: "e", groups: [] };
    const ad = { username: "ad", groups: [] };
    const can = (u: UserInfo, verb: string, resource: string, o = {}) => a.authorize(res(u, verb, resource, "t", o)).allowed;

    for (const r of ["pods", "configmaps", "services", "endpoints", "persistentvolumeclaims", "serviceaccounts", "events", "limitranges", "resourcequotas", "namespaces"]) {
      expect(can(v, "list", r), `view list ${r}`).toBe(true);
    }
    expect(can(v, "get", "secrets", { name: "s" })).toBe(false);
    expect(can(v, "get", "pods", { sub: "status", name: "p" })).toBe(true);
    expect(can(v, "create", "configmaps")).toBe(false);

    expect(can(e, "get", "secrets", { name: "s" })).toBe(true);
    expect(can(e, "create", "serviceaccounts", { sub: "token", name: "default" })).toBe(true);
    expect(can(e, "delete", "pods", { name: "p" })).toBe(true);
    expect(can(e, "update", "resourcequotas", { name: "q" })).toBe(false);
    expect(can(e, "create", "roles", { group: "rbac.authorization.k8s.io" })).toBe(false);

    expect(can(ad, "create", "rolebindings", { group: "rbac.authorization.k8s.io" })).toBe(true);
    expect(can(ad, "create", "localsubjectaccessreviews", { group: "authorization.k8s.io" })).toBe(true);
    expect(can(ad, "create", "deployments", { group: "apps" })).toBe(true);
  });

  it("lets every authenticated user discover and review itself", () => {
    const a = loaded();
    expect(a.authorize(res(jane, "create", "selfsubjectaccessreviews", "", { group: "authorization.k8s.io" })).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    );
    expect(a.authorize(res(jane, "create", "selfsubjectreviews", "", { group: "authentication.k8s.io" })).allowed).toBe(true);
    for (const p of ["/api", "/apis/apps/v1", "/version", "/openapi/v3", "/healthz"]) {
      expect(a.authorize({ type: "nonResource", user: jane, verb: "get", path: p }).allowed, p).toBe(true);
    }
    expect(a.authorize({ type: "nonResource", user: jane, verb: "get", path: "/metrics" }).allowed).toBe(false);
    expect(a.authorize(res(jane, "list", "pods", "default")).allowed).toBe(false);
  });

  it("lets service accounts read the issuer discovery documents", () => {
    const a = loaded();
    const sa = { username: "system:serviceaccount:t:default", groups: ["system:serviceaccounts", "system:serviceaccounts:t", "system:authenticated"] };
    expect(a.authorize({ type: "nonResource", user: sa, verb: "get", path: "/openid/v1/jwks" }).allowed).toBe(true);
    expect(a.authorize({ type: "nonResource", user: jane, verb: "get", path: "/openid/v1/jwks" }).allowed).toBe(false);
  });

  it("binds cluster-admin to system:masters", () => {
    const a = loaded();
    const binding = bootstrapClusterRoleBindings().find((b) => b.metadata.name === "cluster-admin");
    expect(binding?.subjects).toEqual([{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:masters" }]);
    const admin = { username: "admin", groups: ["system:masters"] };
    expect(a.rulesFor(admin, "").resourceRules).toContainEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
  });
});

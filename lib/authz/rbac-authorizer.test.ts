import { describe, expect, it } from "vitest";
import type { UserInfo } from "../auth/user-info";
import type { Attributes } from "./attributes";
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from "./bootstrap-policy";
import { RbacAuthorizer, type RbacEvent } from "./rbac-authorizer";
import type { PolicyRule } from "./rule-matching";

const RBAC = "rbac.authorization.k8s.io";
const alice: UserInfo = { username: "alice", groups: ["devs", "system:authenticated"] };

function role(ns: string, name: string, rules: PolicyRule[]) {
  return { apiVersion: `${RBAC}/v1`, kind: "Role", metadata: { name, namespace: ns }, rules };
}
function clusterRole(name: string, rules: PolicyRule[] | null, extra: Record<string, unknown> = {}) {
  return { apiVersion: `${RBAC}/v1`, kind: "ClusterRole", metadata: { name, ...(extra.metadata as object) }, rules, ...extra };
}
function binding(kind: "RoleBinding" | "ClusterRoleBinding", ns: string, name: string, roleKind: string, roleName: string, subjects: object[]) {
  return {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: ns ? { name, namespace: ns } : { name },
    subjects,
    roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName },
  };
}
function ev(type: RbacEvent["type"], resource: string, ns: string, name: string, object: unknown = null): RbacEvent {
  return { type, key: { resource, namespace: ns, name }, object };
}
function add(a: RbacAuthorizer, resource: string, obj: { metadata: { name: string; namespace?: string } }) {
  a.apply(ev("ADDED", resource, obj.metadata.namespace ?? "", obj.metadata.name, obj));
}
function req(user: UserInfo, verb: string, resource: string, ns: string, o: Partial<{ group: string; sub: string; name: string }> = {}): Attributes {
  return { type: "resource", user, verb, apiGroup: o.group ?? "", resource, subresource: o.sub ?? "", namespace: ns, name: o.name ?? "" };
}

const readPods: PolicyRule[] = [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] }];

describe("RbacAuthorizer: bindings", () => {
  it("allows through a RoleBinding in its namespace only, with kube's reason", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "pod-reader", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "pod-reader", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    expect(a.authorize(req(alice, "list", "pods", "ns1"))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "rb/ns1" of Role "pod-reader" to User "alice"',
    });
    expect(a.authorize(req(alice, "list", "pods", "ns2"))).toEqual({ allowed: false, reason: "" });
    expect(a.authorize(req(alice, "list", "pods", ""))).toEqual({ allowed: false, reason: "" });
    expect(a.authorize(req(alice, "delete", "pods", "ns1")).allowed).toBe(false);
  });

  it("applies a ClusterRoleBinding everywhere and names the matching group", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("pod-reader", readPods));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "devs-read", "ClusterRole", "pod-reader", [
      { kind: "User", name: "bob" },
      { kind: "Group", name: "devs" },
    ]));
    const d = a.authorize(req(alice, "list", "pods", ""));
    expect(d).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "devs-read" of ClusterRole "pod-reader" to Group "devs"' });
    expect(a.authorize(req(alice, "get", "pods", "any", { name: "p" })).allowed).toBe(true);
    expect(a.authorize(req({ username: "carol", groups: ["system:authenticated"] }, "list", "pods", "")).allowed).toBe(false);
  });

  it("scopes a ClusterRole bound by a RoleBinding to the binding's namespace", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("pod-reader", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "ClusterRole", "pod-reader", [{ kind: "User", name: "alice" }]));
    expect(a.authorize(req(alice, "list", "pods", "ns1"))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "rb/ns1" of ClusterRole "pod-reader" to User "alice"',
    });
    expect(a.authorize(req(alice, "list", "pods", "ns2")).allowed).toBe(false);
    expect(a.authorize(req(alice, "list", "pods", "")).allowed).toBe(false);
  });

  it("matches ServiceAccount subjects by user name, defaulting the namespace to the binding's", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("pod-reader", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "local", "ClusterRole", "pod-reader", [{ kind: "ServiceAccount", name: "builder" }]));
    add(a, "rolebindings", binding("RoleBinding", "ns2", "remote", "ClusterRole", "pod-reader", [{ kind: "ServiceAccount", name: "builder", namespace: "ns1" }]));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "no-ns", "ClusterRole", "pod-reader", [{ kind: "ServiceAccount", name: "other" }]));
    const sa: UserInfo = { username: "system:serviceaccount:ns1:builder", groups: ["system:serviceaccounts", "system:serviceaccounts:ns1", "system:authenticated"] };
    expect(a.authorize(req(sa, "get", "pods", "ns1", { name: "x" }))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "local/ns1" of ClusterRole "pod-reader" to ServiceAccount "builder/ns1"',
    });
    expect(a.authorize(req(sa, "get", "pods", "ns2", { name: "x" })).reason).toBe(
      'RBAC: allowed by RoleBinding "remote/ns2" of ClusterRole "pod-reader" to ServiceAccount "builder/ns1"',
    );
    expect(a.authorize(req(sa, "get", "pods", "ns3", { name: "x" })).allowed).toBe(false);
    const other: UserInfo = { username: "system:serviceaccount:ns3:other", groups: [] };
    expect(a.authorize(req(other, "get", "pods", "ns3", { name: "x" })).allowed).toBe(false);
  });

  it("treats the service-account groups as ordinary groups", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "r", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "all-sa", "Role", "r", [{ kind: "Group", name: "system:serviceaccounts:ns1" }]));
    const sa: UserInfo = { username: "system:serviceaccount:ns1:default", groups: ["system:serviceaccounts", "system:serviceaccounts:ns1"] };
    const foreign: UserInfo = { username: "system:serviceaccount:ns2:default", groups: ["system:serviceaccounts", "system:serviceaccounts:ns2"] };
    expect(a.authorize(req(sa, "list", "pods", "ns1")).reason).toBe(
      'RBAC: allowed by RoleBinding "all-sa/ns1" of Role "r" to Group "system:serviceaccounts:ns1"',
    );
    expect(a.authorize(req(foreign, "list", "pods", "ns1")).allowed).toBe(false);
  });

  it("always allows system:masters, with the privileged authorizer's empty reason", () => {
    const a = new RbacAuthorizer();
    const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };
    expect(a.authorize(req(admin, "delete", "namespaces", "", { name: "x" }))).toEqual({ allowed: true, reason: "" });
    expect(a.authorize({ type: "nonResource", user: admin, verb: "get", path: "/metrics" }).allowed).toBe(true);
  });

  it("answers non-resource requests from ClusterRoleBindings only", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("health", [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/healthz/*"] }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "ClusterRole", "health", [{ kind: "User", name: "bob" }]));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "crb", "ClusterRole", "health", [{ kind: "User", name: "alice" }]));
    expect(a.authorize({ type: "nonResource", user: alice, verb: "get", path: "/healthz/etcd" }).allowed).toBe(true);
    expect(a.authorize({ type: "nonResource", user: { username: "bob", groups: [] }, verb: "get", path: "/healthz" }).allowed).toBe(false);
  });
});

describe("RbacAuthorizer: index updates", () => {
  function setup() {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "r", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "User", name: "alice" }]));
    return a;
  }

  it("revokes at once when the binding is deleted, even after a cached allow", () => {
    const a = setup();
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(true);
    a.apply(ev("DELETED", "rolebindings", "ns1", "rb", null));
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(false);
  });

  it("revokes at once for a frozen user object too (the token cache's, whose decisions are kept by identity)", () => {
    const a = setup();
    const sa = Object.freeze({ username: "alice", groups: Object.freeze(["system:authenticated"]) as string[] });
    expect(a.authorize(req(sa, "list", "pods", "ns1")).allowed).toBe(true);
    a.apply(ev("DELETED", "rolebindings", "ns1", "rb", null));
    expect(a.authorize(req(sa, "list", "pods", "ns1")).allowed).toBe(false);
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "Group", name: "system:authenticated" }]));
    expect(a.authorize(req(sa, "list", "pods", "ns1"))).toEqual({
      allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/ns1" of Role "r" to Group "system:authenticated"',
    });
  });

  it("decides anew for a user object whose groups changed since its last request, and per frozen object", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "r", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "Group", name: "devs" }]));
    const carol: UserInfo = { username: "carol", groups: ["devs"] };
    expect(a.authorize(req(carol, "list", "pods", "ns1")).allowed).toBe(true);
    carol.groups.pop();
    expect(a.authorize(req(carol, "list", "pods", "ns1")).allowed).toBe(false);
    // Two frozen users of one name: each answers for its own groups.
    const inDevs = Object.freeze({ username: "dave", groups: Object.freeze(["devs"]) as string[] });
    const notInDevs = Object.freeze({ username: "dave", groups: Object.freeze(["ops"]) as string[] });
    expect(a.authorize(req(inDevs, "list", "pods", "ns1")).allowed).toBe(true);
    expect(a.authorize(req(notInDevs, "list", "pods", "ns1")).allowed).toBe(false);
    expect(a.authorize(req(inDevs, "list", "pods", "ns1", { name: "p" })).allowed).toBe(true);
  });

  it("keeps each request's own decision apart: namespace, name, verb, group, subresource, non-resource path and verb", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("scale-and-health", [
      { verbs: ["get"], apiGroups: ["apps"], resources: ["deployments/scale"] },
      { verbs: ["get"], nonResourceURLs: ["/healthz"] },
    ]));
    add(a, "clusterroles", clusterRole("pod-p1", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["p1"] }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "ClusterRole", "pod-p1", [{ kind: "User", name: "erin" }]));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "crb", "ClusterRole", "scale-and-health", [{ kind: "User", name: "erin" }]));
    const erin = Object.freeze({ username: "erin", groups: Object.freeze([] as string[]) as string[] });
    const urlReq = (verb: string, path: string): Attributes => ({ type: "nonResource", user: erin, verb, path });
    for (let pass = 0; pass < 2; pass++) {
      expect(a.authorize(req(erin, "get", "pods", "ns1", { name: "p1" })).reason).toContain('RoleBinding "rb/ns1"');
      expect(a.authorize(req(erin, "get", "pods", "ns2", { name: "p1" })).allowed).toBe(false);
      expect(a.authorize(req(erin, "get", "pods", "ns1", { name: "p2" })).allowed).toBe(false);
      expect(a.authorize(req(erin, "list", "pods", "ns1", { name: "p1" })).allowed).toBe(false);
      expect(a.authorize(req(erin, "get", "deployments", "ns1", { group: "apps", sub: "scale" })).reason).toContain('ClusterRoleBinding "crb"');
      expect(a.authorize(req(erin, "get", "deployments", "ns1", { group: "apps" })).allowed).toBe(false);
      expect(a.authorize(req(erin, "get", "deployments", "ns1", { group: "", sub: "scale" })).allowed).toBe(false);
      expect(a.authorize(urlReq("get", "/healthz")).allowed).toBe(true);
      expect(a.authorize(urlReq("post", "/healthz")).allowed).toBe(false);
      expect(a.authorize(urlReq("get", "/metrics")).allowed).toBe(false);
    }
  });

  it("never answers one user with another's rules when a name or group holds what used to be the key's separator", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("n", "r", readPods));
    add(a, "rolebindings", binding("RoleBinding", "n", "admins", "Role", "r", [{ kind: "Group", name: "admins" }]));
    // A SubjectAccessReview (or a token file, or an OIDC claim) may carry any name and groups.
    expect(a.authorize(req({ username: "x", groups: ["admins"] }, "list", "pods", "n")).allowed).toBe(true);
    expect(a.authorize(req({ username: "x\u0001admins", groups: [] }, "list", "pods", "n")).allowed).toBe(false);
    expect(a.authorize(req({ username: "y", groups: ["b\u0001admins"] }, "list", "pods", "n")).allowed).toBe(false);
    expect(a.authorize(req({ username: "y", groups: ["b", "admins"] }, "list", "pods", "n")).allowed).toBe(true);
    expect(a.authorize(req({ username: "z", groups: [] }, "list", "pods", "n\u0001z")).allowed).toBe(false);
    expect(a.authorize(req({ username: "", groups: ["admins"] }, "list", "pods", "n")).allowed).toBe(true);
    expect(a.authorize(req({ username: "z\u0001", groups: ["admins"] }, "list", "pods", "n")).allowed).toBe(true);
  });

  it("keeps a non-resource decision to its own verb and path, whatever characters they hold", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("any-verb-on-b", [{ verbs: ["*"], nonResourceURLs: ["b"] }]));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "crb", "ClusterRole", "any-verb-on-b", [{ kind: "User", name: "fay" }]));
    const fay = Object.freeze({ username: "fay", groups: Object.freeze([] as string[]) as string[] });
    expect(a.authorize({ type: "nonResource", user: fay, verb: "get /a", path: "b" }).allowed).toBe(true);
    expect(a.authorize({ type: "nonResource", user: fay, verb: "get", path: "/a b" }).allowed).toBe(false);
  });

  it("answers every name alike only when no rule naming objects was read: a resourceNames rule ahead keeps each name's own answer and reason", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "just-p1", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["p1"] }]));
    add(a, "roles", role("ns1", "all-pods", readPods));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "a-named", "Role", "just-p1", [{ kind: "User", name: "gus" }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "b-all", "Role", "all-pods", [{ kind: "Group", name: "readers" }]));
    const gus = Object.freeze({ username: "gus", groups: Object.freeze([] as string[]) as string[] });
    const gusReader = Object.freeze({ username: "gus", groups: Object.freeze(["readers"]) as string[] });
    const ivy = Object.freeze({ username: "ivy", groups: Object.freeze(["readers"]) as string[] });
    for (let pass = 0; pass < 2; pass++) {
      // gus alone: only p1, whichever name was asked first.
      expect(a.authorize(req(gus, "get", "pods", "ns1", { name: "p2" })).allowed).toBe(false);
      expect(a.authorize(req(gus, "get", "pods", "ns1", { name: "p1" })).allowed).toBe(true);
      expect(a.authorize(req(gus, "get", "pods", "ns1", { name: "p3" })).allowed).toBe(false);
      // ivy reads no rule naming objects: one answer for every name.
      for (const name of ["p1", "p2", "p3"]) expect(a.authorize(req(ivy, "get", "pods", "ns1", { name })).reason).toContain('RoleBinding "b-all/ns1"');
    }
    // gus among the readers: every pod, p1 by the named rule that comes first, the others by the group's.
    for (const name of ["p2", "p1", "p3", "p1"]) {
      const d = a.authorize(req(gusReader, "get", "pods", "ns1", { name }));
      expect(d.allowed).toBe(true);
      expect(d.reason).toContain(name === "p1" ? 'RoleBinding "a-named/ns1"' : 'RoleBinding "b-all/ns1"');
    }
    // A change of RBAC drops the answers kept for every name.
    a.apply(ev("DELETED", "rolebindings", "ns1", "b-all"));
    expect(a.authorize(req(ivy, "get", "pods", "ns1", { name: "p2" })).allowed).toBe(false);
  });

  it("keeps deciding right past the decision cache's size (it starts over when full)", () => {
    const a = new RbacAuthorizer();
    add(a, "roles", role("ns1", "r", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["p-7"] }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "User", name: "alice" }]));
    const frozen = Object.freeze({ username: "alice", groups: Object.freeze([] as string[]) as string[] });
    for (let i = 0; i < 60_000; i++) {
      const user = i % 2 ? alice : frozen;
      expect(a.authorize(req(user, "get", "pods", "ns1", { name: `p-${i % 30_000}` })).allowed).toBe(i % 30_000 === 7);
    }
  });

  it("follows a binding whose subjects change", () => {
    const a = setup();
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(true);
    a.apply(ev("MODIFIED", "rolebindings", "ns1", "rb", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "User", name: "bob" }])));
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(false);
    expect(a.authorize(req({ username: "bob", groups: [] }, "list", "pods", "ns1")).allowed).toBe(true);
  });

  it("follows role rule changes", () => {
    const a = setup();
    expect(a.authorize(req(alice, "delete", "pods", "ns1", { name: "p" })).allowed).toBe(false);
    a.apply(ev("MODIFIED", "roles", "ns1", "r", role("ns1", "r", [{ verbs: ["*"], apiGroups: [""], resources: ["pods"] }])));
    expect(a.authorize(req(alice, "delete", "pods", "ns1", { name: "p" })).allowed).toBe(true);
  });

  it("reports a binding whose role is missing in the deny reason", () => {
    const a = setup();
    a.apply(ev("DELETED", "roles", "ns1", "r", null));
    expect(a.authorize(req(alice, "list", "pods", "ns1"))).toEqual({
      allowed: false,
      reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found',
    });
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "gone", "ClusterRole", "gone", [{ kind: "Group", name: "devs" }]));
    expect(a.authorize(req(alice, "list", "pods", "ns1")).reason).toBe(
      'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "r" not found]',
    );
  });

  it("ignores events for other resources and unknown event types", () => {
    const a = new RbacAuthorizer();
    a.apply(ev("ADDED", "configmaps", "ns1", "rb", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "User", name: "alice" }])));
    a.apply(ev("BOOKMARK", "rolebindings", "ns1", "rb", binding("RoleBinding", "ns1", "rb", "Role", "r", [{ kind: "User", name: "alice" }])));
    add(a, "roles", role("ns1", "r", readPods));
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(false);
  });

  it("load replaces what was there", () => {
    const a = setup();
    a.load([
      { key: { resource: "clusterroles", namespace: "", name: "cr" }, object: clusterRole("cr", readPods) },
      { key: { resource: "clusterrolebindings", namespace: "", name: "b" }, object: binding("ClusterRoleBinding", "", "b", "ClusterRole", "cr", [{ kind: "User", name: "bob" }]) },
    ]);
    expect(a.authorize(req(alice, "list", "pods", "ns1")).allowed).toBe(false);
    expect(a.authorize(req({ username: "bob", groups: [] }, "list", "pods", "ns1")).allowed).toBe(true);
  });
});

describe("RbacAuthorizer: aggregation", () => {
  it("gives aggregated ClusterRoles the rules of matching roles and follows their changes", () => {
    const a = new RbacAuthorizer();
    a.load([
      ...bootstrapClusterRoles({ aggregated: false }).map((o) => ({ key: { resource: "clusterroles", namespace: "", name: o.metadata.name }, object: o })),
    ]);
    add(a, "rolebindings", binding("RoleBinding", "team", "viewers", "ClusterRole", "view", [{ kind: "User", name: "alice" }]));
    add(a, "rolebindings", binding("RoleBinding", "team", "admins", "ClusterRole", "admin", [{ kind: "User", name: "root" }]));
    const root: UserInfo = { username: "root", groups: [] };
    expect(a.authorize(req(alice, "list", "configmaps", "team")).allowed).toBe(true);
    expect(a.authorize(req(alice, "get", "secrets", "team", { name: "s" })).allowed).toBe(false);
    expect(a.authorize(req(root, "create", "roles", "team", { group: RBAC })).allowed).toBe(true);
    expect(a.authorize(req(root, "list", "configmaps", "team")).allowed).toBe(true);

    const widgets = clusterRole("widget-viewer", [{ verbs: ["get"], apiGroups: ["example.com"], resources: ["widgets"] }], {
      metadata: { name: "widget-viewer", labels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } },
    });
    add(a, "clusterroles", widgets);
    expect(a.authorize(req(alice, "get", "widgets", "team", { group: "example.com", name: "w" })).allowed).toBe(true);
    // view feeds edit, which feeds admin.
    expect(a.authorize(req(root, "get", "widgets", "team", { group: "example.com", name: "w" })).allowed).toBe(true);
    expect(a.clusterRoleRulesOf("edit")?.some((r) => r.apiGroups?.includes("example.com"))).toBe(true);

    a.apply(ev("DELETED", "clusterroles", "", "widget-viewer", null));
    expect(a.authorize(req(alice, "get", "widgets", "team", { group: "example.com", name: "w" })).allowed).toBe(false);
    expect(a.authorize(req(root, "get", "widgets", "team", { group: "example.com", name: "w" })).allowed).toBe(false);
  });

  it("lists aggregated roles whose stored rules are stale", () => {
    const a = new RbacAuthorizer();
    for (const cr of bootstrapClusterRoles({ aggregated: false })) add(a, "clusterroles", cr);
    expect(a.staleAggregatedClusterRoles().map((s) => s.name).sort()).toEqual(["admin", "edit", "view"]);
    const b = new RbacAuthorizer();
    for (const cr of bootstrapClusterRoles()) add(b, "clusterroles", cr);
    expect(b.staleAggregatedClusterRoles()).toEqual([]);
  });
});

describe("RbacAuthorizer: rulesFor", () => {
  function bootstrapped() {
    const a = new RbacAuthorizer();
    a.load([
      ...bootstrapClusterRoles().map((o) => ({ key: { resource: "clusterroles", namespace: "", name: o.metadata.name }, object: o })),
      ...bootstrapClusterRoleBindings().map((o) => ({ key: { resource: "clusterrolebindings", namespace: "", name: o.metadata.name }, object: o })),
    ]);
    return a;
  }

  it("answers a plain user's self-review rules and discovery URLs", () => {
    const a = bootstrapped();
    const r = a.rulesFor({ username: "jane", groups: ["system:authenticated"] }, "default");
    expect(r.incomplete).toBe(false);
    expect(r.evaluationError).toBeUndefined();
    expect(r.resourceRules).toEqual([
      { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"] },
      { verbs: ["create"], apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"] },
    ]);
    expect(r.nonResourceRules).toContainEqual({ verbs: ["get"], nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"] });
    expect(r.nonResourceRules.some((n) => n.nonResourceURLs.includes("/apis/*"))).toBe(true);
  });

  it("gives system:masters the * rules through the cluster-admin binding", () => {
    const a = bootstrapped();
    const r = a.rulesFor({ username: "admin", groups: ["system:masters", "system:authenticated"] }, "default");
    expect(r.resourceRules[0]).toEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
    expect(r.nonResourceRules[0]).toEqual({ verbs: ["*"], nonResourceURLs: ["*"] });
  });

  it("includes namespace bindings, resource names, and the evaluation error of a missing role", () => {
    const a = bootstrapped();
    add(a, "roles", role("ns1", "one-cm", [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["cfg"] }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "rb", "Role", "one-cm", [{ kind: "User", name: "jane" }]));
    add(a, "rolebindings", binding("RoleBinding", "ns1", "broken", "Role", "nope", [{ kind: "User", name: "jane" }]));
    const jane = { username: "jane", groups: ["system:authenticated"] };
    const r = a.rulesFor(jane, "ns1");
    expect(r.resourceRules).toContainEqual({ verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["cfg"] });
    expect(r.evaluationError).toBe('role.rbac.authorization.k8s.io "nope" not found');
    expect(a.rulesFor(jane, "ns2").resourceRules).toHaveLength(2);
  });
});

describe("RbacAuthorizer: scale", () => {
  it("decides correctly with 1,000 Roles and 1,000 RoleBindings loaded", () => {
    const a = new RbacAuthorizer();
    const objects: { key: { resource: string; namespace: string; name: string }; object: unknown }[] = [];
    for (let i = 0; i < 1000; i++) {
      const ns = `ns${i % 100}`;
      objects.push({ key: { resource: "roles", namespace: ns, name: `r${i}` }, object: role(ns, `r${i}`, [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: [`cm${i}`] }]) });
      objects.push({ key: { resource: "rolebindings", namespace: ns, name: `b${i}` }, object: binding("RoleBinding", ns, `b${i}`, "Role", `r${i}`, [{ kind: "User", name: `user${i}` }]) });
    }
    a.load(objects);
    let allowed = 0;
    let denied = 0;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 1000; i++) {
        const u: UserInfo = { username: `user${i}`, groups: ["system:authenticated"] };
        if (a.authorize(req(u, "get", "configmaps", `ns${i % 100}`, { name: `cm${i}` })).allowed) allowed++;
        if (a.authorize(req(u, "get", "configmaps", `ns${(i + 1) % 100}`, { name: `cm${i}` })).allowed) denied++;
        if (a.authorize(req(u, "get", "configmaps", `ns${i % 100}`, { name: `cm${i + 1}` })).allowed) denied++;
      }
    }
    expect(allowed).toBe(10_000);
    expect(denied).toBe(0);
    expect(a.authorize(req({ username: "user7", groups: [] }, "get", "configmaps", "ns7", { name: "cm7" })).reason).toBe(
      'RBAC: allowed by RoleBinding "b7/ns7" of Role "r7" to User "user7"',
    );
  });
});

describe("RbacAuthorizer: namespacesWithRules", () => {
  it("names the namespaces whose RoleBindings give the user (by name, group or ServiceAccount) some resource rule", () => {
    const a = new RbacAuthorizer();
    add(a, "clusterroles", clusterRole("view-pods", readPods));
    add(a, "clusterroles", clusterRole("nothing", []));
    add(a, "clusterroles", clusterRole("urls-only", [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }]));
    add(a, "roles", role("team-b", "pod-reader", readPods));
    add(a, "rolebindings", binding("RoleBinding", "team-a", "by-name", "ClusterRole", "view-pods", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "team-b", "by-group", "Role", "pod-reader", [{ kind: "Group", name: "devs", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "empty", "grants-nothing", "ClusterRole", "nothing", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "urls", "urls-only", "ClusterRole", "urls-only", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "missing", "no-role", "Role", "absent", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "others", "bob", "ClusterRole", "view-pods", [{ kind: "User", name: "bob", apiGroup: RBAC }]));
    add(a, "rolebindings", binding("RoleBinding", "ci", "sa", "ClusterRole", "view-pods", [{ kind: "ServiceAccount", name: "deployer", namespace: "build" }]));
    add(a, "clusterrolebindings", binding("ClusterRoleBinding", "", "everywhere", "ClusterRole", "view-pods", [{ kind: "User", name: "alice", apiGroup: RBAC }]));
    expect(a.namespacesWithRules(alice)).toEqual(["team-a", "team-b"]);
    expect(a.namespacesWithRules({ username: "carol", groups: ["system:authenticated"] })).toEqual([]);
    expect(a.namespacesWithRules({ username: "system:serviceaccount:build:deployer", groups: [] })).toEqual(["ci"]);
    // A binding removed takes its namespace with it.
    a.apply(ev("DELETED", "rolebindings", "team-a", "by-name"));
    expect(a.namespacesWithRules(alice)).toEqual(["team-b"]);
  });
});

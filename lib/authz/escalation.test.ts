import { describe, expect, it } from "vitest";
import type { UserInfo } from "../auth/user-info";
import {
  checkBindingWrite,
  checkRoleWrite,
  compactString,
  confirmNoEscalation,
  escalationMessage,
  onlyGCFieldsChanged,
} from "./escalation";
import { RbacAuthorizer } from "./rbac-authorizer";
import type { PolicyRule } from "./rule-matching";
import type { StatusError } from "../status";

/** A refusal as the Status it becomes: code, reason, message and details. */
const plain = (e: StatusError | undefined) => e && { code: e.code, reason: e.reason, message: e.message, details: e.details };

const RBAC = "rbac.authorization.k8s.io";
const bob: UserInfo = { username: "bob", groups: ["system:authenticated"] };

describe("confirmNoEscalation", () => {
  it("returns nothing when * covers everything", () => {
    const owner: PolicyRule[] = [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }, { verbs: ["*"], nonResourceURLs: ["*"] }];
    const wanted: PolicyRule[] = [
      { verbs: ["get", "delete"], apiGroups: ["", "apps"], resources: ["pods", "deployments/scale"], resourceNames: ["a"] },
      { verbs: ["get"], nonResourceURLs: ["/metrics"] },
    ];
    expect(confirmNoEscalation(owner, wanted)).toEqual([]);
  });

  it("returns each uncovered verb/group/resource/name combination", () => {
    const owner: PolicyRule[] = [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }];
    expect(confirmNoEscalation(owner, [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods", "secrets"] }])).toEqual([
      { verbs: ["list"], apiGroups: [""], resources: ["pods"] },
      { verbs: ["get"], apiGroups: [""], resources: ["secrets"] },
      { verbs: ["list"], apiGroups: [""], resources: ["secrets"] },
    ]);
  });

  it("lets */sub cover subresources and names cover only themselves", () => {
    const owner: PolicyRule[] = [
      { verbs: ["get"], apiGroups: [""], resources: ["*/status"] },
      { verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a", "b"] },
    ];
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], apiGroups: [""], resources: ["pods/status"] }])).toEqual([]);
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a"] }])).toEqual([]);
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps"] }])).toHaveLength(1);
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }])).toHaveLength(1);
  });

  it("covers URLs by trailing-star prefix", () => {
    const owner: PolicyRule[] = [{ verbs: ["get"], nonResourceURLs: ["/healthz/*"] }];
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], nonResourceURLs: ["/healthz/etcd"] }])).toEqual([]);
    expect(confirmNoEscalation(owner, [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }])).toEqual([{ verbs: ["get"], nonResourceURLs: ["/healthz"] }]);
  });
});

describe("escalationMessage", () => {
  it("renders kube's text, compacting verbs and sorting lines", () => {
    const missing = confirmNoEscalation([], [
      { verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] },
      { verbs: ["get"], nonResourceURLs: ["/metrics"] },
      { verbs: ["get"], apiGroups: ["apps"], resources: ["deployments"], resourceNames: ["web"] },
    ]);
    expect(escalationMessage({ username: "x", groups: ["a", "b"] }, "ns", missing)).toBe(
      'user "x" (groups=["a" "b"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it("appends resolution errors", () => {
    const msg = escalationMessage(bob, "", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }], [
      'clusterroles.rbac.authorization.k8s.io "gone" not found',
    ]);
    expect(msg.endsWith('\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]')).toBe(true);
  });

  it("prints rule fields in kube's order", () => {
    expect(compactString({ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["p"] })).toBe(
      '{APIGroups:[""], Resources:["pods"], ResourceNames:["p"], Verbs:["get"]}',
    );
  });
});

function world() {
  const a = new RbacAuthorizer();
  const add = (resource: string, ns: string, obj: { metadata: { name: string } }) =>
    a.apply({ type: "ADDED", key: { resource, namespace: ns, name: obj.metadata.name }, object: obj });
  add("clusterroles", "", { metadata: { name: "pod-reader" }, rules: [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] }] } as never);
  add("clusterroles", "", { metadata: { name: "secret-reader" }, rules: [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }] } as never);
  add("clusterroles", "", { metadata: { name: "role-writer" }, rules: [{ verbs: ["create", "update"], apiGroups: [RBAC], resources: ["roles", "rolebindings", "clusterroles"] }] } as never);
  add("clusterroles", "", { metadata: { name: "escalator" }, rules: [{ verbs: ["escalate"], apiGroups: [RBAC], resources: ["roles"] }] } as never);
  add("clusterroles", "", { metadata: { name: "binder" }, rules: [{ verbs: ["bind"], apiGroups: [RBAC], resources: ["clusterroles"], resourceNames: ["secret-reader"] }] } as never);
  const rb = (ns: string, name: string, role: string, user: string) =>
    add("rolebindings", ns, { metadata: { name, namespace: ns }, subjects: [{ kind: "User", name: user }], roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: role } } as never);
  rb("team", "bob-pods", "pod-reader", "bob");
  rb("team", "bob-writer", "role-writer", "bob");
  rb("team", "carol-esc", "escalator", "carol");
  rb("team", "dave-bind", "binder", "dave");
  return a;
}

describe("checkRoleWrite", () => {
  const wantSecrets: PolicyRule[] = [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }];

  it("allows rules the user holds in that namespace", () => {
    const a = world();
    const rules: PolicyRule[] = [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }];
    expect(checkRoleWrite(a, { user: bob, resource: "roles", namespace: "team", name: "r", rules })).toBeUndefined();
  });

  it("forbids rules the user lacks, with kube's message", () => {
    const a = world();
    expect(plain(checkRoleWrite(a, { user: bob, resource: "roles", namespace: "team", name: "r", rules: wantSecrets }))).toEqual({
      code: 403,
      reason: "Forbidden",
      message:
        'roles.rbac.authorization.k8s.io "r" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
      details: { name: "r", group: RBAC, kind: "roles" },
    });
  });

  it("lets escalate holders and system:masters through", () => {
    const a = world();
    const carol = { username: "carol", groups: [] };
    expect(checkRoleWrite(a, { user: carol, resource: "roles", namespace: "team", name: "r", rules: wantSecrets })).toBeUndefined();
    expect(checkRoleWrite(a, { user: carol, resource: "roles", namespace: "other", name: "r", rules: wantSecrets })?.code).toBe(403);
    const admin = { username: "admin", groups: ["system:masters"] };
    expect(checkRoleWrite(a, { user: admin, resource: "clusterroles", namespace: "", name: "c", rules: wantSecrets, hasAggregationRule: true })).toBeUndefined();
  });

  it("needs full authority for an aggregationRule", () => {
    const a = world();
    expect(checkRoleWrite(a, { user: bob, resource: "clusterroles", namespace: "", name: "agg", rules: [], hasAggregationRule: true })?.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });
});

describe("checkBindingWrite", () => {
  const ref = (name: string, kind = "ClusterRole") => ({ apiGroup: RBAC, kind, name });

  it("allows binding a role whose rules the user holds", () => {
    expect(checkBindingWrite(world(), { user: bob, resource: "rolebindings", namespace: "team", name: "b", roleRef: ref("pod-reader") })).toBeUndefined();
  });

  it("forbids binding a role with more than the user holds", () => {
    const r = checkBindingWrite(world(), { user: bob, resource: "rolebindings", namespace: "team", name: "b", roleRef: ref("secret-reader") });
    expect(r?.code).toBe(403);
    expect(r?.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
  });

  it("allows holders of bind on that very role, in that namespace", () => {
    const dave = { username: "dave", groups: [] };
    expect(checkBindingWrite(world(), { user: dave, resource: "rolebindings", namespace: "team", name: "b", roleRef: ref("secret-reader") })).toBeUndefined();
    expect(checkBindingWrite(world(), { user: dave, resource: "rolebindings", namespace: "team", name: "b", roleRef: ref("pod-reader") })?.code).toBe(403);
    expect(checkBindingWrite(world(), { user: dave, resource: "clusterrolebindings", namespace: "", name: "b", roleRef: ref("secret-reader") })?.code).toBe(403);
  });

  it("answers 404 for a missing role", () => {
    expect(plain(checkBindingWrite(world(), { user: bob, resource: "rolebindings", namespace: "team", name: "b", roleRef: ref("nope", "Role") }))).toEqual({
      code: 404,
      reason: "NotFound",
      message: 'roles.rbac.authorization.k8s.io "nope" not found',
      details: { name: "nope", group: RBAC, kind: "roles" },
    });
  });
});

describe("onlyGCFieldsChanged", () => {
  const base = { metadata: { name: "r", resourceVersion: "5" }, rules: [{ verbs: ["get"] }] };
  it("is true when only finalizers or ownerReferences differ", () => {
    expect(onlyGCFieldsChanged({ ...base, metadata: { ...base.metadata, finalizers: ["x"] } }, base)).toBe(true);
  });
  it("is false when anything else differs", () => {
    expect(onlyGCFieldsChanged({ ...base, rules: [{ verbs: ["list"] }] }, base)).toBe(false);
    expect(onlyGCFieldsChanged(base, undefined)).toBe(false);
  });
});

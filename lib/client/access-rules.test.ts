import { describe, expect, it } from "vitest";
import { kindByPlural, type AnyKind } from "../kinds";
import { authorizationNamespace, decideFromRules, grantsAccessInNamespace, ruleAllows, type RulesReviewStatus } from "./access-rules";

const configMaps = kindByPlural("configmaps")!;
const namespaceKind: AnyKind = { ...configMaps, kind: "Namespace", plural: "namespaces", namespaced: false, group: undefined };
const clusterRoles: AnyKind = { ...configMaps, kind: "ClusterRole", plural: "clusterroles", namespaced: false, group: "rbac.authorization.k8s.io" };

// The rules kube's bootstrap `edit` ClusterRole gives in a namespace (abridged) plus system:basic-user's.
const editInTeamA: RulesReviewStatus = {
  resourceRules: [
    { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"] },
    { verbs: ["create", "delete", "deletecollection", "patch", "update"], apiGroups: [""], resources: ["configmaps", "secrets", "pods"] },
    { verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["configmaps", "namespaces", "pods"] },
  ],
  incomplete: false,
};
const basicUserOnly: RulesReviewStatus = { resourceRules: [editInTeamA.resourceRules![0]], incomplete: false };

describe("ruleAllows", () => {
  it("matches verbs, groups and resources exactly or by *", () => {
    expect(ruleAllows({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }, { verb: "delete", group: "rbac.authorization.k8s.io", resource: "roles" })).toBe(true);
    expect(ruleAllows({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }, { verb: "delete", group: "", resource: "pods" })).toBe(false);
    expect(ruleAllows({ verbs: ["get"], apiGroups: ["apps"], resources: ["pods"] }, { verb: "get", group: "", resource: "pods" })).toBe(false);
    expect(ruleAllows({ verbs: ["get"], apiGroups: [""], resources: ["pods/log"] }, { verb: "get", group: "", resource: "pods" })).toBe(false);
    expect(ruleAllows({ verbs: ["get"], apiGroups: [""], resources: ["*/status"] }, { verb: "get", group: "", resource: "pods", subresource: "status" })).toBe(true);
  });

  it("lets a name-restricted rule cover only that name, never a create or a list", () => {
    const rule = { verbs: ["update", "create", "list"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["settings"] };
    expect(ruleAllows(rule, { verb: "update", group: "", resource: "configmaps", name: "settings" })).toBe(true);
    expect(ruleAllows(rule, { verb: "update", group: "", resource: "configmaps", name: "other" })).toBe(false);
    expect(ruleAllows(rule, { verb: "create", group: "", resource: "configmaps" })).toBe(false);
  });
});

describe("decideFromRules", () => {
  it("allows what the edit role grants and denies what it does not", () => {
    expect(decideFromRules(editInTeamA, { verb: "create", group: "", resource: "configmaps" })).toBe("allowed");
    expect(decideFromRules(editInTeamA, { verb: "delete", group: "", resource: "namespaces", name: "team-a" })).toBe("denied");
    expect(decideFromRules(editInTeamA, { verb: "get", group: "", resource: "namespaces", name: "team-a" })).toBe("allowed");
  });

  it("cannot tell when the rules are incomplete or missing", () => {
    expect(decideFromRules({ ...editInTeamA, incomplete: true }, { verb: "delete", group: "", resource: "namespaces" })).toBe("unknown");
    expect(decideFromRules(undefined, { verb: "delete", group: "", resource: "namespaces" })).toBe("unknown");
  });
});

describe("authorizationNamespace", () => {
  it("is the object's namespace, none for cluster-scoped kinds, and a Namespace's own name", () => {
    expect(authorizationNamespace(configMaps, "team-a", "x")).toBe("team-a");
    expect(authorizationNamespace(configMaps, undefined, undefined)).toBeUndefined();
    expect(authorizationNamespace(clusterRoles, "team-a", "edit")).toBeUndefined();
    expect(authorizationNamespace(namespaceKind, undefined, "team-a")).toBe("team-a");
    expect(authorizationNamespace(namespaceKind, undefined, undefined)).toBeUndefined();
  });
});

describe("grantsAccessInNamespace", () => {
  it("offers a namespace where the user may read something, not one where only self-reviews are allowed", () => {
    expect(grantsAccessInNamespace(editInTeamA)).toBe(true);
    expect(grantsAccessInNamespace(basicUserOnly)).toBe(false);
    expect(grantsAccessInNamespace(undefined)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { aggregate, labelSelectorMatches, withAggregatedRules } from "./cluster-role-aggregation";
import type { ClusterRole } from "./rbac-objects";
import type { PolicyRule } from "./rule-matching";

function cr(name: string, labels: Record<string, string>, rules: PolicyRule[] | null, selectors?: object[]): ClusterRole {
  const role: ClusterRole = { metadata: { name, labels }, rules };
  if (selectors) role.aggregationRule = { clusterRoleSelectors: selectors };
  return role;
}
const r = (resource: string, verbs = ["get"]): PolicyRule => ({ verbs, apiGroups: [""], resources: [resource] });

describe("labelSelectorMatches", () => {
  it("supports matchLabels and every expression operator", () => {
    const labels = { a: "1", b: "2" };
    expect(labelSelectorMatches({ matchLabels: { a: "1" } }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { a: "2" } }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "a", operator: "In", values: ["1", "3"] }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "a", operator: "NotIn", values: ["1"] }] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "c", operator: "NotIn", values: ["1"] }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "b", operator: "Exists" }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "b", operator: "DoesNotExist" }] }, labels)).toBe(false);
  });

  it("matches everything with {} and nothing with no selector; flags invalid selectors", () => {
    expect(labelSelectorMatches({}, {})).toBe(true);
    expect(labelSelectorMatches(null, { a: "1" })).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }, {})).toBeUndefined();
    expect(labelSelectorMatches({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }, {})).toBeUndefined();
    expect(labelSelectorMatches({ matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] }, {})).toBeUndefined();
  });
});

describe("aggregate", () => {
  it("unions matching roles by name order, drops duplicates, and skips itself", () => {
    const roles = [
      cr("z-extra", { agg: "true" }, [r("secrets"), r("pods")]),
      cr("a-base", { agg: "true" }, [r("pods")]),
      cr("agg", { agg: "true" }, [r("stale")], [{ matchLabels: { agg: "true" } }]),
      cr("unrelated", {}, [r("nodes")]),
    ];
    expect(aggregate(roles).get("agg")).toEqual([r("pods"), r("secrets")]);
    expect(aggregate(roles).has("a-base")).toBe(false);
  });

  it("follows chains of aggregated roles to a fixed point", () => {
    const roles = [
      cr("admin", {}, null, [{ matchLabels: { "to-admin": "true" } }]),
      cr("edit", { "to-admin": "true" }, null, [{ matchLabels: { "to-edit": "true" } }]),
      cr("view", { "to-edit": "true" }, null, [{ matchLabels: { "to-view": "true" } }]),
      cr("agg-view", { "to-view": "true" }, [r("pods")]),
      cr("agg-edit", { "to-edit": "true" }, [r("pods", ["create"])]),
      cr("agg-admin", { "to-admin": "true" }, [r("roles", ["*"])]),
    ];
    const result = aggregate(roles);
    expect(result.get("view")).toEqual([r("pods")]);
    expect(result.get("edit")).toEqual([r("pods", ["create"]), r("pods")]);
    expect(result.get("admin")).toEqual([r("roles", ["*"]), r("pods", ["create"]), r("pods")]);
  });

  it("keeps the stored rules of a role with a selector kube would reject", () => {
    const roles = [cr("bad", {}, [r("kept")], [{ matchExpressions: [{ key: "a", operator: "Bogus" }] }]), cr("x", { a: "1" }, [r("pods")])];
    expect(aggregate(roles).get("bad")).toEqual([r("kept")]);
  });

  it("writes the rules into copies with withAggregatedRules", () => {
    const roles = [cr("agg", {}, null, [{ matchLabels: { a: "1" } }]), cr("src", { a: "1" }, [r("pods")])];
    const out = withAggregatedRules(roles);
    expect(out[0].rules).toEqual([r("pods")]);
    expect(roles[0].rules).toBeNull();
    expect(out[1]).toBe(roles[1]);
  });
});

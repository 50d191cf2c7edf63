import { describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { countText, countUrl, listCount } from "./list-count";

describe("listCount", () => {
  it("adds the remaining item count to the page's items", () => {
    expect(listCount({ items: [{}], metadata: { remainingItemCount: 41, continue: "abc" } })).toEqual({ count: 42, atLeast: false });
  });
  it("an empty collection counts zero", () => {
    expect(listCount({ items: [], metadata: {} })).toEqual({ count: 0, atLeast: false });
  });
  it("one item and no continue token is exactly one", () => {
    expect(listCount({ items: [{}], metadata: {} })).toEqual({ count: 1, atLeast: false });
  });
  it("a continue token without a count is only a lower bound", () => {
    expect(listCount({ items: [{}], metadata: { continue: "abc" } })).toEqual({ count: 2, atLeast: true });
  });
});

describe("countText and countUrl", () => {
  it("names one object by its kind, several by the plural title", () => {
    expect(countText("ConfigMap", "ConfigMaps", { count: 1, atLeast: false })).toBe("1 ConfigMap");
    expect(countText("ConfigMap", "ConfigMaps", { count: 3, atLeast: false })).toBe("3 ConfigMaps");
    expect(countText("Pod", "Pods", { count: 2, atLeast: true })).toBe("at least 2 Pods");
  });
  it("asks for one item of the kind in the namespace, under its group version", () => {
    expect(countUrl(kindByPlural("configmaps")!, "team-a")).toBe("/api/v1/namespaces/team-a/configmaps?limit=1");
    expect(countUrl(kindByPlural("roles")!, "team-a")).toBe("/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles?limit=1");
  });
});

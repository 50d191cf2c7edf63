import { describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import { switchNamespaceHref } from "./console-routes";
import { jumpKeys, kindTitle, navigationGroups } from "./navigation";

describe("navigation", () => {
  it("places every kind in exactly one group", () => {
    const placed = navigationGroups().flatMap((g) => g.kinds.map((k) => k.plural));
    expect(placed.sort()).toEqual(kinds.map((k) => k.plural).sort());
    expect(navigationGroups().map((g) => g.title)).not.toContain("Other");
  });

  it("has a jump key for every kind and no key twice", () => {
    expect(Object.values(jumpKeys).sort()).toEqual(kinds.map((k) => k.plural).sort());
  });

  it("titles kinds in the plural", () => {
    expect(kinds.map(kindTitle)).toContain("Endpoints");
    expect(kinds.map(kindTitle)).toContain("ConfigMaps");
    expect(kinds.map(kindTitle)).toContain("SecurityContextConstraints");
  });
});

describe("switchNamespaceHref", () => {
  it("keeps the view and its filters when switching", () => {
    expect(switchNamespaceHref("/pods", "?q=web", "dev")).toBe("/namespaces/dev/pods?q=web");
    expect(switchNamespaceHref("/namespaces/dev/pods", "", "")).toBe("/pods");
    expect(switchNamespaceHref("/namespaces/dev/pods/web-1", "", "prod")).toBe("/namespaces/prod/pods");
    expect(switchNamespaceHref("/", "", "dev")).toBe("/namespaces/dev");
    expect(switchNamespaceHref("/namespaces/dev", "", "")).toBe("/");
    expect(switchNamespaceHref("/create/pods", "?namespace=a", "b")).toBe("/create/pods?namespace=b");
  });
});

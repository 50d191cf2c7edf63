import { describe, expect, it } from "vitest";
import { kindByPlural, kinds, type AnyKind } from "../kinds";
import { switchNamespaceHref } from "./console-routes";
import { breadcrumbTrail, jumpKeys, kindTitle, navigationGroups } from "./navigation";

// The RBAC and Namespace kinds as the sidebar sees them (only what navigation reads), so these tests do not
// depend on when lib/kinds registers them.
const base = kindByPlural("configmaps")!;
const fake = (kind: string, plural: string, namespaced: boolean, group?: string): AnyKind => ({ ...base, kind, plural, namespaced, group });
const rbac = [
  fake("ClusterRoleBinding", "clusterrolebindings", false, "rbac.authorization.k8s.io"),
  fake("RoleBinding", "rolebindings", true, "rbac.authorization.k8s.io"),
  fake("ClusterRole", "clusterroles", false, "rbac.authorization.k8s.io"),
  fake("Role", "roles", true, "rbac.authorization.k8s.io"),
];
const withNew = [...kinds.filter((k) => !["namespaces", ...rbac.map((r) => r.plural)].includes(k.plural)), fake("Namespace", "namespaces", false), ...rbac];

describe("navigation", () => {
  it("places every kind in exactly one group", () => {
    const placed = navigationGroups().flatMap((g) => g.kinds.map((k) => k.plural));
    expect(placed.sort()).toEqual(kinds.map((k) => k.plural).sort());
    expect(navigationGroups().map((g) => g.title)).not.toContain("Other");
  });

  it("puts the RBAC kinds under Access control by their API group, namespaced first, and Namespaces first of all, CRDs next to them", () => {
    const groups = navigationGroups(withNew);
    expect(groups[0]).toMatchObject({ title: "Cluster" });
    expect(groups[0].kinds.map((k) => k.plural)).toEqual(["namespaces", "customresourcedefinitions"]);
    const access = groups.find((g) => g.title === "Access control")!;
    expect(access.kinds.map((k) => k.plural)).toEqual(["serviceaccounts", "securitycontextconstraints", "roles", "rolebindings", "clusterroles", "clusterrolebindings"]);
    expect(groups.map((g) => g.title)).not.toContain("Other");
  });

  it("gives a kind of an unknown API group a section named after the group", () => {
    const groups = navigationGroups([...kinds, fake("Widget", "widgets", true, "example.com")]);
    expect(groups.find((g) => g.title === "example.com")?.kinds.map((k) => k.kind)).toEqual(["Widget"]);
  });

  it("jumps only to kinds that exist, each kind with at most one key", () => {
    const plurals = Object.values(jumpKeys);
    for (const p of plurals) expect(kindByPlural(p)).toBeDefined();
    expect(new Set(plurals).size).toBe(plurals.length);
    expect(jumpKeys.c).toBe("configmaps");
  });

  it("titles kinds in the plural", () => {
    expect(kinds.map(kindTitle)).toContain("Endpoints");
    expect(kinds.map(kindTitle)).toContain("ConfigMaps");
    expect(kinds.map(kindTitle)).toContain("SecurityContextConstraints");
    expect(rbac.map(kindTitle)).toContain("ClusterRoleBindings");
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

  it("encodes a typed namespace as itself", () => {
    expect(switchNamespaceHref("/namespaces/dev/configmaps", "", "team-a")).toBe("/namespaces/team-a/configmaps");
  });
});

describe("breadcrumbTrail", () => {
  const none = new URLSearchParams();
  const labels = (pathname: string, search = none) => breadcrumbTrail(pathname, search).crumbs.map((c) => (c.href ? `${c.label}@${c.href}` : c.label));

  it("names namespace › kind › object on object and list pages", () => {
    expect(labels("/namespaces/shop/pods/web-1")).toEqual(["shop@/namespaces/shop", "Pods@/namespaces/shop/pods", "web-1"]);
    expect(labels("/namespaces/shop/pods")).toEqual(["shop@/namespaces/shop", "Pods"]);
    expect(breadcrumbTrail("/namespaces/shop/pods/web-1", none).target).toEqual({ plural: "pods", namespace: "shop", name: "web-1" });
  });

  it("says all namespaces, or cluster for cluster-scoped kinds", () => {
    expect(labels("/pods")).toEqual(["All namespaces@/", "Pods"]);
    expect(labels("/persistentvolumes/pv-1")).toEqual(["Cluster", "PersistentVolumes@/persistentvolumes", "pv-1"]);
    expect(labels("/namespaces/shop")).toEqual(["Cluster", "Namespaces@/namespaces", "shop"]);
    expect(labels("/namespaces")).toEqual(["Cluster", "Namespaces"]);
  });

  it("decodes names, knows the create page, and has nothing for the overview", () => {
    expect(labels("/namespaces/shop/configmaps/a%20b")).toEqual(["shop@/namespaces/shop", "ConfigMaps@/namespaces/shop/configmaps", "a b"]);
    expect(labels("/create/pods", new URLSearchParams("namespace=shop"))).toEqual(["shop@/namespaces/shop", "Pods@/namespaces/shop/pods", "Create"]);
    expect(labels("/")).toEqual([]);
    expect(labels("/no-such-kind")).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { customColumns, customKindsFromDiscovery, consoleKindOf, kindSegment, parseKindSegment, valueAtJsonPath, withPrinterColumns, type DiscoveryList } from "./custom-kinds";
import { kindByPlural } from "../kinds";
import { listHref, objectHref, createHref } from "./console-routes";

const discovery: DiscoveryList = {
  items: [
    {
      metadata: { name: "rbac.authorization.k8s.io" },
      versions: [{ version: "v1", resources: [{ resource: "roles", responseKind: { kind: "Role" }, scope: "Namespaced", verbs: ["get", "list"] }] }],
    },
    {
      metadata: { name: "stable.example.com" },
      versions: [
        {
          version: "v2",
          resources: [
            { resource: "widgets", responseKind: { kind: "Widget" }, scope: "Namespaced", singularResource: "widget", verbs: ["get", "list", "watch", "create", "delete", "deletecollection"], shortNames: ["wd"], categories: ["all"], subresources: [{ subresource: "status" }] },
            { resource: "widgets/status", responseKind: { kind: "Widget" }, scope: "Namespaced", verbs: ["get"] },
          ],
        },
        {
          version: "v1",
          resources: [
            { resource: "widgets", responseKind: { kind: "Widget" }, scope: "Namespaced", verbs: ["get", "list"] },
            { resource: "gadgets", responseKind: { kind: "Gadget" }, scope: "Cluster", verbs: ["get", "list"] },
            { resource: "reviews", responseKind: { kind: "Review" }, scope: "Cluster", verbs: ["create"] },
          ],
        },
      ],
    },
  ],
};

describe("custom kinds from aggregated discovery", () => {
  it("takes each listable resource no built-in kind serves, at the first (preferred) version serving it", () => {
    const infos = customKindsFromDiscovery(discovery);
    expect(infos.map((i) => [i.group, i.version, i.plural, i.kind, i.namespaced])).toEqual([
      ["stable.example.com", "v1", "gadgets", "Gadget", false],
      ["stable.example.com", "v2", "widgets", "Widget", true],
    ]);
    const widget = infos[1];
    expect(widget).toMatchObject({ singular: "widget", shortNames: ["wd"], categories: ["all"], hasStatus: true });
  });

  it("names a custom kind <plural>.<group> in console URLs; built-in kinds keep their plural", () => {
    const [gadget, widget] = customKindsFromDiscovery(discovery).map(consoleKindOf);
    expect(kindSegment(widget)).toBe("widgets.stable.example.com");
    expect(listHref(widget, "team-a")).toBe("/namespaces/team-a/widgets.stable.example.com");
    expect(listHref(widget)).toBe("/widgets.stable.example.com");
    expect(objectHref(gadget, "ignored", "g1")).toBe("/gadgets.stable.example.com/g1");
    expect(createHref(widget, "team-a")).toBe("/create/widgets.stable.example.com?namespace=team-a");
    expect(kindSegment(kindByPlural("roles")!)).toBe("roles");
    expect(parseKindSegment("widgets.stable.example.com")).toEqual({ plural: "widgets", group: "stable.example.com" });
    expect(parseKindSegment("pods")).toEqual({ plural: "pods" });
  });
});

describe("printer columns", () => {
  it("reads kube's simple JSONPaths", () => {
    const obj = { spec: { size: 3, tags: ["a", "b"] }, metadata: { labels: { "app.kubernetes.io/name": "x" } } };
    expect(valueAtJsonPath(obj, ".spec.size")).toBe(3);
    expect(valueAtJsonPath(obj, ".spec.tags[1]")).toBe("b");
    expect(valueAtJsonPath(obj, ".metadata.labels['app.kubernetes.io/name']")).toBe("x");
    expect(valueAtJsonPath(obj, ".spec.missing.deeper")).toBeUndefined();
  });

  it("shows Name, the CRD's columns for the served version, and Age when no column is a date", () => {
    const [, widget] = withPrinterColumns(customKindsFromDiscovery(discovery), [
      { metadata: { name: "widgets.stable.example.com" }, spec: { versions: [
        { name: "v1", additionalPrinterColumns: [{ name: "Old", type: "string", jsonPath: ".spec.old" }] },
        { name: "v2", additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }, { name: "Colour", type: "string", jsonPath: ".spec.colour", priority: 1 }] },
      ] } },
    ]);
    const cols = customColumns(widget);
    expect(cols.map((c) => [c.name, c.priority])).toEqual([["Name", 0], ["Size", 0], ["Colour", 1], ["Age", 0]]);
    const now = Date.parse("2026-01-01T00:10:00Z");
    const obj = { metadata: { name: "w", creationTimestamp: "2026-01-01T00:00:00Z" }, spec: { size: 2 } };
    expect(cols.map((c) => c.cell(obj, now))).toEqual(["w", 2, "<none>", "10m"]);
  });
});

import { describe, expect, it } from "vitest";
import type { KubeObject } from "@/lib/kinds";
import { crdNames, customResourcesHref, nameDifferences, storageVersion, storedNotServed, versionRows } from "./crd-summary";

const crd = (extra: { spec?: object; status?: object; metadata?: object } = {}) =>
  ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.shop.example.com", ...extra.metadata },
    spec: {
      group: "shop.example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wg"], categories: ["all", "shop"] },
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: false,
          deprecated: true,
          schema: { openAPIV3Schema: { type: "object" } },
        },
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object" } } } },
          subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } },
          additionalPrinterColumns: [
            { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
            { name: "Size", type: "string", jsonPath: ".spec.size", priority: 1, description: "how big" },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
          ],
          selectableFields: [{ jsonPath: ".spec.size" }],
        },
      ],
      ...extra.spec,
    },
    status: {
      conditions: [
        { type: "NamesAccepted", status: "True", reason: "NoConflicts" },
        { type: "Established", status: "True", reason: "InitialNamesAccepted" },
      ],
      acceptedNames: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wg"], categories: ["all", "shop"] },
      storedVersions: ["v1"],
      ...extra.status,
    },
  }) as KubeObject;

describe("crdNames", () => {
  it("reads group, names and scope, and the resource as kubectl names it", () => {
    expect(crdNames(crd())).toEqual({
      group: "shop.example.com",
      kind: "Widget",
      listKind: "WidgetList",
      plural: "widgets",
      singular: "widget",
      shortNames: ["wg"],
      categories: ["all", "shop"],
      scope: "Namespaced",
      resource: "widgets.shop.example.com",
    });
  });

  it("copes with a body of any shape", () => {
    expect(crdNames({ metadata: { name: "x.y" }, spec: "nonsense" } as unknown as KubeObject)).toMatchObject({ group: "", shortNames: [], resource: "x.y" });
  });
});

describe("nameDifferences", () => {
  it("is empty when every name was accepted", () => {
    expect(nameDifferences(crd())).toEqual([]);
  });

  it("names each field the server did not accept as asked (a kind another CRD of the group holds)", () => {
    const conflicting = crd({
      status: {
        conditions: [{ type: "NamesAccepted", status: "False", reason: "KindConflict", message: '"Widget" is already in use' }],
        acceptedNames: { plural: "widgets", singular: "widget", shortNames: ["wg"], listKind: "WidgetList", categories: ["all", "shop"], kind: "" },
      },
    });
    expect(nameDifferences(conflicting)).toEqual([{ field: "kind", requested: "Widget", accepted: "" }]);
  });

  it("compares lists in order, as text", () => {
    const changed = crd({ status: { acceptedNames: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["w"], categories: ["all", "shop"] } } });
    expect(nameDifferences(changed)).toEqual([{ field: "shortNames", requested: "wg", accepted: "w" }]);
  });

  it("says nothing before the server has looked at the names (acceptedNames starts empty)", () => {
    expect(nameDifferences(crd({ status: { conditions: [], acceptedNames: { plural: "", kind: "" } } }))).toEqual([]);
  });
});

describe("versionRows", () => {
  it("summarises each version: served, storage, stored, deprecation, subresources and printer columns", () => {
    const [beta, v1] = versionRows(crd());
    expect(beta).toMatchObject({
      name: "v1beta1",
      served: true,
      storage: false,
      stored: false,
      deprecated: true,
      // kube's own warning when the CRD gives none
      deprecationWarning: "shop.example.com/v1beta1 Widget is deprecated",
      statusSubresource: false,
      scale: undefined,
      printerColumns: [],
    });
    expect(v1).toMatchObject({
      name: "v1",
      storage: true,
      stored: true,
      deprecated: false,
      deprecationWarning: undefined,
      statusSubresource: true,
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
    });
    expect(v1.printerColumns).toEqual([
      { name: "Replicas", type: "integer", jsonPath: ".spec.replicas", wideOnly: false },
      { name: "Size", type: "string", jsonPath: ".spec.size", description: "how big", wideOnly: true },
      { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp", wideOnly: false },
    ]);
    expect(v1.selectableFields).toEqual([".spec.size"]);
    expect(beta.selectableFields).toEqual([]);
    expect(v1.schema).toEqual({ type: "object", properties: { spec: { type: "object" } } });
    expect(storageVersion([beta, v1])).toBe("v1");
  });

  it("keeps the CRD's own deprecation warning", () => {
    const own = crd();
    (own.spec as { versions: { deprecationWarning?: string }[] }).versions[0].deprecationWarning = "use shop.example.com/v1";
    expect(versionRows(own)[0].deprecationWarning).toBe("use shop.example.com/v1");
  });
});

describe("storedNotServed", () => {
  it("is empty while every stored version is served", () => {
    expect(storedNotServed(crd({ status: { storedVersions: ["v1beta1", "v1"] } }))).toEqual([]);
  });

  it("flags a stored version that is no longer served, or no longer listed", () => {
    const obj = crd({ status: { storedVersions: ["v1alpha1", "v1beta1", "v1"] } });
    (obj.spec as { versions: { served: boolean }[] }).versions[0].served = false;
    expect(storedNotServed(obj)).toEqual(["v1alpha1", "v1beta1"]);
  });
});

describe("customResourcesHref", () => {
  it("links the kind's list, /<plural>.<group>, once established", () => {
    expect(customResourcesHref(crd())).toBe("/widgets.shop.example.com");
  });

  it("has no link while the kind is not served", () => {
    expect(customResourcesHref(crd({ status: { conditions: [{ type: "Established", status: "False", reason: "NotAccepted" }] } }))).toBeUndefined();
    expect(customResourcesHref(crd({ metadata: { deletionTimestamp: "2026-11-28T09:00:00Z" } }))).toBeUndefined();
  });
});

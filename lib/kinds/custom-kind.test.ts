import { afterEach, describe, expect, it } from "vitest";
import { customKinds, valueAtPath } from "./custom-kind";
import type { CustomResourceDefinition } from "./custom-resource-definition";
import {
  apiVersionOf, groupVersionPath, kindByStorageResource, kindServedAt, kindsServedBy, onKindsChanged, servedGroups, servedVersions,
  setAddedKinds, storageResourceOf,
} from "./index";
import type { KubeObject } from "./types";

const crd = (): CustomResourceDefinition => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.shop.example.com" },
  spec: {
    group: "shop.example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wd"], categories: ["shop"] },
    versions: [
      { name: "v1alpha1", served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
      { name: "v1beta1", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
      {
        name: "v1", served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                required: ["size"],
                properties: { size: { type: "string", enum: ["S", "M", "L"] }, count: { type: "integer", default: 1 }, color: { type: "string" } },
                "x-kubernetes-validations": [{ rule: "self.count <= 10", message: "at most ten" }],
              },
              status: { type: "object", properties: { ready: { type: "boolean" } } },
            },
          },
        },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Size", type: "string", jsonPath: ".spec.size" },
          { name: "Count", type: "integer", jsonPath: ".spec.count", priority: 1 },
          { name: "Ready", type: "boolean", jsonPath: ".status.ready" },
        ],
        selectableFields: [{ jsonPath: ".spec.color" }],
      },
    ],
  },
});

const widget = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: "shop.example.com/v1", kind: "Widget", metadata: { name: "w", namespace: "default" }, spec });

afterEach(() => setAddedKinds("widgets.shop.example.com", []));

describe("customKinds: what an Established CRD serves", () => {
  it("one declaration per served version, the storage version first, the others served from it", () => {
    const [storage, alpha, ...rest] = customKinds(crd());
    expect(rest).toEqual([]);
    expect([storage.version, alpha.version]).toEqual(["v1", "v1alpha1"]);
    expect(alpha.servedFrom).toBe(storage);
    expect(storage.servedFrom).toBeUndefined();
    for (const k of [storage, alpha]) {
      expect(k).toMatchObject({ kind: "Widget", group: "shop.example.com", plural: "widgets", singular: "widget", shortNames: ["wd"], categories: ["shop"], namespaced: true, generation: true });
      expect(storageResourceOf(k)).toBe("widgets.shop.example.com");
    }
    expect(apiVersionOf(alpha)).toBe("shop.example.com/v1alpha1");
    expect(groupVersionPath(storage)).toBe("/apis/shop.example.com/v1");
    expect(storage.hasStatus).toBe(true);
    expect(alpha.hasStatus).toBe(false);
  });

  it("a deprecated version warns with kube's default text, naming the most preferred newer served version", () => {
    const [storage, alpha] = customKinds(crd());
    expect(storage.deprecationWarning).toBeUndefined();
    expect(alpha.deprecationWarning).toBe("shop.example.com/v1alpha1 Widget is deprecated; use shop.example.com/v1 Widget");
    const own = crd();
    own.spec!.versions![0].deprecationWarning = "use v1";
    expect(customKinds(own)[1].deprecationWarning).toBe("use v1");
  });

  it("columns: Name, then the version's printer columns; kube's Age when it declares none", () => {
    const [storage, alpha] = customKinds(crd());
    expect(storage.columns.map((c) => [c.name, c.type, c.priority])).toEqual([["Name", "string", 0], ["Size", "string", 0], ["Count", "integer", 1], ["Ready", "boolean", 0]]);
    const obj = { ...widget({ size: "M", count: 3 }), status: { ready: true } };
    expect(storage.columns.map((c) => c.cell(obj, 0))).toEqual(["w", "M", 3, true]);
    expect(storage.columns[3].cell(widget({}), 0)).toBe("<none>");
    expect(alpha.columns.map((c) => c.name)).toEqual(["Name", "Age"]);
    const created = { ...widget({}), metadata: { name: "w", creationTimestamp: "2026-01-01T00:00:00Z" } };
    expect(alpha.columns[1].cell(created, Date.parse("2026-01-01T00:05:00Z"))).toBe("5m");
  });

  it("prunes unknown fields (reported for the Warning), defaults, validates with the schema and its CEL rules", () => {
    const [storage] = customKinds(crd());
    const obj = widget({ size: "S", shade: "dark" }) as KubeObject & { spec: Record<string, unknown> };
    expect(storage.pruneUnknown!(obj)).toEqual(["spec.shade"]);
    storage.applyDefaults!(obj);
    expect(obj.spec).toEqual({ size: "S", count: 1 });
    expect(storage.validateWithOld!(obj, undefined)).toEqual([]);
    expect(storage.strictMessage!(["spec.shade"])).toBe('Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.shade"');

    const bad = widget({ size: "XL", count: 1 });
    expect(storage.validateWithOld!(bad, undefined)[0]).toMatchObject({ field: "spec.size", type: "FieldValueNotSupported" });
    const tooMany = widget({ size: "S", count: 11 });
    expect(storage.validateWithOld!(tooMany, undefined)).toEqual([{ type: "FieldValueInvalid", field: "spec", detail: "Invalid value: \"object\": at most ten" }]);
  });

  it("answers a CEL failure of an unchanged value on update as a warning, not an error (ratcheting), on /status too", () => {
    const [storage] = customKinds(crd());
    const old = widget({ size: "S", count: 11 }); // stored before the rule existed
    const next = structuredClone(old);
    next.metadata.labels = { tier: "gold" };
    const warnings: string[] = [];
    expect(storage.validateWithOld!(next, old, (w) => warnings.push(w))).toEqual([]);
    expect(warnings).toEqual(['spec: Invalid value: "object": at most ten']);
    const status: string[] = [];
    expect(storage.statusStrategy!.validateUpdate!({ ...next, status: { ready: true } }, old, (w) => status.push(w))).toEqual([]);
    expect(status).toEqual(['spec: Invalid value: "object": at most ten']);
    // A changed value is refused, with no warning.
    const changed: string[] = [];
    expect(storage.validateWithOld!(widget({ size: "M", count: 11 }), old, (w) => changed.push(w))).toHaveLength(1);
    expect(changed).toEqual([]);
  });

  it("reads as kube's decoder does: defaults of the storage schema, then the requested version's apiVersion and schema", () => {
    const [storage, alpha] = customKinds(crd());
    const stored = widget({ size: "S" }); // stored before `count` had its default
    const read = storage.readAs!(stored)!;
    expect(read.spec).toEqual({ size: "S", count: 1 });
    expect(stored.spec).toEqual({ size: "S" }); // the stored object is never changed
    expect(storage.readAs!(stored)).toBe(read); // once per stored object
    const complete = widget({ size: "S", count: 2 });
    expect(storage.readAs!(complete)).toBeUndefined(); // answered as stored
    const asAlpha = alpha.readAs!(complete)!;
    expect(asAlpha.apiVersion).toBe("shop.example.com/v1alpha1");
    expect(asAlpha.spec).toEqual({ size: "S", count: 2 });

    // A version whose schema knows fewer fields answers without the others.
    const narrow = crd();
    narrow.spec!.versions![0].schema = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "string" } } } } } };
    expect(customKinds(narrow)[1].readAs!(complete)!.spec).toEqual({ size: "S" });
  });

  it("answers a store entry's JSON through its version once: as stored (no new string), defaulted, or with another apiVersion", () => {
    const [storage, alpha] = customKinds(crd());
    let parses = 0;
    const entry = (obj: KubeObject) => {
      const json = JSON.stringify(obj);
      return { json, get object() { parses++; return JSON.parse(json) as KubeObject; } };
    };
    const complete = entry(widget({ size: "S", count: 2 }));
    expect(storage.readJsonAs!(complete)).toBeUndefined();
    expect(storage.readJsonAs!(complete)).toBeUndefined();
    expect(parses).toBe(1); // the second read neither parses nor compares
    const asAlpha = alpha.readJsonAs!(complete)!;
    expect(JSON.parse(asAlpha)).toMatchObject({ apiVersion: "shop.example.com/v1alpha1", spec: { size: "S", count: 2 } });
    expect(alpha.readJsonAs!(complete)).toBe(asAlpha);
    expect(parses).toBe(2);
    const old = entry(widget({ size: "S" })); // stored before `count` had its default
    expect(JSON.parse(storage.readJsonAs!(old)!).spec).toEqual({ size: "S", count: 1 });
  });

  it("selectable fields read the CRD's paths; values of other types select as undefined", () => {
    const [storage] = customKinds(crd());
    expect(Object.keys(storage.selectableFields)).toEqual(["spec.color"]);
    expect(storage.selectableFields["spec.color"](widget({ color: "red" }))).toBe("red");
    expect(storage.selectableFields["spec.color"](widget({}))).toBeUndefined();
  });

  it("a scale subresource reads replicas at its paths (missing: 0) and writes spec replicas back", () => {
    const c = crd();
    c.spec!.versions![2].subresources = { status: {}, scale: { specReplicasPath: ".spec.count", statusReplicasPath: ".status.ready", labelSelectorPath: ".status.selector" } };
    const [storage, alpha] = customKinds(c);
    expect(alpha.scale).toBeUndefined();
    const obj = { ...widget({ size: "S", count: 4 }), status: { selector: "app=w" } };
    expect(storage.scale!.read(obj)).toEqual({ specReplicas: 4, statusReplicas: 0, selector: "app=w" });
    const empty = widget({});
    delete (empty as { spec?: unknown }).spec;
    storage.scale!.setReplicas(empty, 2);
    expect(empty.spec).toEqual({ count: 2 });
  });

  it("a cluster-scoped CRD declares a cluster-scoped kind", () => {
    const c = crd();
    c.spec!.scope = "Cluster";
    expect(customKinds(c).every((k) => !k.namespaced)).toBe(true);
  });
});

describe("kinds added at run time", () => {
  it("are routed, discovered and looked up by storage resource while served, and gone once removed", () => {
    const seen: number[] = [];
    const off = onKindsChanged(() => seen.push(1));
    expect(kindServedAt("shop.example.com", "widgets", "v1")).toBeUndefined();
    setAddedKinds("widgets.shop.example.com", customKinds(crd()));
    expect(kindServedAt("shop.example.com", "widgets", "v1")?.version).toBe("v1");
    expect(kindServedAt("shop.example.com", "widgets", "v1alpha1")?.version).toBe("v1alpha1");
    expect(kindServedAt("shop.example.com", "widgets", "v1beta1")).toBeUndefined(); // not served
    expect(kindServedAt("other.example.com", "widgets", "v1")).toBeUndefined();
    expect(servedGroups()).toContain("shop.example.com");
    expect(servedVersions("shop.example.com").sort()).toEqual(["v1", "v1alpha1"]);
    expect(kindsServedBy("shop.example.com", "v1alpha1").map((k) => k.kind)).toEqual(["Widget"]);
    expect(kindByStorageResource("widgets.shop.example.com")?.version).toBe("v1");
    setAddedKinds("widgets.shop.example.com", []);
    expect(kindServedAt("shop.example.com", "widgets", "v1")).toBeUndefined();
    expect(servedGroups()).not.toContain("shop.example.com");
    expect(seen).toHaveLength(2);
    off();
  });

  it("a custom plural equal to a declared kind's does not shadow it (storage resources differ)", () => {
    const c = crd();
    c.spec!.names!.plural = "pods";
    setAddedKinds("widgets.shop.example.com", customKinds(c));
    expect(kindServedAt("", "pods")?.group ?? "").toBe("");
    expect(kindServedAt("shop.example.com", "pods", "v1")?.kind).toBe("Widget");
    expect(kindByStorageResource("pods")?.group ?? "").toBe("");
    expect(kindByStorageResource("pods.shop.example.com")?.kind).toBe("Widget");
  });
});

describe("valueAtPath (printer columns' and selectable fields' simple JSONPaths)", () => {
  const obj = { metadata: { labels: { "app.kubernetes.io/name": "x" } }, status: { conditions: [{ type: "Ready" }] } };
  it("follows fields, indexes and quoted keys", () => {
    expect(valueAtPath(obj, ".status.conditions[0].type")).toBe("Ready");
    expect(valueAtPath(obj, ".metadata.labels['app.kubernetes.io/name']")).toBe("x");
    expect(valueAtPath(obj, ".status.missing.deeper")).toBeUndefined();
    expect(valueAtPath(obj, ".status.conditions[3]")).toBeUndefined();
  });
});

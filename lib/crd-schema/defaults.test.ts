import { describe, expect, it } from "vitest";
import { applyDefaults, defaultValues, pruneNonNullableNulls } from "./defaults";
import { certificateSchema, serviceMonitorSchema } from "./example-schemas";
import type { JSONSchemaProps } from "./types";

describe("applyDefaults", () => {
  it("fills absent fields, nested inside present objects (cert-manager-like issuerRef and privateKey)", () => {
    const obj = { spec: { secretName: "s", issuerRef: { name: "ca" }, privateKey: {} } };
    applyDefaults(obj, certificateSchema);
    expect(obj.spec.issuerRef).toEqual({ name: "ca", kind: "Issuer", group: "cert-manager.io" });
    expect(obj.spec.privateKey).toEqual({ algorithm: "RSA" });
  });

  it("does not create an absent parent to default its children", () => {
    const obj: { spec: Record<string, unknown> } = { spec: { secretName: "s" } };
    applyDefaults(obj, certificateSchema);
    expect(obj.spec).toEqual({ secretName: "s" });
  });

  it("a defaulted object gets its own nested defaults", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          default: {},
          properties: { strategy: { type: "object", default: { type: "Rolling" }, properties: { type: { type: "string" }, maxSurge: { type: "integer", default: 1 } } } },
        },
      },
    };
    const obj: Record<string, unknown> = {};
    applyDefaults(obj, schema);
    expect(obj).toEqual({ spec: { strategy: { type: "Rolling", maxSurge: 1 } } });
  });

  it("list items and map values take their defaults (ServiceMonitor endpoints' honorLabels, relabel action)", () => {
    const obj = { spec: { selector: {}, endpoints: [{ port: "web", relabelings: [{ regex: "x" }] }, { port: "m", honorLabels: true }] } };
    applyDefaults(obj, serviceMonitorSchema);
    expect(obj.spec.endpoints).toEqual([
      { port: "web", honorLabels: false, relabelings: [{ regex: "x", action: "replace" }] },
      { port: "m", honorLabels: true },
    ]);
  });

  it("null: dropped when neither nullable nor defaulted, defaulted when it has a default, kept when nullable", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        a: { type: "string" },
        b: { type: "string", default: "B" },
        c: { type: "string", nullable: true, default: "C" },
        list: { type: "array", items: { type: "string", default: "item" } },
        map: { type: "object", additionalProperties: { type: "integer", default: 0 } },
      },
    };
    const obj = { a: null, b: null, c: null, list: [null, "x"], map: { k: null } };
    applyDefaults(obj, schema);
    expect(obj).toEqual({ b: "B", c: null, list: ["item", "x"], map: { k: 0 } });
  });

  it("the two steps separately: nulls pruning leaves defaultable nulls for defaulting", () => {
    const schema: JSONSchemaProps = { type: "object", properties: { a: { type: "string" }, b: { type: "string", default: "B" } } };
    const obj: Record<string, unknown> = { a: null, b: null };
    pruneNonNullableNulls(obj, schema);
    expect(obj).toEqual({ b: null });
    defaultValues(obj, schema);
    expect(obj).toEqual({ b: "B" });
  });

  it("each defaulted value is a copy: changing one object does not change the schema or another object", () => {
    const schema: JSONSchemaProps = { type: "object", properties: { tags: { type: "array", items: { type: "string" }, default: ["a"] } } };
    const one: { tags?: string[] } = {};
    const two: { tags?: string[] } = {};
    applyDefaults(one, schema);
    one.tags!.push("b");
    applyDefaults(two, schema);
    expect(two.tags).toEqual(["a"]);
    expect(schema.properties!.tags.default).toEqual(["a"]);
  });
});

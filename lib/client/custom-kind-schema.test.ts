import { describe, expect, it } from "vitest";
import { editorSchemaFromOpenApi, exampleObject, exampleValue } from "./custom-kind-schema";

const doc = {
  components: {
    schemas: {
      "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": { type: "object", properties: { name: { type: "string" }, labels: { type: "object", additionalProperties: { type: "string" } } } },
      "com.example.stable.v2.Widget": {
        type: "object",
        "x-kubernetes-group-version-kind": [{ group: "stable.example.com", version: "v2", kind: "Widget" }],
        properties: {
          apiVersion: { type: "string" },
          kind: { type: "string" },
          metadata: { allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }] },
          spec: {
            type: "object",
            required: ["size", "colour", "owner", "ports"],
            properties: {
              size: { type: "integer", minimum: 1 },
              colour: { type: "string", enum: ["red", "green"] },
              tier: { type: "string", default: "basic" },
              owner: { type: "string", minLength: 10 },
              optional: { type: "string" },
              ports: { type: "array", minItems: 1, items: { type: "object", required: ["port"], properties: { port: { type: "integer" } } } },
              extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { a: { type: "string" } } },
            },
          },
          status: { type: "object", properties: { ready: { type: "boolean" } } },
        },
      },
    },
  },
};

describe("a custom kind's editor schema from OpenAPI v3", () => {
  const schema = editorSchemaFromOpenApi(doc, "stable.example.com", "v2", "Widget")!;

  it("pins kind and apiVersion, points $refs at definitions, closes typed objects but not preserve-unknown ones", () => {
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.kind.enum).toEqual(["Widget"]);
    expect(props.apiVersion.enum).toEqual(["stable.example.com/v2"]);
    expect((props.metadata.allOf as { $ref: string }[])[0].$ref).toBe("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    expect(schema.additionalProperties).toBe(false);
    const spec = props.spec as { additionalProperties: unknown; properties: Record<string, Record<string, unknown>> };
    expect(spec.additionalProperties).toBe(false);
    expect(spec.properties.extra.additionalProperties).toBeUndefined();
    const meta = (schema.definitions as Record<string, Record<string, unknown>>)["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    expect(meta.additionalProperties).toBe(false);
    expect((meta.properties as Record<string, Record<string, unknown>>).labels.additionalProperties).toEqual({ type: "string" });
  });

  it("is undefined for a kind the document does not describe", () => {
    expect(editorSchemaFromOpenApi(doc, "stable.example.com", "v1", "Widget")).toBeUndefined();
  });

  it("generates an example: required fields typed, defaults used, the enum's first value, no status", () => {
    expect(exampleObject(schema, "stable.example.com/v2", "Widget", "team-a")).toEqual({
      apiVersion: "stable.example.com/v2",
      kind: "Widget",
      metadata: { name: "example", namespace: "team-a" },
      spec: { size: 1, colour: "red", tier: "basic", owner: "examplexxx", ports: [{ port: 0 }] },
    });
    expect(exampleObject(undefined, "stable.example.com/v2", "Widget", undefined)).toEqual({ apiVersion: "stable.example.com/v2", kind: "Widget", metadata: { name: "example" } });
    expect(exampleValue({ type: "integer", minimum: 0, exclusiveMinimum: true })).toBe(1);
    expect(exampleValue({ type: "boolean" })).toBe(false);
  });
});

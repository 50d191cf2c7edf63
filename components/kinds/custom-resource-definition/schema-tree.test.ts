import { describe, expect, it } from "vitest";
import type { JSONSchemaProps } from "@/lib/crd-schema/types";
import { findFields, nodeChildren, schemaChildren, schemaFacts, startsOpen, typeLabel } from "./schema-tree";

const schema: JSONSchemaProps = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    spec: {
      type: "object",
      required: ["size"],
      "x-kubernetes-validations": [{ rule: "self.minReplicas <= self.replicas", message: "minReplicas must not exceed replicas" }],
      properties: {
        size: { type: "string", enum: ["small", "large"], default: "small", description: "How big." },
        replicas: { type: "integer", format: "int32", minimum: 0, maximum: 10, exclusiveMaximum: true },
        minReplicas: { type: "integer" },
        port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
        labels: { type: "object", additionalProperties: { type: "string", maxLength: 63 } },
        tags: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: {
            type: "object",
            required: ["name"],
            "x-kubernetes-validations": [{ rule: "self.port > 0" }],
            properties: { name: { type: "string", pattern: "^[a-z]+$" }, port: { type: "integer" } },
          },
        },
        template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, nullable: true },
        "app.kubernetes.io/name": { type: "string" },
      },
    },
  },
};

const byName = (nodes: ReturnType<typeof schemaChildren>) => Object.fromEntries(nodes.map((n) => [n.name, n]));

describe("typeLabel", () => {
  it("uses kubectl explain's words", () => {
    expect(typeLabel({ type: "string", format: "date-time" })).toBe("string (date-time)");
    expect(typeLabel({ type: "array", items: { type: "object" } })).toBe("[]object");
    expect(typeLabel({ type: "array", items: { type: "array", items: { type: "string" } } })).toBe("[][]string");
    expect(typeLabel({ type: "object", additionalProperties: { type: "string" } })).toBe("map[string]string");
    expect(typeLabel({ "x-kubernetes-int-or-string": true })).toBe("int-or-string");
    expect(typeLabel({ "x-kubernetes-preserve-unknown-fields": true })).toBe("any");
  });
});

describe("schemaFacts", () => {
  it("lists bounds, enum, default, markers and CEL rules", () => {
    const spec = schema.properties!.spec;
    const f = schemaFacts(spec.properties!.size);
    expect(f).toMatchObject({ type: "string", description: "How big.", enum: ['"small"', '"large"'], default: '"small"', constraints: [], markers: [], rules: [] });
    expect(schemaFacts(spec.properties!.replicas).constraints).toEqual(["minimum: 0", "maximum: 10 (exclusive)"]);
    expect(schemaFacts(spec.properties!.ports).markers).toEqual(["x-kubernetes-list-type: map", "x-kubernetes-list-map-keys: name"]);
    expect(schemaFacts(spec.properties!.template).markers).toEqual(["nullable", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"]);
    expect(schemaFacts(spec.properties!.port).constraints).toEqual(['anyOf: [{"type":"integer"},{"type":"string"}]']);
    expect(schemaFacts(spec).rules).toEqual([{ rule: "self.minReplicas <= self.replicas", message: "minReplicas must not exceed replicas" }]);
  });
});

describe("schemaChildren", () => {
  it("gives the root's fields at depth 0, and a field's own fields with required marked", () => {
    const root = schemaChildren(schema);
    expect(root.map((n) => [n.name, n.path, n.depth, n.hasChildren])).toEqual([
      ["apiVersion", ".apiVersion", 0, false],
      ["spec", ".spec", 0, true],
    ]);
    const spec = byName(nodeChildren(root[1]));
    expect(Object.keys(spec)).toEqual(["size", "replicas", "minReplicas", "port", "labels", "tags", "ports", "template", "app.kubernetes.io/name"]);
    expect(spec.size.required).toBe(true);
    expect(spec.replicas.required).toBe(false);
    expect(spec.size.depth).toBe(1);
    expect(spec["app.kubernetes.io/name"].path).toBe(".spec['app.kubernetes.io/name']");
  });

  it("looks through an array's items: their fields are the array's children, their rules its 'each item'", () => {
    const ports = byName(nodeChildren(schemaChildren(schema)[1])).ports;
    expect(ports.facts.type).toBe("[]object");
    expect(ports.hasChildren).toBe(true);
    expect(ports.each).toEqual({ label: "each item", facts: expect.objectContaining({ rules: [{ rule: "self.port > 0" }] }) });
    const fields = nodeChildren(ports);
    expect(fields.map((n) => [n.path, n.required, n.depth])).toEqual([
      [".spec.ports[*].name", true, 2],
      [".spec.ports[*].port", false, 2],
    ]);
    expect(fields[0].facts.constraints).toEqual(["pattern: ^[a-z]+$"]);
  });

  it("a map's or list's plain values fold into the type; values with bounds are its 'each value'", () => {
    const spec = byName(nodeChildren(schemaChildren(schema)[1]));
    expect(spec.tags.hasChildren).toBe(false);
    expect(spec.tags.each).toBeUndefined();
    expect(spec.tags.facts.type).toBe("[]string");
    expect(spec.labels.facts.type).toBe("map[string]string");
    expect(spec.labels.each).toEqual({ label: "each value", facts: expect.objectContaining({ constraints: ["maxLength: 63"] }) });
  });

  it("reads one level only, so opening a field of a huge schema costs its own children", () => {
    // A schema that throws when anything below the first level is read.
    const trap = new Proxy({}, { get: () => { throw new Error("read too deep"); } }) as JSONSchemaProps;
    const wide: JSONSchemaProps = { type: "object", properties: {} };
    for (let i = 0; i < 2000; i++) wide.properties![`f${i}`] = { type: "object", properties: { deeper: { type: "object", properties: { x: trap } } } };
    const nodes = schemaChildren({ type: "object", properties: { spec: wide } });
    const fields = nodeChildren(nodes[0]);
    expect(fields).toHaveLength(2000);
    expect(fields.every((n) => n.hasChildren)).toBe(true);
    expect(() => nodeChildren(fields[0])).not.toThrow();
  });

  it("is empty for a schema with no fields (preserve-unknown-fields) or none at all", () => {
    expect(schemaChildren({ type: "object", "x-kubernetes-preserve-unknown-fields": true })).toEqual([]);
    expect(schemaChildren(undefined)).toEqual([]);
  });
});

describe("startsOpen and findFields", () => {
  it("opens the first two levels only", () => {
    expect([0, 1, 2, 3].map(startsOpen)).toEqual([true, true, false, false]);
  });

  it("finds fields by name (or by path with a dot) and opens the fields above them", () => {
    const found = findFields(schema, "NAME");
    expect(found.matches).toEqual([".spec.ports[*].name", ".spec['app.kubernetes.io/name']"]);
    expect([...found.open].sort()).toEqual([".spec", ".spec.ports"]);
    expect(findFields(schema, "ports[*].po").matches).toEqual([".spec.ports[*].port"]);
    expect(findFields(schema, " ").matches).toEqual([]);
  });
});

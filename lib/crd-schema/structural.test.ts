import { describe, expect, it } from "vitest";
import { applicationSchema, certificateSchema, serviceMonitorSchema } from "./example-schemas";
import { crdSchemaErrors, selectableFieldErrors, structuralSchemaErrors } from "./structural";
import type { JSONSchemaProps } from "./types";

const base = "spec.versions[0].schema.openAPIV3Schema";
const render = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: "object", properties: { spec } });

describe("structuralSchemaErrors", () => {
  it("accepts the realistic schemas (cert-manager-like, ServiceMonitor-like, Argo CD-like)", () => {
    expect(structuralSchemaErrors(certificateSchema, base)).toEqual([]);
    expect(structuralSchemaErrors(serviceMonitorSchema, base)).toEqual([]);
    expect(structuralSchemaErrors(applicationSchema, base)).toEqual([]);
    expect(crdSchemaErrors(certificateSchema, base, { statusSubresource: true })).toEqual([]);
    expect(crdSchemaErrors(serviceMonitorSchema, base)).toEqual([]);
    expect(crdSchemaErrors(applicationSchema, base)).toEqual([]);
  });

  it("a field without a type, at each level, with kube's words and path", () => {
    const schema: JSONSchemaProps = {
      properties: { spec: { type: "object", properties: { replicas: {}, list: { type: "array", items: {} } } } },
    };
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
      `${base}.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields`,
      `${base}.type: Required value: must not be empty at the root`,
    ]);
    const e = structuralSchemaErrors(schema, base)[0];
    expect(e.type).toBe("FieldValueRequired");
  });

  it("an array needs items; the root must be an object without additionalProperties", () => {
    expect(render(structuralSchemaErrors({ type: "array" }, base))).toEqual([
      `${base}.items: Required value: must be specified`,
      `${base}.type: Invalid value: "array": must be object at the root`,
    ]);
    expect(render(structuralSchemaErrors({ type: "object", additionalProperties: { type: "string" } }, base))).toEqual([
      `${base}.additionalProperties: Forbidden: must not be used at the root`,
    ]);
  });

  it("value validations under allOf/anyOf/oneOf/not may not carry type, additionalProperties, defaults or extensions", () => {
    const schema = withSpec({
      type: "object",
      properties: { a: { type: "string" } },
      anyOf: [{ type: "object", properties: { a: { description: "doc", nullable: true } } }],
      not: { "x-kubernetes-preserve-unknown-fields": true, additionalProperties: { type: "string" } },
      oneOf: [{ default: "x", "x-kubernetes-validations": [{ rule: "true" }] }],
    });
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].anyOf[0].properties[a].description: Forbidden: must be empty to be structural`,
      `${base}.properties[spec].anyOf[0].properties[a].nullable: Forbidden: must be false to be structural`,
      `${base}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${base}.properties[spec].not.additionalProperties: Forbidden: must be undefined to be structural`,
      `${base}.properties[spec].not.x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
      `${base}.properties[spec].oneOf[0].default: Forbidden: must be undefined to be structural`,
      `${base}.properties[spec].oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ]);
  });

  it("what a value validation names must be specified outside it (completeness)", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: { spec: { type: "object" } },
      anyOf: [{ properties: { spec: { properties: { b: { maxLength: 3 } } } } }],
    };
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[b]: Required value: because it is defined in ${base}.anyOf[0].properties[spec].properties[b]`,
    ]);
  });

  it("int-or-string: the anyOf and allOf patterns are allowed, other anyOf types are not", () => {
    const ok = withSpec({
      type: "object",
      properties: {
        a: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
        b: { "x-kubernetes-int-or-string": true, allOf: [{ anyOf: [{ type: "integer" }, { type: "string" }] }, { pattern: "^\\d+%?$" }] },
        c: { "x-kubernetes-int-or-string": true },
      },
    });
    expect(structuralSchemaErrors(ok, base)).toEqual([]);
    const bad = withSpec({
      type: "object",
      properties: {
        a: { "x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true, anyOf: [{ type: "integer" }, { type: "boolean" }] },
      },
    });
    expect(render(structuralSchemaErrors(bad, base))).toEqual([
      `${base}.properties[spec].properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${base}.properties[spec].properties[a].anyOf[1].type: Forbidden: must be empty to be structural`,
      `${base}.properties[spec].properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
  });

  it("metadata: only name and generateName at the root, nothing in a nested context, kind/apiVersion strings", () => {
    const ok: JSONSchemaProps = {
      type: "object",
      properties: { metadata: { type: "object", properties: { name: { type: "string", maxLength: 63 } } } },
    };
    expect(structuralSchemaErrors(ok, base)).toEqual([]);
    const bad: JSONSchemaProps = {
      type: "object",
      properties: {
        kind: { type: "integer" },
        metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } } },
        spec: { type: "object", properties: { a: { type: "string" } }, allOf: [{ properties: { metadata: {} } }] },
      },
    };
    expect(render(structuralSchemaErrors(bad, base))).toEqual([
      `${base}.properties[kind].type: Invalid value: "integer": must be string`,
      `${base}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      `${base}.properties[spec].allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
    ]);
  });

  it("x-kubernetes-embedded-resource: an object with properties unless it preserves unknown fields", () => {
    const schema = withSpec({
      type: "object",
      properties: {
        template: { "x-kubernetes-embedded-resource": true },
        other: { type: "object", "x-kubernetes-embedded-resource": true, additionalProperties: { type: "string" } },
        fine: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      },
    });
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[other].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
      `${base}.properties[spec].properties[other].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${base}.properties[spec].properties[template].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${base}.properties[spec].properties[template].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
  });

  it("defaults must validate against their schema and be pruned already", () => {
    const schema = withSpec({
      type: "object",
      properties: {
        replicas: { type: "integer", default: "three" },
        size: { type: "integer", minimum: 1, default: 0 },
        mode: { type: "string", enum: ["a", "b"], default: "c" },
        nested: { type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } },
      },
    });
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
      `${base}.properties[spec].properties[size].default: Invalid value: 0:  in body should be greater than or equal to 1`,
      `${base}.properties[spec].properties[mode].default: Unsupported value: "c": supported values: "a", "b"`,
      `${base}.properties[spec].properties[nested].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`,
    ]);
  });

  it("an unknown field in a default is reported and the default is still validated; CEL rules check defaults too", () => {
    const schema = withSpec({
      type: "object",
      properties: {
        nested: { type: "object", properties: { a: { type: "integer" } }, default: { a: "x", b: "y" } },
        window: {
          type: "object",
          properties: { start: { type: "integer" }, end: { type: "integer" } },
          default: { start: 5, end: 1 },
          "x-kubernetes-validations": [{ rule: "self.start <= self.end", message: "start must not be after end" }],
        },
      },
    });
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[nested].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`,
      `${base}.properties[spec].properties[nested].default.a: Invalid value: "string": a in body must be of type integer: "string"`,
      `${base}.properties[spec].properties[window].default: Invalid value: "object": start must not be after end`,
    ]);
  });

  it("an invalid pattern is refused with Go's regexp error", () => {
    const schema = withSpec({ type: "object", properties: { a: { type: "string", pattern: "^(abc$" } } });
    expect(render(structuralSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[a].pattern: Invalid value: "^(abc$": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`^(abc$\``,
    ]);
  });

  it("a schema that cannot be converted (items as an array) reports why", () => {
    expect(render(structuralSchemaErrors(withSpec({ type: "array", items: [{ type: "string" }] }), base))).toEqual([
      `${base}: Invalid value: "": OpenAPIV3Schema 'items' must be a schema, but is an array`,
    ]);
  });
});

describe("crdSchemaErrors", () => {
  it("unsupported keywords, uniqueItems, and additionalProperties with properties", () => {
    const schema = withSpec({
      type: "object",
      properties: {
        a: { type: "array", items: { type: "string" }, uniqueItems: true },
        b: { type: "object", properties: { x: { type: "string" } }, additionalProperties: { type: "string" } },
        c: { type: "null" },
      },
    });
    expect(render(crdSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${base}.properties[spec].properties[b].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${base}.properties[spec].properties[c].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${base}.properties[spec].properties[c].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ]);
  });

  it("items as an array is refused as kube refuses it, the conversion error staying hidden", () => {
    expect(render(crdSchemaErrors(withSpec({ type: "array", items: [{ type: "string" }] }), base))).toEqual([
      `${base}.properties[spec].items: Forbidden: items must be a schema object and not an array`,
    ]);
  });

  it("nullable at the root, defaults in top-level metadata, and the status subresource's root", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      nullable: true,
      properties: { metadata: { type: "object", default: {} }, spec: { type: "object" } },
    };
    expect(render(crdSchemaErrors(schema, base, { statusSubresource: true }))).toEqual([
      `${base}: Invalid value: apiextensions.JSONSchemaProps{...}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
      `${base}.nullable: Forbidden: nullable cannot be true at the root`,
      `${base}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it("list and map types, list-map keys and their items", () => {
    const schema = withSpec({
      type: "object",
      properties: {
        a: { type: "object", "x-kubernetes-list-type": "set" },
        b: { type: "array", items: { type: "object", properties: { name: { type: "string" } } }, "x-kubernetes-list-type": "map" },
        c: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name", "port"],
          items: { type: "object", required: ["name"], properties: { name: { type: "string" }, port: { type: "integer", nullable: true } } },
        },
        d: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "bag" },
        e: { type: "string", "x-kubernetes-map-type": "granular" },
        f: { type: "array", items: { type: "object", properties: { a: { type: "string" } } }, "x-kubernetes-list-type": "set" },
      },
    });
    expect(render(crdSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[a].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
      `${base}.properties[spec].properties[b].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      `${base}.properties[spec].properties[c].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${base}.properties[spec].properties[c].items.properties[port].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
      `${base}.properties[spec].properties[d].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
      `${base}.properties[spec].properties[e].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
      `${base}.properties[spec].properties[f].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
  });

  it("x-kubernetes-validations: the rule's fields, then its compilation", () => {
    const schema = withSpec({
      type: "object",
      properties: { replicas: { type: "integer" }, name: { type: "string" } },
      "x-kubernetes-validations": [
        { rule: "  " },
        { rule: "self.replicas > 0", message: "   " },
        { rule: "self.replicas > 0", reason: "FieldValueBad" },
        { rule: "self.replicas > 0", fieldPath: ".nope" },
      ],
    });
    expect(render(crdSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${base}.properties[spec].x-kubernetes-validations[1].message: Invalid value: "   ": message must be non-empty if specified`,
      `${base}.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "FieldValueBad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${base}.properties[spec].x-kubernetes-validations[3].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ]);
  });

  it("a rule that does not compile names the rule, kube's compile message and where", () => {
    const schema = withSpec({
      type: "object",
      properties: { replicas: { type: "integer" }, list: { type: "array", items: { type: "object", properties: { a: { type: "string" } }, "x-kubernetes-validations": [{ rule: "self.a == oldSelf.a" }] } } },
      "x-kubernetes-validations": [
        { rule: "self.replicas > minReplicas" },
        { rule: "self.replicaz > 0" },
        { rule: "self.replicas + 1" },
        { rule: "self.replicas > 0", optionalOldSelf: true },
      ],
    });
    expect(render(crdSchemaErrors(schema, base))).toEqual([
      `${base}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within ${base}.properties[spec].properties[list]`,
      `${base}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas > minReplicas", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:17: undeclared reference to 'minReplicas' (in container '')\n | self.replicas > minReplicas\n | ................^`,
      `${base}.properties[spec].x-kubernetes-validations[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicaz > 0", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'replicaz'\n | self.replicaz > 0\n | ....^`,
      `${base}.properties[spec].x-kubernetes-validations[2].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas + 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool`,
      `${base}.properties[spec].x-kubernetes-validations[3].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
  });

  it("rules are not compiled while the schema is not structural", () => {
    const schema: JSONSchemaProps = { properties: { spec: { type: "object", "x-kubernetes-validations": [{ rule: "nonsense(" }] } } };
    expect(render(crdSchemaErrors(schema, base))).toEqual([`${base}.type: Required value: must not be empty at the root`]);
  });
});

describe("selectableFieldErrors", () => {
  const path = "spec.versions[0].selectableFields";
  it("accepts scalar fields outside metadata and refuses the rest with kube's words", () => {
    expect(selectableFieldErrors([{ jsonPath: ".spec.secretName" }, { jsonPath: ".spec.isCA" }], certificateSchema, path)).toEqual([]);
    expect(render(selectableFieldErrors([
      { jsonPath: "" },
      { jsonPath: ".spec.nope" },
      { jsonPath: ".spec.issuerRef" },
      { jsonPath: ".spec.dnsNames[0]" },
      { jsonPath: ".spec.secretName" },
      { jsonPath: ".spec.secretName" },
    ], certificateSchema, path))).toEqual([
      `${path}[0].jsonPath: Required value`,
      `${path}[1].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field`,
      `${path}[2].jsonPath: Invalid value: ".spec.issuerRef": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
      `${path}[3].jsonPath: Invalid value: ".spec.dnsNames[0]": is an invalid path: array notation is not allowed`,
      `${path}[5].jsonPath: Duplicate value: ".spec.secretName"`,
    ]);
  });

  it("at most 8 distinct fields", () => {
    const schema = withSpec({ type: "object", properties: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: "string" }])) });
    const fields = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    expect(render(selectableFieldErrors(fields, schema, path))).toEqual([`${path}: Too many: 9: must have at most 8 items`]);
  });
});

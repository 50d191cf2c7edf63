import { describe, expect, it } from "vitest";
import { blockingCause, celValidationErrors, celValidatorFor, compileCelValidator, compileRule, escapeName, validFieldPath } from "./cel-rules";
import { certificateSchema } from "./example-schemas";
import type { JSONSchemaProps, ValidationRule } from "./types";
import { schemaErrors } from "./validate";

const render = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);

const certificate = (spec: Record<string, unknown>) => ({
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { name: "web" },
  spec: { secretName: "web-tls", issuerRef: { name: "ca" }, ...spec },
});

/** A root schema whose spec has `rules` and a few typed fields. */
const specWith = (rules: ValidationRule[], extra: Record<string, JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: "object",
  properties: {
    metadata: { type: "object" },
    spec: {
      type: "object",
      "x-kubernetes-validations": rules,
      properties: {
        replicas: { type: "integer" },
        minReplicas: { type: "integer" },
        name: { type: "string" },
        mode: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        ...extra,
      },
    },
  },
});

const run = (schema: JSONSchemaProps, obj: unknown, old?: unknown) =>
  celValidationErrors(compileCelValidator(schema), obj, old === undefined ? {} : { old: { value: old } });

describe("x-kubernetes-validations", () => {
  const validator = compileCelValidator(certificateSchema);

  it("compiles once per schema; a passing object has no errors", () => {
    expect(validator).toBeDefined();
    expect(celValidationErrors(validator, certificate({ dnsNames: ["a.example.com"] }))).toEqual({ errors: [], warnings: [] });
  });

  it("a failing rule reports its message at the rule's node, the value being the schema type", () => {
    const { errors } = celValidationErrors(validator, certificate({ commonName: undefined }));
    expect(render(errors)).toEqual([`spec: Invalid value: "object": at least one of commonName or dnsNames must be set`]);
    expect(errors[0].type).toBe("FieldValueInvalid");
  });

  it("fieldPath moves the error to the field it names", () => {
    const { errors } = celValidationErrors(validator, certificate({ commonName: "a", privateKey: { algorithm: "Ed25519", size: 256 } }));
    expect(render(errors)).toEqual([`spec.privateKey.size: Invalid value: "object": size may not be set for Ed25519 keys`]);
  });

  it("without a message: failed rule: <rule>; messageExpression wins when it evaluates to a string", () => {
    const schema = specWith([
      { rule: "self.replicas >= self.minReplicas" },
      { rule: "self.replicas <= 10", messageExpression: "'replicas must be at most 10, got ' + string(self.replicas)" },
    ]);
    expect(render(run(schema, { spec: { replicas: 20, minReplicas: 30 } }).errors)).toEqual([
      `spec: Invalid value: "object": failed rule: self.replicas >= self.minReplicas`,
      `spec: Invalid value: "object": replicas must be at most 10, got 20`,
    ]);
  });

  it("reason chooses the error type", () => {
    const schema = specWith([
      { rule: "self.mode != 'legacy'", message: "legacy mode is gone", reason: "FieldValueForbidden" },
      { rule: "has(self.name)", message: "name is required", reason: "FieldValueRequired", fieldPath: ".name" },
      { rule: "self.tags.all(t, self.tags.exists_one(u, u == t))", message: "tags must be unique", reason: "FieldValueDuplicate", fieldPath: ".tags" },
    ]);
    const { errors } = run(schema, { spec: { mode: "legacy", tags: ["a", "a"] } });
    expect(render(errors)).toEqual([
      "spec: Forbidden: legacy mode is gone",
      "spec.name: Required value: name is required",
      `spec.tags: Duplicate value: "object"`,
    ]);
    expect(errors.map((e) => e.type)).toEqual(["FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"]);
  });

  it("rules on scalars and list items carry their own type and index", () => {
    const schema = specWith([], {
      name: { type: "string", "x-kubernetes-validations": [{ rule: "self.matches('^[a-z]+$')", message: "lowercase letters only" }] },
      tags: { type: "array", items: { type: "string", "x-kubernetes-validations": [{ rule: "size(self) <= 3" }] } },
    });
    expect(render(run(schema, { spec: { name: "Web", tags: ["ok", "toolong"] } }).errors)).toEqual([
      `spec.name: Invalid value: "string": lowercase letters only`,
      `spec.tags[1]: Invalid value: "string": failed rule: size(self) <= 3`,
    ]);
  });

  it("transition rules run only on update, against the old value", () => {
    const schema = specWith([{ rule: "self.name == oldSelf.name", message: "name is immutable" }]);
    expect(run(schema, { spec: { name: "a" } }).errors).toEqual([]);
    expect(run(schema, { spec: { name: "a" } }, { spec: { name: "a" } }).errors).toEqual([]);
    expect(render(run(schema, { spec: { name: "b" } }, { spec: { name: "a" } }).errors)).toEqual([`spec: Invalid value: "object": name is immutable`]);
  });

  it("transition rules on list-map items compare each item with the old item of the same key", () => {
    const schema = specWith([], {
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, protocol: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "self.protocol == oldSelf.protocol", message: "protocol is immutable" }],
        },
      },
    });
    const old = { spec: { ports: [{ name: "http", protocol: "TCP" }, { name: "dns", protocol: "UDP" }] } };
    // reordered, one added: nothing changed for the keys that existed
    expect(run(schema, { spec: { ports: [{ name: "dns", protocol: "UDP" }, { name: "http", protocol: "TCP" }, { name: "new", protocol: "SCTP" }] } }, old).errors).toEqual([]);
    expect(render(run(schema, { spec: { ports: [{ name: "dns", protocol: "TCP" }, { name: "http", protocol: "TCP" }] } }, old).errors)).toEqual([
      `spec.ports[0]: Invalid value: "object": protocol is immutable`,
    ]);
  });

  it("optionalOldSelf runs a transition rule on create too, oldSelf being null there", () => {
    const schema = specWith([{ rule: "oldSelf == null || self.replicas >= oldSelf.replicas", message: "replicas may only grow", optionalOldSelf: true }]);
    expect(run(schema, { spec: { replicas: 1 } }).errors).toEqual([]);
    expect(render(run(schema, { spec: { replicas: 1 } }, { spec: { replicas: 2 } }).errors)).toEqual([`spec: Invalid value: "object": replicas may only grow`]);
  });

  it("ratcheting: an unchanged value's failure is a warning, not an error", () => {
    const schema = specWith([{ rule: "self.replicas <= 10", message: "too many replicas" }]);
    const old = { metadata: { name: "a" }, spec: { replicas: 20 } };
    const same = run(schema, { metadata: { name: "a", labels: { x: "y" } }, spec: { replicas: 20 } }, old);
    expect(same.errors).toEqual([]);
    expect(same.warnings).toEqual([`spec: Invalid value: "object": too many replicas`]);
    expect(render(run(schema, { spec: { replicas: 21 } }, old).errors)).toEqual([`spec: Invalid value: "object": too many replicas`]);
  });

  it("evaluation errors are reported with kube's wording and the next rule still runs", () => {
    const schema = specWith([{ rule: "self.name.startsWith('a')" }, { rule: "self.replicas > 0", message: "positive" }]);
    expect(render(run(schema, { spec: { replicas: 0 } }).errors)).toEqual([
      `spec: Invalid value: "object": no such key: name evaluating rule: self.name.startsWith('a')`,
      `spec: Invalid value: "object": positive`,
    ]);
  });

  it("at the root, self sees apiVersion, kind and metadata.name/generateName only", () => {
    const schema: JSONSchemaProps = { ...specWith([]), "x-kubernetes-validations": [{ rule: "self.metadata.name.startsWith('web-')", message: "name must start with web-" }] };
    expect(render(run(schema, { apiVersion: "v1", kind: "X", metadata: { name: "db" }, spec: {} }).errors)).toEqual([
      `<nil>: Invalid value: "object": name must start with web-`,
    ]);
    const labels = compileRule({ rule: "has(self.metadata.labels)" }, specWith([]), true);
    expect(labels.error?.detail).toBe("compilation failed: ERROR: <input>:1:18: undefined field 'labels'\n | has(self.metadata.labels)\n | .................^");
  });

  it("property names are escaped as kube escapes them", () => {
    expect(escapeName("x-y")).toBe("x__dash__y");
    expect(escapeName("namespace")).toBe("__namespace__");
    expect(escapeName("a.b/c__d")).toBe("a__dot__b__slash__c__underscores__d");
    expect(escapeName("has space")).toBeUndefined();
    const schema = specWith([{ rule: "self.max__dash__surge <= 2 && self.__namespace__ != ''" }], { "max-surge": { type: "integer" }, namespace: { type: "string" } });
    expect(run(schema, { spec: { "max-surge": 1, namespace: "a" } }).errors).toEqual([]);
    expect(run(schema, { spec: { "max-surge": 3, namespace: "a" } }).errors).toHaveLength(1);
  });

  it("kube's list, regex and url libraries", () => {
    const schema = specWith([
      { rule: "self.tags.isSorted()", message: "sorted" },
      { rule: "self.name.find('[0-9]+') == '42'", message: "find" },
      { rule: "self.tags.indexOf('b') == 1", message: "indexOf" },
      { rule: "isURL(self.mode) && url(self.mode).getScheme() == 'https' && url(self.mode).getHost() == 'example.com:8443'", message: "url" },
      { rule: "[1, 5, 3].max() == 5 && [1, 5, 3].sum() == 9", message: "max/sum" },
      { rule: "self.name.findAll('[a-z]').size() == 3", message: "findAll" },
    ]);
    expect(run(schema, { spec: { tags: ["a", "b", "c"], name: "abc42", mode: "https://example.com:8443/x" } }).errors).toEqual([]);
    expect(render(run(schema, { spec: { tags: ["c", "b"], name: "ab7", mode: "not a url" } }).errors)).toEqual([
      `spec: Invalid value: "object": sorted`,
      `spec: Invalid value: "object": find`,
      `spec: Invalid value: "object": url`,
      `spec: Invalid value: "object": findAll`,
    ]);
  });

  it("date-time, date and duration formatted strings are timestamps and durations, byte fields bytes", () => {
    const schema = specWith(
      [
        { rule: "self.notAfter > timestamp('2026-01-01T00:00:00Z')", message: "expired" },
        { rule: "self.renewBefore < duration('720h')", message: "renewBefore too long" },
        { rule: "self.day < self.notAfter", message: "day" },
        { rule: "self.data == b'hi'", message: "bytes" },
      ],
      {
        notAfter: { type: "string", format: "date-time" },
        renewBefore: { type: "string", format: "duration" },
        day: { type: "string", format: "date" },
        data: { type: "string", format: "byte" },
      },
    );
    expect(run(schema, { spec: { notAfter: "2027-03-01T12:00:00Z", renewBefore: "360h", day: "2027-02-28", data: "aGk=" } }).errors).toEqual([]);
    expect(render(run(schema, { spec: { notAfter: "2025-03-01T12:00:00Z", renewBefore: "1000h", day: "2027-02-28", data: "aGk=" } }).errors)).toEqual([
      `spec: Invalid value: "object": expired`,
      `spec: Invalid value: "object": renewBefore too long`,
      `spec: Invalid value: "object": day`,
    ]);
  });

  it("cost: the per-call limit and the request budget stop the rules with kube's messages", () => {
    const schema = specWith([{ rule: "self.tags.all(t, t != '')", message: "no empty tags" }, { rule: "self.replicas > 0" }]);
    const big = { spec: { replicas: 0, tags: Array.from({ length: 200_000 }, (_, i) => `t${i}`) } };
    expect(render(run(schema, big).errors)).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: no empty tags`,
    ]);
    const tight = celValidationErrors(compileCelValidator(schema), { spec: { replicas: 1, tags: ["a"] } }, { budget: 3 });
    expect(render(tight.errors)).toEqual([
      `spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run`,
    ]);
  });

  it("a transition rule's messageExpression may read oldSelf; one that cannot give a string is refused", () => {
    const schema = specWith([{ rule: "self.replicas >= oldSelf.replicas", messageExpression: "'replicas may not shrink from ' + string(oldSelf.replicas)" }]);
    expect(render(run(schema, { spec: { replicas: 1 } }, { spec: { replicas: 3 } }).errors)).toEqual([`spec: Invalid value: "object": replicas may not shrink from 3`]);
    expect(compileRule({ rule: "true", messageExpression: "self.replicas > 1" }, specWith([]).properties!.spec).messageExpressionError)
      .toBe("messageExpression must evaluate to a string");
  });

  it("syntax errors and constant patterns that do not compile are compile errors, with kube's snippet", () => {
    const spec = specWith([]).properties!.spec;
    expect(compileRule({ rule: "self.name.matches(')')" }, spec).error?.detail)
      .toBe("compilation failed: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches(')')\n | ..................^");
    expect(compileRule({ rule: "self.replicas >" }, spec).error?.detail).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: .*\n \| self\.replicas >\n \| \.*\^$/s);
  });

  it("int-or-string values are ints or strings, told apart with type()", () => {
    const schema = specWith([], {
      maxUnavailable: {
        "x-kubernetes-int-or-string": true,
        anyOf: [{ type: "integer" }, { type: "string" }],
        "x-kubernetes-validations": [{ rule: "type(self) == string ? self.matches('^[0-9]+%$') : self >= 0", message: "a count or a percentage" }],
      },
    });
    expect(run(schema, { spec: { maxUnavailable: "25%" } }).errors).toEqual([]);
    expect(run(schema, { spec: { maxUnavailable: 2 } }).errors).toEqual([]);
    expect(render(run(schema, { spec: { maxUnavailable: "many" } }).errors)).toEqual([`spec.maxUnavailable: Invalid value: "": a count or a percentage`]);
    expect(render(run(schema, { spec: { maxUnavailable: -1 } }).errors)).toEqual([`spec.maxUnavailable: Invalid value: "": a count or a percentage`]);
  });

  it("the same schema object is compiled once", () => {
    expect(celValidatorFor(certificateSchema)).toBe(celValidatorFor(certificateSchema));
    expect(celValidatorFor({ type: "object" })).toBeUndefined();
  });

  it("a schema without rules has no validator", () => {
    expect(compileCelValidator({ type: "object", properties: { a: { type: "string" } } })).toBeUndefined();
    expect(celValidationErrors(undefined, {})).toEqual({ errors: [], warnings: [] });
  });
});

describe("blockingCause", () => {
  it("type, required, enum, too long and too many schema errors stop the rules, with kube's extra cause", () => {
    const errs = schemaErrors(certificateSchema, certificate({ isCA: "yes" }));
    expect(render([blockingCause(errs)!])).toEqual([
      `<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
    ]);
    const pattern = schemaErrors({ type: "object", properties: { a: { type: "string", minLength: 3 } } }, { a: "x" });
    expect(pattern).toHaveLength(1);
    expect(blockingCause(pattern)).toBeUndefined();
  });
});

describe("validFieldPath", () => {
  const schema = specWith([], { labels: { type: "object", additionalProperties: { type: "string" } } }).properties!.spec;
  it("renders a rule's fieldPath as a field path, or says why it is not one", () => {
    expect(validFieldPath(".replicas", schema)).toBe("replicas");
    expect(validFieldPath(".labels['app.kubernetes.io/name']", schema)).toBe("labels[app.kubernetes.io/name]");
    expect((validFieldPath(".nope", schema) as Error).message).toBe("does not refer to a valid field");
    expect((validFieldPath("replicas", schema) as Error).message).toBe("expected [ or . but got: replicas");
  });
});

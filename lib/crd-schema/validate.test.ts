import { describe, expect, it } from "vitest";
import { applicationSchema, certificateSchema, serviceMonitorSchema } from "./example-schemas";
import type { JSONSchemaProps } from "./types";
import { embeddedResourceErrors, listTypeErrors, schemaErrors } from "./validate";

const render = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);

const certificate = (spec: Record<string, unknown>) => ({
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { name: "web", namespace: "default" },
  spec: { secretName: "web-tls", issuerRef: { name: "ca" }, ...spec },
});

describe("schemaErrors", () => {
  it("a valid object has none", () => {
    expect(schemaErrors(certificateSchema, certificate({ dnsNames: ["a.example.com"], privateKey: { algorithm: "ECDSA", size: 256 } }))).toEqual([]);
  });

  it("wrong type: TypeInvalid with kube-openapi's words, the value being the JSON type found", () => {
    const errs = schemaErrors(certificateSchema, certificate({ isCA: "yes", revisionHistoryLimit: "3" }));
    expect(render(errs)).toEqual([
      `spec.isCA: Invalid value: "string": spec.isCA in body must be of type boolean: "string"`,
      `spec.revisionHistoryLimit: Invalid value: "string": spec.revisionHistoryLimit in body must be of type integer: "string"`,
    ]);
    expect(errs[0].type).toBe("FieldValueTypeInvalid");
    expect(render(schemaErrors(certificateSchema, certificate({ revisionHistoryLimit: 2.5 })))).toEqual([
      `spec.revisionHistoryLimit: Invalid value: "number": spec.revisionHistoryLimit in body must be of type integer: "number"`,
    ]);
  });

  it("required fields, at the root and nested", () => {
    expect(render(schemaErrors(certificateSchema, { apiVersion: "cert-manager.io/v1", kind: "Certificate", metadata: { name: "a" } }))).toEqual([
      "spec: Required value",
    ]);
    expect(render(schemaErrors(certificateSchema, certificate({ issuerRef: { kind: "ClusterIssuer" }, secretName: undefined })))).toEqual([
      "spec.issuerRef.name: Required value",
      "spec.secretName: Required value",
    ]);
  });

  it("enum: Unsupported value with the supported values quoted", () => {
    const errs = schemaErrors(certificateSchema, certificate({ privateKey: { algorithm: "DSA" }, usages: ["server auth", "code signing"] }));
    expect(render(errs)).toEqual([
      `spec.usages[1]: Unsupported value: "code signing": supported values: "signing", "digital signature", "key encipherment", "server auth", "client auth"`,
      `spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"`,
    ]);
    expect(errs[0].type).toBe("FieldValueNotSupported");
  });

  it("string lengths and pattern", () => {
    expect(render(schemaErrors(certificateSchema, certificate({ secretName: "", commonName: "x".repeat(65) })))).toEqual([
      `spec.secretName: Invalid value: "": spec.secretName in body should be at least 1 chars long`,
      "spec.commonName: Too long: may not be more than 64 bytes",
    ]);
    const sm = { spec: { selector: {}, endpoints: [{ port: "web", interval: "30 seconds" }] } };
    expect(render(schemaErrors(serviceMonitorSchema, sm))).toEqual([
      `spec.endpoints[0].interval: Invalid value: "30 seconds": spec.endpoints[0].interval in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'`,
    ]);
  });

  it("formats kube supports: date-time is checked, int32 is not a string format", () => {
    const errs = schemaErrors(certificateSchema, { ...certificate({}), status: { notAfter: "next tuesday" } });
    expect(render(errs)).toEqual([`status.notAfter: Invalid value: "next tuesday": status.notAfter in body must be of type date-time: "next tuesday"`]);
    expect(errs[0].type).toBe("FieldValueTypeInvalid");
    expect(schemaErrors(certificateSchema, { ...certificate({}), status: { notAfter: "2026-11-28T06:00:00Z" } })).toEqual([]);
    const uri: JSONSchemaProps = { type: "object", properties: { u: { type: "string", format: "uri" }, ip: { type: "string", format: "ipv4" } } };
    expect(render(schemaErrors(uri, { u: "123", ip: "10.0.0.300" }))).toEqual([
      `u: Invalid value: "123": u in body must be of type uri: "123"`,
      `ip: Invalid value: "10.0.0.300": ip in body must be of type ipv4: "10.0.0.300"`,
    ]);
  });

  it("minimum/maximum and their exclusive forms, integers printed as Go prints them", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        port: { type: "integer", minimum: 1, maximum: 65535 },
        ratio: { type: "number", exclusiveMinimum: true, minimum: 0, exclusiveMaximum: true, maximum: 1000000 },
      },
    };
    expect(render(schemaErrors(schema, { port: 66666, ratio: 0 }))).toEqual([
      "port: Invalid value: 66666: port in body should be less than or equal to 65535",
      "ratio: Invalid value: 0: ratio in body should be greater than 0",
    ]);
    expect(render(schemaErrors(schema, { port: 0, ratio: 2000000.5 }))).toEqual([
      "port: Invalid value: 0: port in body should be greater than or equal to 1",
      "ratio: Invalid value: 2.0000005e+06: ratio in body should be less than 1e+06",
    ]);
  });

  it("item and property counts", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
        labels: { type: "object", additionalProperties: { type: "string" }, maxProperties: 1 },
        tags: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 },
      },
    };
    const errs = schemaErrors(schema, { list: ["a", "b", "c"], labels: { a: "1", b: "2" }, tags: {} });
    expect(render(errs)).toEqual([
      "list: Too many: 3: must have at most 2 items",
      "labels: Too many: 2: must have at most 1 items",
      "tags: Invalid value: 0: tags in body should have at least 1 properties",
    ]);
    expect(render(schemaErrors(schema, { list: [] }))).toEqual(["list: Invalid value: 0: list in body should have at least 1 items"]);
  });

  it("nullable: null passes only where the schema allows it", () => {
    const schema: JSONSchemaProps = { type: "object", properties: { a: { type: "string", nullable: true }, b: { type: "string" } } };
    expect(render(schemaErrors(schema, { a: null, b: null }))).toEqual([`b: Invalid value: "null": b in body must be of type string: "null"`]);
  });

  it("int-or-string accepts both and, when neither, fails the type and the anyOf", () => {
    const sm = (targetPort: unknown) => ({ spec: { selector: {}, endpoints: [{ targetPort }] } });
    expect(schemaErrors(serviceMonitorSchema, sm(8080))).toEqual([]);
    expect(schemaErrors(serviceMonitorSchema, sm("http"))).toEqual([]);
    expect(render(schemaErrors(serviceMonitorSchema, sm(true)))).toEqual([
      `spec.endpoints[0].targetPort: Invalid value: "boolean": spec.endpoints[0].targetPort in body must be of type integer,string: "boolean"`,
      // the anyOf of the int-or-string pattern is validated too: kube-openapi adds its composite and best failure
      `<nil>: Invalid value: "": "spec.endpoints[0].targetPort" must validate at least one schema (anyOf)`,
      `spec.endpoints[0].targetPort: Invalid value: "boolean": spec.endpoints[0].targetPort in body must be of type integer: "boolean"`,
    ]);
  });

  it("allOf/anyOf/oneOf/not: kube's composite message on <nil>, then the failing alternative", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        source: {
          type: "object",
          properties: { git: { type: "string" }, oci: { type: "string" } },
          oneOf: [{ required: ["git"] }, { required: ["oci"] }],
        },
        mode: { type: "string", not: { enum: ["legacy"] } },
        size: { type: "string", anyOf: [{ pattern: "^\\d+$" }, { pattern: "^\\d+Gi$" }] },
      },
    };
    expect(render(schemaErrors(schema, { source: { git: "a", oci: "b" } }))).toEqual([
      `<nil>: Invalid value: "": "source" must validate one and only one schema (oneOf). Found 2 valid alternatives`,
    ]);
    expect(render(schemaErrors(schema, { source: {}, mode: "legacy", size: "ten" }))).toEqual([
      `<nil>: Invalid value: "": "source" must validate one and only one schema (oneOf). Found none valid`,
      "source.git: Required value",
      `<nil>: Invalid value: "": "mode" must not validate the schema (not)`,
      `<nil>: Invalid value: "": "size" must validate at least one schema (anyOf)`,
      `size: Invalid value: "ten": size in body should match '^\\d+$'`,
    ]);
  });

  it("preserve-unknown-fields and Argo CD-like free-form values are not checked below", () => {
    const app = {
      metadata: { name: "guestbook" },
      spec: { project: "default", destination: { server: "https://kubernetes.default.svc" }, source: { repoURL: "https://x", helm: { valuesObject: { replicas: "two", nested: { a: [1] } } } } },
      status: { sync: { status: "Synced" } },
    };
    expect(schemaErrors(applicationSchema, app)).toEqual([]);
    expect(render(schemaErrors(applicationSchema, { metadata: {}, spec: { destination: {}, source: {} } }))).toEqual([
      "spec.source.repoURL: Required value",
      "spec.project: Required value",
    ]);
  });

  it("a base path puts the errors under it (a CRD default's path)", () => {
    expect(render(schemaErrors({ type: "integer" }, "x", { basePath: "p.default" }))).toEqual([
      `p.default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
  });

  describe("ratcheting (an update given the old object)", () => {
    const old = certificate({ commonName: "x".repeat(70), revisionHistoryLimit: 0 });

    it("an unchanged invalid field passes; a changed one fails", () => {
      expect(render(schemaErrors(certificateSchema, old))).toEqual([
        "spec.commonName: Too long: may not be more than 64 bytes",
        "spec.revisionHistoryLimit: Invalid value: 0: spec.revisionHistoryLimit in body should be greater than or equal to 1",
      ]);
      const updated = structuredClone(old);
      (updated.spec as Record<string, unknown>).isCA = true;
      expect(schemaErrors(certificateSchema, updated, { old: { value: old } })).toEqual([]);
      (updated.spec as Record<string, unknown>).revisionHistoryLimit = -1;
      expect(render(schemaErrors(certificateSchema, updated, { old: { value: old } }))).toEqual([
        "spec.revisionHistoryLimit: Invalid value: -1: spec.revisionHistoryLimit in body should be greater than or equal to 1",
      ]);
    });

    it("list-map items correlate by key, other list items do not", () => {
      const status = (conds: unknown[]) => ({ ...certificate({}), status: { conditions: conds } });
      const before = status([{ type: "Ready", status: "Maybe" }, { type: "Issuing", status: "True" }]);
      const after = status([{ type: "Issuing", status: "False" }, { type: "Ready", status: "Maybe" }]);
      expect(schemaErrors(certificateSchema, after, { old: { value: before } })).toEqual([]);
      const oldUsages = certificate({ usages: ["bogus"] });
      const newUsages = certificate({ usages: ["bogus", "signing"] });
      expect(render(schemaErrors(certificateSchema, newUsages, { old: { value: oldUsages } }))).toEqual([
        `spec.usages[0]: Unsupported value: "bogus": supported values: "signing", "digital signature", "key encipherment", "server auth", "client auth"`,
      ]);
    });
  });
});

describe("listTypeErrors", () => {
  it("a set's repeated value and a map's repeated key: Duplicate value at the second appearance", () => {
    const obj = { ...certificate({ dnsNames: ["a", "b", "a", "a"] }), status: { conditions: [{ type: "Ready", status: "True" }, { type: "Ready", status: "False" }] } };
    const errs = listTypeErrors(certificateSchema, obj);
    expect(render(errs)).toEqual([
      `spec.dnsNames[2]: Duplicate value: "a"`,
      `status.conditions[1]: Duplicate value: map[string]interface {}{"type":"Ready"}`,
    ]);
    expect(errs[0].type).toBe("FieldValueDuplicate");
  });

  it("a list-map item that is not an object", () => {
    expect(render(listTypeErrors(certificateSchema, { status: { conditions: ["Ready"] } }))).toEqual([
      `status.conditions[0]: Invalid value: "Ready": must be an object for an array of list-type map`,
    ]);
  });
});

describe("embeddedResourceErrors", () => {
  it("an embedded resource needs apiVersion and kind as non-empty strings", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: { template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } },
    };
    expect(render(embeddedResourceErrors(schema, { template: { kind: 3, metadata: {} } }))).toEqual([
      "template.apiVersion: Required value",
      "template.kind: Invalid value: 3: must be a string",
    ]);
    expect(embeddedResourceErrors(schema, { template: { apiVersion: "v1", kind: "ConfigMap" } })).toEqual([]);
  });
});

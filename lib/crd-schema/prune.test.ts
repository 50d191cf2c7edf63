import { describe, expect, it } from "vitest";
import { applicationSchema, certificateSchema, serviceMonitorSchema } from "./example-schemas";
import { prune, strictDecodingMessage, unknownFieldWarning } from "./prune";
import type { JSONSchemaProps } from "./types";

describe("prune", () => {
  it("drops unknown fields at any depth and names each as kube's warning does, sorted", () => {
    const obj = {
      apiVersion: "cert-manager.io/v1",
      kind: "Certificate",
      metadata: { name: "web", namespace: "default", labels: { a: "b" } },
      spec: {
        secretName: "web-tls",
        secretNmae: "typo",
        issuerRef: { name: "ca", namespace: "x" },
        secretTemplate: { labels: { team: "a" }, extra: true },
      },
      stauts: {},
    };
    const pruned = prune(obj, certificateSchema);
    expect(pruned).toEqual(["spec.issuerRef.namespace", "spec.secretNmae", "spec.secretTemplate.extra", "stauts"]);
    expect(obj).toEqual({
      apiVersion: "cert-manager.io/v1",
      kind: "Certificate",
      metadata: { name: "web", namespace: "default", labels: { a: "b" } },
      spec: { secretName: "web-tls", issuerRef: { name: "ca" }, secretTemplate: { labels: { team: "a" } } },
    });
    expect(pruned.map(unknownFieldWarning)[0]).toBe('unknown field "spec.issuerRef.namespace"');
    expect(strictDecodingMessage("Certificate", "v1", pruned.slice(0, 2))).toBe(
      'Certificate in version "v1" cannot be handled as a Certificate: strict decoding error: unknown field "spec.issuerRef.namespace", unknown field "spec.secretNmae"',
    );
  });

  it("list items are pruned by the items schema, with their index in the path", () => {
    const obj = { spec: { selector: {}, endpoints: [{ port: "web", bogus: 1 }, { port: "metrics", relabelings: [{ action: "keep", when: "now" }] }] } };
    expect(prune(obj, serviceMonitorSchema)).toEqual(["spec.endpoints[0].bogus", "spec.endpoints[1].relabelings[0].when"]);
    expect(obj.spec.endpoints).toEqual([{ port: "web" }, { port: "metrics", relabelings: [{ action: "keep" }] }]);
  });

  it("keeps everything under x-kubernetes-preserve-unknown-fields (Argo CD-like valuesObject and status)", () => {
    const obj = {
      spec: {
        project: "default",
        destination: {},
        source: { repoURL: "https://x", helm: { valuesObject: { anything: { goes: [1, { deep: true }] } } } },
      },
      status: { health: { status: "Healthy" }, sync: {} },
      operation: { sync: { revision: "HEAD" } },
    };
    const before = structuredClone(obj);
    expect(prune(obj, applicationSchema)).toEqual([]);
    expect(obj).toEqual(before);
  });

  it("below preserve-unknown-fields, specified fields are still pruned inside", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { known: { type: "object", properties: { a: { type: "string" } } } } },
      },
    };
    const obj = { spec: { free: { x: 1 }, known: { a: "1", b: "2" } } };
    expect(prune(obj, schema)).toEqual(["spec.known.b"]);
    expect(obj).toEqual({ spec: { free: { x: 1 }, known: { a: "1" } } });
  });

  it("additionalProperties values are pruned by their schema; map keys join the path with dots", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: { type: "object", properties: { nodes: { type: "object", additionalProperties: { type: "object", properties: { cpu: { type: "integer" } } } } } },
      },
    };
    const obj = { spec: { nodes: { "node-1": { cpu: 2, gpu: 1 } } } };
    expect(prune(obj, schema)).toEqual(["spec.nodes.node-1.gpu"]);
  });

  it("metadata is cut to ObjectMeta's fields (the root's reported last); embedded resources keep apiVersion, kind and metadata", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            template: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object", properties: { image: { type: "string" } } } } },
          },
        },
      },
    };
    const obj = {
      apiVersion: "example.com/v1",
      kind: "Thing",
      metadata: { name: "a", color: "blue", ownerReferences: [{ apiVersion: "v1", kind: "X", name: "o", uid: "1", weight: 2 }] },
      spec: { template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p", flavor: "x" }, spec: { image: "nginx", command: ["sh"] }, extra: 1 } },
    };
    // the root's metadata comes last; an embedded resource's metadata is cut silently, as kube's coercion does
    expect(prune(obj, schema)).toEqual([
      "spec.template.extra", "spec.template.spec.command", "metadata.color", "metadata.ownerReferences[0].weight",
    ]);
    expect(obj.metadata).toEqual({ name: "a", ownerReferences: [{ apiVersion: "v1", kind: "X", name: "o", uid: "1" }] });
    expect(obj.spec.template).toEqual({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { image: "nginx" } });
  });

  it("not at a resource root, apiVersion/kind/metadata are pruned like any field (kube leaves them unreported at the top)", () => {
    const obj: Record<string, unknown> = { kind: "x", a: 1, b: 2 };
    expect(prune(obj, { type: "object", properties: { a: { type: "integer" } } }, { isResourceRoot: false })).toEqual(["b"]);
    expect(obj).toEqual({ a: 1 });
  });
});

// Server-side apply of custom resources takes the field structure from the CRD version's schema, as kube builds
// its structured-merge-diff type: list-maps by their keys (a key's default filling in), sets by value, atomic
// lists/maps/objects as one field, preserve-unknown-fields deduced, undeclared fields refused.
import { describe, expect, it } from "vitest";
import { isStatusError, type StatusError } from "../status";
import { customKinds } from "../kinds/custom-kind";
import type { CustomResourceDefinition } from "../kinds/custom-resource-definition";
import type { KubeObject } from "../kinds/types";
import { applyConfiguration } from "./field-manager";
import type { ManagedFieldsEntry } from "./managed-fields";

const crd: CustomResourceDefinition = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "gateways.net.example.com" },
  spec: {
    group: "net.example.com", scope: "Namespaced",
    names: { plural: "gateways", singular: "gateway", kind: "Gateway" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: {
        listeners: {
          type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"],
          items: { type: "object", required: ["name"], properties: {
            name: { type: "string" }, protocol: { type: "string", default: "TCP" }, port: { type: "integer" }, hostname: { type: "string" },
          } },
        },
        hosts: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
        addresses: { type: "array", items: { type: "string" } },
        tls: { type: "object", "x-kubernetes-map-type": "atomic", properties: { secret: { type: "string" }, mode: { type: "string" } } },
        options: { type: "object", additionalProperties: { type: "string" } },
        extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      } } } } },
    }],
  },
} as CustomResourceDefinition;
const kind = customKinds(crd)[0];

type Obj = Record<string, unknown>;
const gw = (spec: Obj): Obj => ({ apiVersion: "net.example.com/v1", kind: "Gateway", metadata: { name: "g", namespace: "default" }, spec });

function applyAs(live: KubeObject | undefined, manager: string, config: Obj, force = false): KubeObject {
  const outcome = applyConfiguration({ kind }, live, config, manager, force);
  const obj = structuredClone(outcome.object);
  obj.metadata.uid ??= "uid-1";
  obj.metadata.managedFields = outcome.managedFields as KubeObject["metadata"]["managedFields"];
  return obj;
}

function refused(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error("expected a Status error");
}

const fieldsOf = (obj: KubeObject, manager: string) =>
  ((obj.metadata.managedFields ?? []) as ManagedFieldsEntry[]).find((e) => e.manager === manager)?.fieldsV1;

describe("server-side apply of a custom resource by its CRD schema", () => {
  it("keeps both managers' entries of a list-map, each owning its own key (the default filling in a missing key)", () => {
    let obj = applyAs(undefined, "alice", gw({ listeners: [{ name: "http", port: 80 }] }));
    obj = applyAs(obj, "bob", gw({ listeners: [{ name: "https", protocol: "TLS", port: 443 }] }));
    expect((obj.spec as Obj).listeners).toEqual([{ name: "http", port: 80 }, { name: "https", protocol: "TLS", port: 443 }]);
    expect(fieldsOf(obj, "alice")).toEqual({ "f:spec": { "f:listeners": {
      'k:{"name":"http","protocol":"TCP"}': { ".": {}, "f:name": {}, "f:port": {} },
    } } });
    expect(fieldsOf(obj, "bob")).toEqual({ "f:spec": { "f:listeners": {
      'k:{"name":"https","protocol":"TLS"}': { ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {} },
    } } });
    // alice drops her entry: bob's stays.
    obj = applyAs(obj, "alice", gw({}));
    expect((obj.spec as Obj).listeners).toEqual([{ name: "https", protocol: "TLS", port: 443 }]);
  });

  it("answers a change to another manager's field of the same key with kube's 409, and force takes it", () => {
    let obj = applyAs(undefined, "alice", gw({ listeners: [{ name: "http", port: 80 }] }));
    const err = refused(() => applyAs(obj, "bob", gw({ listeners: [{ name: "http", port: 8080 }] })));
    expect(err.code).toBe(409);
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.listeners[name="http",protocol="TCP"].port');
    expect(err.details?.causes).toEqual([
      { reason: "FieldManagerConflict", message: 'conflict with "alice"', field: '.spec.listeners[name="http",protocol="TCP"].port' },
    ]);
    obj = applyAs(obj, "bob", gw({ listeners: [{ name: "http", port: 8080 }] }), true);
    expect((obj.spec as Obj).listeners).toEqual([{ name: "http", port: 8080 }]);
    expect(fieldsOf(obj, "alice")).toEqual({ "f:spec": { "f:listeners": { 'k:{"name":"http","protocol":"TCP"}': { ".": {}, "f:name": {} } } } });
  });

  it("merges a set by value and replaces an atomic list whole", () => {
    let obj = applyAs(undefined, "alice", gw({ hosts: ["a.example", "b.example"], addresses: ["10.0.0.1"] }));
    obj = applyAs(obj, "bob", gw({ hosts: ["b.example", "c.example"] }));
    expect((obj.spec as Obj).hosts).toEqual(["a.example", "b.example", "c.example"]);
    expect(fieldsOf(obj, "bob")).toEqual({ "f:spec": { "f:hosts": { 'v:"b.example"': {}, 'v:"c.example"': {} } } });
    const err = refused(() => applyAs(obj, "bob", gw({ addresses: ["10.0.0.2"] })));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.addresses');
  });

  it("owns an x-kubernetes-map-type atomic object as one field, a granular map key by key", () => {
    let obj = applyAs(undefined, "alice", gw({ tls: { secret: "s" }, options: { a: "1" } }));
    expect(fieldsOf(obj, "alice")).toEqual({ "f:spec": { "f:options": { "f:a": {} }, "f:tls": {} } });
    obj = applyAs(obj, "bob", gw({ options: { b: "2" } }));
    expect((obj.spec as Obj).options).toEqual({ a: "1", b: "2" });
    const err = refused(() => applyAs(obj, "bob", gw({ tls: { secret: "s", mode: "strict" } })));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.tls');
  });

  it("deduces the structure under preserve-unknown-fields and refuses fields the schema does not declare", () => {
    const obj = applyAs(undefined, "alice", gw({ extra: { anything: { deep: [1, 2] } } }));
    expect(fieldsOf(obj, "alice")).toEqual({ "f:spec": { "f:extra": { "f:anything": { ".": {}, "f:deep": {} } } } });
    const err = refused(() => applyAs(undefined, "alice", gw({ color: "blue" })));
    expect(err.code).toBe(400);
    expect(err.message).toBe("failed to create typed patch object (default/g; net.example.com/v1, Kind=Gateway): .spec.color: field not declared in schema");
  });
});

describe("the structure kube's converter reads from a CRD schema", () => {
  const kindOf = (spec: object) => customKinds({
    ...crd, spec: { ...crd.spec, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } }] },
  } as CustomResourceDefinition)[0];

  it("carries preserve-unknown-fields down to every object below, and takes any field in a free-form object", () => {
    const k = kindOf({
      type: "object", properties: {
        open: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { inner: { type: "object", properties: { a: { type: "string" } } } } },
        free: { type: "object" },
        closed: { type: "object", properties: { a: { type: "string" } } },
      },
    });
    const apply = (spec: Obj) => applyConfiguration({ kind: k }, undefined, gw(spec), "alice", false);
    expect(apply({ open: { inner: { a: "x", b: "y" } }, free: { anything: 1 } }).object.spec).toEqual({ open: { inner: { a: "x", b: "y" } }, free: { anything: 1 } });
    expect(refused(() => apply({ closed: { b: "y" } })).message).toContain(".spec.closed.b: field not declared in schema");
  });
});

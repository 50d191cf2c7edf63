// A Gateway API HTTPRoute-like schema end to end: the CRD's schema is accepted, its rules compile, and objects
// go through pruning, defaulting and validation as kube would take them.
import { describe, expect, it } from "vitest";
import { celValidatorFor } from "./cel-rules";
import { customResourceErrors } from "./custom-resource-errors";
import { applyDefaults } from "./defaults";
import { routeSchema } from "./example-schemas";
import { prune } from "./prune";
import { crdSchemaErrors } from "./structural";

const render = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);

function write(obj: Record<string, unknown>, old?: Record<string, unknown>) {
  const unknown = prune(obj, routeSchema);
  applyDefaults(obj, routeSchema);
  return { unknown, ...customResourceErrors(routeSchema, obj, old ? { old } : {}) };
}

describe("an HTTPRoute-like resource", () => {
  it("its schema passes the CRD checks and every rule compiles", () => {
    expect(crdSchemaErrors(routeSchema, "spec.versions[0].schema.openAPIV3Schema", { statusSubresource: true })).toEqual([]);
    expect(celValidatorFor(routeSchema)).toBeDefined();
  });

  it("an empty spec is defaulted to one rule matching every path, and passes", () => {
    const obj: Record<string, any> = { apiVersion: "gateway.example.com/v1", kind: "Route", metadata: { name: "r" }, spec: {} };
    const result = write(obj);
    expect(result).toEqual({ unknown: [], errors: [], warnings: [] });
    expect(obj.spec).toEqual({ rules: [{ matches: [{ path: { type: "PathPrefix", value: "/" } }] }] });
    const withRules: Record<string, any> = { metadata: { name: "r" }, spec: { rules: [{ backendRefs: [{ name: "web", port: 80 }] }] } };
    expect(write(withRules).errors).toEqual([]);
    expect(withRules.spec.rules[0]).toEqual({
      matches: [{ path: { type: "PathPrefix", value: "/" } }],
      backendRefs: [{ name: "web", port: 80, group: "", kind: "Service", weight: 1 }],
    });
  });

  it("rule failures name the field with the rule's message", () => {
    const obj = {
      metadata: { name: "r" },
      spec: {
        hostnames: ["Example.com"],
        rules: [
          { name: "a", matches: [{ path: { type: "Exact", value: "docs//x" } }], backendRefs: [{ name: "web" }], timeouts: { request: "10s", backendRequest: "20s" } },
          { name: "a", extra: true },
        ],
      },
    };
    const result = write(obj);
    expect(result.unknown).toEqual(["spec.rules[1].extra"]);
    // the rules of an object's fields run in the object's field order (kube: Go's map order)
    expect(render(result.errors)).toEqual([
      `spec.hostnames[0]: Invalid value: "Example.com": spec.hostnames[0] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'`,
      `spec.rules: Invalid value: "array": Rule name must be unique within the route`,
      `spec.rules[0].matches[0].path: Invalid value: "object": value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']`,
      `spec.rules[0].matches[0].path: Invalid value: "object": must not contain '//' when type one of ['Exact', 'PathPrefix']`,
      `spec.rules[0].backendRefs[0]: Invalid value: "object": Must have port for Service reference`,
      `spec.rules[0].timeouts: Invalid value: "object": backendRequest timeout cannot be longer than request timeout`,
    ]);
  });

  it("a bound violated makes kube skip the rules, with its extra cause", () => {
    const obj = { metadata: { name: "r" }, spec: { rules: [{ backendRefs: [{ name: "web", port: 70000 }] }], hostnames: Array.from({ length: 17 }, (_, i) => `h${i}.example.com`) } };
    expect(render(write(obj).errors)).toEqual([
      "spec.hostnames: Too many: 17: must have at most 16 items",
      "spec.rules[0].backendRefs[0].port: Invalid value: 70000: spec.rules[0].backendRefs[0].port in body should be less than or equal to 65535",
      `<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
    ]);
  });

  it("on update, a rule that already failed and is unchanged is a warning; duplicate header names are refused", () => {
    const bad = { metadata: { name: "r" }, spec: { rules: [{ name: "a" }, { name: "a" }] } };
    const old = structuredClone(bad);
    applyDefaults(old, routeSchema);
    const next = { ...structuredClone(bad), metadata: { name: "r", labels: { team: "x" } } };
    expect(write(next, old)).toEqual({ unknown: [], errors: [], warnings: [`spec.rules: Invalid value: "array": Rule name must be unique within the route`] });
    const headers = { metadata: { name: "r" }, spec: { rules: [{ matches: [{ headers: [{ name: "x", value: "1" }, { name: "x", value: "2" }] }] }] } };
    expect(render(write(headers).errors)).toEqual([`spec.rules[0].matches[0].headers[1]: Duplicate value: map[string]interface {}{"name":"x"}`]);
  });
});

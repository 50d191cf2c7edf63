import { describe, expect, it } from "vitest";
import { compileCelValidator } from "./cel-rules";
import { customResourceErrors } from "./custom-resource-errors";
import { certificateSchema } from "./example-schemas";

const render = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);
const celValidator = compileCelValidator(certificateSchema);

const certificate = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { name: "web" },
  spec: { secretName: "web-tls", issuerRef: { name: "ca" }, commonName: "web", ...spec },
  ...(status ? { status } : {}),
});

describe("customResourceErrors", () => {
  it("a valid Certificate passes schema, list and rule checks", () => {
    expect(customResourceErrors(certificateSchema, certificate({ dnsNames: ["a", "b"] }), { celValidator })).toEqual({ errors: [], warnings: [] });
  });

  it("schema errors that block the rules add kube's extra cause instead of running them", () => {
    const { errors } = customResourceErrors(certificateSchema, certificate({ commonName: undefined, isCA: "yes" }), { celValidator });
    expect(render(errors)).toEqual([
      `spec.isCA: Invalid value: "string": spec.isCA in body must be of type boolean: "string"`,
      `<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
    ]);
  });

  it("a non-blocking schema error (a pattern, a minimum, a duplicate) still lets the rules run", () => {
    const { errors } = customResourceErrors(certificateSchema, certificate({ commonName: undefined, revisionHistoryLimit: 0, dnsNames: ["a", "a"] }), { celValidator });
    expect(render(errors)).toEqual([
      "spec.revisionHistoryLimit: Invalid value: 0: spec.revisionHistoryLimit in body should be greater than or equal to 1",
      `spec.dnsNames[1]: Duplicate value: "a"`,
    ]);
    const none = customResourceErrors(certificateSchema, certificate({ commonName: undefined, dnsNames: [] }), { celValidator });
    expect(render(none.errors)).toEqual([`spec: Invalid value: "object": at least one of commonName or dnsNames must be set`]);
  });

  it("on update, an old object's duplicate list entries are not held against the new one", () => {
    const old = certificate({}, { conditions: [{ type: "Ready", status: "True" }, { type: "Ready", status: "False" }] });
    const next = certificate({ isCA: true }, { conditions: [{ type: "Ready", status: "True" }, { type: "Ready", status: "False" }] });
    expect(customResourceErrors(certificateSchema, next, { celValidator, old }).errors).toEqual([]);
    expect(render(customResourceErrors(certificateSchema, next, { celValidator }).errors)).toEqual([
      `status.conditions[1]: Duplicate value: map[string]interface {}{"type":"Ready"}`,
    ]);
  });

  it("on update, an unchanged rule failure is a warning", () => {
    const old = certificate({ commonName: undefined });
    const next = { ...certificate({ commonName: undefined }), metadata: { name: "web", labels: { a: "b" } } };
    expect(customResourceErrors(certificateSchema, next, { celValidator, old })).toEqual({
      errors: [],
      warnings: [`spec: Invalid value: "object": at least one of commonName or dnsNames must be set`],
    });
  });
});

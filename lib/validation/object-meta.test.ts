import { describe, expect, it } from "vitest";
import type { NameRule, ObjectMeta } from "../kinds/types";
import { nameErrors, namespaceErrors, validateObjectMeta, validateObjectMetaUpdate } from "./object-meta";

const subdomain: { namespaced: boolean; nameRule: NameRule } = { namespaced: true, nameRule: "dns1123-subdomain" };
const cause = (meta: ObjectMeta, opts = subdomain) =>
  validateObjectMeta(meta, opts).map((e) => ({ field: e.field, reason: e.type, message: e.detail }));
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe("names", () => {
  it.each([
    ["a", "dns1123-subdomain", []],
    ["a.b-c", "dns1123-subdomain", []],
    ["A", "dns1123-subdomain", [SUBDOMAIN_MSG]],
    ["x".repeat(254), "dns1123-subdomain", ["must be no more than 253 characters"]],
    ["a.b", "dns1035-label", [
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ["1a", "dns1035-label", [
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ["Any Thing:1", "path-segment", []],
    ["..", "path-segment", ["may not be '..'"]],
    ["a/b%c", "path-segment", ["may not contain '/'", "may not contain '%'"]],
  ] as const)("%s under %s", (name, rule, expected) => {
    expect(nameErrors(name, rule)).toEqual(expected);
  });

  it("a generateName prefix may end in a dash", () => {
    expect(nameErrors("web-", "dns1123-subdomain", true)).toEqual([]);
    expect(nameErrors("web-", "dns1123-subdomain")).toEqual([SUBDOMAIN_MSG]);
  });

  it("namespaces are DNS-1123 labels", () => {
    expect(namespaceErrors("kube-system")).toEqual([]);
    expect(namespaceErrors("a.b")).toHaveLength(1);
  });
});

describe("validateObjectMeta", () => {
  it("accepts a plain namespaced object", () => {
    expect(cause({ name: "a", namespace: "default", labels: { app: "x" }, annotations: { "example.com/a": "b" } })).toEqual([]);
  });

  it.each<[string, ObjectMeta, { field: string; reason: string; message: string }[]]>([
    ["missing name", { namespace: "default" }, [
      { field: "metadata.name", reason: "FieldValueRequired", message: "Required value: name or generateName is required" },
    ]],
    ["bad name", { name: "A", namespace: "default" }, [
      { field: "metadata.name", reason: "FieldValueInvalid", message: `Invalid value: "A": ${SUBDOMAIN_MSG}` },
    ]],
    ["missing namespace", { name: "a" }, [
      { field: "metadata.namespace", reason: "FieldValueRequired", message: "Required value" },
    ]],
    ["bad label value", { name: "a", namespace: "d", labels: { a: "-x" } }, [{
      field: "metadata.labels", reason: "FieldValueInvalid",
      message: "Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    }]],
    ["annotations too large", { name: "a", namespace: "d", annotations: { a: "x".repeat(256 * 1024) } }, [
      { field: "metadata.annotations", reason: "FieldValueTooLong", message: "Too long: must have at most 262144 bytes" },
    ]],
    ["unqualified custom finalizer", { name: "a", namespace: "d", finalizers: ["mine"] }, [{
      field: "metadata.finalizers[0]", reason: "FieldValueInvalid",
      message: "Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified",
    }]],
    ["orphan and foreground together", { name: "a", namespace: "d", finalizers: ["orphan", "foregroundDeletion"] }, [{
      field: "metadata.finalizers", reason: "FieldValueInvalid",
      message: "Invalid value: []string{\"orphan\", \"foregroundDeletion\"}: finalizer orphan and foregroundDeletion cannot be both set",
    }]],
    ["owner reference without uid", { name: "a", namespace: "d", ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "" }] }, [
      { field: "metadata.ownerReferences.uid", reason: "FieldValueInvalid", message: "Invalid value: \"\": must not be empty" },
    ]],
    ["negative generation", { name: "a", namespace: "d", generation: -1 }, [
      { field: "metadata.generation", reason: "FieldValueInvalid", message: "Invalid value: -1: must be greater than or equal to 0" },
    ]],
  ])("%s", (_, meta, expected) => {
    expect(cause(meta)).toEqual(expected);
  });

  it("forbids a namespace on cluster-scoped kinds", () => {
    expect(cause({ name: "a", namespace: "d" }, { namespaced: false, nameRule: "dns1123-subdomain" })).toEqual([
      { field: "metadata.namespace", reason: "FieldValueForbidden", message: "Forbidden: not allowed on this type" },
    ]);
  });

  it("does not apply the standard-finalizer rule to path-segment kinds (core/v1 Events)", () => {
    expect(cause({ name: "e", namespace: "d", finalizers: ["mine"] }, { namespaced: true, nameRule: "path-segment" })).toEqual([]);
  });

  it("only one owner reference may be the controller", () => {
    const refs = [
      { apiVersion: "v1", kind: "A", name: "a", uid: "1", controller: true },
      { apiVersion: "v1", kind: "B", name: "b", uid: "2", controller: true },
    ];
    const [e] = validateObjectMeta({ name: "a", namespace: "d", ownerReferences: refs }, subdomain);
    expect(e.field).toBe("metadata.ownerReferences");
    expect(e.detail).toMatch(/Only one reference can have Controller set to true\. Found "true" in references for A\/a and B\/b$/);
  });
});

describe("validateObjectMetaUpdate", () => {
  const old: ObjectMeta = { name: "a", namespace: "d", uid: "u1", creationTimestamp: "2024-01-02T03:04:05Z", generation: 2 };

  it("accepts unchanged identity", () => {
    expect(validateObjectMetaUpdate({ ...old, labels: { a: "b" } }, old)).toEqual([]);
  });

  it("rejects changed name, uid and creationTimestamp", () => {
    const errs = validateObjectMetaUpdate({ ...old, name: "b", uid: "u2", creationTimestamp: "2024-01-02T03:04:06Z" }, old);
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ["metadata.name", "Invalid value: \"b\": field is immutable"],
      ["metadata.uid", "Invalid value: \"u2\": field is immutable"],
      ["metadata.creationTimestamp", "Invalid value: 2024-01-02 03:04:06 +0000 UTC: field is immutable"],
    ]);
  });

  it("rejects a decremented generation", () => {
    expect(validateObjectMetaUpdate({ ...old, generation: 1 }, old).map((e) => e.detail)).toEqual([
      "Invalid value: 1: must not be decremented",
    ]);
  });

  it("rejects new finalizers while deleting", () => {
    const deleting = { ...old, deletionTimestamp: "2024-01-03T00:00:00Z", finalizers: ["a/b"] };
    expect(validateObjectMetaUpdate({ ...deleting, finalizers: ["a/b", "c/d"] }, deleting).map((e) => [e.field, e.detail])).toEqual([
      ["metadata.finalizers", "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"c/d\"}"],
    ]);
    expect(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
  });
});

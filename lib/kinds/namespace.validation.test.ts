import { describe, expect, it } from "vitest";
import { namespace, type Namespace } from "./namespace";
import { create, created, templateOf, update, variant } from "./validation-harness";

const base = templateOf<Namespace>(namespace);
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe("Namespace create", () => {
  it("is Active, carries the kubernetes finalizer and the name label, whatever the client sent", () => {
    const ns = created<Namespace>(namespace, variant(base, (n) => {
      n.status = { phase: "Terminating" };
      n.metadata.labels = { team: "a", "kubernetes.io/metadata.name": "other" };
    }));
    expect(ns.status).toEqual({ phase: "Active" });
    expect(ns.spec).toEqual({ finalizers: ["kubernetes"] });
    expect(ns.metadata.labels).toEqual({ team: "a", "kubernetes.io/metadata.name": "team-a" });
  });

  it("keeps the client's finalizers and appends kubernetes once", () => {
    expect(created<Namespace>(namespace, variant(base, (n) => { n.spec = { finalizers: ["example.com/keep"] }; })).spec)
      .toEqual({ finalizers: ["example.com/keep", "kubernetes"] });
    expect(created<Namespace>(namespace, variant(base, (n) => { n.spec = { finalizers: ["kubernetes"] }; })).spec)
      .toEqual({ finalizers: ["kubernetes"] });
  });

  it("requires a DNS-1123 label name (no dots, unlike most kinds)", () => {
    expect(create(namespace, variant(base, (n) => { n.metadata.name = "team.a"; })).causes).toEqual([
      { field: "metadata.name", reason: "FieldValueInvalid", message: 'Invalid value: "team.a": must not contain dots' },
    ]);
    expect(create(namespace, variant(base, (n) => { n.metadata.name = "Team"; })).causes).toEqual([
      { field: "metadata.name", reason: "FieldValueInvalid", message: `Invalid value: "Team": ${LABEL_MSG}` },
    ]);
  });

  it("refuses spec finalizers that are not qualified or standard names, at the list's path", () => {
    expect(create(namespace, variant(base, (n) => { n.spec = { finalizers: ["mine", "example.com/ok", "orphan"] }; })).causes).toEqual([
      { field: "spec.finalizers", reason: "FieldValueInvalid", message: 'Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified' },
    ]);
    const causes = create(namespace, variant(base, (n) => { n.spec = { finalizers: ["a/b/c"] }; })).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: "spec.finalizers", reason: "FieldValueInvalid" });
    expect(causes[0].message).toContain("a qualified name must consist of alphanumeric characters");
  });
});

describe("Namespace update", () => {
  const old = created<Namespace>(namespace, base);

  it("keeps spec.finalizers and status on the main resource, and re-asserts the name label", () => {
    const result = update(namespace, old, variant(old, (n) => {
      n.spec = { finalizers: [] };
      n.status = { phase: "Terminating" };
      n.metadata.labels = { team: "b" };
    }));
    expect(result.causes).toEqual([]);
    expect(result.object.spec).toEqual({ finalizers: ["kubernetes"] });
    expect(result.object.status).toEqual({ phase: "Active" });
    expect(result.object.metadata.labels).toEqual({ team: "b", "kubernetes.io/metadata.name": "team-a" });
  });

  it("/status: the phase must match the deletion timestamp (reported at kube's status.Phase)", () => {
    const validate = namespace.statusStrategy!.validateUpdate!;
    expect(validate(variant(old, (n) => { n.status = { phase: "Terminating" }; }), old)).toEqual([
      { type: "FieldValueInvalid", field: "status.Phase", detail: 'Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty' },
    ]);
    const deleting = variant(old, (n) => { n.metadata.deletionTimestamp = "2025-01-01T00:00:00Z"; });
    expect(validate(deleting, deleting)).toEqual([
      { type: "FieldValueInvalid", field: "status.Phase", detail: 'Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty' },
    ]);
    expect(validate(variant(deleting, (n) => { n.status = { phase: "Terminating" }; }), deleting)).toEqual([]);
  });

  it("/finalize: takes the body's finalizers, keeps the stored status and system metadata, checks names by index", () => {
    const stored = variant(old, (n) => {
      n.metadata.uid = "u-1";
      n.metadata.creationTimestamp = "2025-01-01T00:00:00Z";
      n.metadata.deletionTimestamp = "2025-01-02T00:00:00Z";
      n.status = { phase: "Terminating" };
    });
    const finalize = namespace.updateSubresources!.finalize;
    const body = variant(stored, (n) => {
      n.spec = { finalizers: ["example.com/x"] };
      n.status = { phase: "Active" };
      delete n.metadata.uid;
      delete n.metadata.deletionTimestamp;
    });
    const merged = finalize.merge(structuredClone(body), structuredClone(stored));
    expect(merged.spec).toEqual({ finalizers: ["example.com/x"] });
    expect(merged.status).toEqual({ phase: "Terminating" });
    expect(merged.metadata).toMatchObject({ uid: "u-1", creationTimestamp: "2025-01-01T00:00:00Z", deletionTimestamp: "2025-01-02T00:00:00Z" });
    expect(finalize.validateUpdate!(variant(merged, (n) => { n.spec = { finalizers: ["kubernetes", "bad"] }; }), stored)).toEqual([
      { type: "FieldValueInvalid", field: "spec.finalizers[1]", detail: 'Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified' },
    ]);
  });
});

describe("Namespace deletion", () => {
  const old = created<Namespace>(namespace, base);

  it("stays, Terminating, while spec.finalizers is non-empty", () => {
    const marked = variant(old, (n) => { n.metadata.deletionTimestamp = "2025-01-01T00:00:00Z"; n.metadata.deletionGracePeriodSeconds = 0; });
    const kept = namespace.beginDeletion!(marked, "2025-01-01T00:00:00Z");
    expect(kept?.status?.phase).toBe("Terminating");
    expect(kept?.metadata.deletionGracePeriodSeconds).toBeUndefined();
    expect(namespace.holdsDeletion!(kept!)).toBe(true);
  });

  it("is marked Terminating even without spec finalizers, which then hold nothing (kube removes it at once)", () => {
    const bare = variant(old, (n) => { n.spec = {}; n.metadata.deletionTimestamp = "2025-01-01T00:00:00Z"; });
    expect(namespace.beginDeletion!(bare, "2025-01-01T00:00:00Z")?.status).toMatchObject({ phase: "Terminating" });
    expect(namespace.holdsDeletion!(bare)).toBe(false);
  });

  it("prints its phase in the Status column", () => {
    const cell = namespace.columns.find((c) => c.name === "Status")!.cell;
    expect(cell(variant(old, (n) => { n.status = { phase: "Terminating" }; }), 0)).toBe("Terminating");
    expect(cell(old, 0)).toBe("Active");
  });
});

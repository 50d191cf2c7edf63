import { describe, expect, it } from "vitest";
import { persistentVolumeClaim, type PersistentVolumeClaim } from "./persistent-volume-claim";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<PersistentVolumeClaim>(persistentVolumeClaim);
const s = (pvc: PersistentVolumeClaim) => pvc.spec!;

const rows: Row<PersistentVolumeClaim>[] = [
  ["no access modes", (c) => { s(c).accessModes = []; },
    { field: "spec.accessModes", reason: "FieldValueRequired", message: "Required value: at least 1 access mode is required" }],
  ["an unknown access mode", (c) => { s(c).accessModes = ["RWO"]; },
    { field: "spec.accessModes", reason: "FieldValueNotSupported", message: 'Unsupported value: "RWO": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"' }],
  ["no storage request", (c) => { s(c).resources = { requests: {} }; },
    { field: "spec.resources[storage]", reason: "FieldValueRequired", message: "Required value" }],
  ["a zero storage request", (c) => { s(c).resources = { requests: { storage: "0" } }; },
    { field: "spec.resources[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "0": must be greater than zero' }],
  ["a selector with an In requirement and no values", (c) => { s(c).selector = { matchExpressions: [{ key: "tier", operator: "In" }] }; },
    { field: "spec.selector.matchExpressions[0].values", reason: "FieldValueRequired", message: "Required value: must be specified when `operator` is 'In' or 'NotIn'" }],
  ["a selector with values on Exists", (c) => { s(c).selector = { matchExpressions: [{ key: "tier", operator: "Exists", values: ["a"] }] }; },
    { field: "spec.selector.matchExpressions[0].values", reason: "FieldValueForbidden", message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" }],
  ["a selector with an unknown operator", (c) => { s(c).selector = { matchExpressions: [{ key: "tier", operator: "Gt", values: ["1"] }] }; },
    { field: "spec.selector.matchExpressions[0].operator", reason: "FieldValueInvalid", message: 'Invalid value: "Gt": not a valid selector operator' }],
  ["a selector with a bad label value", (c) => { s(c).selector = { matchLabels: { tier: "a b" } }; },
    { field: "spec.selector.matchLabels", reason: "FieldValueInvalid", message: "Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')" }],
  ["an empty storage class (no class)", (c) => { s(c).storageClassName = ""; }, null],
  ["an unknown volume mode", (c) => { s(c).volumeMode = "Raw"; },
    { field: "spec.volumeMode", reason: "FieldValueNotSupported", message: 'Unsupported value: "Raw": supported values: "Block", "Filesystem"' }],
];

describe("PersistentVolumeClaim validation", () => {
  it("accepts its template", () => expect(create(persistentVolumeClaim, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(persistentVolumeClaim, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults the volume mode and writes the request canonically", () => {
    const pvc = created<PersistentVolumeClaim>(persistentVolumeClaim, variant(base, (c) => { s(c).resources = { requests: { storage: "1024Mi" } }; }));
    expect(pvc.spec).toMatchObject({ volumeMode: "Filesystem", resources: { requests: { storage: "1Gi" } } });
    expect(pvc.status).toEqual({ phase: "Pending" });
  });

  const old = created<PersistentVolumeClaim>(persistentVolumeClaim, base);
  const bound = variant(old, (c) => { c.status = { phase: "Bound", capacity: { storage: "1Gi" } }; });

  it("lets volumeName be set once", () => {
    const withVolume = variant(old, (c) => { s(c).volumeName = "pv-0001"; });
    expect(update(persistentVolumeClaim, old, withVolume).causes).toEqual([]);
    const stored = update(persistentVolumeClaim, old, withVolume).object as PersistentVolumeClaim;
    const again = update(persistentVolumeClaim, stored, variant(stored, (c) => { s(c).volumeName = "pv-0002"; })).causes;
    expect(again.map((c) => c.field)).toEqual(["spec"]);
  });

  it("keeps the spec of an unbound claim", () => {
    const causes = update(persistentVolumeClaim, old, variant(old, (c) => { s(c).resources = { requests: { storage: "2Gi" } }; })).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: "spec", reason: "FieldValueForbidden" });
    expect(causes[0].message.startsWith("Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n")).toBe(true);
  });

  it("lets a bound claim grow, not shrink to its capacity", () => {
    expect(update(persistentVolumeClaim, bound, variant(bound, (c) => { s(c).resources = { requests: { storage: "2Gi" } }; })).causes).toEqual([]);
    const grown = variant(bound, (c) => { s(c).resources = { requests: { storage: "3Gi" } }; });
    expect(update(persistentVolumeClaim, grown, variant(grown, (c) => { s(c).resources = { requests: { storage: "1Gi" } }; })).causes).toEqual([
      { field: "spec.resources.requests.storage", reason: "FieldValueForbidden", message: "Forbidden: field can not be less than status.capacity" },
    ]);
  });

  it("keeps the volume mode", () => {
    expect(update(persistentVolumeClaim, old, variant(old, (c) => { s(c).volumeMode = "Block"; })).causes).toEqual([
      expect.objectContaining({ field: "spec", reason: "FieldValueForbidden" }),
      { field: "volumeMode", reason: "FieldValueInvalid", message: 'Invalid value: "Block": field is immutable' },
    ]);
  });
});

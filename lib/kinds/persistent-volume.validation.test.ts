import { describe, expect, it } from "vitest";
import { persistentVolume, type PersistentVolume } from "./persistent-volume";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<PersistentVolume>(persistentVolume);
const s = (pv: PersistentVolume) => pv.spec!;
const withSource = (source: Record<string, unknown>) => (pv: PersistentVolume) => {
  delete s(pv).hostPath;
  Object.assign(s(pv), source);
};

const rows: Row<PersistentVolume>[] = [
  ["no access modes", (pv) => { s(pv).accessModes = []; }, { field: "spec.accessModes", reason: "FieldValueRequired", message: "Required value" }],
  ["an unknown access mode", (pv) => { s(pv).accessModes = ["ReadWriteSome"]; },
    { field: "spec.accessModes", reason: "FieldValueNotSupported", message: 'Unsupported value: "ReadWriteSome": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"' }],
  ["ReadWriteOncePod with another mode", (pv) => { s(pv).accessModes = ["ReadWriteOncePod", "ReadOnlyMany"]; },
    { field: "spec.accessModes", reason: "FieldValueForbidden", message: "Forbidden: may not use ReadWriteOncePod with other access modes" }],
  ["no capacity", (pv) => { delete s(pv).capacity; }, [
    { field: "spec.capacity", reason: "FieldValueRequired", message: "Required value" },
    { field: "spec.capacity", reason: "FieldValueNotSupported", message: 'Unsupported value: core.ResourceList(nil): supported values: "storage"' },
  ]],
  ["capacity with more than storage", (pv) => { s(pv).capacity = { storage: "1Gi", cpu: "1" }; },
    { field: "spec.capacity", reason: "FieldValueNotSupported", message: 'Unsupported value: core.ResourceList{"cpu":resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}, "storage":resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"BinarySI"}}: supported values: "storage"' }],
  ["a zero capacity", (pv) => { s(pv).capacity = { storage: "0" }; },
    { field: "spec.capacity[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "0": must be greater than zero' }],
  ["a negative capacity", (pv) => { s(pv).capacity = { storage: "-1Gi" }; }, [
    { field: "spec.capacity[storage]", reason: "FieldValueInvalid", message: "Invalid value: -1073741824: must be a valid resource quantity" },
    { field: "spec.capacity[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "-1Gi": must be greater than zero' },
  ]],
  ["an unknown reclaim policy", (pv) => { s(pv).persistentVolumeReclaimPolicy = "Keep"; },
    { field: "spec.persistentVolumeReclaimPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"' }],
  ["Recycle of a hostPath at /", (pv) => { s(pv).hostPath = { path: "/" }; s(pv).persistentVolumeReclaimPolicy = "Recycle"; },
    { field: "spec.persistentVolumeReclaimPolicy", reason: "FieldValueForbidden", message: "Forbidden: may not be 'recycle' for a hostPath mount of '/'" }],
  ["no volume source", withSource({}), { field: "spec", reason: "FieldValueRequired", message: "Required value: must specify a volume type" }],
  ["two volume sources", (pv) => { s(pv).nfs = { server: "nfs.example.com", path: "/exports" }; },
    { field: "spec.nfs", reason: "FieldValueForbidden", message: "Forbidden: may not specify more than 1 volume type" }],
  ["an NFS source", withSource({ nfs: { server: "nfs.example.com", path: "/exports" } }), null],
  ["an NFS path that is relative", withSource({ nfs: { server: "nfs.example.com", path: "exports" } }),
    { field: "spec.nfs.path", reason: "FieldValueInvalid", message: 'Invalid value: "exports": must be an absolute path' }],
  ["a hostPath with backsteps", (pv) => { s(pv).hostPath = { path: "/mnt/../etc" }; },
    { field: "spec.hostPath.path", reason: "FieldValueInvalid", message: 'Invalid value: "/mnt/../etc": must not contain \'..\'' }],
  ["a local volume needs node affinity", withSource({ local: { path: "/mnt/disk" } }),
    { field: "spec.nodeAffinity", reason: "FieldValueRequired", message: "Required value: Local volume requires node affinity" }],
  ["a local volume with node affinity", withSource({
    local: { path: "/mnt/disk" },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-1"] }] }] } },
  }), null],
  ["a gcePersistentDisk without pdName (reported under persistentDisk)", withSource({ gcePersistentDisk: {} }),
    { field: "spec.persistentDisk.pdName", reason: "FieldValueRequired", message: "Required value" }],
  ["an iSCSI volume with a bad IQN", withSource({ iscsi: { targetPortal: "10.0.0.1:3260", iqn: "foo" } }),
    { field: "spec.iscsi.iqn", reason: "FieldValueInvalid", message: 'Invalid value: "foo": must be valid format' }],
  ["an RBD volume without monitors", withSource({ rbd: { image: "disk" } }),
    { field: "spec.rbd.monitors", reason: "FieldValueRequired", message: "Required value" }],
  ["a storage class that is not a subdomain", (pv) => { s(pv).storageClassName = "Fast"; },
    { field: "spec.storageClassName", reason: "FieldValueInvalid", message: "Invalid value: \"Fast\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" }],
  ["an unknown volume mode", (pv) => { s(pv).volumeMode = "Raw"; },
    { field: "spec.volumeMode", reason: "FieldValueNotSupported", message: 'Unsupported value: "Raw": supported values: "Block", "Filesystem"' }],
];

describe("PersistentVolume validation", () => {
  it("accepts its template", () => expect(create(persistentVolume, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(persistentVolume, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults the reclaim policy, volume mode, source defaults and canonical capacity", () => {
    const pv = created<PersistentVolume>(persistentVolume, variant(base, (v) => {
      delete s(v).persistentVolumeReclaimPolicy;
      delete s(v).hostPath;
      s(v).capacity = { storage: "5120Mi" };
      s(v).rbd = { monitors: ["10.0.0.1:6789"], image: "disk" };
    }));
    expect(pv.spec).toMatchObject({
      persistentVolumeReclaimPolicy: "Retain",
      volumeMode: "Filesystem",
      capacity: { storage: "5Gi" },
      rbd: { monitors: ["10.0.0.1:6789"], image: "disk", pool: "rbd", user: "admin", keyring: "/etc/ceph/keyring" },
    });
    expect(pv.status).toEqual({ phase: "Pending" });
  });

  it("keeps the volume source and volume mode on update, lets capacity and policy change", () => {
    const old = created<PersistentVolume>(persistentVolume, base);
    expect(update(persistentVolume, old, variant(old, (v) => {
      s(v).capacity = { storage: "10Gi" };
      s(v).persistentVolumeReclaimPolicy = "Delete";
      s(v).claimRef = { namespace: "default", name: "data" };
    })).causes).toEqual([]);
    const moved = update(persistentVolume, old, variant(old, (v) => { s(v).hostPath = { path: "/mnt/elsewhere" }; })).causes;
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ field: "spec.persistentvolumesource", reason: "FieldValueForbidden" });
    expect(moved[0].message.startsWith("Forbidden: spec.persistentvolumesource is immutable after creation\n")).toBe(true);
    expect(update(persistentVolume, old, variant(old, (v) => { s(v).volumeMode = "Block"; })).causes).toEqual([
      { field: "volumeMode", reason: "FieldValueInvalid", message: 'Invalid value: "Block": field is immutable' },
    ]);
  });

  it("refuses a malformed capacity at decode time", () => {
    expect(create(persistentVolume, variant(base, (v) => { s(v).capacity = { storage: "5 GB" }; })).decodeError)
      .toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });
});

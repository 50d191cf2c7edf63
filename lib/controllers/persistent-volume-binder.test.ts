import { afterEach, describe, expect, it } from "vitest";
import { StorageObjectInUseProtection } from "../admission/storage-object-in-use-protection";
import type { EventRecorder } from "../events/recorder";
import { persistentVolume as volumeKind, type PersistentVolume } from "../kinds/persistent-volume";
import { persistentVolumeClaim as claimKind, type PersistentVolumeClaim } from "../kinds/persistent-volume-claim";
import { Informer } from "./informer";
import { findBestMatchForClaim, PersistentVolumeBinder } from "./persistent-volume-binder";
import { PvProtectionController } from "./pv-protection";
import { PvcProtectionController } from "./pvc-protection";
import { cached, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "./test-cluster";

interface Recorded { kind: string; name: string; type: string; reason: string; message: string; component: string }

interface VolumeCluster extends TestCluster {
  recorded: Recorded[];
  binder: PersistentVolumeBinder;
  stopVolumeControllers(): void;
}

let open: VolumeCluster[] = [];
afterEach(async () => {
  for (const c of open) { c.stopVolumeControllers(); await c.close(); }
  open = [];
});

/** A cluster with the storage admission plug-in and only the three volume controllers (unless `controllers: false`). */
async function cluster(file?: string, opts: { controllers?: boolean } = {}): Promise<VolumeCluster> {
  const c = await openCluster(file, { controllers: false, admission: () => [new StorageObjectInUseProtection()] });
  const recorded: Recorded[] = [];
  const recorder: EventRecorder = {
    event: (o, type, reason, message, component) => recorded.push({ kind: o.kind ?? "", name: o.metadata.name ?? "", type, reason, message, component }),
  };
  const informer = new Informer(c.store.objects);
  const binder = new PersistentVolumeBinder({ registry: c.registry, informer, recorder, resyncMs: 0 });
  const others = [new PvcProtectionController({ registry: c.registry, informer }), new PvProtectionController({ registry: c.registry, informer })];
  if (opts.controllers !== false) informer.start();
  const vc: VolumeCluster = Object.assign(c, {
    recorded, binder,
    stopVolumeControllers() { informer.stop(); binder.stop(); for (const o of others) o.stop(); },
  });
  open.push(vc);
  return vc;
}

const pvSpec = (storage: string, extra: Record<string, unknown> = {}) => ({
  capacity: { storage }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/data" }, ...extra,
});
const createVolume = async (c: TestCluster, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  objectOf(await c.registry.create(volumeKind, undefined, { metadata: { name, ...metadata }, spec }, write)) as PersistentVolume;
const createClaim = async (c: TestCluster, name: string, storage: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
  objectOf(await c.registry.create(claimKind, "shop", {
    metadata: { name, ...metadata }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } }, ...extra },
  }, write)) as PersistentVolumeClaim;

const volume = (c: TestCluster, name: string) => cached(c, "persistentvolumes", "", name) as PersistentVolume | undefined;
const claim = (c: TestCluster, name: string) => cached(c, "persistentvolumeclaims", "shop", name) as PersistentVolumeClaim | undefined;
const bound = (c: TestCluster, name: string) => () => claim(c, name)?.status?.phase === "Bound" && claim(c, name);
const phase = (c: TestCluster, name: string, want: string) => () => volume(c, name)?.status?.phase === want && volume(c, name);

describe("findBestMatchForClaim", () => {
  const pv = (name: string, storage: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): PersistentVolume => ({
    apiVersion: "v1", kind: "PersistentVolume", metadata: { name, ...metadata },
    spec: { capacity: { storage }, accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem", ...spec }, status: { phase: "Available" },
  });
  const pvc = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): PersistentVolumeClaim => ({
    apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "data", namespace: "shop", uid: "u-1", ...metadata },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "3Gi" } }, volumeMode: "Filesystem", ...spec },
  });
  const pick = (claim: PersistentVolumeClaim, volumes: PersistentVolume[]) => findBestMatchForClaim(claim, volumes)?.metadata.name;

  it("takes the smallest volume that is large enough, never a smaller one", () => {
    expect(pick(pvc(), [pv("ten", "10Gi"), pv("one", "1Gi"), pv("five", "5Gi")])).toBe("five");
    expect(pick(pvc(), [pv("exact", "3Gi"), pv("five", "5Gi")])).toBe("exact");
    expect(pick(pvc(), [pv("one", "1Gi"), pv("two", "2Gi")])).toBeUndefined();
    // Units compare by value: 3G is 3,000,000,000 bytes, 2800Mi is less and 3000Mi more.
    expect(pick(pvc({ resources: { requests: { storage: "2800Mi" } } }), [pv("gi", "3Gi"), pv("g", "3G")])).toBe("g");
    expect(pick(pvc({ resources: { requests: { storage: "3000Mi" } } }), [pv("gi", "3Gi"), pv("g", "3G")])).toBe("gi");
  });

  it("matches the storage class: unset and empty mean no class, the beta annotation wins over the field", () => {
    const volumes = [pv("plain", "5Gi"), pv("fast", "4Gi", { storageClassName: "fast" })];
    expect(pick(pvc(), volumes)).toBe("plain");
    expect(pick(pvc({ storageClassName: "" }), volumes)).toBe("plain");
    expect(pick(pvc({ storageClassName: "fast" }), volumes)).toBe("fast");
    expect(pick(pvc({ storageClassName: "slow" }), volumes)).toBeUndefined();
    expect(pick(pvc({}, { annotations: { "volume.beta.kubernetes.io/storage-class": "fast" } }), volumes)).toBe("fast");
  });

  it("needs every access mode asked for, and prefers volumes offering the fewest modes", () => {
    const volumes = [pv("rwo-big", "10Gi"), pv("rwo-rwx-small", "5Gi", { accessModes: ["ReadWriteMany", "ReadWriteOnce"] }), pv("rox", "4Gi", { accessModes: ["ReadOnlyMany"] })];
    expect(pick(pvc(), volumes)).toBe("rwo-big");
    expect(pick(pvc({ accessModes: ["ReadWriteMany"] }), volumes)).toBe("rwo-rwx-small");
    expect(pick(pvc({ accessModes: ["ReadOnlyMany"] }), volumes)).toBe("rox");
    expect(pick(pvc({ accessModes: ["ReadWriteOncePod"] }), volumes)).toBeUndefined();
  });

  it("honours volumeMode, the label selector, the phase and a deletion in progress", () => {
    expect(pick(pvc({ volumeMode: "Block" }), [pv("fs", "5Gi"), pv("block", "6Gi", { volumeMode: "Block" })])).toBe("block");
    const labelled = [pv("ssd", "8Gi", {}, { labels: { disk: "ssd" } }), pv("hdd", "5Gi", {}, { labels: { disk: "hdd" } })];
    expect(pick(pvc({ selector: { matchLabels: { disk: "ssd" } } }), labelled)).toBe("ssd");
    expect(pick(pvc({ selector: { matchExpressions: [{ key: "disk", operator: "NotIn", values: ["hdd", "ssd"] }] } }), labelled)).toBeUndefined();
    const released = { ...pv("released", "4Gi"), status: { phase: "Released" } };
    expect(pick(pvc(), [released, pv("ok", "6Gi")])).toBe("ok");
    expect(pick(pvc(), [pv("going", "4Gi", {}, { deletionTimestamp: "2025-01-01T00:00:00Z" }), pv("ok", "6Gi")])).toBe("ok");
  });

  it("returns a volume pre-bound to the claim even when a smaller one would do and its class differs", () => {
    const reserved = pv("reserved", "20Gi", { storageClassName: "other", claimRef: { namespace: "shop", name: "data" } });
    expect(pick(pvc(), [pv("five", "5Gi"), reserved])).toBe("reserved");
    const forSomeoneElse = pv("theirs", "4Gi", { claimRef: { namespace: "shop", name: "other" } });
    expect(pick(pvc(), [forSomeoneElse, pv("ten", "10Gi")])).toBe("ten");
    const oldInstance = pv("old", "4Gi", { claimRef: { namespace: "shop", name: "data", uid: "u-0" } });
    expect(pick(pvc(), [oldInstance])).toBeUndefined();
  });
});

describe("persistent volume binder", () => {
  it("binds a claim to the smallest matching volume and records the binding on both sides as kube does", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    for (const [name, size] of [["pv-1g", "1Gi"], ["pv-5g", "5Gi"], ["pv-10g", "10Gi"]]) await createVolume(c, name, pvSpec(size));
    await eventually(phase(c, "pv-10g", "Available"), 2000, "volumes Available");
    const created = await createClaim(c, "data", "3Gi");

    const pvc = await eventually(bound(c, "data"), 2000, "claim Bound");
    expect(pvc.spec?.volumeName).toBe("pv-5g");
    expect(pvc.status).toEqual({ phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "5Gi" } });
    expect(pvc.metadata.annotations).toEqual({ "pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes" });
    const pv = await eventually(phase(c, "pv-5g", "Bound"), 2000, "volume Bound");
    expect(pv.spec?.claimRef).toEqual({
      kind: "PersistentVolumeClaim", namespace: "shop", name: "data", uid: created.metadata.uid, apiVersion: "v1",
      resourceVersion: created.metadata.resourceVersion,
    });
    expect(pv.metadata.annotations).toEqual({ "pv.kubernetes.io/bound-by-controller": "yes" });
    expect(volume(c, "pv-1g")?.status?.phase).toBe("Available");
    expect(volume(c, "pv-10g")?.status?.phase).toBe("Available");
    expect(c.recorded).toEqual([]);
  });

  it("leaves an unmatched claim Pending with kube's Event, and binds it as soon as a volume fits", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    await createVolume(c, "small", pvSpec("1Gi"));
    await createClaim(c, "data", "3Gi");
    await createClaim(c, "classy", "1Gi", { storageClassName: "fast" });
    await eventually(() => c.recorded.length >= 2, 2000, "events");
    await c.binder.idle();
    expect(claim(c, "data")?.status).toEqual({ phase: "Pending" });
    expect(c.recorded).toEqual(expect.arrayContaining([
      { kind: "PersistentVolumeClaim", name: "data", type: "Normal", reason: "FailedBinding", message: "no persistent volumes available for this claim and no storage class is set", component: "persistentvolume-controller" },
      { kind: "PersistentVolumeClaim", name: "classy", type: "Warning", reason: "ProvisioningFailed", message: 'storageclass.storage.k8s.io "fast" not found', component: "persistentvolume-controller" },
    ]));

    await createVolume(c, "big", pvSpec("4Gi"));
    const pvc = await eventually(bound(c, "data"), 2000, "claim bound to the new volume");
    expect(pvc.spec?.volumeName).toBe("big");
    expect(claim(c, "classy")?.status?.phase).toBe("Pending");
  });

  it("honours a claim's spec.volumeName and a volume's pre-set claimRef, marking only what the controller chose", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    await createVolume(c, "small", pvSpec("4Gi"));
    await createVolume(c, "chosen", pvSpec("50Gi"));
    await createVolume(c, "reserved", pvSpec("20Gi", { claimRef: { namespace: "shop", name: "wants-reserved" } }));
    await createClaim(c, "names-volume", "3Gi", { volumeName: "chosen" });
    const reserving = await createClaim(c, "wants-reserved", "3Gi");

    const named = await eventually(bound(c, "names-volume"), 2000, "claim naming its volume");
    expect(named.metadata.annotations).toEqual({ "pv.kubernetes.io/bind-completed": "yes" });
    expect(volume(c, "chosen")?.metadata.annotations).toEqual({ "pv.kubernetes.io/bound-by-controller": "yes" });

    const res = await eventually(bound(c, "wants-reserved"), 2000, "claim a volume reserved");
    expect(res.spec?.volumeName).toBe("reserved");
    expect(res.metadata.annotations).toEqual({ "pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes" });
    const pv = await eventually(phase(c, "reserved", "Bound"), 2000, "reserved volume Bound");
    expect(pv.metadata.annotations).toBeUndefined();
    expect(pv.spec?.claimRef?.uid).toBe(reserving.metadata.uid);
    expect(volume(c, "small")?.status?.phase).toBe("Available");
  });

  it("reports a claim naming a volume that cannot serve it, and keeps it Pending", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    await createVolume(c, "tiny", pvSpec("1Gi"));
    await createClaim(c, "data", "3Gi", { volumeName: "tiny" });
    await eventually(() => c.recorded.length > 0, 2000, "event");
    expect(c.recorded[0]).toMatchObject({ type: "Warning", reason: "VolumeMismatch", message: 'Cannot bind to requested volume "tiny": requested PV is too small' });
    expect(claim(c, "data")?.status?.phase).toBe("Pending");
    expect(volume(c, "tiny")?.spec?.claimRef).toBeUndefined();
  });

  it("reclaims on claim deletion: Retain releases, Delete removes, Recycle fails as deprecated", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    await createVolume(c, "keep", pvSpec("1Gi", { persistentVolumeReclaimPolicy: "Retain" }), { labels: { for: "keep" } });
    await createVolume(c, "drop", pvSpec("1Gi", { persistentVolumeReclaimPolicy: "Delete" }), { labels: { for: "drop" } });
    await createVolume(c, "scrub", pvSpec("1Gi", { persistentVolumeReclaimPolicy: "Recycle" }), { labels: { for: "scrub" } });
    for (const name of ["keep", "drop", "scrub"]) await createClaim(c, name, "1Gi", { selector: { matchLabels: { for: name } } });
    for (const name of ["keep", "drop", "scrub"]) await eventually(phase(c, name, "Bound"), 2000, `${name} Bound`);
    const keptRef = volume(c, "keep")!.spec!.claimRef;

    for (const name of ["keep", "drop", "scrub"]) await c.registry.delete(claimKind, "shop", name, del);
    const released = await eventually(phase(c, "keep", "Released"), 2000, "Retain -> Released");
    expect(released.spec?.claimRef).toEqual(keptRef);
    await eventually(() => !volume(c, "drop"), 2000, "Delete -> removed");
    const failed = await eventually(phase(c, "scrub", "Failed"), 2000, "Recycle -> Failed");
    expect(failed.status?.message).toBe("No recycler plugin found for the volume!");
    expect(c.recorded).toContainEqual({ kind: "PersistentVolume", name: "scrub", type: "Warning", reason: "VolumeFailedRecycle", message: "No recycler plugin found for the volume!", component: "persistentvolume-controller" });
    // A released volume is never offered again: its claimRef still names the old claim.
    await createClaim(c, "after", "1Gi");
    await eventually(() => c.recorded.some((e) => e.name === "after" && e.reason === "FailedBinding"), 2000, "no match for a new claim");
  });

  it("marks a bound claim Lost when its volume disappears", async () => {
    const c = await cluster();
    await createNamespace(c, "shop");
    await createVolume(c, "pv", pvSpec("1Gi"));
    await createClaim(c, "data", "1Gi");
    await eventually(bound(c, "data"), 2000, "Bound");
    c.stopVolumeControllers();
    // Strip the protection and delete, as an administrator forcing it would.
    const pv = volume(c, "pv")!;
    await c.registry.update(volumeKind, "", "pv", { ...pv, metadata: { ...pv.metadata, finalizers: [] } }, write);
    await c.registry.delete(volumeKind, "", "pv", del);

    const again = await cluster(c.file);
    const lost = await eventually(() => claim(again, "data")?.status?.phase === "Lost" && claim(again, "data"), 2000, "Lost");
    expect(lost.status).toEqual({ phase: "Lost" });
    expect(again.recorded).toEqual([{ kind: "PersistentVolumeClaim", name: "data", type: "Warning", reason: "ClaimLost", message: "Bound claim has lost its PersistentVolume. Data on the volume is lost!", component: "persistentvolume-controller" }]);
  });

  it("binds what was left waiting while it was not running (resync at start)", async () => {
    const first = await cluster(undefined, { controllers: false });
    await createNamespace(first, "shop");
    await createVolume(first, "pv", pvSpec("2Gi"));
    await createClaim(first, "data", "1Gi");
    expect(volume(first, "pv")?.status?.phase).toBe("Pending");
    first.stopVolumeControllers();
    await first.close();
    open = open.filter((c) => c !== first);

    const second = await cluster(first.file);
    await eventually(bound(second, "data"), 2000, "bound after restart");
    await eventually(phase(second, "pv", "Bound"), 2000, "volume Bound after restart");
  });

  it("never binds one volume twice when two servers on one store race for it", async () => {
    const a = await cluster();
    await createNamespace(a, "shop");
    const b = await cluster(a.file);
    for (const n of [1, 2, 3]) await createVolume(a, `pv-${n}`, pvSpec("1Gi"));
    await Promise.all([1, 2, 3, 4, 5].map((n) => createClaim(n % 2 ? a : b, `claim-${n}`, "1Gi")));

    await eventually(() => a.store.objects.list("persistentvolumes").every((o) => (o.object as PersistentVolume).status?.phase === "Bound"), 4000, "all volumes Bound");
    await Promise.all([a.binder.idle(), b.binder.idle()]);
    await a.store.objects.catchUp();
    const claims = a.store.objects.list("persistentvolumeclaims", { namespace: "shop" }).map((o) => o.object as PersistentVolumeClaim);
    const boundClaims = claims.filter((x) => x.spec?.volumeName);
    expect(boundClaims).toHaveLength(3);
    expect(new Set(boundClaims.map((x) => x.spec?.volumeName)).size).toBe(3);
    for (const x of boundClaims) {
      expect(x.status?.phase).toBe("Bound");
      expect(volume(a, x.spec!.volumeName!)?.spec?.claimRef?.uid).toBe(x.metadata.uid);
    }
    expect(claims.filter((x) => !x.spec?.volumeName).every((x) => x.status?.phase === "Pending")).toBe(true);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { persistentVolume as volumeKind } from "../kinds/persistent-volume";
import { PvProtectionController } from "./pv-protection";
import { cached, del, eventually, objectOf, clusterWith, closeAll, write, type TestCluster } from "./test-cluster";

afterEach(closeAll);

/** Only the protection controller runs: the test plays the binder by writing the phase. */
async function cluster(opts: { admission?: boolean } = {}): Promise<TestCluster> {
  const c = await clusterWith((c, informer) => new PvProtectionController({ registry: c.registry, informer }), opts);
  return c;
}

const createVolume = (c: TestCluster, name: string) => c.registry.create(volumeKind, undefined, {
  metadata: { name }, spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/data" } },
}, write);
const volume = (c: TestCluster, name: string) => cached(c, "persistentvolumes", "", name);
async function setPhase(c: TestCluster, name: string, phase: string) {
  const pv = volume(c, name)!;
  return objectOf(await c.registry.update(volumeKind, "", name, { ...pv, status: { phase } }, { ...write, subresource: "status" }));
}

describe("pv protection", () => {
  it("keeps a deleted Bound volume Terminating until it is no longer Bound", async () => {
    const c = await cluster();
    await createVolume(c, "pv");
    await setPhase(c, "pv", "Bound");
    await c.registry.delete(volumeKind, "", "pv", del);
    await new Promise((r) => setTimeout(r, 150));
    expect(volume(c, "pv")?.metadata.deletionTimestamp).toBeTruthy();
    expect(volume(c, "pv")?.metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);

    await setPhase(c, "pv", "Released");
    await eventually(() => !volume(c, "pv"), 2000, "volume removed once Released");
  });

  it("lets an unbound volume go at once", async () => {
    const c = await cluster();
    await createVolume(c, "pv");
    await setPhase(c, "pv", "Available");
    await c.registry.delete(volumeKind, "", "pv", del);
    await eventually(() => !volume(c, "pv"), 2000, "volume removed");
  });

  it("gives the finalizer to a live volume that lacks it", async () => {
    const c = await cluster({ admission: false });
    await createVolume(c, "old");
    await eventually(() => volume(c, "old")?.metadata.finalizers?.includes("kubernetes.io/pv-protection"), 2000, "finalizer added");
  });
});

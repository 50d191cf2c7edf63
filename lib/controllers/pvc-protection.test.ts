import { afterEach, describe, expect, it } from "vitest";
import { persistentVolumeClaim as claimKind } from "../kinds/persistent-volume-claim";
import { pod as podKind } from "../kinds/pod";
import { PvcProtectionController } from "./pvc-protection";
import { cached, createNamespace, del, eventually, clusterWith, closeAll, write, type TestCluster } from "./test-cluster";

afterEach(closeAll);

async function cluster(opts: { admission?: boolean } = {}): Promise<TestCluster> {
  const c = await clusterWith((c, informer) => new PvcProtectionController({ registry: c.registry, informer }), opts);
  await createNamespace(c, "shop");
  return c;
}

const createClaim = (c: TestCluster, name: string) => c.registry.create(claimKind, "shop", {
  metadata: { name }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
}, write);
const createPod = (c: TestCluster, name: string, claimName: string, nodeName?: string) => c.registry.create(podKind, "shop", {
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: "app", image: "nginx" }], volumes: [{ name: "data", persistentVolumeClaim: { claimName } }] },
}, write);
const claim = (c: TestCluster, name: string) => cached(c, "persistentvolumeclaims", "shop", name);
const settle = () => new Promise((r) => setTimeout(r, 150));

describe("pvc protection", () => {
  it("keeps a deleted claim Terminating while a scheduled pod uses it, and lets it go with the pod", async () => {
    const c = await cluster();
    await createClaim(c, "data");
    await createPod(c, "web", "data", "node-1");
    await c.registry.delete(claimKind, "shop", "data", del);
    await settle();
    const held = claim(c, "data");
    expect(held?.metadata.deletionTimestamp).toBeTruthy();
    expect(held?.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);

    await c.registry.delete(podKind, "shop", "web", { ...del, gracePeriodSeconds: 0 });
    await eventually(() => !claim(c, "data"), 2000, "claim removed after its pod");
  });

  it("lets a claim go at once when only unscheduled pods or pods naming other claims exist", async () => {
    const c = await cluster();
    await createClaim(c, "data");
    await createPod(c, "pending", "data");
    await createPod(c, "other", "elsewhere", "node-1");
    await c.registry.delete(claimKind, "shop", "data", del);
    await eventually(() => !claim(c, "data"), 2000, "claim removed");
  });

  it("gives the finalizer to a live claim that lacks it", async () => {
    const c = await cluster({ admission: false });
    await createClaim(c, "old");
    await eventually(() => claim(c, "old")?.metadata.finalizers?.includes("kubernetes.io/pvc-protection"), 2000, "finalizer added");
  });
});

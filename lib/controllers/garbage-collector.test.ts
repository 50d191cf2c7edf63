import { afterEach, describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import { configMap as cmKind } from "../kinds/config-map";
import { event as eventKind } from "../kinds/event";
import { persistentVolume as pvKind } from "../kinds/persistent-volume";
import { clusterRole as clusterRoleKind } from "../kinds/cluster-role";
import type { KubeObject, OwnerReference } from "../kinds/types";
import { GarbageCollector } from "./garbage-collector";
import { cached, closeAll, clusterWith, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "./test-cluster";
import { Informer } from "./informer";

afterEach(closeAll);

interface Recorded { object: KubeObject; type: string; reason: string; message: string }

async function cluster(): Promise<TestCluster & { recorded: Recorded[]; gc: GarbageCollector }> {
  const recorded: Recorded[] = [];
  let gc!: GarbageCollector;
  const c = await clusterWith((c, informer) => gc = new GarbageCollector({
    registry: c.registry, informer, kinds,
    recorder: { event: (object, type, reason, message) => recorded.push({ object, type, reason, message }) },
  }));
  await createNamespace(c, "shop");
  return Object.assign(c, { recorded, gc });
}

const ref = (owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference =>
  ({ apiVersion: owner.apiVersion!, kind: owner.kind!, name: owner.metadata.name!, uid: owner.metadata.uid!, ...extra });

async function cm(c: TestCluster, name: string, owners: OwnerReference[] = [], finalizers?: string[]): Promise<KubeObject> {
  return objectOf(await c.registry.create(cmKind, "shop", { metadata: { name, ownerReferences: owners, finalizers }, data: { k: name } }, write));
}
const get = (c: TestCluster, name: string) => cached(c, "configmaps", "shop", name);
const settle = () => new Promise((r) => setTimeout(r, 200));

/** owner <- child <- grandchild, every reference blocking. */
async function tree(c: TestCluster): Promise<KubeObject[]> {
  const owner = await cm(c, "owner");
  const child = await cm(c, "child", [ref(owner, { blockOwnerDeletion: true, controller: true })]);
  const grandchild = await cm(c, "grandchild", [ref(child, { blockOwnerDeletion: true })]);
  return [owner, child, grandchild];
}

describe("garbage collector", () => {
  it("Background (the default): the owner goes at once, then its dependents, level by level", async () => {
    const c = await cluster();
    await tree(c);
    await c.registry.delete(cmKind, "shop", "owner", del);
    expect(get(c, "owner")).toBeUndefined();
    await eventually(() => !get(c, "child") && !get(c, "grandchild"), 5000, "dependents collected");
  });

  it("Foreground: the owner waits with foregroundDeletion until its blocking dependents are gone", async () => {
    const c = await cluster();
    await tree(c);
    const order: string[] = [];
    c.store.objects.listeners.add((e) => { if (e.type === "DELETED") order.push(e.key.name); });
    const answer = objectOf(await c.registry.delete(cmKind, "shop", "owner", { ...del, propagationPolicy: "Foreground" }));
    expect(answer.metadata.finalizers).toEqual(["foregroundDeletion"]);
    expect(answer.metadata.deletionTimestamp).toBeTruthy();
    await eventually(() => !get(c, "owner"), 5000, "owner removed after its dependents");
    expect(order).toEqual(["grandchild", "child", "owner"]);
  });

  it("Foreground waits only for blockOwnerDeletion dependents; the others still go", async () => {
    const c = await cluster();
    const owner = await cm(c, "owner");
    await cm(c, "held", [ref(owner)], ["example.com/hold"]);
    await c.registry.delete(cmKind, "shop", "owner", { ...del, propagationPolicy: "Foreground" });
    await eventually(() => !get(c, "owner"), 5000, "owner not blocked by a non-blocking dependent");
    await eventually(() => get(c, "held")?.metadata.deletionTimestamp, 5000, "non-blocking dependent deleted too");
  });

  it("Orphan: dependents lose the owner reference and stay; the owner goes", async () => {
    const c = await cluster();
    await tree(c);
    await c.registry.delete(cmKind, "shop", "owner", { ...del, propagationPolicy: "Orphan" });
    await eventually(() => !get(c, "owner"), 5000, "owner removed");
    await settle();
    expect(get(c, "child")?.metadata.ownerReferences).toBeUndefined();
    expect(get(c, "grandchild")?.metadata.ownerReferences?.[0].name).toBe("child");
  });

  it("orphanDependents=true is Orphan; orphanDependents=false is Background", async () => {
    const c = await cluster();
    const [owner] = await tree(c);
    await c.registry.delete(cmKind, "shop", "owner", { ...del, orphanDependents: true });
    await eventually(() => !get(c, "owner"), 5000, "owner removed");
    expect(get(c, "child")).toBeTruthy();
    const again = await cm(c, "owner2");
    await cm(c, "child2", [ref(again)]);
    await c.registry.delete(cmKind, "shop", "owner2", { ...del, orphanDependents: false });
    await eventually(() => !get(c, "child2"), 5000, "child2 collected");
    expect(owner.metadata.uid).toBeTruthy();
  });

  it("a dependent with several owners stays until the last is gone, losing references to the dead ones", async () => {
    const c = await cluster();
    const a = await cm(c, "a"), b = await cm(c, "b");
    await cm(c, "shared", [ref(a), ref(b)]);
    await c.registry.delete(cmKind, "shop", "a", del);
    await eventually(() => get(c, "shared")?.metadata.ownerReferences?.length === 1, 5000, "dangling reference removed");
    expect(get(c, "shared")?.metadata.ownerReferences?.[0].name).toBe("b");
    await c.registry.delete(cmKind, "shop", "b", del);
    await eventually(() => !get(c, "shared"), 5000, "collected with its last owner");
  });

  it("dangling references and uid mismatches: the dependent is collected", async () => {
    const c = await cluster();
    await cm(c, "ghost-child", [{ apiVersion: "v1", kind: "ConfigMap", name: "ghost", uid: "00000000-0000-0000-0000-000000000001" }]);
    const real = await cm(c, "real");
    await cm(c, "wrong-uid-child", [{ ...ref(real), uid: "00000000-0000-0000-0000-000000000002" }]);
    await eventually(() => !get(c, "ghost-child") && !get(c, "wrong-uid-child"), 5000, "dangling dependents collected");
    expect(get(c, "real")).toBeTruthy();
  });

  it("a reference to a kind this server does not serve is never collected on a guess", async () => {
    const c = await cluster();
    await cm(c, "owned-by-deployment", [{ apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "00000000-0000-0000-0000-000000000003" }]);
    await settle();
    expect(get(c, "owned-by-deployment")).toBeTruthy();
  });

  it("a cluster-scoped owner holds namespaced dependents; the reverse is refused with OwnerRefInvalidNamespace", async () => {
    const c = await cluster();
    const role = objectOf(await c.registry.create(clusterRoleKind, undefined, { metadata: { name: "reader" }, rules: [] }, write));
    await cm(c, "role-child", [ref(role)]);
    const owner = await cm(c, "ns-owner");
    await c.registry.create(pvKind, undefined, {
      metadata: { name: "bad", ownerReferences: [ref(owner)] }, spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/tmp/b" } },
    }, write);
    await settle();
    expect(get(c, "role-child")).toBeTruthy();
    await c.registry.delete(clusterRoleKind, "", "reader", del);
    await eventually(() => !get(c, "role-child"), 5000, "namespaced dependent of a cluster-scoped owner collected");
    await c.registry.delete(cmKind, "shop", "ns-owner", del);
    await settle();
    expect(cached(c, "persistentvolumes", "", "bad")).toBeTruthy();
    const warning = c.recorded.find((r) => r.reason === "OwnerRefInvalidNamespace");
    expect(warning?.object.metadata.name).toBe("bad");
    expect(warning?.message).toBe(`ownerRef [v1/ConfigMap, namespace: , name: ns-owner, uid: ${owner.metadata.uid}] does not exist in namespace ""`);
  });

  it("a reference to an owner in another namespace counts as absent, with OwnerRefInvalidNamespace", async () => {
    const c = await cluster();
    await createNamespace(c, "other");
    const foreign = objectOf(await c.registry.create(cmKind, "other", { metadata: { name: "foreign" } }, write));
    await cm(c, "cross", [ref(foreign)]);
    await eventually(() => !get(c, "cross"), 5000, "cross-namespace dependent collected");
    expect(cached(c, "configmaps", "other", "foreign")).toBeTruthy();
    expect(c.recorded.map((r) => r.reason)).toContain("OwnerRefInvalidNamespace");
  });

  it("Events are ignored (kube's DefaultIgnoredResources): an owned Event outlives its owner", async () => {
    const c = await cluster();
    const owner = await cm(c, "owner");
    const event = (name: string, owners: OwnerReference[]) => c.registry.create(eventKind, "shop", {
      metadata: { name, ownerReferences: owners }, involvedObject: { kind: "ConfigMap", namespace: "shop", name: "owner" },
      reason: "Test", message: name, type: "Normal", count: 1,
    }, write);
    await event("owned", [ref(owner)]);
    await event("dangling", [{ apiVersion: "v1", kind: "ConfigMap", name: "gone", uid: "no-such-uid" }]);
    await cm(c, "child", [ref(owner)]);
    await c.registry.delete(cmKind, "shop", "owner", del);
    await eventually(() => !get(c, "child"), 5000, "the ConfigMap dependent collected");
    await settle();
    expect(cached(c, "events", "shop", "owned"), "the Event waits for its TTL").toBeDefined();
    expect(cached(c, "events", "shop", "dangling")).toBeDefined();
    expect(c.gc.dependentsOf(owner.metadata.uid!)).toEqual([]);
  });

  it("finds its work again after a restart: a foreground deletion left half-done completes", async () => {
    const first = await openCluster(undefined, { controllers: false });
    await createNamespace(first, "shop");
    await tree(first);
    await first.registry.delete(cmKind, "shop", "owner", { ...del, propagationPolicy: "Foreground" });
    await settle();
    expect(get(first, "owner")?.metadata.finalizers).toEqual(["foregroundDeletion"]);
    expect(get(first, "grandchild")).toBeTruthy();
    await first.close();

    const second = await openCluster(first.file, { controllers: false });
    const informer = new Informer(second.store.objects);
    const gc = new GarbageCollector({ registry: second.registry, informer, kinds });
    informer.start();
    try {
      await eventually(() => !get(second, "owner") && !get(second, "child") && !get(second, "grandchild"), 5000, "tree collected after restart");
    } finally {
      informer.stop();
      gc.stop();
      await second.close();
    }
  });
});

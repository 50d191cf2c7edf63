// Deletion through the registry on real SQLite: what a DELETE writes, answers and emits, as kube's Store.Delete.
import { afterEach, describe, expect, it } from "vitest";
import { isStatusError } from "../status";
import { configMap as cmKind } from "../kinds/config-map";
import { pod as podKind } from "../kinds/pod";
import type { KubeObject } from "../kinds/types";
import { closeAll, clusterWith, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "../controllers/test-cluster";
import type { ListOptions } from "./options";
import type { Answer } from "./registry";

afterEach(closeAll);

async function cluster(): Promise<TestCluster> {
  const c = await clusterWith(() => ({ stop() {} }), { admission: false });
  await createNamespace(c, "shop");
  return c;
}

const podBody = (name: string, extra: { nodeName?: string; grace?: number; finalizers?: string[]; phase?: string } = {}) => ({
  metadata: { name, ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
  spec: {
    containers: [{ name: "app", image: "nginx" }],
    ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
    ...(extra.grace !== undefined ? { terminationGracePeriodSeconds: extra.grace } : {}),
  },
});
const scheduled = (name: string, grace = 30, finalizers?: string[]) => podBody(name, { nodeName: "node-1", grace, finalizers });

/** The events the cache applies for one object from now on. */
function eventsFor(c: TestCluster, name: string): { type: string; object: KubeObject }[] {
  const seen: { type: string; object: KubeObject }[] = [];
  c.store.objects.listeners.add((e) => { if (e.key.name === name) seen.push({ type: e.type, object: e.object }); });
  return seen;
}

async function refusal(p: Promise<Answer>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

const byLabel = (labelSelector: string): ListOptions => ({
  labelSelector, fieldSelector: "", limit: 0, continueToken: "", resourceVersion: "", resourceVersionMatch: "",
  watch: false, allowWatchBookmarks: false, sendInitialEvents: undefined, timeoutSeconds: undefined,
});
const cachedPod = (c: TestCluster, name: string) => c.store.objects.get({ resource: "pods", namespace: "shop", name })?.object;

describe("graceful deletion (pods)", () => {
  it("a scheduled pod gets deletionTimestamp = now + its grace, stays readable, and a generation moves only when set", async () => {
    const c = await cluster();
    await c.registry.create(podKind, "shop", scheduled("web", 30), write);
    const before = Date.now();
    const answer = await c.registry.delete(podKind, "shop", "web", del);
    expect(answer.code).toBe(200);
    const marked = objectOf(answer);
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(30);
    const due = Date.parse(marked.metadata.deletionTimestamp!);
    expect(due).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 30_000);
    // kube's BeforeDelete bumps a generation only when it is > 0; kube 1.32 gives pods none.
    expect(marked.metadata.generation).toBeUndefined();
    expect(cachedPod(c, "web")?.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
    const body = scheduled("numbered", 30);
    const numbered = objectOf(await c.registry.create(podKind, "shop", { ...body, metadata: { ...body.metadata, generation: 3 } }, write));
    expect(numbered.metadata.generation).toBe(3);
    expect(objectOf(await c.registry.delete(podKind, "shop", "numbered", del)).metadata.generation).toBe(4);
  });

  it("an unscheduled pod, a finished pod and gracePeriodSeconds=0 go at once, watchers seeing MODIFIED then DELETED", async () => {
    const c = await cluster();
    for (const [name, body, opts] of [
      ["pending", podBody("pending"), del],
      ["forced", scheduled("forced"), { ...del, gracePeriodSeconds: 0 }],
    ] as const) {
      await c.registry.create(podKind, "shop", body, write);
      const seen = eventsFor(c, name);
      const answer = objectOf(await c.registry.delete(podKind, "shop", name, opts));
      expect(cachedPod(c, name)).toBeUndefined();
      expect(seen.map((e) => e.type)).toEqual(["MODIFIED", "DELETED"]);
      expect(seen[0].object.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(answer.metadata.deletionTimestamp).toBeTruthy();
    }
    await c.registry.create(podKind, "shop", scheduled("done"), write);
    const pod = cachedPod(c, "done")!;
    await c.registry.update(podKind, "shop", "done", { ...pod, status: { phase: "Succeeded" } }, { ...write, subresource: "status" });
    await c.registry.delete(podKind, "shop", "done", del);
    expect(cachedPod(c, "done")).toBeUndefined();
  });

  it("a second delete may shorten the period, never extend it; grace 0 then removes it", async () => {
    const c = await cluster();
    await c.registry.create(podKind, "shop", scheduled("web", 60), write);
    const first = objectOf(await c.registry.delete(podKind, "shop", "web", del));
    const longer = objectOf(await c.registry.delete(podKind, "shop", "web", { ...del, gracePeriodSeconds: 120 }));
    expect(longer.metadata.deletionTimestamp).toBe(first.metadata.deletionTimestamp);
    expect(longer.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const shorter = objectOf(await c.registry.delete(podKind, "shop", "web", { ...del, gracePeriodSeconds: 10 }));
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(10);
    expect(Date.parse(first.metadata.deletionTimestamp!) - Date.parse(shorter.metadata.deletionTimestamp!)).toBe(50_000);
    const seen = eventsFor(c, "web");
    await c.registry.delete(podKind, "shop", "web", { ...del, gracePeriodSeconds: 0 });
    expect(seen.map((e) => e.type)).toEqual(["MODIFIED", "DELETED"]);
  });

  it("the server finishes the deletion when the period ends (MODIFIED to grace 0, then DELETED)", async () => {
    const c = await cluster();
    await c.registry.create(podKind, "shop", scheduled("quick", 1), write);
    const seen = eventsFor(c, "quick");
    await c.registry.delete(podKind, "shop", "quick", del);
    await eventually(() => !cachedPod(c, "quick"), 4000, "pod removed after its grace period");
    expect(seen.map((e) => [e.type, e.object.metadata.deletionGracePeriodSeconds])).toEqual([["MODIFIED", 1], ["MODIFIED", 0], ["DELETED", 0]]);
  });

  it("a pod with a grace period and a finalizer keeps its grace, then waits for the finalizer with grace 0", async () => {
    const c = await cluster();
    await c.registry.create(podKind, "shop", scheduled("held", 1, ["example.com/hold"]), write);
    const marked = objectOf(await c.registry.delete(podKind, "shop", "held", del));
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(1);
    await eventually(() => cachedPod(c, "held")?.metadata.deletionGracePeriodSeconds === 0, 4000, "grace over");
    const held = cachedPod(c, "held")!;
    expect(held.metadata.finalizers).toEqual(["example.com/hold"]);
    await c.registry.update(podKind, "shop", "held", { ...held, metadata: { ...held.metadata, finalizers: [] } }, write);
    expect(cachedPod(c, "held")).toBeUndefined();
  });

  it("a restart in the middle still finishes on time", async () => {
    const first = await openCluster(undefined, { controllers: false });
    await createNamespace(first, "shop");
    await first.registry.create(podKind, "shop", scheduled("web", 2), write);
    await first.registry.delete(podKind, "shop", "web", del);
    await first.close();
    const second = await openCluster(first.file, { controllers: false });
    try {
      expect(cachedPod(second, "web")?.metadata.deletionTimestamp).toBeTruthy();
      await eventually(() => !cachedPod(second, "web"), 5000, "finished after restart");
    } finally {
      await second.close();
    }
  });
});

describe("finalizers", () => {
  it("hold the object with deletionTimestamp and grace 0; a repeat delete changes nothing; the last one removed completes it", async () => {
    const c = await cluster();
    await c.registry.create(cmKind, "shop", { metadata: { name: "cfg", finalizers: ["example.com/a", "example.com/b"] } }, write);
    const seen = eventsFor(c, "cfg");
    const first = await c.registry.delete(cmKind, "shop", "cfg", del);
    const held = objectOf(first);
    expect(first.code).toBe(200);
    expect(held.kind).toBe("ConfigMap");
    expect(held.metadata.deletionGracePeriodSeconds).toBe(0);
    const again = objectOf(await c.registry.delete(cmKind, "shop", "cfg", del));
    expect(again.metadata.resourceVersion).toBe(held.metadata.resourceVersion);
    const accepted = await c.registry.delete(cmKind, "shop", "cfg", { ...del, orphanDependents: false });
    expect(accepted.code).toBe(202);

    const cur = () => c.store.objects.get({ resource: "configmaps", namespace: "shop", name: "cfg" })?.object;
    await c.registry.update(cmKind, "shop", "cfg", { ...cur()!, metadata: { ...cur()!.metadata, finalizers: ["example.com/b"] } }, write);
    expect(cur()).toBeTruthy();
    await c.registry.update(cmKind, "shop", "cfg", { ...cur()!, metadata: { ...cur()!.metadata, finalizers: [] } }, write);
    expect(cur()).toBeUndefined();
    expect(seen.map((e) => e.type)).toEqual(["MODIFIED", "MODIFIED", "DELETED"]);
  });

  it("no new finalizer once deletion started; deletionTimestamp and grace cannot be changed by updates", async () => {
    const c = await cluster();
    await c.registry.create(cmKind, "shop", { metadata: { name: "cfg", finalizers: ["example.com/a"] } }, write);
    const live = objectOf(await c.registry.create(cmKind, "shop", { metadata: { name: "live" } }, write));
    const held = objectOf(await c.registry.delete(cmKind, "shop", "cfg", del));
    const added = await refusal(c.registry.update(cmKind, "shop", "cfg", { ...held, metadata: { ...held.metadata, finalizers: ["example.com/a", "example.com/new"] } }, write));
    expect(added.code).toBe(422);
    expect(added.message).toBe(`ConfigMap "cfg" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}`);
    const grace = await refusal(c.registry.update(cmKind, "shop", "cfg", { ...held, metadata: { ...held.metadata, deletionGracePeriodSeconds: 5 } }, write));
    expect(grace.message).toBe(`ConfigMap "cfg" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable`);
    const stamp = await refusal(c.registry.update(cmKind, "shop", "live", { ...live, metadata: { ...live.metadata, deletionTimestamp: "2030-01-01T00:00:00Z" } }, write));
    expect(stamp.code).toBe(422);
    expect(stamp.message).toContain("metadata.deletionTimestamp: Invalid value: ");
    expect(stamp.message).toContain("field is immutable");
    // Moving or dropping an existing timestamp is ignored (kube carries the stored one).
    const moved = objectOf(await c.registry.update(cmKind, "shop", "cfg", { ...held, metadata: { ...held.metadata, deletionTimestamp: undefined, labels: { a: "b" } } }, write));
    expect(moved.metadata.deletionTimestamp).toBe(held.metadata.deletionTimestamp);
  });
});

describe("preconditions and propagation", () => {
  it("uid and resourceVersion preconditions answer 409 with kube's messages, on delete and delete collection", async () => {
    const c = await cluster();
    const cm = objectOf(await c.registry.create(cmKind, "shop", { metadata: { name: "cfg", labels: { app: "x" } } }, write));
    const uid = await refusal(c.registry.delete(cmKind, "shop", "cfg", { ...del, preconditions: { uid: "nope" } }));
    expect(uid).toEqual({ code: 409, message: `Operation cannot be fulfilled on ConfigMap "cfg": the UID in the precondition (nope) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated` });
    const rv = await refusal(c.registry.delete(cmKind, "shop", "cfg", { ...del, preconditions: { resourceVersion: "1" } }));
    expect(rv.message).toBe(`Operation cannot be fulfilled on ConfigMap "cfg": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cm.metadata.resourceVersion}). The object might have been modified`);
    const coll = await refusal(c.registry.deleteCollection(cmKind, "shop", byLabel("app=x"), { ...del, preconditions: { uid: "nope" } }));
    expect(coll.code).toBe(409);
    expect(c.store.objects.get({ resource: "configmaps", namespace: "shop", name: "cfg" })).toBeTruthy();
    await c.registry.delete(cmKind, "shop", "cfg", { ...del, preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } });
  });

  it("Foreground and Orphan put their finalizer on the object; Background on a second delete takes it off and deletes", async () => {
    const c = await cluster();
    await c.registry.create(cmKind, "shop", { metadata: { name: "fg" } }, write);
    await c.registry.create(cmKind, "shop", { metadata: { name: "or" } }, write);
    expect(objectOf(await c.registry.delete(cmKind, "shop", "fg", { ...del, propagationPolicy: "Foreground" })).metadata.finalizers).toEqual(["foregroundDeletion"]);
    expect(objectOf(await c.registry.delete(cmKind, "shop", "or", { ...del, orphanDependents: true })).metadata.finalizers).toEqual(["orphan"]);
    await c.registry.delete(cmKind, "shop", "fg", { ...del, propagationPolicy: "Background" });
    expect(c.store.objects.get({ resource: "configmaps", namespace: "shop", name: "fg" })).toBeUndefined();
  });
});

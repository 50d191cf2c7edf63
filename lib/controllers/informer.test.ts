import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { ALL_RESOURCES, Informer, type InformerEvent } from "./informer";
import { del, openCluster, write, type TestCluster } from "./test-cluster";

const configMaps = kindByPlural("configmaps")!;
let c: TestCluster;
afterEach(async () => { await c.close(); });

describe("informer", () => {
  it("replays current objects as ADDED, then every change with the previous state", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    await c.registry.create(configMaps, "default", { metadata: { name: "old" }, data: { v: "1" } }, write);
    const seen: string[] = [];
    const all: InformerEvent[] = [];
    const informer = new Informer(c.store.objects)
      .on("configmaps", (e) => seen.push(`${e.type} ${e.key.name} ${String((e.old?.data as Record<string, string> | undefined)?.v ?? "-")}`))
      .on(ALL_RESOURCES, (e) => all.push(e));
    informer.start();
    const old = (await c.registry.get(configMaps, "default", "old")) as { object: { metadata: object } };
    await c.registry.update(configMaps, "default", "old", { ...old.object, data: { v: "2" } }, write);
    await c.registry.create(configMaps, "default", { metadata: { name: "new" } }, write);
    await c.registry.delete(configMaps, "default", "new", del);
    informer.stop();
    await c.registry.delete(configMaps, "default", "old", del);
    expect(seen).toEqual(["ADDED old -", "MODIFIED old 1", "ADDED new -", "DELETED new -"]);
    expect(all).toHaveLength(4);
    expect(informer.list("configmaps", "default").map((o) => o.metadata.name)).toEqual([]);
  });

  it("keeps delivering when a handler throws", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    const errors: unknown[] = [];
    const names: string[] = [];
    const informer = new Informer(c.store.objects, (e) => errors.push(e))
      .on("configmaps", () => { throw new Error("boom"); })
      .on("configmaps", (e) => names.push(e.key.name));
    informer.start();
    await c.registry.create(configMaps, "default", { metadata: { name: "a" } }, write);
    await c.registry.create(configMaps, "default", { metadata: { name: "b" } }, write);
    informer.stop();
    expect(names).toEqual(["a", "b"]);
    expect(errors).toHaveLength(2);
  });

  it("replays a large initial list in slices that yield to the event loop, then what was committed meanwhile", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    const total = 2000;
    for (let i = 0; i < total; i += 200) {
      await Promise.all(Array.from({ length: 200 }, (_, j) => c.registry.create(configMaps, "default", { metadata: { name: `cm-${i + j}` } }, write)));
    }
    const before = c.store.objects.list("configmaps").length; // the namespace's kube-root-ca.crt is not made here
    const seen: string[] = [];
    const spin = (us: number) => { const end = performance.now() + us / 1000; while (performance.now() < end); };
    const informer = new Informer(c.store.objects).on("configmaps", (e) => { seen.push(`${e.type} ${e.key.name}`); spin(100); });
    const synced = informer.startInSlices(5);
    // The first slice ran; the rest waits for the event loop, which serves others meanwhile.
    expect(informer.hasSynced()).toBe(false);
    const afterFirstSlice = seen.length;
    expect(afterFirstSlice).toBeGreaterThan(0);
    expect(afterFirstSlice).toBeLessThan(before);
    await new Promise((r) => setImmediate(r));
    expect(seen.length).toBeLessThan(before);
    // A change committed during the replay comes after the whole initial list, once.
    await c.registry.create(configMaps, "default", { metadata: { name: "during" } }, write);
    expect(informer.hasSynced()).toBe(false);
    await synced;
    expect(informer.hasSynced()).toBe(true);
    expect(seen).toHaveLength(before + 1);
    expect(seen.slice(0, before).every((s) => s.startsWith("ADDED cm-"))).toBe(true);
    expect(seen[before]).toBe("ADDED during");
    // Then the cache's own delivery.
    await c.registry.delete(configMaps, "default", "during", del);
    expect(seen.at(-1)).toBe("DELETED during");
    informer.stop();
  });

  it("stops a replay in progress", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    await Promise.all(Array.from({ length: 600 }, (_, j) => c.registry.create(configMaps, "default", { metadata: { name: `cm-${j}` } }, write)));
    let seen = 0;
    const informer = new Informer(c.store.objects).on("configmaps", () => { seen++; });
    void informer.startInSlices(0);
    informer.stop();
    const stoppedAt = seen;
    await new Promise((r) => setTimeout(r, 20));
    await c.registry.create(configMaps, "default", { metadata: { name: "later" } }, write);
    expect(seen).toBe(stoppedAt);
    expect(stoppedAt).toBeLessThan(600);
    expect(informer.hasSynced()).toBe(false);
  });
});

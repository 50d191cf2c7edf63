import { afterEach, describe, expect, it } from "vitest";
import { event as eventKind } from "../kinds/event";
import { cached, createNamespace, eventually, openCluster, write, type TestCluster } from "./test-cluster";
import { EventTTLController } from "./event-ttl";
import { Informer } from "./informer";

let cluster: TestCluster | undefined;
let stop: (() => void) | undefined;
afterEach(async () => { stop?.(); stop = undefined; await cluster?.close(); cluster = undefined; });

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const ev = (name: string, lastTimestamp?: string) => ({
  metadata: { name },
  involvedObject: { kind: "Pod", namespace: "ttl", name: "web" },
  reason: "Test", message: name, type: "Normal", count: 1,
  ...(lastTimestamp ? { firstTimestamp: lastTimestamp, lastTimestamp } : {}),
});

function startTTL(c: TestCluster, ttlSeconds: number, sweepIntervalMs?: number) {
  const informer = new Informer(c.store.objects);
  const controller = new EventTTLController({ registry: c.registry, informer, ttlSeconds, sweepIntervalMs });
  informer.start();
  stop = () => { informer.stop(); controller.stop(); };
  return controller;
}

describe("EventTTLController", () => {
  it("deletes an Event its TTL after its last occurrence, and not before", async () => {
    cluster = await openCluster(undefined, { controllers: false });
    await createNamespace(cluster, "ttl");
    startTTL(cluster, 1);
    const created = Date.now();
    await cluster.registry.create(eventKind, "ttl", ev("fresh"), write);
    await new Promise((r) => setTimeout(r, 600));
    expect(cached(cluster, "events", "ttl", "fresh"), "still there before the TTL").toBeDefined();
    await eventually(() => !cached(cluster!, "events", "ttl", "fresh"), 3000, "the Event to expire");
    expect(Date.now() - created).toBeGreaterThanOrEqual(950);
  });

  it("keeps an Event counted again for another full TTL", async () => {
    cluster = await openCluster(undefined, { controllers: false });
    await createNamespace(cluster, "ttl");
    startTTL(cluster, 1);
    await cluster.registry.create(eventKind, "ttl", ev("repeated"), write);
    await new Promise((r) => setTimeout(r, 700));
    await cluster.registry.patch(eventKind, "ttl", "repeated", (cur) => ({ ...cur, count: 2, lastTimestamp: iso(Date.now()) }), write);
    await new Promise((r) => setTimeout(r, 600));
    expect(cached(cluster, "events", "ttl", "repeated"), "renewed by the repeat").toBeDefined();
    await eventually(() => !cached(cluster!, "events", "ttl", "repeated"), 3000, "the Event to expire");
  });

  it("after a restart removes overdue Events at once and schedules the rest", async () => {
    cluster = await openCluster(undefined, { controllers: false });
    await createNamespace(cluster, "ttl");
    // Written while no TTL controller ran (the previous process was down).
    await cluster.registry.create(eventKind, "ttl", ev("old"), write);
    await new Promise((r) => setTimeout(r, 2100));
    await cluster.registry.create(eventKind, "ttl", ev("new"), write);
    const file = cluster.file;
    await cluster.close();
    cluster = await openCluster(file, { controllers: false });
    const controller = startTTL(cluster, 1);
    await eventually(() => !cached(cluster!, "events", "ttl", "old"), 300, "the overdue Event to go at once");
    expect(cached(cluster, "events", "ttl", "new"), "a recent Event stays").toBeDefined();
    expect(controller.size).toBe(1);
    await eventually(() => !cached(cluster!, "events", "ttl", "new"), 3500, "the recent Event to go in its turn");
  });

  it("handles 10,000 Events with one timer and expires them all", async () => {
    cluster = await openCluster(undefined, { controllers: false });
    await createNamespace(cluster, "ttl");
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => cluster!.registry.create(eventKind, "ttl", ev(`e${i}`), write)));
    const started = performance.now();
    const controller = startTTL(cluster, 2);
    expect(performance.now() - started, "scheduling 10,000 Events").toBeLessThan(1000);
    expect(controller.size).toBe(10_000);
    await eventually(() => cluster!.store.objects.list("events", { namespace: "ttl" }).length === 0, 60_000, "every Event to expire");
  }, 90_000);
});

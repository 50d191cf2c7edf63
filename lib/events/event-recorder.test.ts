import { afterEach, describe, expect, it } from "vitest";
import { configMap } from "../kinds/config-map";
import { event as eventKind, type Event } from "../kinds/event";
import type { KubeObject } from "../kinds/types";
import { createNamespace, objectOf, openCluster, write, type TestCluster } from "../controllers/test-cluster";
import { RegistryEventRecorder } from "./event-recorder";

let cluster: TestCluster;
afterEach(async () => cluster?.close());

const eventsIn = (ns: string) =>
  cluster.store.objects.list(eventKind.plural, { namespace: ns }).map((o) => o.object as Event)
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));

async function setup(now: () => number = Date.now) {
  cluster = await openCluster(undefined, { controllers: false });
  await createNamespace(cluster, "default");
  await createNamespace(cluster, "team");
  const cm = objectOf(await cluster.registry.create(configMap, "team", { metadata: { name: "settings" } }, write));
  const recorder = new RegistryEventRecorder({ registry: cluster.registry, host: "node-a", now });
  return { cm, recorder };
}

describe("RegistryEventRecorder", () => {
  it("writes an Event named <object>.<hex nanoseconds> in the object's namespace, referring to it", async () => {
    const { cm, recorder } = await setup(() => Date.parse("2025-03-01T10:00:00.250Z"));
    recorder.event(cm, "Warning", "FailedToUpdateEndpoint", "Failed to update endpoint team/settings: boom", "endpoint-controller");
    await recorder.flush();
    const [ev, ...rest] = eventsIn("team");
    expect(rest).toEqual([]);
    expect(ev.metadata.name).toMatch(/^settings\.[0-9a-f]{16}$/);
    // The suffix is the nanosecond timestamp of the occurrence.
    const nanos = BigInt(`0x${ev.metadata.name!.split(".")[1]}`);
    expect(Number(nanos / 1_000_000n)).toBe(Date.parse("2025-03-01T10:00:00.250Z"));
    expect(ev.involvedObject).toEqual({
      kind: "ConfigMap", namespace: "team", name: "settings", uid: cm.metadata.uid, apiVersion: "v1", resourceVersion: cm.metadata.resourceVersion,
    });
    expect(ev).toMatchObject({
      type: "Warning", reason: "FailedToUpdateEndpoint", message: "Failed to update endpoint team/settings: boom",
      source: { component: "endpoint-controller" }, reportingComponent: "endpoint-controller", reportingInstance: "node-a",
      firstTimestamp: "2025-03-01T10:00:00Z", lastTimestamp: "2025-03-01T10:00:00Z", count: 1,
    });
  });

  it("puts Events about cluster-scoped objects into default", async () => {
    const { recorder } = await setup();
    const pv: KubeObject = { apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "pv-1", uid: "u-1", resourceVersion: "7" } };
    recorder.event(pv, "Normal", "VolumeDelete", "deleted", "persistentvolume-controller");
    await recorder.flush();
    const [ev] = eventsIn("default");
    expect(ev.metadata.name).toMatch(/^pv-1\./);
    expect(ev.involvedObject).toEqual({ kind: "PersistentVolume", name: "pv-1", uid: "u-1", apiVersion: "v1", resourceVersion: "7" });
  });

  it("counts repeats of the same event in one Event, keeping firstTimestamp and moving lastTimestamp", async () => {
    let t = Date.parse("2025-03-01T10:00:00Z");
    const { cm, recorder } = await setup(() => t);
    for (let i = 0; i < 3; i++) {
      recorder.event(cm, "Warning", "ProvisioningFailed", "no volume plugin matched", "persistentvolume-controller");
      t += 61_000;
    }
    recorder.event(cm, "Normal", "ProvisioningFailed", "no volume plugin matched", "persistentvolume-controller");
    await recorder.flush();
    const evs = eventsIn("team");
    expect(evs.map((e) => [e.type, e.count])).toEqual(expect.arrayContaining([["Warning", 3], ["Normal", 1]]));
    expect(evs).toHaveLength(2);
    const warning = evs.find((e) => e.type === "Warning")!;
    expect(warning.firstTimestamp).toBe("2025-03-01T10:00:00Z");
    expect(warning.lastTimestamp).toBe("2025-03-01T10:02:02Z");
  });

  it("starts a new Event once the same event recurs after the 10 minute window", async () => {
    let t = Date.parse("2025-03-01T10:00:00Z");
    const { cm, recorder } = await setup(() => t);
    recorder.event(cm, "Normal", "Sync", "same", "c");
    t += 11 * 60_000;
    recorder.event(cm, "Normal", "Sync", "same", "c");
    await recorder.flush();
    expect(eventsIn("team").map((e) => e.count)).toEqual([1, 1]);
  });

  it("combines similar events that differ only by message once there are ten of them", async () => {
    const { cm, recorder } = await setup();
    for (let i = 1; i <= 12; i++) recorder.event(cm, "Warning", "FailedBinding", `attempt ${i} failed`, "persistentvolume-controller");
    await recorder.flush();
    const evs = eventsIn("team");
    const combined = evs.filter((e) => e.message!.startsWith("(combined from similar events): "));
    expect(evs).toHaveLength(10);
    expect(combined).toHaveLength(1);
    expect(combined[0]).toMatchObject({ message: "(combined from similar events): attempt 12 failed", count: 3, reason: "FailedBinding" });
  });

  it("never throws or waits for the caller; failed writes and overflow are counted", async () => {
    const { cm, recorder } = await setup();
    const errors: unknown[] = [];
    const strict = new RegistryEventRecorder({ registry: cluster.registry, maxQueue: 3, onError: (e) => errors.push(e) });
    const ghost: KubeObject = { ...cm, metadata: { ...cm.metadata, namespace: "no-such-namespace" } };
    const started = Date.now();
    for (let i = 0; i < 5; i++) strict.event(ghost, "Normal", "R", `m${i}`, "c");
    expect(Date.now() - started).toBeLessThan(50);
    await strict.flush();
    // The first is taken at once, three wait, the fifth does not fit.
    expect(strict.dropped).toBe(1);
    expect(strict.failed).toBe(4);
    expect(errors).toHaveLength(4);
    recorder.event(cm, "Normal", "Still", "works", "c");
    await recorder.flush();
    expect(eventsIn("team").map((e) => e.reason)).toEqual(["Still"]);
  });
});

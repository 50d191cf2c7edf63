import { describe, expect, it } from "vitest";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import type { WatchEvent } from "@/lib/client/apply-watch-event";
import { isHeartbeat, withoutHeartbeats } from "./heartbeats";

const leases = kindByPlural("leases")!;
const events = kindByPlural("events")!;
const configMaps = kindByPlural("configmaps")!;

const lease = (rv: string, spec: Record<string, unknown>): KubeObject =>
  ({
    kind: "Lease",
    metadata: { name: "cluster-core-controllers", namespace: "kube-system", resourceVersion: rv, managedFields: [{ manager: "leader-election", time: `2026-11-28T03:00:0${rv}Z` }] },
    spec: { holderIdentity: "server-a_1", leaseDurationSeconds: 15, acquireTime: "2026-11-28T02:00:00.000000Z", leaseTransitions: 0, ...spec },
  }) as KubeObject;

describe("isHeartbeat", () => {
  it("a Lease whose renewTime alone moved is a heartbeat", () => {
    expect(isHeartbeat(leases, lease("1", { renewTime: "2026-11-28T03:00:00.000000Z" }), lease("2", { renewTime: "2026-11-28T03:00:02.000000Z" }))).toBe(true);
  });

  it("a Lease that changed holder, duration or transitions is news", () => {
    const before = lease("1", { renewTime: "2026-11-28T03:00:00.000000Z" });
    expect(isHeartbeat(leases, before, lease("2", { renewTime: "2026-11-28T03:00:02.000000Z", holderIdentity: "server-b_2", leaseTransitions: 1 }))).toBe(false);
    expect(isHeartbeat(leases, before, lease("2", { renewTime: "2026-11-28T03:00:00.000000Z", leaseDurationSeconds: 30 }))).toBe(false);
  });

  it("a label or annotation added to a Lease is news", () => {
    const before = lease("1", { renewTime: "t1" });
    const after = lease("2", { renewTime: "t2" });
    after.metadata.labels = { team: "a" };
    expect(isHeartbeat(leases, before, after)).toBe(false);
  });

  it("an Event seen again (count and last time only) is a heartbeat; a new message is not", () => {
    const base = { kind: "Event", metadata: { name: "web.1", namespace: "a", resourceVersion: "1" }, involvedObject: { kind: "Pod", name: "web" }, reason: "BackOff", message: "Back-off", type: "Warning" };
    const seen = (rv: string, count: number, lastTimestamp: string, extra = {}) => ({ ...base, metadata: { ...base.metadata, resourceVersion: rv }, count, lastTimestamp, ...extra }) as KubeObject;
    expect(isHeartbeat(events, seen("1", 1, "2026-11-28T03:00:00Z"), seen("2", 2, "2026-11-28T03:00:15Z"))).toBe(true);
    expect(isHeartbeat(events, seen("1", 1, "t1"), seen("2", 2, "t2", { message: "Back-off 40s" }))).toBe(false);
  });

  it("a kind without timer fields never beats, and a first sighting is news", () => {
    const cm = (rv: string) => ({ kind: "ConfigMap", metadata: { name: "c", namespace: "a", resourceVersion: rv } }) as KubeObject;
    expect(isHeartbeat(configMaps, cm("1"), cm("2"))).toBe(false);
    expect(isHeartbeat(leases, undefined, lease("2", { renewTime: "t2" }))).toBe(false);
  });
});

describe("withoutHeartbeats", () => {
  it("compares each event with the object before it, in the list or earlier in the batch", () => {
    const before = new Map([["kube-system/cluster-core-controllers", lease("1", { renewTime: "t1" })]]);
    const batch: WatchEvent[] = [
      { type: "MODIFIED", object: lease("2", { renewTime: "t2" }) },
      { type: "MODIFIED", object: lease("3", { renewTime: "t3", holderIdentity: "server-b_2" }) },
      { type: "MODIFIED", object: lease("4", { renewTime: "t4", holderIdentity: "server-b_2" }) },
      { type: "DELETED", object: lease("5", { renewTime: "t4", holderIdentity: "server-b_2" }) },
      { type: "ADDED", object: lease("6", { renewTime: "t5" }) },
    ];
    expect(withoutHeartbeats(leases, batch, before).map((e) => `${e.type} ${(e.object as KubeObject).metadata.resourceVersion}`)).toEqual(["MODIFIED 3", "DELETED 5", "ADDED 6"]);
  });

  it("a change to an object the list did not hold yet is kept", () => {
    expect(withoutHeartbeats(leases, [{ type: "MODIFIED", object: lease("2", { renewTime: "t2" }) }], new Map())).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import type { Lease } from "../kinds/lease";
import {
  apiserverId, expiresAt, IDENTITY_LABEL, joinHostPort, KUBE_APISERVER, liveApiservers, PEER_ADDRESS_ANNOTATION, splitHostPort,
} from "./apiserver-identity-lease";

const NOW = Date.parse("2025-01-01T12:00:00Z");

const lease = (name: string, address: string, renewedAgoMs: number, seconds = 15, labels: Record<string, string> = { [IDENTITY_LABEL]: KUBE_APISERVER }): Lease => ({
  apiVersion: "coordination.k8s.io/v1", kind: "Lease",
  metadata: { name, namespace: "kube-system", labels, annotations: { [PEER_ADDRESS_ANNOTATION]: address } },
  spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: seconds, renewTime: new Date(NOW - renewedAgoMs).toISOString().replace("Z", "000Z") },
});

describe("apiserver identity Leases", () => {
  it("names a replica as kube does (apiserver-<26 base32 characters>), stable for a host, address and port", () => {
    const a = apiserverId("node-1", { ip: "192.0.2.2", port: 6443 });
    expect(a).toMatch(/^apiserver-[a-z2-7]{26}$/);
    expect(apiserverId("node-1", { ip: "192.0.2.2", port: 6443 })).toBe(a);
    expect(apiserverId("node-1", { ip: "192.0.2.2", port: 6444 })).not.toBe(a);
    expect(apiserverId("node-2", { ip: "192.0.2.2", port: 6443 })).not.toBe(a);
  });

  it("writes and reads kube's <ip>:<port> and [<ipv6>]:<port>", () => {
    expect(joinHostPort({ ip: "2001:db8::1", port: 443 })).toBe("[2001:db8::1]:443");
    expect(splitHostPort("[2001:db8::1]:443")).toEqual({ ip: "2001:db8::1", port: 443 });
    expect(splitHostPort("192.0.2.2:6443")).toEqual({ ip: "192.0.2.2", port: 6443 });
    for (const bad of [undefined, "", "192.0.2.2", "192.0.2.2:0", "192.0.2.2:70000", "host:80", "2001:db8::1:443"]) expect(splitHostPort(bad), String(bad)).toBeUndefined();
  });

  it("lists the replicas whose Lease is live, once each, sorted by IP as kube sorts them", () => {
    const leases = [
      lease("apiserver-b", "192.0.2.20:6443", 1_000),
      lease("apiserver-a", "192.0.2.3:6443", 14_000),
      lease("apiserver-c", "192.0.2.9:6443", 15_000), // expired exactly now
      lease("apiserver-d", "192.0.2.3:6443", 2_000), // the same address twice (a restart under a new name)
      lease("apiserver-e", "192.0.2.4:6443", 1_000, 15, { other: "x" }), // not an identity Lease
      lease("apiserver-f", "nowhere", 1_000),
      lease("apiserver-g", "[2001:db8::1]:6443", 59_000, 60),
    ];
    expect(liveApiservers(leases, NOW)).toEqual([
      { ip: "192.0.2.20", port: 6443 }, { ip: "192.0.2.3", port: 6443 }, { ip: "2001:db8::1", port: 6443 },
    ]);
    expect(liveApiservers(leases, NOW, "apiserver-b").map(joinHostPort)).toEqual(["192.0.2.3:6443", "[2001:db8::1]:6443"]);
  });

  it("expires renewTime + leaseDurationSeconds later", () => {
    expect(expiresAt(lease("x", "192.0.2.1:1", 0, 15))).toBe(NOW + 15_000);
    expect(expiresAt({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "x" }, spec: {} })).toBeUndefined();
  });
});

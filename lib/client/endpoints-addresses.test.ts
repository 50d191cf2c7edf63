import { describe, expect, it } from "vitest";
import { compareIPs, formatEndpointPort, groupEndpoints } from "./endpoints-addresses";

const endpoints = {
  metadata: { name: "web", namespace: "shop" },
  subsets: [
    {
      addresses: [
        { ip: "10.0.0.10", nodeName: "n1", targetRef: { kind: "Pod", name: "web-b", namespace: "shop" } },
        { ip: "10.0.0.9", targetRef: { kind: "Pod", name: "web-a" } },
      ],
      notReadyAddresses: [{ ip: "10.0.0.11", targetRef: { kind: "Pod", name: "web-c" } }],
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    },
    {
      addresses: [{ ip: "10.0.0.9", targetRef: { kind: "Pod", name: "web-a" } }],
      ports: [{ name: "metrics", port: 9090 }],
    },
  ],
};

describe("endpoints grouping", () => {
  it("splits ready and not-ready addresses, sorted numerically, each with its pod", () => {
    const g = groupEndpoints(endpoints);
    expect(g.ready.map((r) => [r.ip, r.target?.name])).toEqual([
      ["10.0.0.9", "web-a"],
      ["10.0.0.10", "web-b"],
    ]);
    expect(g.notReady.map((r) => [r.ip, r.target?.name, r.ready])).toEqual([["10.0.0.11", "web-c", false]]);
    // A targetRef without a namespace is in the Endpoints' namespace.
    expect(g.ready[0].target).toEqual({ kind: "Pod", namespace: "shop", name: "web-a" });
    expect(g.ready[1].nodeName).toBe("n1");
  });

  it("merges an address listed in several subsets and collects their ports", () => {
    const g = groupEndpoints(endpoints);
    expect(g.ready[0].ports.map(formatEndpointPort)).toEqual(["http 8080/TCP", "metrics 9090/TCP"]);
    expect(g.ready[1].ports.map(formatEndpointPort)).toEqual(["http 8080/TCP"]);
    expect(g.ports.map(formatEndpointPort)).toEqual(["http 8080/TCP", "metrics 9090/TCP"]);
  });

  it("is empty for a Service with no endpoints yet (no subsets, or no object at all)", () => {
    expect(groupEndpoints({ metadata: { name: "x" } })).toEqual({ ready: [], notReady: [], ports: [] });
    expect(groupEndpoints(undefined)).toEqual({ ready: [], notReady: [], ports: [] });
  });

  it("orders IPv4 numerically before IPv6", () => {
    expect(["fd00::2", "10.0.0.100", "9.0.0.1", "10.0.0.20"].sort(compareIPs)).toEqual(["9.0.0.1", "10.0.0.20", "10.0.0.100", "fd00::2"]);
  });
});

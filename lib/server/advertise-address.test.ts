import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { advertiseAddress, hostAddress, type HostNetwork } from "./advertise-address";

const addr = (address: string, internal = false): NetworkInterfaceInfo => ({
  address, internal, family: address.includes(":") ? "IPv6" : "IPv4", netmask: "", mac: "", cidr: null,
} as NetworkInterfaceInfo);

const host: HostNetwork = {
  interfaces: {
    lo: [addr("127.0.0.1", true), addr("::1", true)],
    docker0: [addr("172.17.0.1")],
    eth0: [addr("fe80::1"), addr("192.0.2.2"), addr("2001:db8::2")],
  },
  defaultRouteInterface: "eth0",
};

describe("advertiseAddress (kube's --advertise-address defaulting)", () => {
  it("takes ADVERTISE_ADDRESS as given", () => {
    expect(advertiseAddress({ configured: "198.51.100.7", bindHost: "0.0.0.0", family: "IPv4" }, host)).toBe("198.51.100.7");
  });

  it("takes a bind address others can reach", () => {
    expect(advertiseAddress({ bindHost: "192.0.2.9", family: "IPv4" }, host)).toBe("192.0.2.9");
  });

  it("resolves an unspecified or loopback bind address (or a host name) to the default-route interface's address", () => {
    for (const bindHost of ["0.0.0.0", "127.0.0.1", "::", "localhost"]) {
      expect(advertiseAddress({ bindHost, family: "IPv4" }, host), bindHost).toBe("192.0.2.2");
    }
    // Link-local addresses are skipped: Endpoints validation refuses them.
    expect(advertiseAddress({ bindHost: "::", family: "IPv6" }, host)).toBe("2001:db8::2");
  });

  it("falls back to the interfaces in order without a known default route; none but loopback gives none", () => {
    expect(hostAddress("IPv4", { interfaces: host.interfaces })).toBe("172.17.0.1");
    expect(advertiseAddress({ bindHost: "0.0.0.0", family: "IPv4" }, { interfaces: { lo: host.interfaces.lo! } })).toBeUndefined();
  });

  it("refuses an ADVERTISE_ADDRESS of the other family than the service range", () => {
    expect(() => advertiseAddress({ configured: "2001:db8::5", bindHost: "0.0.0.0", family: "IPv4" }, host))
      .toThrow("ADVERTISE_ADDRESS 2001:db8::5 is IPv6 but SERVICE_CLUSTER_IP_RANGE is IPv4");
  });
});

// The address this replica tells the cluster to reach it at (kube-apiserver's --advertise-address): what the
// `kubernetes` Endpoints list and what its identity Lease carries. kube takes the flag, else the bind address
// unless it is unspecified or loopback (ResolveBindAddress), else the address of the host's default-route
// interface, preferring the family of the bind address. A loopback address is useless to anyone else (and
// Endpoints validation refuses it), so it is never the answer.
import { readFileSync } from "node:fs";
import { isIP, isIPv6 } from "node:net";
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import { validateNonSpecialIP } from "../validation/ip";

export type Family = "IPv4" | "IPv6";

export interface HostNetwork {
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
  /** The interface that holds the IPv4 default route, when known (Linux's /proc/net/route). */
  defaultRouteInterface?: string;
}

/** Unspecified, loopback and link-local addresses cannot be advertised (kube's ValidateNonSpecialIP). */
export const isAdvertisable = (ip: string) => isIP(ip) !== 0 && validateNonSpecialIP(ip, "").length === 0;

/** Linux's IPv4 routing table: the interface of the first route to 0.0.0.0/0. */
function defaultRouteInterface(): string | undefined {
  try {
    for (const line of readFileSync("/proc/net/route", "utf8").split("\n").slice(1)) {
      const [iface, destination, , , , , , mask] = line.trim().split(/\s+/);
      if (destination === "00000000" && mask === "00000000") return iface;
    }
  } catch {
    // Not Linux: the interfaces are tried in order.
  }
  return undefined;
}

export function hostNetwork(): HostNetwork {
  return { interfaces: networkInterfaces(), defaultRouteInterface: defaultRouteInterface() };
}

/** kube's chooseHostInterface, simplified: the default-route interface first, then every other, in order. */
export function hostAddress(family: Family, net: HostNetwork = hostNetwork()): string | undefined {
  const names = Object.keys(net.interfaces);
  const ordered = net.defaultRouteInterface && names.includes(net.defaultRouteInterface)
    ? [net.defaultRouteInterface, ...names.filter((n) => n !== net.defaultRouteInterface)]
    : names;
  for (const name of ordered) {
    const found = (net.interfaces[name] ?? []).find((a) => !a.internal && a.family === family && isAdvertisable(a.address));
    if (found) return found.address;
  }
  return undefined;
}

export interface AdvertiseOptions {
  /** ADVERTISE_ADDRESS, when set. */
  configured?: string;
  /** HOST: an address or a host name. */
  bindHost: string;
  /** The family of the service range: the kubernetes Service's address and its Endpoints must share it. */
  family: Family;
}

/**
 * The advertised IP, or undefined when none can be found (a host with loopback only). An address of the other
 * family than the service range is refused, as kube-apiserver refuses to start with one.
 */
export function advertiseAddress(opts: AdvertiseOptions, net?: HostNetwork): string | undefined {
  const familyOf = (ip: string): Family => (isIPv6(ip) ? "IPv6" : "IPv4");
  if (opts.configured !== undefined) {
    if (familyOf(opts.configured) !== opts.family) {
      throw new Error(`ADVERTISE_ADDRESS ${opts.configured} is ${familyOf(opts.configured)} but SERVICE_CLUSTER_IP_RANGE is ${opts.family}: the kubernetes Service and its Endpoints must be of one family`);
    }
    return opts.configured;
  }
  const bind = opts.bindHost;
  if (isAdvertisable(bind) && familyOf(bind) === opts.family) return bind;
  return hostAddress(opts.family, net);
}

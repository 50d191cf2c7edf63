// An Endpoints object read the way a person asks about it: which addresses serve, which are not ready yet,
// on which ports, and which pod each address is. kube groups addresses into subsets by port set; the same
// address can appear in several subsets (different ports), so addresses are merged by IP and readiness.
import type { KubeObject } from "../kinds";

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointAddressRow {
  ip: string;
  ready: boolean;
  hostname?: string;
  nodeName?: string;
  /** The pod (or other object) behind the address, from targetRef. */
  target?: { kind: string; namespace?: string; name: string };
  ports: EndpointPort[];
}

export interface EndpointsGroups {
  ready: EndpointAddressRow[];
  notReady: EndpointAddressRow[];
  /** Every distinct port across subsets. */
  ports: EndpointPort[];
}

type Loose = Record<string, any>;

const portKey = (p: EndpointPort) => `${p.name ?? ""}/${p.port}/${p.protocol}`;

/** IPv4 addresses in numeric order, then IPv6 (and anything else) as text. */
export function compareIPs(a: string, b: string): number {
  const v4 = (ip: string) => (/^\d+\.\d+\.\d+\.\d+$/.test(ip) ? ip.split(".").reduce((n, o) => n * 256 + Number(o), 0) : undefined);
  const x = v4(a);
  const y = v4(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (x !== undefined) return -1;
  if (y !== undefined) return 1;
  return a.localeCompare(b);
}

function toPort(p: Loose): EndpointPort {
  return { name: p.name || undefined, port: Number(p.port), protocol: p.protocol || "TCP", appProtocol: p.appProtocol || undefined };
}

export function groupEndpoints(endpoints: KubeObject | undefined): EndpointsGroups {
  const rows = new Map<string, EndpointAddressRow>();
  const allPorts = new Map<string, EndpointPort>();
  for (const subset of ((endpoints?.subsets as Loose[] | undefined) ?? [])) {
    const ports = ((subset.ports ?? []) as Loose[]).map(toPort);
    for (const p of ports) allPorts.set(portKey(p), p);
    const add = (address: Loose, ready: boolean) => {
      if (!address?.ip) return;
      const key = `${ready ? "r" : "n"}/${address.ip}`;
      let row = rows.get(key);
      if (!row) {
        const ref = address.targetRef as Loose | undefined;
        row = {
          ip: address.ip,
          ready,
          hostname: address.hostname || undefined,
          nodeName: address.nodeName || undefined,
          target: ref?.name ? { kind: ref.kind || "Pod", namespace: ref.namespace || endpoints?.metadata.namespace, name: ref.name } : undefined,
          ports: [],
        };
        rows.set(key, row);
      }
      const have = new Set(row.ports.map(portKey));
      for (const p of ports) if (!have.has(portKey(p))) row.ports.push(p);
    };
    for (const a of (subset.addresses ?? []) as Loose[]) add(a, true);
    for (const a of (subset.notReadyAddresses ?? []) as Loose[]) add(a, false);
  }
  const sorted = [...rows.values()].sort((a, b) => compareIPs(a.ip, b.ip));
  const ports = [...allPorts.values()].sort((a, b) => a.port - b.port || (a.name ?? "").localeCompare(b.name ?? ""));
  return { ready: sorted.filter((r) => r.ready), notReady: sorted.filter((r) => !r.ready), ports };
}

/** `8080/TCP`, with the port's name first when it has one (`http 8080/TCP`). */
export function formatEndpointPort(p: EndpointPort): string {
  return `${p.name ? `${p.name} ` : ""}${p.port}/${p.protocol}`;
}

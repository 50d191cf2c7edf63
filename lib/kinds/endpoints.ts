import { ageColumn, column, joinHostPort, nameColumn, NONE } from "./columns";
import { defineKind } from "./define-kind";
import type { ObjectReference } from "./shared/object-reference";
import type { KubeObject } from "./types";

export interface EndpointAddress {
  hostname?: string;
  ip: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
}

/** Every address of a subset serves every port of that subset. */
export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

// --- columns --------------------------------------------------------------------------------------------------

const maxShown = 3;

/** `ip:port,ip:port,ip:port + N more...` over ready addresses, `<none>` without subsets. */
function formatEndpoints(endpoints: Endpoints): string {
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) return NONE;
  const shown: string[] = [];
  let count = 0;
  let more = false;
  const add = (entry: string) => {
    if (shown.length === maxShown) more = true;
    else shown.push(entry);
  };
  for (const subset of subsets) {
    const addresses = subset.addresses ?? [];
    const ports = subset.ports ?? [];
    if (ports.length === 0) {
      // Headless services may have addresses without ports.
      count += addresses.length;
      for (const address of addresses) add(address.ip);
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const address of addresses) add(joinHostPort(address.ip, port.port));
    }
  }
  const list = shown.join(",");
  return more ? `${list} + ${count - maxShown} more...` : list;
}

// --- declaration ----------------------------------------------------------------------------------------------

export const endpoints = defineKind<Endpoints>({
  kind: "Endpoints",
  plural: "endpoints",
  singular: "endpoints",
  shortNames: ["ep"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<Endpoints>({
      name: "Endpoints",
      description:
        "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
      cell: (ep) => formatEndpoints(ep),
    }),
    ageColumn,
  ],

  template: {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "external-db", labels: { app: "external-db" } },
    subsets: [
      {
        addresses: [{ ip: "192.168.10.21" }, { ip: "192.168.10.22" }],
        ports: [{ name: "postgres", port: 5432, protocol: "TCP" }],
      },
    ],
  },
});

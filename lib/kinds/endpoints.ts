import { field, type FieldError } from "../status";
import { dnsSubdomainNameErrors, validateDNS1123Label } from "../validation/dns-names";
import { validateIP, validateNonSpecialIP } from "../validation/ip";
import { portNumberErrors } from "../validation/port";
import { isObject, listOf } from "../validation/zero-values";
import { ageColumn, column, joinHostPort, nameColumn, NONE } from "./columns";
import { defineKind } from "./define-kind";
import { endpointsSchema } from "./schema/endpoints";
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

// --- strategy -----------------------------------------------------------------------------------------------

/** Every subset port without a protocol speaks TCP (SetDefaults_Endpoints). */
function applyDefaults(ep: Endpoints): void {
  for (const subset of listOf<EndpointSubset>(ep.subsets)) {
    for (const port of listOf<EndpointPort>(subset?.ports)) if (isObject(port) && !port.protocol) port.protocol = "TCP";
  }
}

function validateAddress(address: EndpointAddress | undefined, path: string): FieldError[] {
  const ip = typeof address?.ip === "string" ? address.ip : "";
  const errors = validateIP(ip, `${path}.ip`);
  if (address?.hostname) errors.push(...validateDNS1123Label(address.hostname, `${path}.hostname`));
  if (address?.nodeName !== undefined && address.nodeName !== null) {
    for (const m of dnsSubdomainNameErrors(address.nodeName)) errors.push(field.invalid(`${path}.nodeName`, address.nodeName, m));
  }
  errors.push(...validateNonSpecialIP(ip, `${path}.ip`));
  return errors;
}

function validatePort(port: EndpointPort | undefined, requireName: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = port?.name ?? "";
  if (requireName && !name) errors.push(field.required(`${path}.name`));
  else if (name) errors.push(...validateDNS1123Label(name, `${path}.name`));
  const number = typeof port?.port === "number" ? port.port : 0;
  for (const m of portNumberErrors(number)) errors.push(field.invalid(`${path}.port`, number, m));
  const protocol = port?.protocol ?? "";
  if (!protocol) errors.push(field.required(`${path}.protocol`));
  else if (!["SCTP", "TCP", "UDP"].includes(protocol)) errors.push(field.notSupported(`${path}.protocol`, protocol, ["SCTP", "TCP", "UDP"]));
  return errors;
}

/** validateEndpointSubsets: each subset has addresses, every address a usable IP, every port a name when several. */
function validate(ep: Endpoints): FieldError[] {
  const errors: FieldError[] = [];
  listOf<EndpointSubset>(ep.subsets).forEach((subset, i) => {
    const path = `subsets[${i}]`;
    const addresses = listOf<EndpointAddress>(subset?.addresses);
    const notReady = listOf<EndpointAddress>(subset?.notReadyAddresses);
    const ports = listOf<EndpointPort>(subset?.ports);
    if (addresses.length === 0 && notReady.length === 0) errors.push(field.required(path, "must specify `addresses` or `notReadyAddresses`"));
    addresses.forEach((a, j) => errors.push(...validateAddress(a, `${path}.addresses[${j}]`)));
    notReady.forEach((a, j) => errors.push(...validateAddress(a, `${path}.notReadyAddresses[${j}]`)));
    ports.forEach((p, j) => errors.push(...validatePort(p, ports.length > 1, `${path}.ports[${j}]`)));
  });
  return errors;
}

// --- declaration ----------------------------------------------------------------------------------------------

export const endpoints = defineKind<Endpoints>({
  kind: "Endpoints",
  schema: endpointsSchema,
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

  applyDefaults,
  validate,
});

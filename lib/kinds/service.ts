import { validateServiceSpec, validateServiceStatus, validateServiceUpdate } from "../validation/service-spec";
import { ageColumn, column, formatLabels, nameColumn, NONE } from "./columns";
import { defineKind } from "./define-kind";
import { serviceSchema } from "./schema/service";
import { applyServiceDefaults, prepareServiceUpdate } from "./shared/service-strategy";
import type { KubeObject } from "./types";

export interface ServicePort {
  name?: string;
  nodePort?: number;
  port: number;
  protocol?: string;
  targetPort?: number | string;
}

export interface ServiceSpec {
  clusterIP?: string;
  externalIPs?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  ports?: ServicePort[];
  selector?: Record<string, string>;
  sessionAffinity?: string;
  type?: string;
  /** Newer than the spec (clusterIPs, ipFamilies, ...) pass through untyped. */
  [key: string]: unknown;
}

export interface LoadBalancerIngress {
  hostname?: string;
  ip?: string;
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] } };
}

// --- columns --------------------------------------------------------------------------------------------------

/** clusterIPs[0] when a newer client sent it, else clusterIP (v1 keeps the two in step). */
function clusterIP(service: Service): string {
  const clusterIPs = service.spec?.clusterIPs;
  const first = Array.isArray(clusterIPs) && typeof clusterIPs[0] === "string" ? clusterIPs[0] : service.spec?.clusterIP;
  return first || NONE;
}

/** Ingress IPs (or hostnames), de-duplicated and sorted. The server prints wide, so nothing is truncated. */
function loadBalancerAddresses(service: Service): string[] {
  const addresses = new Set<string>();
  for (const ingress of service.status?.loadBalancer?.ingress ?? []) {
    if (ingress.ip) addresses.add(ingress.ip);
    else if (ingress.hostname) addresses.add(ingress.hostname);
  }
  return [...addresses].sort();
}

function externalIP(service: Service): string {
  const externalIPs = service.spec?.externalIPs ?? [];
  switch (service.spec?.type) {
    case "ClusterIP":
    case "NodePort":
      return externalIPs.length ? externalIPs.join(",") : NONE;
    case "LoadBalancer": {
      const all = [...loadBalancerAddresses(service), ...externalIPs];
      return all.length ? all.join(",") : "<pending>";
    }
    case "ExternalName":
      return service.spec.externalName ?? "";
    default:
      return "<unknown>";
  }
}

/** `80/TCP,443:30443/TCP`, or `<none>`. */
function ports(service: Service): string {
  const list = (service.spec?.ports ?? []).map((p) =>
    p.nodePort && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ""}` : `${p.port}/${p.protocol ?? ""}`,
  );
  return list.length ? list.join(",") : NONE;
}

// --- declaration ----------------------------------------------------------------------------------------------

export const service = defineKind<Service>({
  kind: "Service",
  schema: serviceSchema,
  plural: "services",
  singular: "service",
  shortNames: ["svc"],
  categories: ["all"],
  namespaced: true,
  nameRule: "dns1035-label",
  hasStatus: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {
    "spec.clusterIP": (s) => s.spec?.clusterIP,
    "spec.type": (s) => s.spec?.type,
  },
  fieldSelectorError: "label-not-supported",

  columns: [
    nameColumn,
    column<Service>({ name: "Type", description: "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.", cell: (s) => s.spec?.type ?? "" }),
    column<Service>({ name: "Cluster-IP", description: "clusterIP is the IP address of the service and is usually assigned randomly.", cell: clusterIP }),
    column<Service>({ name: "External-IP", description: "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.", cell: externalIP }),
    column<Service>({ name: "Port(s)", description: "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies", cell: ports }),
    ageColumn,
    column<Service>({ name: "Selector", priority: 1, description: "Route service traffic to pods with label keys and values matching this selector.", cell: (s) => formatLabels(s.spec?.selector) }),
  ],

  template: {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web", labels: { app: "web" } },
    spec: {
      type: "ClusterIP",
      selector: { app: "web" },
      ports: [{ name: "http", port: 80, targetPort: 8080, protocol: "TCP" }],
    },
  },

  /** Load-balancer state is the cloud controller's to write; a new service starts with an empty one. */
  prepareForCreate: (svc) => {
    svc.status = { loadBalancer: {} };
  },
  applyDefaults: applyServiceDefaults,
  /** Keeps allocated values the client left out, drops what a type change made meaningless (status is the registry's). */
  prepareForUpdate: (svc, old) => {
    prepareServiceUpdate(svc, old);
    if (svc.spec?.type !== "LoadBalancer" && svc.status) svc.status = { ...svc.status, loadBalancer: {} };
  },
  validate: validateServiceSpec,
  validateUpdate: validateServiceUpdate,
  statusStrategy: { validateUpdate: validateServiceStatus },
});

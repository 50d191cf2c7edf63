// The Service strategy's defaulting (SetDefaults_Service) and update carry-over (patchAllocatedValues,
// dropTypeDependentFields) in kube-apiserver 1.32. Allocating cluster IPs and node ports is not done here.
import { effectiveClusterIPs, externallyAccessible, needsHealthCheck } from "../../validation/service-spec";
import { isSet, listOf, numberOf, objectOf, stringOf, type JsonObject } from "../../validation/zero-values";

const needsClusterIP = (spec: JsonObject) => spec.type !== "ExternalName";
const needsNodePort = (spec: JsonObject) => spec.type === "NodePort" || spec.type === "LoadBalancer";

/**
 * The Service strategy's PrepareForUpdate carry-over: values the server allocated and the client left out are
 * kept (clusterIP(s), node ports by port name, health-check node port), and values a type change makes
 * meaningless are dropped when the client did not touch them. Mutates `service`.
 */
export function prepareServiceUpdate(service: JsonObject, old: JsonObject): void {
  if (typeof service.spec !== "object" || service.spec === null) return;
  const spec = service.spec as JsonObject;
  const oldSpec = objectOf(old.spec);
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if (!stringOf(spec.clusterIP) && stringOf(oldSpec.clusterIP)) spec.clusterIP = oldSpec.clusterIP;
    if (listOf(spec.clusterIPs).length === 0 && listOf(oldSpec.clusterIPs).length > 0) spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const used = new Set(listOf(spec.ports).map((p) => numberOf(objectOf(p).nodePort)).filter((n) => n !== 0));
    const byName = new Map(listOf(oldSpec.ports).map((p) => [stringOf(objectOf(p).name), numberOf(objectOf(p).nodePort)]));
    for (const p of listOf(spec.ports)) {
      const port = objectOf(p);
      if (numberOf(port.nodePort) !== 0) continue;
      const previous = byName.get(stringOf(port.name)) ?? 0;
      if (previous !== 0 && !used.has(previous) && typeof p === "object" && p !== null) (p as JsonObject).nodePort = previous;
    }
  }
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && !numberOf(spec.healthCheckNodePort) && numberOf(oldSpec.healthCheckNodePort)) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
  // dropTypeDependentFields
  const sameIPs = JSON.stringify(effectiveClusterIPs(spec)) === JSON.stringify(effectiveClusterIPs(oldSpec));
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec) && sameIPs) {
    delete spec.clusterIP;
    delete spec.clusterIPs;
    if (JSON.stringify(spec.ipFamilies ?? null) === JSON.stringify(oldSpec.ipFamilies ?? null)) delete spec.ipFamilies;
    if ((spec.ipFamilyPolicy ?? null) === (oldSpec.ipFamilyPolicy ?? null)) delete spec.ipFamilyPolicy;
  }
  const nodePortsOf = (s: JsonObject) => JSON.stringify(listOf(s.ports).map((p) => numberOf(objectOf(p).nodePort)));
  if (needsNodePort(oldSpec) && !needsNodePort(spec) && nodePortsOf(spec) === nodePortsOf(oldSpec)) {
    for (const p of listOf(spec.ports)) if (typeof p === "object" && p !== null) delete (p as JsonObject).nodePort;
  }
  if (needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && numberOf(spec.healthCheckNodePort) === numberOf(oldSpec.healthCheckNodePort)) {
    delete spec.healthCheckNodePort;
  }
  if (oldSpec.type === "LoadBalancer" && spec.type !== "LoadBalancer") {
    if (isSet(spec.allocateLoadBalancerNodePorts) && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if ((spec.loadBalancerClass ?? null) === (oldSpec.loadBalancerClass ?? null)) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(oldSpec) && !externallyAccessible(spec) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
}

/** The v1 Service defaults (SetDefaults_Service). Mutates. */
export function applyServiceDefaults(service: JsonObject): void {
  if (typeof service.spec !== "object" || service.spec === null) return;
  const spec = service.spec as JsonObject;
  if (spec.type === "LoadBalancer") {
    // An ingress point with an IP is a virtual IP unless the load balancer says otherwise (ipMode, 1.30+).
    for (const ingress of listOf(objectOf(objectOf(service.status).loadBalancer).ingress)) {
      if (typeof ingress === "object" && ingress !== null && stringOf((ingress as JsonObject).ip) && !isSet((ingress as JsonObject).ipMode)) (ingress as JsonObject).ipMode = "VIP";
    }
  }
  if (!stringOf(spec.sessionAffinity)) spec.sessionAffinity = "None";
  if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === "ClientIP") {
    const timeout = objectOf(objectOf(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    if (!isSet(timeout)) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!stringOf(spec.type)) spec.type = "ClusterIP";
  for (const p of listOf(spec.ports)) {
    if (typeof p !== "object" || p === null) continue;
    const port = p as JsonObject;
    if (!stringOf(port.protocol)) port.protocol = "TCP";
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === "") port.targetPort = port.port;
  }
  if (externallyAccessible(spec) && !stringOf(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = "Cluster";
  if (!isSet(spec.internalTrafficPolicy) && (spec.type === "NodePort" || spec.type === "LoadBalancer" || spec.type === "ClusterIP")) {
    spec.internalTrafficPolicy = "Cluster";
  }
  if (spec.type === "LoadBalancer" && !isSet(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true;
}

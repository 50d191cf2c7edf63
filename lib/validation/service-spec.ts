// Service spec rules (ValidateService / ValidateServiceUpdate, 1.32). Cluster IPs are read as kube-apiserver's
// strategy normalises them: `clusterIPs` when given, else `[clusterIP]`. Allocation is not validation's business.
import { field, type FieldError } from "../status";
import { validateDNS1123Label, validateDNS1123Subdomain } from "./dns-names";
import { isIPv6String, validateCIDR, validateIP, validateNonSpecialIP } from "./ip";
import { qualifiedNameErrors, validateLabels } from "./labels";
import { portNumberErrors, validatePortNumOrName } from "./port";
import { duplicateRendered, goSlice, goStruct, invalidRendered } from "./rendered-value";
import { isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const SOURCE_RANGES_ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges";
const TOPOLOGY_MODE_ANNOTATION = "service.kubernetes.io/topology-mode";
const TOPOLOGY_HINTS_ANNOTATION = "service.kubernetes.io/topology-aware-hints";

/** The cluster IPs the strategy would validate: `clusterIPs` if given, else the single `clusterIP`. */
export function effectiveClusterIPs(spec: JsonObject): string[] {
  const plural = listOf(spec.clusterIPs).map(stringOf);
  if (plural.length) return plural;
  const single = stringOf(spec.clusterIP);
  return single ? [single] : [];
}

const isHeadless = (spec: JsonObject) => {
  const ips = effectiveClusterIPs(spec);
  return ips.length === 1 && ips[0] === "None";
};

export const externallyAccessible = (spec: JsonObject) =>
  spec.type === "LoadBalancer" || spec.type === "NodePort" || (spec.type === "ClusterIP" && listOf(spec.externalIPs).length > 0);

export const needsHealthCheck = (spec: JsonObject) => spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local";

/** %#v of the (protocol, port) key kube-apiserver reports duplicate ports with. */
const renderPortKey = (protocol: string, port: number) => goStruct("core.ServicePort", [
  ["Name", '""'], ["Protocol", JSON.stringify(protocol)], ["AppProtocol", "(*string)(nil)"], ["Port", String(port)],
  ["TargetPort", "intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}"], ["NodePort", "0"],
]);

function validateServicePort(port: JsonObject, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringOf(port.name);
  if (requireName && !name) errs.push(field.required(`${path}.name`));
  else if (name) {
    errs.push(...validateDNS1123Label(name, `${path}.name`));
    if (names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  const number = numberOf(port.port);
  for (const m of portNumberErrors(number)) errs.push(field.invalid(`${path}.port`, number, m));
  const protocol = stringOf(port.protocol);
  if (!protocol) errs.push(field.required(`${path}.protocol`));
  else if (!["SCTP", "TCP", "UDP"].includes(protocol)) errs.push(field.notSupported(`${path}.protocol`, protocol, ["SCTP", "TCP", "UDP"]));
  errs.push(...validatePortNumOrName(port.targetPort ?? 0, `${path}.targetPort`));
  if (isSet(port.appProtocol)) {
    const appProtocol = stringOf(port.appProtocol);
    for (const m of qualifiedNameErrors(appProtocol)) errs.push(field.invalid(`${path}.appProtocol`, appProtocol, m));
  }
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields (not for ExternalName). */
function validateClusterIPs(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const single = stringOf(spec.clusterIP);
  const given = listOf(spec.clusterIPs).map(stringOf);
  if (single && given.length && given[0] !== single) {
    errs.push(invalidRendered("spec.clusterIPs", goSlice("string", given), "first value must match `clusterIP`"));
  } else if (!single && given.length) {
    errs.push(invalidRendered("spec.clusterIPs", goSlice("string", given), "must be empty when `clusterIP` is not specified"));
  }
  const families = listOf(spec.ipFamilies).map(stringOf);
  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (family !== "IPv4" && family !== "IPv6") errs.push(field.notSupported(`spec.ipFamilies[${i}]`, family, ["IPv4", "IPv6"]));
    if (seen.has(family)) errs.push(field.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  if (isSet(spec.ipFamilyPolicy) && !["PreferDualStack", "RequireDualStack", "SingleStack"].includes(stringOf(spec.ipFamilyPolicy))) {
    errs.push(field.notSupported("spec.ipFamilyPolicy", spec.ipFamilyPolicy, ["PreferDualStack", "RequireDualStack", "SingleStack"]));
  }
  const ips = effectiveClusterIPs(spec);
  let invalid = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === "None") {
      if (ips.length > 1) {
        invalid = true;
        errs.push(invalidRendered("spec.clusterIPs", goSlice("string", ips), "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIP(ip, `spec.clusterIPs[${i}]`);
    if (ipErrs.length) invalid = true;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(invalidRendered("spec.clusterIPs", goSlice("string", ips), "may only hold up to 2 values"));
  if (invalid) return errs;
  if (ips.length > 1 && isIPv6String(ips[0]) === isIPv6String(ips[1])) {
    errs.push(invalidRendered("spec.clusterIPs", goSlice("string", ips), "may specify no more than one IP for each IP family"));
  }
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      if (i >= families.length) return;
      if (families[i] === "IPv4" && isIPv6String(ip)) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === "IPv6" && !isIPv6String(ip)) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** ValidateService minus metadata: the whole spec plus the service annotations it checks. */
export function validateServiceSpec(service: JsonObject): FieldError[] {
  const spec = objectOf(service.spec);
  const annotations = objectOf(objectOf(service.metadata).annotations);
  const errs: FieldError[] = [];
  if (TOPOLOGY_MODE_ANNOTATION in annotations && TOPOLOGY_HINTS_ANNOTATION in annotations && annotations[TOPOLOGY_MODE_ANNOTATION] !== annotations[TOPOLOGY_HINTS_ANNOTATION]) {
    errs.push(field.invalid(`metadata.annotations[${TOPOLOGY_MODE_ANNOTATION}]`, stringOf(annotations[TOPOLOGY_MODE_ANNOTATION]), `must match annotations[${TOPOLOGY_HINTS_ANNOTATION}] when both are specified`));
  }
  const type = stringOf(spec.type);
  const ports = listOf(spec.ports).map(objectOf);
  const clusterIPs = effectiveClusterIPs(spec);
  if (ports.length === 0 && !isHeadless(spec) && type !== "ExternalName") errs.push(field.required("spec.ports"));
  if ((type === "LoadBalancer" || type === "NodePort") && isHeadless(spec)) {
    errs.push(field.invalid("spec.clusterIPs[0]", clusterIPs[0], `may not be set to 'None' for ${type} services`));
  }
  if (type === "ExternalName") {
    if (clusterIPs.length > 0) errs.push(field.forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
    if (listOf(spec.ipFamilies).length > 0) errs.push(field.forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
    if (isSet(spec.ipFamilyPolicy)) errs.push(field.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    const externalName = stringOf(spec.externalName);
    const cname = externalName.endsWith(".") ? externalName.slice(0, -1) : externalName;
    if (cname) errs.push(...validateDNS1123Subdomain(cname, "spec.externalName"));
    else errs.push(field.required("spec.externalName"));
  }
  const names = new Set<string>();
  ports.forEach((port, i) => errs.push(...validateServicePort(port, ports.length > 1, names, `spec.ports[${i}]`)));
  if (isSet(spec.selector)) errs.push(...validateLabels(spec.selector, "spec.selector"));
  const affinity = stringOf(spec.sessionAffinity);
  if (!affinity) errs.push(field.required("spec.sessionAffinity"));
  else if (affinity !== "ClientIP" && affinity !== "None") errs.push(field.notSupported("spec.sessionAffinity", affinity, ["ClientIP", "None"]));
  if (affinity === "ClientIP") {
    const config = spec.sessionAffinityConfig;
    const p = "spec.sessionAffinityConfig";
    const when = "when session affinity type is ClientIP";
    if (!isSet(config)) errs.push(field.required(p, when));
    else if (!isSet(objectOf(config).clientIP)) errs.push(field.required(`${p}.clientIP`, when));
    else {
      const timeout = optionalNumber(objectOf(objectOf(config).clientIP).timeoutSeconds);
      if (timeout === undefined) errs.push(field.required(`${p}.clientIP.timeoutSeconds`, when));
      else if (timeout <= 0 || timeout > 86400) errs.push(field.invalid(`${p}.clientIP.timeoutSeconds`, timeout, "must be greater than 0 and less than 86400"));
    }
  } else if (affinity === "None" && isSet(spec.sessionAffinityConfig)) {
    errs.push(field.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
  }
  if (type !== "ExternalName") errs.push(...validateClusterIPs(spec));
  listOf(spec.externalIPs).forEach((item, i) => {
    const ip = stringOf(item);
    const ipErrs = validateIP(ip, `spec.externalIPs[${i}]`);
    errs.push(...(ipErrs.length ? ipErrs : validateNonSpecialIP(ip, `spec.externalIPs[${i}]`)));
  });
  if (!type) errs.push(field.required("spec.type"));
  else if (!["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"].includes(type)) {
    errs.push(field.notSupported("spec.type", type, ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]));
  }
  if (type === "ClusterIP") {
    ports.forEach((port, i) => {
      if (numberOf(port.nodePort) !== 0) errs.push(field.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = numberOf(port.nodePort);
    if (nodePort === 0) return;
    const key = `${stringOf(port.protocol)}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(field.duplicate(`spec.ports[${i}].nodePort`, nodePort));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${stringOf(port.protocol)}/${numberOf(port.port)}`;
    if (portKeys.has(key)) errs.push(duplicateRendered(`spec.ports[${i}]`, renderPortKey(stringOf(port.protocol), numberOf(port.port))));
    portKeys.add(key);
  });
  const ranges = listOf(spec.loadBalancerSourceRanges).map(stringOf);
  if (ranges.length) {
    // Upstream names this path with a capital L.
    if (type !== "LoadBalancer") errs.push(field.forbidden("spec.LoadBalancerSourceRanges", "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => errs.push(...validateCIDR(r.trim(), `spec.LoadBalancerSourceRanges[${i}]`)));
  } else if (SOURCE_RANGES_ANNOTATION in annotations) {
    const p = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    if (type !== "LoadBalancer") errs.push(field.forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    const value = stringOf(annotations[SOURCE_RANGES_ANNOTATION]).trim();
    if (value) for (const r of value.split(",")) errs.push(...validateCIDR(r.trim(), p));
  }
  if (isSet(spec.allocateLoadBalancerNodePorts) && type !== "LoadBalancer") {
    errs.push(field.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
  }
  // Upstream omits the `spec.` prefix here.
  if (type === "LoadBalancer" && !isSet(spec.allocateLoadBalancerNodePorts)) errs.push(field.required("allocateLoadBalancerNodePorts"));
  if (isSet(spec.loadBalancerClass)) {
    const lbClass = stringOf(spec.loadBalancerClass);
    if (type === "LoadBalancer") for (const m of qualifiedNameErrors(lbClass)) errs.push(field.invalid("spec.loadBalancerClass", lbClass, m));
    else errs.push(field.forbidden("spec.loadBalancerClass", "may only be used when `type` is 'LoadBalancer'"));
  }
  const etp = stringOf(spec.externalTrafficPolicy);
  if (!externallyAccessible(spec)) {
    if (etp) errs.push(field.invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"));
  } else if (!etp) {
    errs.push(field.required("spec.externalTrafficPolicy"));
  } else if (etp !== "Cluster" && etp !== "Local") {
    errs.push(field.notSupported("spec.externalTrafficPolicy", etp, ["Cluster", "Local"]));
  }
  const hcnp = numberOf(spec.healthCheckNodePort);
  if (!needsHealthCheck(spec)) {
    if (hcnp !== 0) errs.push(field.invalid("spec.healthCheckNodePort", hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hcnp === 0) {
    errs.push(field.required("spec.healthCheckNodePort"));
  } else {
    for (const m of portNumberErrors(hcnp)) errs.push(field.invalid("spec.healthCheckNodePort", hcnp, m));
  }
  if (!isSet(spec.internalTrafficPolicy)) {
    if (type === "NodePort" || type === "LoadBalancer" || type === "ClusterIP") errs.push(field.required("spec.internalTrafficPolicy"));
  } else if (!["Cluster", "Local"].includes(stringOf(spec.internalTrafficPolicy))) {
    errs.push(field.notSupported("spec.internalTrafficPolicy", spec.internalTrafficPolicy, ["Cluster", "Local"]));
  }
  if (isSet(spec.trafficDistribution) && spec.trafficDistribution !== "PreferClose") {
    errs.push(field.notSupported("spec.trafficDistribution", spec.trafficDistribution, ["PreferClose"]));
  }
  return errs;
}

/** The update-only rules of ValidateServiceUpdate: cluster IPs and IP families keep their primary values. */
export function validateServiceUpdate(service: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectOf(service.spec);
  const oldSpec = objectOf(old.spec);
  const errs: FieldError[] = [];
  if (spec.type !== "ExternalName" && oldSpec.type !== "ExternalName" && !(isHeadless(spec) && isHeadless(oldSpec))) {
    const ips = effectiveClusterIPs(spec);
    const oldIPs = effectiveClusterIPs(oldSpec);
    const rendered = goSlice("string", ips.length ? ips : null);
    if (ips.length === oldIPs.length) {
      oldIPs.forEach((ip, i) => {
        if (ip !== ips[i]) errs.push(invalidRendered(`spec.clusterIPs[${i}]`, rendered, "may not change once set"));
      });
    } else if (oldIPs.length > ips.length) {
      if (ips.length === 0) errs.push(invalidRendered("spec.clusterIPs[0]", rendered, "primary clusterIP can not be unset"));
      if (ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalidRendered("spec.clusterIPs[0]", rendered, "may not change once set"));
      if (ips.length === 1 && spec.ipFamilyPolicy !== "SingleStack") {
        errs.push(field.invalid("spec.ipFamilyPolicy", isSet(spec.ipFamilyPolicy) ? spec.ipFamilyPolicy : "null", "must be set to 'SingleStack' when releasing the secondary clusterIP"));
      }
    } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
      errs.push(invalidRendered("spec.clusterIPs[0]", rendered, "may not change once set"));
    }
  }
  if (spec.type === "LoadBalancer" && oldSpec.type === "LoadBalancer" && (spec.loadBalancerClass ?? null) !== (oldSpec.loadBalancerClass ?? null)) {
    errs.push(field.invalid("spec.loadBalancerClass", isSet(spec.loadBalancerClass) ? spec.loadBalancerClass : "null", "may not change once set"));
  }
  if (needsHealthCheck(spec) && needsHealthCheck(oldSpec) && numberOf(spec.healthCheckNodePort) !== numberOf(oldSpec.healthCheckNodePort)) {
    errs.push(field.forbidden("spec.healthCheckNodePort", "field is immutable"));
  }
  return errs;
}

/** `/status` writes: load-balancer ingress belongs to LoadBalancer services only (kube-apiserver 1.29+). */
export function validateServiceStatus(service: Record<string, unknown>): FieldError[] {
  const spec = (service.spec ?? {}) as { type?: string };
  const ingress = ((service.status as { loadBalancer?: { ingress?: unknown[] } } | undefined)?.loadBalancer?.ingress) ?? [];
  if (spec.type !== "LoadBalancer" && Array.isArray(ingress) && ingress.length > 0) {
    return [field.forbidden("status.loadBalancer.ingress", "may only be used when `spec.type` is 'LoadBalancer'")];
  }
  return [];
}

// A Pod's spec and pod-specific annotations as ValidatePodCreate checks them in kube-apiserver 1.32 (metadata
// itself is validated generically): volumes, containers, policies, scheduling, DNS, security and host settings.
import { field, type FieldError } from "../status";
import { validateAffinity } from "./affinity";
import { validateContainers, validateImageWhitespace, validateInitContainers } from "./container";
import { dnsSubdomainNameErrors, validateDNS1123Label, validateDNS1123Subdomain } from "./dns-names";
import { validateIP } from "./ip";
import { validateLabelName, validateLabels, qualifiedNameErrors } from "./labels";
import { validateLabelSelector } from "./label-selector";
import { validateLocalDescendingPath } from "./local-path";
import { inclusiveRangeError } from "./port";
import { goSlice, invalidRendered } from "./rendered-value";
import { validatePodSecurityContext } from "./security-context";
import { validateTolerations } from "./toleration";
import { validatePodVolumeSource } from "./volume-source";
import { boolOf, isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const MAX_INT32 = 2147483647;

/** ValidateVolumes: names and sources; returns the volumes that passed, by name, for mount checks. */
export function validateVolumes(volumes: unknown[], path: string): { errors: FieldError[]; valid: Map<string, JsonObject> } {
  const errors: FieldError[] = [];
  const valid = new Map<string, JsonObject>();
  volumes.forEach((item, i) => {
    const volume = objectOf(item);
    const p = `${path}[${i}]`;
    const name = stringOf(volume.name);
    const errs = validatePodVolumeSource(volume, p);
    if (!name) errs.push(field.required(`${p}.name`));
    else errs.push(...validateDNS1123Label(name, `${p}.name`));
    if (valid.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    if (errs.length === 0) valid.set(name, volume);
    else errors.push(...errs);
  });
  return { errors, valid };
}

function validateDNSConfig(dnsConfig: unknown, dnsPolicy: string, path: string): FieldError[] {
  if (dnsPolicy === "None") {
    if (!isSet(dnsConfig)) return [field.required(path, "must provide `dnsConfig` when `dnsPolicy` is None")];
    if (listOf(objectOf(dnsConfig).nameservers).length === 0) {
      return [field.required(`${path}.nameservers`, "must provide at least one DNS nameserver when `dnsPolicy` is None")];
    }
  }
  if (!isSet(dnsConfig)) return [];
  const config = objectOf(dnsConfig);
  const errs: FieldError[] = [];
  const nameservers = listOf(config.nameservers).map(stringOf);
  if (nameservers.length > 3) errs.push(invalidRendered(`${path}.nameservers`, goSlice("string", nameservers), "must not have more than 3 nameservers"));
  nameservers.forEach((ns, i) => errs.push(...validateIP(ns, `${path}.nameservers[${i}]`)));
  const searches = listOf(config.searches).map(stringOf);
  if (searches.length > 32) errs.push(invalidRendered(`${path}.searches`, goSlice("string", searches), "must not have more than 32 search paths"));
  if (searches.join(" ").length > 2048) {
    errs.push(invalidRendered(`${path}.searches`, goSlice("string", searches), "must not have more than 2048 characters (including spaces) in the search list"));
  }
  searches.forEach((s, i) => errs.push(...validateDNS1123Subdomain(s.endsWith(".") ? s.slice(0, -1) : s, `${path}.searches[${i}]`)));
  listOf(config.options).forEach((o, i) => {
    if (!stringOf(objectOf(o).name)) errs.push(field.required(`${path}.options[${i}]`, "must not be empty"));
  });
  return errs;
}

function validateTopologySpreadConstraints(constraints: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = constraints.map(objectOf);
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const maxSkew = numberOf(c.maxSkew);
    if (maxSkew <= 0) errs.push(field.invalid(`${p}.maxSkew`, maxSkew, "must be greater than zero"));
    if (!stringOf(c.topologyKey)) errs.push(field.required(`${p}.topologyKey`, "can not be empty"));
    const action = stringOf(c.whenUnsatisfiable);
    if (action !== "DoNotSchedule" && action !== "ScheduleAnyway") errs.push(field.notSupported(`${p}.whenUnsatisfiable`, action, ["DoNotSchedule", "ScheduleAnyway"]));
    const repeat = list.slice(i + 1).find((o) => stringOf(o.topologyKey) === stringOf(c.topologyKey) && stringOf(o.whenUnsatisfiable) === action);
    if (repeat) errs.push(field.duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${stringOf(c.topologyKey)}, ${action}}`));
    errs.push(...validateLabelSelector(c.labelSelector, `${p}.labelSelector`));
  });
  return errs;
}

function validateHostAliases(aliases: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  aliases.forEach((item, i) => {
    const alias = objectOf(item);
    errs.push(...validateIP(stringOf(alias.ip), `${path}[${i}].ip`));
    listOf(alias.hostnames).forEach((h, j) => errs.push(...validateDNS1123Subdomain(stringOf(h), `${path}[${i}].hostnames[${j}]`)));
  });
  return errs;
}

const nameFieldErrors = (value: unknown, path: string): FieldError[] => {
  const name = stringOf(value);
  return name ? dnsSubdomainNameErrors(name).map((m) => field.invalid(path, name, m)) : [];
};

/** ValidatePodSpec at `path` (spec). */
export function validatePodSpec(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const gracePeriod = optionalNumber(spec.terminationGracePeriodSeconds);
  if (gracePeriod === undefined) errs.push(field.required(`${path}.terminationGracePeriodSeconds`));
  const hostUsers = objectOf(spec.securityContext).hostUsers !== false;
  const volumes = validateVolumes(listOf(spec.volumes), `${path}.volumes`);
  errs.push(...volumes.errors);
  const ctx = { volumes: volumes.valid, gracePeriod, hostUsers };
  const containers = listOf(spec.containers);
  errs.push(...validateContainers(containers, ctx, `${path}.containers`));
  errs.push(...validateInitContainers(listOf(spec.initContainers), containers, ctx, `${path}.initContainers`));
  if (boolOf(spec.hostNetwork)) {
    containers.forEach((c, i) => listOf(objectOf(c).ports).forEach((item, j) => {
      const port = objectOf(item);
      if (numberOf(port.hostPort) !== numberOf(port.containerPort)) {
        errs.push(field.invalid(`${path}.containers[${i}].ports[${j}].hostPort`, numberOf(port.hostPort), "must match `containerPort` when `hostNetwork` is true"));
      }
    }));
  }
  const restartPolicy = stringOf(spec.restartPolicy);
  if (!restartPolicy) errs.push(field.required(`${path}.restartPolicy`));
  else if (!["Always", "OnFailure", "Never"].includes(restartPolicy)) {
    errs.push(field.notSupported(`${path}.restartPolicy`, restartPolicy, ["Always", "OnFailure", "Never"]));
  }
  const dnsPolicy = stringOf(spec.dnsPolicy);
  if (!dnsPolicy) errs.push(field.required(`${path}.dnsPolicy`));
  else if (!["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"].includes(dnsPolicy)) {
    errs.push(field.notSupported(`${path}.dnsPolicy`, dnsPolicy, ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"]));
  }
  errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(spec.securityContext, spec, `${path}.securityContext`));
  errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  errs.push(...validateDNSConfig(spec.dnsConfig, dnsPolicy, `${path}.dnsConfig`));
  listOf(spec.readinessGates).forEach((g, i) => {
    const type = stringOf(objectOf(g).conditionType);
    for (const m of qualifiedNameErrors(type)) errs.push(field.invalid(`${path}.readinessGates[${i}].conditionType`, type, m));
  });
  const gates = new Set<string>();
  listOf(spec.schedulingGates).forEach((g, i) => {
    const name = stringOf(objectOf(g).name);
    errs.push(...validateLabelName(name, `${path}.schedulingGates[${i}]`));
    if (gates.has(name)) errs.push(field.duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(listOf(spec.topologySpreadConstraints), `${path}.topologySpreadConstraints`));
  if (!hostUsers) {
    for (const key of ["hostNetwork", "hostPID", "hostIPC"]) {
      if (boolOf(spec[key])) errs.push(field.forbidden(`${path}.${key === "hostNetwork" ? "hostNetwork" : key === "hostPID" ? "HostPID" : "HostIPC"}`, "when `pod.Spec.HostUsers` is false"));
    }
  }
  errs.push(...nameFieldErrors(spec.serviceAccountName, `${path}.serviceAccountName`));
  errs.push(...nameFieldErrors(spec.nodeName, `${path}.nodeName`));
  const deadline = optionalNumber(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(field.invalid(`${path}.activeDeadlineSeconds`, deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  if (stringOf(spec.hostname)) errs.push(...validateDNS1123Label(stringOf(spec.hostname), `${path}.hostname`));
  if (stringOf(spec.subdomain)) errs.push(...validateDNS1123Label(stringOf(spec.subdomain), `${path}.subdomain`));
  const tolerations = listOf(spec.tolerations);
  if (tolerations.length) errs.push(...validateTolerations(tolerations, `${path}.tolerations`));
  const aliases = listOf(spec.hostAliases);
  if (aliases.length) errs.push(...validateHostAliases(aliases, `${path}.hostAliases`));
  errs.push(...nameFieldErrors(spec.priorityClassName, `${path}.priorityClassName`));
  if (isSet(spec.runtimeClassName)) {
    const name = stringOf(spec.runtimeClassName);
    for (const m of dnsSubdomainNameErrors(name)) errs.push(field.invalid(`${path}.runtimeClassName`, name, m));
  }
  if (isSet(spec.preemptionPolicy)) {
    const policy = stringOf(spec.preemptionPolicy);
    if (!policy) errs.push(field.required(`${path}.preemptionPolicy`));
    else if (policy !== "PreemptLowerPriority" && policy !== "Never") errs.push(field.notSupported(`${path}.preemptionPolicy`, policy, ["PreemptLowerPriority", "Never"]));
  }
  if (isSet(spec.os)) {
    const name = stringOf(objectOf(spec.os).name);
    if (!name) errs.push(field.required(`${path}.os.name`, "cannot be empty"));
    else if (name !== "linux" && name !== "windows") errs.push(field.notSupported(`${path}.os`, name, ["linux", "windows"]));
  }
  return errs;
}

const MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
const DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
const SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

function seccompAnnotationErrors(value: string, path: string): FieldError[] {
  if (value === "runtime/default" || value === "docker/default" || value === "unconfined") return [];
  if (value.startsWith("localhost/")) return validateLocalDescendingPath(value.slice("localhost/".length), path);
  return [field.invalid(path, value, "must be a valid seccomp profile")];
}

/** A 32-bit integer without a '+' sign or leading zeros (GetDeletionCostFromPodAnnotations). */
function isDeletionCost(value: string): boolean {
  if (!/^(-?[1-9]\d*|0|-0)$/.test(value) && !/^-\d+$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

/** ValidatePodSpecificAnnotations at metadata.annotations. */
export function validatePodAnnotations(annotations: unknown, spec: JsonObject, path: string): FieldError[] {
  const a = objectOf(annotations);
  const errs: FieldError[] = [];
  if (MIRROR_ANNOTATION in a && !stringOf(spec.nodeName)) {
    errs.push(field.invalid(`${path}[${MIRROR_ANNOTATION}]`, stringOf(a[MIRROR_ANNOTATION]), "must set spec.nodeName if mirror pod annotation is set"));
  }
  if (DELETION_COST_ANNOTATION in a && !isDeletionCost(stringOf(a[DELETION_COST_ANNOTATION]))) {
    errs.push(field.invalid(`${path}[${DELETION_COST_ANNOTATION}]`, stringOf(a[DELETION_COST_ANNOTATION]), "must be a 32bit integer"));
  }
  if (SECCOMP_POD_ANNOTATION in a) errs.push(...seccompAnnotationErrors(stringOf(a[SECCOMP_POD_ANNOTATION]), `${path}.${SECCOMP_POD_ANNOTATION}`));
  for (const key of Object.keys(a).sort()) {
    if (key.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...seccompAnnotationErrors(stringOf(a[key]), `${path}.${key}`));
  }
  return errs;
}

/**
 * ValidatePodCreate minus the generic metadata checks: pod annotations, the spec, and the pod-only extras. Also
 * what an update re-validates (ValidatePodUpdate runs the same checks on the new pod).
 */
export function validatePodCreate(pod: JsonObject): FieldError[] {
  const spec = objectOf(pod.spec);
  const meta = objectOf(pod.metadata);
  const errs = [...validatePodAnnotations(meta.annotations, spec, "metadata.annotations"), ...validatePodSpec(spec, "spec")];
  if (!stringOf(spec.serviceAccountName)) {
    listOf(spec.volumes).forEach((v, vi) => {
      listOf(objectOf(objectOf(v).projected).sources).forEach((s, si) => {
        if (isSet(objectOf(s).serviceAccountToken)) {
          errs.push(field.forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, "must not be specified when serviceAccountName is not set"));
        }
      });
    });
  }
  errs.push(...validateImageWhitespace(listOf(spec.containers), "spec.containers"));
  errs.push(...validateImageWhitespace(listOf(spec.initContainers), "spec.initContainers"));
  // Create-only in kube-apiserver; harmless on update, where neither can newly appear (the spec is immutable).
  if (listOf(spec.ephemeralContainers).length > 0) errs.push(field.forbidden("spec.ephemeralContainers", "cannot be set on create"));
  if (stringOf(spec.nodeName) && listOf(spec.schedulingGates).length > 0) {
    errs.push(field.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  }
  return errs;
}

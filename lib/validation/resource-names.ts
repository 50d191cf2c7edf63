// Resource names of resource lists (container resources, quota hard, limit ranges, PV capacity): which are
// standard, integer-valued, extended, overcommittable — pkg/apis/core/helper, 1.32.
import { field, type FieldError } from "../status";
import { qualifiedNameErrors } from "./labels";

const standardResources = new Set([
  "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu",
  "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
  "configmaps", "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports", "services.loadbalancers",
]);

const standardQuotaResources = new Set([
  "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage", "requests.ephemeral-storage",
  "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers",
  "secrets", "persistentvolumeclaims", "configmaps", "services.nodeports", "services.loadbalancers",
]);

const standardContainerResources = new Set(["cpu", "memory", "ephemeral-storage"]);

const integerResources = new Set([
  "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims",
  "services.nodeports", "services.loadbalancers",
]);

export const isHugePageResourceName = (name: string) => name.startsWith("hugepages-");
const isQuotaHugePageResourceName = (name: string) => name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");

/** In the kubernetes.io namespace: unprefixed, or a prefix containing "kubernetes.io/". */
export const isNativeResource = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");

/** Not native, not `requests.`-prefixed, and `requests.<name>` is a qualified name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith("requests.")) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

export const isOvercommitAllowed = (name: string) => isNativeResource(name) && !isHugePageResourceName(name);
export const isStandardResourceName = (name: string) => standardResources.has(name) || isQuotaHugePageResourceName(name);
export const isStandardQuotaResourceName = (name: string) => standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
export const isStandardContainerResourceName = (name: string) => standardContainerResources.has(name) || isHugePageResourceName(name);
export const isIntegerResourceName = (name: string) => integerResources.has(name) || isExtendedResourceName(name);

const unprefixed = (name: string) => !name.includes("/");

/** validateResourceName: a qualified name; unprefixed names must be standard resources. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((m) => field.invalid(path, name, m));
  if (errs.length) return errs;
  if (unprefixed(name) && !isStandardResourceName(name)) {
    return [field.invalid(path, name, "must be a standard resource type or fully qualified")];
  }
  return [];
}

/** validateContainerResourceName: cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (unprefixed(name)) {
    if (!isStandardContainerResourceName(name)) errs.push(field.invalid(path, name, "must be a standard resource for containers"));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(field.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuotaResourceName: unprefixed names must be standard quota resources. */
export function validateResourceQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (unprefixed(name) && !isStandardQuotaResourceName(name)) errs.push(field.invalid(path, name, "must be a standard resource for quota"));
  return errs;
}

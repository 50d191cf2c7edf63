// Downward API selectors shared by env vars and downwardAPI/projected volumes: fieldRef (ObjectFieldSelector)
// and resourceFieldRef (ResourceFieldSelector), with the field paths and divisors kube-apiserver 1.32 accepts.
import { field, type FieldError } from "../status";
import { qualifiedNameErrors } from "./labels";
import { isQuantity, parseQuantity, quantityString } from "./quantity";
import { objectOf, stringOf } from "./zero-values";

export const envFieldPaths = [
  "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP",
  "status.hostIPs", "status.podIP", "status.podIPs",
];
export const volumeFieldPaths = ["metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"];

const convertibleLabels = new Set([
  "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
  "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs",
  "status.podIP", "status.podIPs",
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` → ["metadata.labels", "key"]. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** ConvertDownwardAPIFieldLabel: the internal path, or the conversion error. */
function convertFieldLabel(version: string, label: string): { path: string } | { error: string } {
  if (version !== "v1") return { error: `unsupported pod version: ${version}` };
  const sub = splitSubscript(label);
  if (sub) {
    return sub[0] === "metadata.annotations" || sub[0] === "metadata.labels"
      ? { path: label }
      : { error: `field label does not support subscript: ${label}` };
  }
  if (convertibleLabels.has(label)) return { path: label };
  if (label === "spec.host") return { path: "spec.nodeName" };
  return { error: `field label not supported: ${label}` };
}

/** validateObjectFieldSelector. */
export function validateObjectFieldSelector(selector: unknown, allowed: readonly string[], path: string): FieldError[] {
  const fs = objectOf(selector);
  const apiVersion = stringOf(fs.apiVersion);
  const fieldPath = stringOf(fs.fieldPath);
  if (!apiVersion) return [field.required(`${path}.apiVersion`)];
  if (!fieldPath) return [field.required(`${path}.fieldPath`)];
  const converted = convertFieldLabel(apiVersion, fieldPath);
  if ("error" in converted) return [field.invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${converted.error}`)];
  const sub = splitSubscript(converted.path);
  if (sub) {
    const [base, key] = sub;
    if (base === "metadata.annotations") return qualifiedNameErrors(key.toLowerCase()).map((m) => field.invalid(path, key.toLowerCase(), m));
    if (base === "metadata.labels") return qualifiedNameErrors(key).map((m) => field.invalid(path, key, m));
    return [field.invalid(path, base, "does not support subscript")];
  }
  if (!allowed.includes(converted.path)) return [field.notSupported(`${path}.fieldPath`, converted.path, [...allowed].sort())];
  return [];
}

const resourceFieldPaths = [
  "limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
];
const sizeDivisors = ["1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"];
const sizeDivisorList = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

/** validateContainerResourceFieldSelector; `volume` requires containerName. */
export function validateResourceFieldSelector(selector: unknown, path: string, volume: boolean): FieldError[] {
  const fs = objectOf(selector);
  const resource = stringOf(fs.resource);
  const errs: FieldError[] = [];
  if (volume && !stringOf(fs.containerName)) {
    errs.push(field.required(`${path}.containerName`));
  } else if (!resource) {
    errs.push(field.required(`${path}.resource`));
  } else if (!resourceFieldPaths.includes(resource) && !resource.startsWith("requests.hugepages-") && !resource.startsWith("limits.hugepages-")) {
    errs.push(field.notSupported(`${path}.resource`, resource, [...resourceFieldPaths].sort()));
  }
  const divisor = parseQuantity(fs.divisor);
  if (isQuantity(divisor) && divisor.mantissa !== 0n) {
    const d = quantityString(divisor);
    const p = `${path}.divisor`;
    if ((resource === "limits.cpu" || resource === "requests.cpu") && d !== "1m" && d !== "1") {
      errs.push(field.invalid(p, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
    } else if ((resource === "limits.memory" || resource === "requests.memory") && !sizeDivisors.includes(d)) {
      errs.push(field.invalid(p, resource, `only divisor's values ${sizeDivisorList} are supported with the memory resource`));
    } else if ((resource === "limits.ephemeral-storage" || resource === "requests.ephemeral-storage") && !sizeDivisors.includes(d)) {
      errs.push(field.invalid(p, resource, `only divisor's values ${sizeDivisorList} are supported with the local ephemeral storage resource`));
    }
    if ((resource.startsWith("requests.hugepages-") || resource.startsWith("limits.hugepages-")) && !sizeDivisors.includes(d)) {
      errs.push(field.invalid(p, resource, `only divisor's values ${sizeDivisorList} are supported with the hugepages resource`));
    }
  }
  return errs;
}

// ResourceQuota rules (ValidateResourceQuota / ValidateResourceQuotaUpdate, 1.32): resource names and values
// in hard and status, scopes (known, compatible with the hard resources, not conflicting), the scope selector,
// and scopes fixed after creation.
import { field, type FieldError } from "../status";
import { FIELD_IMMUTABLE } from "./immutable-field";
import { goSlice, invalidRendered } from "./rendered-value";
import { isStandardQuotaResourceName, validateResourceQuotaResourceName } from "./resource-names";
import { quantityOf, validateResourceQuantityValue } from "./resource-requirements";
import { isSet, listOf, objectOf, sortedEntries, stringOf } from "./zero-values";

const STANDARD_SCOPES = ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity"];
const POD_COMPUTE = ["cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"];

/** IsResourceQuotaScopeValidForResource. */
function scopeAllowsResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return resource === "pods" || POD_COMPUTE.includes(resource);
    case "BestEffort":
      return resource === "pods";
    default:
      return true;
  }
}

const renderScopes = (scopes: string[]) => goSlice("core.ResourceQuotaScope", scopes.length ? scopes : null);

function validateResourceMap(map: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of sortedEntries(map)) {
    const p = `${path}[${name}]`;
    errs.push(...validateResourceQuotaResourceName(name, p), ...validateResourceQuantityValue(name, quantityOf(value), p));
  }
  return errs;
}

function validateScopes(spec: Record<string, unknown>): FieldError[] {
  const scopes = listOf(spec.scopes).map(stringOf);
  if (scopes.length === 0) return [];
  const hard = Object.keys(objectOf(spec.hard)).sort();
  const errs: FieldError[] = [];
  const rendered = renderScopes(scopes);
  for (const scope of scopes) {
    if (!STANDARD_SCOPES.includes(scope)) errs.push(invalidRendered("spec.scopes", rendered, "unsupported scope"));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeAllowsResource(scope, k)) errs.push(invalidRendered("spec.scopes", rendered, "unsupported scope applied to resource"));
    }
  }
  const set = new Set(scopes);
  if ((set.has("BestEffort") && set.has("NotBestEffort")) || (set.has("Terminating") && set.has("NotTerminating"))) {
    const conflicts = [set.has("BestEffort") && set.has("NotBestEffort"), set.has("Terminating") && set.has("NotTerminating")].filter(Boolean).length;
    for (let i = 0; i < conflicts; i++) errs.push(invalidRendered("spec.scopes", rendered, "conflicting scopes"));
  }
  return errs;
}

function validateScopeSelector(spec: Record<string, unknown>): FieldError[] {
  if (!isSet(spec.scopeSelector)) return [];
  const path = "spec.scopeSelector.matchExpressions";
  const hard = Object.keys(objectOf(spec.hard)).sort();
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const item of listOf(objectOf(spec.scopeSelector).matchExpressions)) {
    const req = objectOf(item);
    const scope = stringOf(req.scopeName);
    const operator = stringOf(req.operator);
    const values = listOf(req.values).map(stringOf);
    if (!STANDARD_SCOPES.includes(scope)) errs.push(field.invalid(`${path}.scopeName`, scope, "unsupported scope"));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeAllowsResource(scope, k)) {
        errs.push(invalidRendered(path, "&core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{...}}", "unsupported scope applied to resource"));
      }
    }
    if (["BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity"].includes(scope) && operator !== "Exists") {
      errs.push(field.invalid(`${path}.operator`, operator, "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
    }
    switch (operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) errs.push(field.required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length) errs.push(invalidRendered(`${path}.values`, goSlice("string", values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(field.invalid(`${path}.operator`, operator, "not a valid selector operator"));
    }
    names.add(scope);
  }
  const scopes = listOf(spec.scopes).map(stringOf);
  if ((names.has("BestEffort") && names.has("NotBestEffort")) || (names.has("Terminating") && names.has("NotTerminating"))) {
    errs.push(invalidRendered(path, renderScopes(scopes), "conflicting scopes"));
  }
  return errs;
}

/** ValidateResourceQuotaSpec plus the status maps (ValidateResourceQuota). */
export function validateResourceQuota(quota: Record<string, unknown>): FieldError[] {
  const spec = objectOf(quota.spec);
  const status = objectOf(quota.status);
  return [
    ...validateResourceMap(spec.hard, "spec.hard"),
    ...validateScopes(spec),
    ...validateScopeSelector(spec),
    ...validateResourceMap(status.hard, "status.hard"),
    ...validateResourceMap(status.used, "status.used"),
  ];
}

/** Scopes are fixed once created (compared as sets). */
export function validateResourceQuotaUpdate(quota: Record<string, unknown>, old: Record<string, unknown>): FieldError[] {
  const scopes = listOf(objectOf(quota.spec).scopes).map(stringOf);
  const oldScopes = listOf(objectOf(old.spec).scopes).map(stringOf);
  const a = new Set(scopes);
  const b = new Set(oldScopes);
  const equal = a.size === b.size && [...a].every((s) => b.has(s));
  return equal ? [] : [invalidRendered("spec.scopes", renderScopes(scopes), FIELD_IMMUTABLE)];
}

// Pod affinity, anti-affinity and node affinity (validateAffinity, 1.32).
import { field, type FieldError } from "../status";
import { dnsLabelNameErrors, dnsSubdomainNameErrors } from "./dns-names";
import { validateLabelName } from "./labels";
import { validateLabelSelector, validateLabelSelectorRequirement } from "./label-selector";
import { isSet, listOf, numberOf, objectOf, stringOf } from "./zero-values";

function validateNodeSelectorRequirement(req: unknown, allowInvalidValues: boolean, path: string): FieldError[] {
  return validateLabelSelectorRequirement(req, path, { numericOperators: true, checkValues: !allowInvalidValues });
}

function validateNodeFieldSelectorRequirement(req: unknown, path: string): FieldError[] {
  const r = objectOf(req);
  const operator = stringOf(r.operator);
  const values = listOf(r.values);
  const errs: FieldError[] = [];
  if (operator === "In" || operator === "NotIn") {
    if (values.length !== 1) errs.push(field.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(field.invalid(`${path}.operator`, operator, "not a valid selector operator"));
  }
  const key = stringOf(r.key);
  if (key !== "metadata.name") {
    errs.push(field.invalid(`${path}.key`, key, "not a valid field selector key"));
  } else {
    values.forEach((v, i) => {
      const value = stringOf(v);
      for (const m of dnsSubdomainNameErrors(value)) errs.push(field.invalid(`${path}.values[${i}]`, value, m));
    });
  }
  return errs;
}

/** ValidateNodeSelectorTerm. */
export function validateNodeSelectorTerm(term: unknown, allowInvalidValues: boolean, path: string): FieldError[] {
  const t = objectOf(term);
  const errs: FieldError[] = [];
  listOf(t.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(r, allowInvalidValues, `${path}.matchExpressions[${j}]`)));
  listOf(t.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(r, `${path}.matchFields[${j}]`)));
  return errs;
}

/** ValidateNodeSelector: at least one term. */
export function validateNodeSelector(selector: unknown, path: string): FieldError[] {
  const terms = listOf(objectOf(selector).nodeSelectorTerms);
  if (terms.length === 0) return [field.required(`${path}.nodeSelectorTerms`, "must have at least one node selector term")];
  return terms.flatMap((term, i) => validateNodeSelectorTerm(term, false, `${path}.nodeSelectorTerms[${i}]`));
}

const weightErrors = (weight: unknown, path: string): FieldError[] => {
  const w = numberOf(weight);
  return w <= 0 || w > 100 ? [field.invalid(path, w, "must be in the range 1-100")] : [];
};

function validatePodAffinityTerm(term: unknown, path: string): FieldError[] {
  const t = objectOf(term);
  const errs = [
    ...validateLabelSelector(t.labelSelector, `${path}.labelSelector`),
    ...validateLabelSelector(t.namespaceSelector, `${path}.namespaceSelector`),
  ];
  for (const ns of listOf(t.namespaces)) {
    const name = stringOf(ns);
    for (const m of dnsLabelNameErrors(name)) errs.push(field.invalid(`${path}.namespace`, name, m));
  }
  for (const kind of ["matchLabelKeys", "mismatchLabelKeys"]) {
    const keys = listOf(t[kind]).map(stringOf);
    if (keys.length && !isSet(t.labelSelector)) errs.push(field.forbidden(`${path}.${kind}`, "must not be specified when labelSelector is not set"));
    else keys.forEach((k, i) => errs.push(...validateLabelName(k, `${path}.${kind}[${i}]`)));
  }
  const topologyKey = stringOf(t.topologyKey);
  if (!topologyKey) errs.push(field.required(`${path}.topologyKey`, "can not be empty"));
  errs.push(...validateLabelName(topologyKey, `${path}.topologyKey`));
  return errs;
}

function validatePodAffinityRules(rules: unknown, path: string): FieldError[] {
  const r = objectOf(rules);
  const errs: FieldError[] = [];
  listOf(r.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) =>
    errs.push(...validatePodAffinityTerm(term, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)));
  listOf(r.preferredDuringSchedulingIgnoredDuringExecution).forEach((item, i) => {
    const p = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const weighted = objectOf(item);
    errs.push(...weightErrors(weighted.weight, `${p}.weight`), ...validatePodAffinityTerm(weighted.podAffinityTerm, `${p}.podAffinityTerm`));
  });
  return errs;
}

/** validateAffinity at spec.affinity. */
export function validateAffinity(affinity: unknown, path: string): FieldError[] {
  if (!isSet(affinity)) return [];
  const a = objectOf(affinity);
  const errs: FieldError[] = [];
  if (isSet(a.nodeAffinity)) {
    const na = objectOf(a.nodeAffinity);
    const p = `${path}.nodeAffinity`;
    if (isSet(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      errs.push(...validateNodeSelector(na.requiredDuringSchedulingIgnoredDuringExecution, `${p}.requiredDuringSchedulingIgnoredDuringExecution`));
    }
    listOf(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((item, i) => {
      const term = objectOf(item);
      const tp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(...weightErrors(term.weight, `${tp}.weight`), ...validateNodeSelectorTerm(term.preference, true, `${tp}.preference`));
    });
  }
  if (isSet(a.podAffinity)) errs.push(...validatePodAffinityRules(a.podAffinity, `${path}.podAffinity`));
  if (isSet(a.podAntiAffinity)) errs.push(...validatePodAffinityRules(a.podAntiAffinity, `${path}.podAntiAffinity`));
  return errs;
}

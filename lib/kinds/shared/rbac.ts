// What the four rbac.authorization.k8s.io/v1 kinds share: their types, the binding defaults
// (pkg/apis/rbac/v1/defaults.go) and kube-apiserver 1.32's checks of rules, role references and subjects
// (pkg/apis/rbac/validation), with its exact messages.
import { field, type FieldError } from "../../status";
import { dnsSubdomainNameErrors } from "../../validation/dns-names";
import { validateLabelSelector } from "../../validation/label-selector";
import { nameErrors } from "../../validation/object-meta";
import { goSlice, goString, goStruct, invalidRendered } from "../../validation/rendered-value";
import { isObject, listOf, objectOf, stringOf } from "../../validation/zero-values";
import { RBAC_GROUP } from "../schema/rbac";
import type { LabelSelector } from "./label-selector";

export { RBAC_GROUP };

/**
 * What the four RBAC kinds share in kube-apiserver's RBAC storage: the group, path-segment names
 * (ValidateRBACName), no status, create on PUT, unconditional updates, a Status answered to delete, and no
 * field selectors beyond metadata.name and metadata.namespace.
 */
export const RBAC_STORAGE = {
  group: RBAC_GROUP,
  shortNames: [] as string[],
  categories: [] as string[],
  nameRule: "path-segment" as const,
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status" as const,
  selectableFields: {},
  fieldSelectorError: "known-only" as const,
};

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

const SUBJECT_KINDS = ["ServiceAccount", "User", "Group"] as const;

// --- defaults ---------------------------------------------------------------------------------------------------

/** SetDefaults_RoleBinding / _ClusterRoleBinding and SetDefaults_Subject: the API groups a client may leave out. */
export function defaultBinding(obj: { roleRef?: unknown; subjects?: unknown }): void {
  if (isObject(obj.roleRef) && !stringOf(obj.roleRef.apiGroup)) obj.roleRef.apiGroup = RBAC_GROUP;
  for (const s of listOf(obj.subjects)) {
    if (!isObject(s) || stringOf(s.apiGroup)) continue;
    // A ServiceAccount's group is "", which the wire form omits.
    if (s.kind === "User" || s.kind === "Group") s.apiGroup = RBAC_GROUP;
  }
}

// --- roles ------------------------------------------------------------------------------------------------------

/** ValidatePolicyRule for each of `rules`; `namespaced` for a Role (no non-resource URLs). */
export function validatePolicyRules(rules: unknown, namespaced: boolean): FieldError[] {
  return listOf(rules).flatMap((rule, i) => validatePolicyRule(objectOf(rule), namespaced, `rules[${i}]`));
}

function validatePolicyRule(rule: Record<string, unknown>, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const strings = (v: unknown) => listOf(v).map(stringOf);
  const nonResourceURLs = strings(rule.nonResourceURLs);
  if (strings(rule.verbs).length === 0) errs.push(field.required(`${path}.verbs`, "verbs must contain at least one value"));
  if (nonResourceURLs.length > 0) {
    const rendered = goSlice("string", nonResourceURLs);
    if (namespaced) errs.push(invalidRendered(`${path}.nonResourceURLs`, rendered, "namespaced rules cannot apply to non-resource URLs"));
    if (listOf(rule.apiGroups).length || listOf(rule.resources).length || listOf(rule.resourceNames).length) {
      errs.push(invalidRendered(`${path}.nonResourceURLs`, rendered, "rules cannot apply to both regular resources and non-resource URLs"));
    }
    return errs;
  }
  if (listOf(rule.apiGroups).length === 0) errs.push(field.required(`${path}.apiGroups`, "resource rules must supply at least one api group"));
  if (listOf(rule.resources).length === 0) errs.push(field.required(`${path}.resources`, "resource rules must supply at least one resource"));
  return errs;
}

/**
 * A cluster role's aggregationRule: at least one selector, each a valid label selector (label values checked, as
 * for every new object in 1.32). A selector that fails is also reported once more as the failed conversion to a
 * label selector, whose nil value kube prints as "null".
 */
export function validateAggregationRule(rule: unknown): FieldError[] {
  if (rule === undefined || rule === null) return [];
  const path = "aggregationRule.clusterRoleSelectors";
  const selectors = listOf(objectOf(rule).clusterRoleSelectors);
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(field.required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
  selectors.forEach((sel, i) => {
    const p = `${path}[${i}]`;
    const selectorErrs = validateLabelSelector(sel, p);
    errs.push(...selectorErrs);
    if (selectorErrs.length) errs.push(invalidRendered(p, goString("null"), "invalid label selector."));
  });
  return errs;
}

// --- bindings ---------------------------------------------------------------------------------------------------

/**
 * ValidateRoleBinding / ValidateClusterRoleBinding without metadata: the role reference (`roleKinds` are the kinds
 * it may name) and every subject. `namespaced` is true for a RoleBinding (a ServiceAccount subject may then leave
 * its namespace out).
 */
export function validateBinding(obj: { roleRef?: unknown; subjects?: unknown }, namespaced: boolean, roleKinds: readonly string[]): FieldError[] {
  const ref = objectOf(obj.roleRef);
  const errs: FieldError[] = [];
  const apiGroup = stringOf(ref.apiGroup);
  if (apiGroup !== RBAC_GROUP) errs.push(field.notSupported("roleRef.apiGroup", apiGroup, [RBAC_GROUP]));
  const kind = stringOf(ref.kind);
  if (!roleKinds.includes(kind)) errs.push(field.notSupported("roleRef.kind", kind, roleKinds));
  const name = stringOf(ref.name);
  if (!name) errs.push(field.required("roleRef.name"));
  else for (const m of nameErrors(name, "path-segment")) errs.push(field.invalid("roleRef.name", name, m));
  listOf(obj.subjects).forEach((s, i) => errs.push(...validateSubject(objectOf(s), namespaced, `subjects[${i}]`)));
  return errs;
}

function validateSubject(s: Record<string, unknown>, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringOf(s.name);
  const apiGroup = stringOf(s.apiGroup);
  if (!name) errs.push(field.required(`${path}.name`));
  switch (s.kind) {
    case "ServiceAccount":
      if (name) for (const m of dnsSubdomainNameErrors(name)) errs.push(field.invalid(`${path}.name`, name, m));
      if (apiGroup) errs.push(field.notSupported(`${path}.apiGroup`, apiGroup, [""]));
      if (!namespaced && !stringOf(s.namespace)) errs.push(field.required(`${path}.namespace`));
      break;
    case "User":
    case "Group":
      if (apiGroup !== RBAC_GROUP) errs.push(field.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(field.notSupported(`${path}.kind`, stringOf(s.kind), SUBJECT_KINDS));
  }
  return errs;
}

/** The role reference is fixed at creation: kube compares the whole struct and prints the new one. */
export function validateRoleRefUnchanged(obj: { roleRef?: unknown }, old: { roleRef?: unknown }): FieldError[] {
  const ref = objectOf(obj.roleRef);
  const prev = objectOf(old.roleRef);
  const keys = ["apiGroup", "kind", "name"] as const;
  if (keys.every((k) => stringOf(ref[k]) === stringOf(prev[k]))) return [];
  const rendered = goStruct("rbac.RoleRef", [
    ["APIGroup", goString(stringOf(ref.apiGroup))],
    ["Kind", goString(stringOf(ref.kind))],
    ["Name", goString(stringOf(ref.name))],
  ]);
  return [invalidRendered("roleRef", rendered, "cannot change roleRef")];
}

// --- printing ---------------------------------------------------------------------------------------------------

/** rbac.SubjectsStrings: user names, group names and `namespace/name` of service accounts, each joined by ", ". */
export function subjectColumns(subjects: unknown): { users: string; groups: string; serviceAccounts: string } {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const raw of listOf(subjects)) {
    const s = objectOf(raw);
    const name = stringOf(s.name);
    if (s.kind === "ServiceAccount") sas.push(`${stringOf(s.namespace)}/${name}`);
    else if (s.kind === "User") users.push(name);
    else if (s.kind === "Group") groups.push(name);
  }
  return { users: users.join(", "), groups: groups.join(", "), serviceAccounts: sas.join(", ") };
}

// The rbac.authorization.k8s.io/v1 shapes the authorizer reads, and tolerant readers that turn stored
// JSON (possibly with missing or null lists) into them. Nothing here validates: the registry already did.
import type { AggregationRule, PolicyRule, RoleRef, Subject } from "../kinds/shared/rbac";
import type { LabelSelector, LabelSelectorRequirement } from "../kinds/shared/label-selector";

export { RBAC_GROUP } from "../kinds/shared/rbac";
export type { AggregationRule, LabelSelector, LabelSelectorRequirement, RoleRef, Subject };

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export interface Role {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule | null;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** A rule with every list present only when non-empty, so equal rules compare equal (kube treats nil and [] alike). */
export function normalizeRule(raw: unknown): PolicyRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  const rule: PolicyRule = { verbs: strings(r.verbs) };
  const apiGroups = strings(r.apiGroups);
  const resources = strings(r.resources);
  const resourceNames = strings(r.resourceNames);
  const nonResourceURLs = strings(r.nonResourceURLs);
  if (apiGroups.length) rule.apiGroups = apiGroups;
  if (resources.length) rule.resources = resources;
  if (resourceNames.length) rule.resourceNames = resourceNames;
  if (nonResourceURLs.length) rule.nonResourceURLs = nonResourceURLs;
  return rule;
}

export function readRules(obj: unknown): PolicyRule[] {
  const rules = (obj as { rules?: unknown } | null)?.rules;
  return Array.isArray(rules) ? rules.map(normalizeRule) : [];
}

export function readSubjects(obj: unknown): Subject[] {
  const subjects = (obj as { subjects?: unknown } | null)?.subjects;
  if (!Array.isArray(subjects)) return [];
  return subjects.map((s) => {
    const o = (s ?? {}) as Record<string, unknown>;
    const subject: Subject = { kind: String(o.kind ?? ""), name: String(o.name ?? "") };
    if (typeof o.namespace === "string" && o.namespace) subject.namespace = o.namespace;
    if (typeof o.apiGroup === "string") subject.apiGroup = o.apiGroup;
    return subject;
  });
}

export function readRoleRef(obj: unknown): RoleRef {
  const r = ((obj as { roleRef?: unknown } | null)?.roleRef ?? {}) as Record<string, unknown>;
  return { apiGroup: String(r.apiGroup ?? ""), kind: String(r.kind ?? ""), name: String(r.name ?? "") };
}

/** Canonical text of a rule, for set semantics over rules. */
export function ruleKey(rule: PolicyRule): string {
  return JSON.stringify([
    rule.verbs,
    rule.apiGroups ?? [],
    rule.resources ?? [],
    rule.resourceNames ?? [],
    rule.nonResourceURLs ?? [],
  ]);
}

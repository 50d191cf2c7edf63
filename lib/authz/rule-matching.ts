// kube's RBAC rule evaluation (rbac/v1 evaluation helpers): does one PolicyRule allow one request?
// Every comparison is exact and case-sensitive, as in kube; `*` is the only wildcard, except that a
// non-resource URL ending in `*` matches by prefix.
import type { PolicyRule } from "../kinds/shared/rbac";
import type { Attributes } from "./attributes";

export type { PolicyRule };

export const VERB_ALL = "*";
export const API_GROUP_ALL = "*";
export const RESOURCE_ALL = "*";
export const NON_RESOURCE_ALL = "*";

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs) if (v === VERB_ALL || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === API_GROUP_ALL || g === group) return true;
  return false;
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule entry matches when it is `*`, equal to
 * `combined`, or `*\/<subresource>` for a request with that subresource. kube has no `resource/*` form:
 * `pods/*` matches only a subresource literally named `*`.
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === RESOURCE_ALL || r === combined) return true;
    if (subresource !== "" && r.length === subresource.length + 2 && r.startsWith("*/") && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

/** No resourceNames means every name; otherwise the request's name (possibly "") must be listed. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  for (const n of names) if (n === name) return true;
  return false;
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === NON_RESOURCE_ALL || u === path) return true;
    if (u.endsWith("*") && path.startsWith(trimTrailingStars(u))) return true;
  }
  return false;
}

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (attrs.type === "resource") {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.apiGroup) &&
      resourceMatches(rule, combined, attrs.subresource) &&
      resourceNameMatches(rule, attrs.name)
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

// Go's strings.TrimRight(s, "*") strips every trailing star, so `/api**` is the prefix `/api`.
export function trimTrailingStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 42) end--;
  return s.slice(0, end);
}

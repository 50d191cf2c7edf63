// kube's clusterrole-aggregation controller as a pure function: a ClusterRole with an aggregationRule
// gets, as its rules, the union of the rules of every other ClusterRole whose labels match one of its
// selectors (selectors in order, matching roles by name, duplicates dropped). Aggregated roles can feed
// each other (view -> edit -> admin), so the result is iterated to a fixed point, as the controller
// reaches one by resyncing.
import type { PolicyRule } from "./rule-matching";
import { readRules, ruleKey, type ClusterRole, type LabelSelector } from "./rbac-objects";

/**
 * metav1.LabelSelector matching. `undefined`/`null` matches nothing and `{}` everything, as
 * LabelSelectorAsSelector does. Returns `undefined` for a selector kube would reject (unknown operator,
 * In/NotIn without values, Exists/DoesNotExist with values).
 */
export function labelSelectorMatches(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string> | undefined,
): boolean | undefined {
  if (!selector) return false;
  const l = labels ?? {};
  let matches = true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (l[k] !== v) matches = false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const values = req.values ?? [];
    const has = Object.prototype.hasOwnProperty.call(l, req.key);
    switch (req.operator) {
      case "In":
        if (values.length === 0) return undefined;
        if (!has || !values.includes(l[req.key])) matches = false;
        break;
      case "NotIn":
        if (values.length === 0) return undefined;
        if (has && values.includes(l[req.key])) matches = false;
        break;
      case "Exists":
        if (values.length > 0) return undefined;
        if (!has) matches = false;
        break;
      case "DoesNotExist":
        if (values.length > 0) return undefined;
        if (has) matches = false;
        break;
      default:
        return undefined;
    }
  }
  return matches;
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (ruleKey(a[i]) !== ruleKey(b[i])) return false;
  return true;
}

/**
 * The rules each aggregated ClusterRole (one with a non-null aggregationRule) should hold, by name.
 * Roles without an aggregationRule are not in the result. A role whose selectors kube would reject
 * keeps its stored rules (the controller fails that sync and writes nothing).
 */
export function aggregate(clusterRoles: Iterable<ClusterRole>): Map<string, PolicyRule[]> {
  const all = [...clusterRoles].filter((cr) => cr?.metadata?.name);
  all.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const current = new Map<string, PolicyRule[]>();
  for (const cr of all) current.set(cr.metadata.name, readRules(cr));

  const plans: { name: string; sources: string[][] }[] = [];
  for (const cr of all) {
    if (!cr.aggregationRule) continue;
    const sources: string[][] = [];
    let valid = true;
    for (const sel of cr.aggregationRule.clusterRoleSelectors ?? []) {
      const names: string[] = [];
      for (const other of all) {
        const m = labelSelectorMatches(sel, other.metadata.labels);
        if (m === undefined) valid = false;
        else if (m && other.metadata.name !== cr.metadata.name) names.push(other.metadata.name);
      }
      sources.push(names);
    }
    if (valid) plans.push({ name: cr.metadata.name, sources });
  }

  for (let round = 0; round <= plans.length; round++) {
    let changed = false;
    for (const plan of plans) {
      const rules: PolicyRule[] = [];
      const seen = new Set<string>();
      for (const names of plan.sources) {
        for (const n of names) {
          for (const rule of current.get(n) ?? []) {
            const k = ruleKey(rule);
            if (!seen.has(k)) {
              seen.add(k);
              rules.push(rule);
            }
          }
        }
      }
      if (!sameRules(rules, current.get(plan.name) ?? [])) {
        current.set(plan.name, rules);
        changed = true;
      }
    }
    if (!changed) break;
  }

  const result = new Map<string, PolicyRule[]>();
  for (const cr of all) if (cr.aggregationRule) result.set(cr.metadata.name, current.get(cr.metadata.name) ?? []);
  return result;
}

/** Copies of the given ClusterRoles with aggregated rules written in, as the controller would store them. */
export function withAggregatedRules<T extends ClusterRole>(clusterRoles: readonly T[]): T[] {
  const rules = aggregate(clusterRoles);
  return clusterRoles.map((cr) => (rules.has(cr.metadata.name) ? { ...cr, rules: rules.get(cr.metadata.name) } : cr));
}

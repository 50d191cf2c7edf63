// A quota's usage measured from the objects themselves (kube's quota.CalculateUsage + generic
// CalculateUsageStats): for every evaluator that accounts for something the quota limits, the sum of what the
// namespace's objects in the quota's scopes use. The controller writes the result into status.used.
import type { ResourceQuota } from "../kinds/resource-quota";
import type { KubeObject } from "../kinds/types";
import { scopeRequirements } from "./evaluator";
import type { EvaluatorEntry } from "./evaluators";
import { add, fromResourceList, mask, zero, type QuantityList } from "./resource-list";

/** The objects of one plural in the quota's namespace. */
export type NamespaceLister = (resource: string) => KubeObject[];

/**
 * Usage of the resources of `spec.hard` some evaluator accounts for (others are left out: nothing measures
 * them). Every measured resource is present, zero when nothing uses it.
 */
export function calculateUsage(quota: ResourceQuota, evaluators: EvaluatorEntry[], list: NamespaceLister, now: number): QuantityList {
  const hard = Object.keys(quota.spec?.hard ?? {});
  const matched = new Set(evaluators.flatMap((e) => e.evaluator.matchingResources(hard)));
  const scopes = scopeRequirements(quota);
  let used: QuantityList = {};
  for (const { evaluator, resource } of evaluators) {
    const tracked = evaluator.matchingResources([...matched]);
    if (tracked.length === 0) continue;
    let stats: QuantityList = {};
    for (const name of tracked) stats[name] = zero();
    for (const obj of resource ? list(resource) : []) {
      if (scopes.every((s) => evaluator.matchesScope(s, obj))) stats = add(stats, evaluator.usage(obj, now));
    }
    used = add(used, stats);
  }
  return mask(used, matched);
}

/**
 * The status the controller wants: hard copied from spec, used = the measured usage over the previous
 * observation, limited to the hard resources.
 */
export function desiredStatus(quota: ResourceQuota, measured: QuantityList): { hard: QuantityList; used: QuantityList } {
  const hard = fromResourceList(quota.spec?.hard);
  const used = { ...fromResourceList(quota.status?.used), ...measured };
  return { hard, used: mask(used, Object.keys(hard)) };
}

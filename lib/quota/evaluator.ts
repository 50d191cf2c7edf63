// What quota knows about one kind of object (kube's quota.Evaluator): which quota resources it accounts for,
// what one object uses, which scopes it can fall in, and what it must declare when a quota tracks it.
import type { KubeObject } from "../kinds/types";
import type { ResourceQuota } from "../kinds/resource-quota";
import type { QuantityList } from "./resource-list";

/** One scope condition of a quota: `spec.scopes` entries become `{scopeName, operator: "Exists"}`. */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export type QuotaOperation = "CREATE" | "UPDATE" | "DELETE";

export interface Evaluator {
  /** `pods`, `roles.rbac.authorization.k8s.io`: the group-resource measured. */
  readonly groupResource: string;
  /** Whether an admission request of this operation can change usage (creates; some kinds also updates). */
  handles(operation: QuotaOperation): boolean;
  /** The names among `names` this evaluator accounts for. */
  matchingResources(names: string[]): string[];
  /** Whether `obj` falls in the scope; kinds without scopes never do. */
  matchesScope(requirement: ScopeRequirement, obj: KubeObject): boolean;
  /** What one object uses. `now` (ms) decides whether a deleted pod's grace period has run out. */
  usage(obj: KubeObject, now: number): QuantityList;
  /** kube's Constraints: the reason a tracked object may not be admitted (`must specify ...`), or undefined. */
  constraints(required: string[], obj: KubeObject): string | undefined;
}

/** The resource name object counts use: `count/pods`, `count/roles.rbac.authorization.k8s.io`. */
export const objectCountName = (groupResource: string) => `count/${groupResource}`;

/** GetScopeSelectorsFromQuota: `spec.scopes` as Exists requirements, then the scope selector's expressions. */
export function scopeRequirements(quota: ResourceQuota): ScopeRequirement[] {
  const spec = (quota.spec ?? {}) as { scopes?: string[]; scopeSelector?: { matchExpressions?: ScopeRequirement[] } };
  return [
    ...(spec.scopes ?? []).map((scopeName) => ({ scopeName, operator: "Exists" })),
    ...(spec.scopeSelector?.matchExpressions ?? []),
  ];
}

/** generic.Matches: the quota limits something this evaluator counts, and the object is in every scope. */
export function quotaMatches(evaluator: Evaluator, quota: ResourceQuota, obj: KubeObject): boolean {
  if (evaluator.matchingResources(Object.keys(quota.status?.hard ?? {})).length === 0) return false;
  return scopeRequirements(quota).every((r) => evaluator.matchesScope(r, obj));
}

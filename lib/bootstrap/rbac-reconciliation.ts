// kube's RBAC reconciliation (pkg/registry/rbac/reconciliation) as pure functions: what a bootstrap role or
// binding becomes when it already exists. Additive only, so an admin's rules and subjects survive every
// restart; an object annotated autoupdate "false" is the admin's and stays as it is.
import { AUTOUPDATE_ANNOTATION } from "../authz/bootstrap-policy";
import { confirmNoEscalation } from "../authz/escalation";
import type { ClusterRole, LabelSelector, RoleBinding, Subject } from "../authz/rbac-objects";

interface Meta {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export const isProtected = (existing: { metadata: Meta }) => existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === "false";

/** Expected labels and annotations added where missing; a value the object already has wins. */
function mergedMeta<T extends { metadata: Meta }>(expected: T, existing: T): T["metadata"] {
  return {
    ...existing.metadata,
    labels: { ...expected.metadata.labels, ...existing.metadata.labels },
    annotations: { ...expected.metadata.annotations, ...existing.metadata.annotations },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The Role or ClusterRole to write back, or undefined when nothing is missing or the object is protected.
 * Missing rules are appended broken down, as kube's Covers reports them. Rules are not compared when both
 * sides aggregate: the aggregation controller owns those.
 */
export function reconcileRole<T extends ClusterRole>(expected: T, existing: T): T | undefined {
  if (isProtected(existing)) return undefined;
  const result: T = { ...existing, metadata: mergedMeta(expected, existing) };
  const wanted = expected.aggregationRule?.clusterRoleSelectors;
  if (wanted) {
    const have: LabelSelector[] = existing.aggregationRule?.clusterRoleSelectors ?? [];
    const missing = wanted.filter((s) => !have.some((h) => same(h, s)));
    if (missing.length) result.aggregationRule = { ...existing.aggregationRule, clusterRoleSelectors: [...have, ...missing] };
  }
  if (!expected.aggregationRule || !existing.aggregationRule) {
    const missing = confirmNoEscalation(existing.rules ?? [], expected.rules ?? []);
    if (missing.length) result.rules = [...(existing.rules ?? []), ...missing];
  }
  return same(result, existing) ? undefined : result;
}

const sameSubject = (a: Subject, b: Subject) =>
  a.kind === b.kind && a.name === b.name && (a.apiGroup ?? "") === (b.apiGroup ?? "") && (a.namespace ?? "") === (b.namespace ?? "");

/**
 * What to do with an existing binding: nothing (undefined), write it back with the missing subjects, or
 * recreate it when it points at another role (a roleRef cannot change in place).
 */
export function reconcileBinding(expected: RoleBinding, existing: RoleBinding): { update: RoleBinding } | { recreate: RoleBinding } | undefined {
  if (isProtected(existing)) return undefined;
  if (!same(expected.roleRef, existing.roleRef)) {
    const { labels, annotations } = mergedMeta(expected, existing);
    return { recreate: { ...expected, metadata: { ...expected.metadata, labels, annotations } } };
  }
  const result: RoleBinding = { ...existing, metadata: mergedMeta(expected, existing) };
  const have = existing.subjects ?? [];
  const missing = (expected.subjects ?? []).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (missing.length) result.subjects = [...have, ...missing];
  return same(result, existing) ? undefined : { update: result };
}

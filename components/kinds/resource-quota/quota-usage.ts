// Bars for a ResourceQuota: used against hard per resource, compared as exact quantities (bigint thousandths)
// so `500m` of `1` or `1536Mi` of `2Gi` are right, and a quota lowered below its usage shows as over.
import type { KubeObject } from "@/lib/kinds";
import { parseQuantityMilli } from "@/lib/kinds/shared/quantity";

export type QuotaLevel = "ok" | "high" | "full" | "over" | "unknown";

export interface QuotaRow {
  resource: string;
  hard: string;
  /** Undefined until the quota controller has counted the namespace (status.used has no entry yet). */
  used?: string;
  /** 0..100, for the bar's width; undefined when either side is missing or not a quantity. */
  percent?: number;
  level: QuotaLevel;
}

/** From this share on, a bar warns: the next few objects may be refused. */
export const HIGH_USAGE_PERCENT = 80;

export function quotaRow(resource: string, hard: string, used: string | undefined): QuotaRow {
  const h = parseQuantityMilli(hard);
  const u = used === undefined ? undefined : parseQuantityMilli(used);
  if (h === undefined || u === undefined) return { resource, hard, used, level: "unknown" };
  if (u > h) return { resource, hard, used, percent: 100, level: "over" };
  if (u === h) return { resource, hard, used, percent: 100, level: "full" };
  // Hundredths of a percent, computed exactly before the one conversion to a float.
  const percent = Number((u * 10_000n) / h) / 100;
  return { resource, hard, used, percent, level: percent >= HIGH_USAGE_PERCENT ? "high" : "ok" };
}

/**
 * One row per resource the quota limits, sorted by name as `kubectl describe quota` does. status.hard is what
 * the controller enforces; before it has run, spec.hard is shown with no usage.
 */
export function quotaRows(quota: KubeObject): QuotaRow[] {
  const spec = (quota.spec ?? {}) as { hard?: Record<string, string> };
  const status = (quota.status ?? {}) as { hard?: Record<string, string>; used?: Record<string, string> };
  const hard = status.hard ?? spec.hard ?? {};
  const used = status.used ?? {};
  return Object.keys(hard)
    .sort()
    .map((resource) => quotaRow(resource, String(hard[resource]), used[resource] === undefined ? undefined : String(used[resource])));
}

/** The quota's scopes in words (`Terminating`, `BestEffort`, a scope selector's expressions), for a caption. */
export function quotaScopes(quota: KubeObject): string[] {
  const spec = (quota.spec ?? {}) as { scopes?: string[]; scopeSelector?: { matchExpressions?: { scopeName?: string; operator?: string; values?: string[] }[] } };
  const out = [...(spec.scopes ?? [])];
  for (const e of spec.scopeSelector?.matchExpressions ?? []) {
    out.push(`${e.scopeName} ${e.operator}${e.values?.length ? ` (${e.values.join(", ")})` : ""}`);
  }
  return out;
}

// A LimitRange as `kubectl describe limitrange` lays it out: one row per (type, resource) with min, max,
// default request, default limit and max limit/request ratio, so a person sees at a glance what LimitRanger
// fills in and what it refuses.
import type { KubeObject } from "@/lib/kinds";

export interface LimitRangeRow {
  type: string;
  resource: string;
  min?: string;
  max?: string;
  defaultRequest?: string;
  defaultLimit?: string;
  maxLimitRequestRatio?: string;
}

type Limits = Record<string, string | number>;

export function limitRangeRows(limitRange: KubeObject): LimitRangeRow[] {
  const items = (((limitRange.spec ?? {}) as { limits?: unknown[] }).limits ?? []) as {
    type?: string;
    min?: Limits;
    max?: Limits;
    default?: Limits;
    defaultRequest?: Limits;
    maxLimitRequestRatio?: Limits;
  }[];
  const rows: LimitRangeRow[] = [];
  for (const item of items) {
    const resources = new Set([item.min, item.max, item.default, item.defaultRequest, item.maxLimitRequestRatio].flatMap((l) => Object.keys(l ?? {})));
    const str = (l: Limits | undefined, r: string) => (l?.[r] === undefined ? undefined : String(l[r]));
    for (const resource of [...resources].sort()) {
      rows.push({
        type: item.type ?? "",
        resource,
        min: str(item.min, resource),
        max: str(item.max, resource),
        defaultRequest: str(item.defaultRequest, resource),
        defaultLimit: str(item.default, resource),
        maxLimitRequestRatio: str(item.maxLimitRequestRatio, resource),
      });
    }
  }
  return rows;
}

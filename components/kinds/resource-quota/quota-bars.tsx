"use client";
// One ResourceQuota's usage: a bar per resource, used of hard, coloured as it nears and reaches the limit.
import { quotaRows, quotaScopes, type QuotaLevel } from "./quota-usage";
import type { KubeObject } from "@/lib/kinds";

const barColour: Record<QuotaLevel, string> = {
  ok: "bg-green-600 dark:bg-green-500",
  high: "bg-amber-500",
  full: "bg-red-600 dark:bg-red-500",
  over: "bg-red-700 dark:bg-red-400",
  unknown: "bg-slate-300 dark:bg-slate-600",
};

// The level in words too, so colour is never the only sign.
const levelText: Record<QuotaLevel, string> = {
  ok: "",
  unknown: "",
  high: "font-semibold text-amber-800 dark:text-amber-300",
  full: "font-semibold text-red-800 dark:text-red-300",
  over: "font-semibold text-red-800 dark:text-red-300",
};

const levelWords: Partial<Record<QuotaLevel, string>> = { full: "at the limit", over: "over the limit", high: "nearly full" };

export function QuotaBars({ quota }: { quota: KubeObject }) {
  const rows = quotaRows(quota);
  const scopes = quotaScopes(quota);
  const counted = !!(quota.status as { used?: unknown } | undefined)?.used;
  return (
    <div data-testid="quota-bars" data-quota={quota.metadata.name}>
      {scopes.length > 0 && <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">Counts only: {scopes.join(", ")}</p>}
      {!counted && rows.length > 0 && <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">Not counted yet: the quota controller has not reported usage.</p>}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">This quota limits nothing.</p>
      ) : (
        <ul className="space-y-1.5">
          {rows.map((r) => (
            <li key={r.resource} className="grid grid-cols-[12rem_1fr_10rem] items-center gap-3 text-sm" data-testid="quota-row" data-resource={r.resource} data-level={r.level}>
              <span className="truncate font-mono text-xs" title={r.resource}>
                {r.resource}
              </span>
              <span
                role="meter"
                aria-label={`${r.resource}: ${r.used ?? "unknown"} used of ${r.hard}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={r.percent ?? 0}
                className="block h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
              >
                <span className={`block h-full ${barColour[r.level]}`} style={{ width: `${r.percent ?? 0}%` }} />
              </span>
              <span className={`text-right text-xs ${levelText[r.level]}`}>
                <span className="tabular" data-testid="quota-numbers">
                  {r.used ?? "?"} / {r.hard}
                </span>
                {levelWords[r.level] && (
                  <span className="block" data-testid="quota-level">
                    {levelWords[r.level]}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

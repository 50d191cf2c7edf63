"use client";
// A LimitRange as a table (type, resource, min, max, default request, default limit, ratio), as
// `kubectl describe limitrange` prints it.
import { limitRangeRows } from "./limit-range-rows";
import type { KubeObject } from "@/lib/kinds";

const dash = (v: string | undefined) => v ?? "—";

export function LimitRangeTable({ limitRange }: { limitRange: KubeObject }) {
  const rows = limitRangeRows(limitRange);
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No limits.</p>;
  return (
    <table className="w-full text-left text-sm" data-testid="limit-range-table" data-limit-range={limitRange.metadata.name}>
      <caption className="sr-only">Limits of {limitRange.metadata.name}</caption>
      <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
        <tr>
          {["Type", "Resource", "Min", "Max", "Default request", "Default limit", "Max limit/request ratio"].map((h) => (
            <th key={h} scope="col" className="py-1 pr-3">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.type}/${r.resource}`} className="border-t border-slate-100 font-mono text-xs dark:border-slate-800" data-testid="limit-range-row">
            <td className="py-1 pr-3 font-sans text-sm">{r.type}</td>
            <td className="py-1 pr-3">{r.resource}</td>
            <td className="py-1 pr-3">{dash(r.min)}</td>
            <td className="py-1 pr-3">{dash(r.max)}</td>
            <td className="py-1 pr-3">{dash(r.defaultRequest)}</td>
            <td className="py-1 pr-3">{dash(r.defaultLimit)}</td>
            <td className="py-1 pr-3">{dash(r.maxLimitRequestRatio)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

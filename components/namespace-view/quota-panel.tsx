"use client";
// What limits a namespace, live: every ResourceQuota with its used/hard bars, and every LimitRange's
// min/max/defaults. Fed by the namespace view's own live lists, so it costs no extra watch.
import type { ResourceListResult } from "@/lib/client/use-resource-list";
import type { KubeObject } from "@/lib/kinds";
import { ObjectLink } from "../kinds/field-list";
import { LimitRangeTable } from "../kinds/limit-range/limit-range-table";
import { QuotaBars } from "../kinds/resource-quota/quota-bars";
import { isForbidden } from "../ui/forbidden";

const byName = (a: KubeObject, b: KubeObject) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");

function ListNote({ list, what }: { list: ResourceListResult | undefined; what: string }) {
  if (!list) return null;
  if (list.error && !list.data) return <p className="text-sm text-slate-600 dark:text-slate-400">{isForbidden(list.error) ? `Your roles do not let you list ${what}.` : `${what} not shown: ${list.error.message}`}</p>;
  if (!list.data) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading {what}…</p>;
  return null;
}

export function QuotaPanel({ quotas, limitRanges }: { quotas: ResourceListResult | undefined; limitRanges: ResourceListResult | undefined }) {
  const quotaItems = [...(quotas?.data?.items.values() ?? [])].sort(byName);
  const limitItems = [...(limitRanges?.data?.items.values() ?? [])].sort(byName);
  return (
    <section aria-label="Quotas and limits" className="mb-6" data-testid="quota-panel">
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Quotas and limits</h2>
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <h3 className="mb-1 text-sm font-semibold">Resource quotas</h3>
          <ListNote list={quotas} what="resource quotas" />
          {quotas?.data && quotaItems.length === 0 && <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-quotas">No ResourceQuota: nothing caps what this namespace may use.</p>}
          <ul className="space-y-3">
            {quotaItems.map((q) => (
              <li key={q.metadata.name} className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800" data-testid="namespace-quota" data-name={q.metadata.name}>
                <p className="mb-1 text-sm font-medium">
                  <ObjectLink kind="ResourceQuota" namespace={q.metadata.namespace} name={q.metadata.name ?? ""} />
                </p>
                <QuotaBars quota={q} />
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="mb-1 text-sm font-semibold">Limit ranges</h3>
          <ListNote list={limitRanges} what="limit ranges" />
          {limitRanges?.data && limitItems.length === 0 && <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-limit-ranges">No LimitRange: containers get no default requests or limits.</p>}
          <ul className="space-y-3">
            {limitItems.map((lr) => (
              <li key={lr.metadata.name} className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800" data-testid="namespace-limit-range" data-name={lr.metadata.name}>
                <p className="mb-1 text-sm font-medium">
                  <ObjectLink kind="LimitRange" namespace={lr.metadata.namespace} name={lr.metadata.name ?? ""} />
                </p>
                <LimitRangeTable limitRange={lr} />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

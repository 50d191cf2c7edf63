"use client";
// What limits a namespace, live: every ResourceQuota with its used/hard bars, and every LimitRange's
// min/max/defaults. Fed by the namespace view's own live lists, so it costs no extra watch.
import type { ReactNode } from "react";
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
        <PolicyColumn
          title="Resource quotas" what="resource quotas" list={quotas} items={quotaItems} kind="ResourceQuota" testId="namespace-quota"
          empty={<p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-quotas">No ResourceQuota: nothing caps what this namespace may use.</p>}
          render={(q) => <QuotaBars quota={q} />}
        />
        <PolicyColumn
          title="Limit ranges" what="limit ranges" list={limitRanges} items={limitItems} kind="LimitRange" testId="namespace-limit-range"
          empty={<p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-limit-ranges">No LimitRange: containers get no default requests or limits.</p>}
          render={(lr) => <LimitRangeTable limitRange={lr} />}
        />
      </div>
    </section>
  );
}

/** One kind of namespace policy: each object linked, with its own summary below the link. */
function PolicyColumn({ title, what, list, items, kind, testId, empty, render }: {
  title: string;
  what: string;
  list: ResourceListResult | undefined;
  items: KubeObject[];
  kind: string;
  testId: string;
  empty: ReactNode;
  render: (obj: KubeObject) => ReactNode;
}) {
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold">{title}</h3>
      <ListNote list={list} what={what} />
      {list?.data && items.length === 0 && empty}
      <ul className="space-y-3">
        {items.map((o) => (
          <li key={o.metadata.name} className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800" data-testid={testId} data-name={o.metadata.name}>
            <p className="mb-1 text-sm font-medium">
              <ObjectLink kind={kind} namespace={o.metadata.namespace} name={o.metadata.name ?? ""} />
            </p>
            {render(o)}
          </li>
        ))}
      </ul>
    </div>
  );
}

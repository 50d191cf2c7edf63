"use client";
// What is wrong with the object, at the top of its page: its conditions that report trouble and its Warning
// Events (object-problems.ts). Nothing is shown for an object without either; every Event, Normal ones too,
// stays in the Events panel below.
import { useMemo } from "react";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { humanDuration } from "@/lib/kinds/columns";
import { eventLastSeen } from "@/lib/client/event-time";
import { useObjectEvents } from "./events-panel";
import { troubleConditions, warningEvents } from "./object-problems";

/** Warning Events listed at the top; the rest are in the Events panel. */
const SHOWN = 5;

export function ProblemsPanel({ kind, obj, now }: { kind: AnyKind; obj: KubeObject; now: number }) {
  const events = useObjectEvents(kind.kind, kind.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name ?? "");
  const warnings = useMemo(() => warningEvents(events.data?.items.values() ?? []), [events.data]);
  const conditions = troubleConditions(obj);
  if (warnings.length === 0 && conditions.length === 0) return null;
  const ago = (ms: number) => (Number.isFinite(ms) ? ` (${humanDuration(Math.max(0, now - ms))} ago)` : "");
  return (
    <section aria-label="Problems" data-testid="object-problems" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <h2 className="mb-1 text-sm font-semibold uppercase tracking-wide text-amber-900 dark:text-amber-200">Problems</h2>
      <ul className="space-y-1">
        {conditions.map((c) => (
          <li key={`condition-${c.type}`} data-testid="problem-condition" data-type={c.type} className="break-words">
            <span className="font-medium">{c.type}</span> is {c.status ?? "not reported"}
            {c.reason && (
              <>
                : <span className="font-medium text-amber-900 dark:text-amber-200">{c.reason}</span>
              </>
            )}
            {c.message && <span className="text-slate-700 dark:text-slate-300"> — {c.message}</span>}
            <span className="text-slate-600 dark:text-slate-400">{ago(c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN)}</span>
          </li>
        ))}
        {warnings.slice(0, SHOWN).map((e) => {
          const ev = e as KubeObject & { reason?: string; message?: string; count?: number; series?: { count?: number } };
          const count = ev.series?.count ?? ev.count ?? 1;
          return (
            <li key={`event-${e.metadata.name}`} data-testid="problem-event" className="break-words">
              Warning <span className="font-medium text-amber-900 dark:text-amber-200">{ev.reason}</span>
              {ev.message && <span className="text-slate-700 dark:text-slate-300">: {ev.message.trim()}</span>}
              <span className="text-slate-600 dark:text-slate-400">
                {count > 1 ? ` ${count}×` : ""}
                {ago(eventLastSeen(e))}
              </span>
            </li>
          );
        })}
      </ul>
      {warnings.length > SHOWN && <p className="mt-1 text-slate-700 dark:text-slate-300">{warnings.length - SHOWN} more Warning events in Events below.</p>}
    </section>
  );
}

"use client";
// The object's Events, live: a watch with an involvedObject field selector, newest first.
import { useMemo } from "react";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { useResourceList } from "@/lib/client/use-resource-list";
import { LiveIndicator } from "../resource-table/live-indicator";
import { Section } from "./section";

const eventKind = kindByPlural("events");

export function eventTime(e: KubeObject): number {
  const ev = e as KubeObject & { lastTimestamp?: string; eventTime?: string; firstTimestamp?: string; series?: { lastObservedTime?: string } };
  const t = ev.series?.lastObservedTime || ev.lastTimestamp || ev.eventTime || ev.firstTimestamp || e.metadata.creationTimestamp;
  return t ? Date.parse(t) || 0 : 0;
}

export function EventRows({ events, now, showObject }: { events: KubeObject[]; now: number; showObject?: boolean }) {
  const columns = eventKind?.columns.filter((c) => c.priority === 0 && (showObject || c.name !== "Object")) ?? [];
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
        <tr>
          {columns.map((c) => (
            <th key={c.name} scope="col" className={`py-1 pr-3 ${c.name === "Message" ? "w-1/2" : ""}`}>
              {c.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={`${e.metadata.namespace}/${e.metadata.name}`} className={`border-t border-slate-100 dark:border-slate-800 ${(e as { type?: string }).type === "Warning" ? "text-amber-900 dark:text-amber-200" : ""}`}>
            {columns.map((c) => (
              <td key={c.name} className="truncate py-1 pr-3" title={String(c.cell(e, now))}>
                {String(c.cell(e, now))}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EventsPanel({ kindName, namespace, name, now }: { kindName: string; namespace?: string; name: string; now: number }) {
  const list = useResourceList(eventKind, { namespace, fieldSelector: `involvedObject.kind=${kindName},involvedObject.name=${name}` });
  const events = useMemo(() => [...(list.data?.items.values() ?? [])].sort((a, b) => eventTime(b) - eventTime(a)), [list.data]);
  return (
    <Section title="Events" testId="object-events">
      <div className="mb-1">
        <LiveIndicator status={list.status} detail={list.statusDetail} />
      </div>
      {list.error ? (
        <p className="text-sm text-red-800 dark:text-red-300">Could not load events: {list.error.message}</p>
      ) : !list.data ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Loading events…</p>
      ) : events.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No events for this object. New ones appear here as they happen.</p>
      ) : (
        <EventRows events={events} now={now} />
      )}
    </Section>
  );
}

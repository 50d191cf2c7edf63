"use client";
// The object's Events, live: a watch with an involvedObject field selector, newest first.
import Link from "next/link";
import { useMemo } from "react";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { involvedObjectHref } from "@/lib/client/list-rows";
import { useResourceList } from "@/lib/client/use-resource-list";
import { LiveIndicator } from "../resource-table/live-indicator";
import { StatusBadge } from "../ui/status-badge";
import { Section } from "./section";

const eventKind = kindByPlural("events");

export function eventTime(e: KubeObject): number {
  const ev = e as KubeObject & { lastTimestamp?: string; eventTime?: string; firstTimestamp?: string; series?: { lastObservedTime?: string } };
  const t = ev.series?.lastObservedTime || ev.lastTimestamp || ev.eventTime || ev.firstTimestamp || e.metadata.creationTimestamp;
  return t ? Date.parse(t) || 0 : 0;
}

interface EventFields {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  series?: { count?: number };
  involvedObject?: { namespace?: string };
}

/** "3m ago"; kubectl's `<unknown>` stays as it is. */
const when = (age: string) => (age && !age.startsWith("<") ? `${age} ago` : age);

const cellOf = (name: string) => eventKind?.columns.find((c) => c.name === name);

/**
 * Events as a list, newest first as given: type, the whole reason and (`showObject`) the object as `kind/name`
 * linked to its page, when, then the message on its own line. Nothing is cut: reasons and names wrap, so a
 * narrow panel or a phone shows them whole.
 */
export function EventRows({ events, now, showObject }: { events: KubeObject[]; now: number; showObject?: boolean }) {
  const lastSeen = cellOf("Last Seen");
  const object = cellOf("Object");
  const subobject = cellOf("Subobject");
  return (
    <ul className="text-sm" data-testid="event-list">
      {events.map((e) => {
        const ev = e as KubeObject & EventFields;
        const warning = ev.type === "Warning";
        const href = showObject ? involvedObjectHref(e) : undefined;
        const target = String(object?.cell(e, now) ?? "");
        const part = String(subobject?.cell(e, now) ?? "");
        const count = ev.series?.count ?? ev.count ?? 1;
        const namespace = ev.involvedObject?.namespace || e.metadata.namespace;
        return (
          <li key={`${e.metadata.namespace}/${e.metadata.name}`} className="border-t border-slate-100 py-1.5 first:border-t-0 dark:border-slate-800" data-testid="event" data-name={e.metadata.name} data-type={ev.type}>
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
              <StatusBadge tone={warning ? "warning" : "neutral"}>{ev.type || "Normal"}</StatusBadge>
              <span className={`min-w-0 break-words font-medium ${warning ? "text-amber-900 dark:text-amber-200" : ""}`} data-testid="event-reason">
                {ev.reason}
              </span>
              {showObject && target && (
                <span className="min-w-0 break-all font-mono text-xs" data-testid="event-object" title={namespace ? `in namespace ${namespace}` : undefined}>
                  {href ? (
                    <Link className="text-blue-800 hover:underline dark:text-blue-300" href={href} prefetch={false}>
                      {target}
                    </Link>
                  ) : (
                    target
                  )}
                </span>
              )}
              {part && <span className="min-w-0 break-all font-mono text-xs text-slate-600 dark:text-slate-400">{part}</span>}
              <span className="ml-auto whitespace-nowrap text-xs text-slate-600 dark:text-slate-400">
                {count > 1 ? `${count}× · ` : ""}
                {when(String(lastSeen?.cell(e, now) ?? ""))}
              </span>
            </div>
            {ev.message && <p className="break-words text-slate-700 dark:text-slate-300">{ev.message.trim()}</p>}
          </li>
        );
      })}
    </ul>
  );
}

/** One object's Events, live (one watch, shared by every part of its page that asks). */
export function useObjectEvents(kindName: string, namespace: string | undefined, name: string) {
  return useResourceList(eventKind, { namespace, fieldSelector: `involvedObject.kind=${kindName},involvedObject.name=${name}` });
}

export function EventsPanel({ kindName, namespace, name, now }: { kindName: string; namespace?: string; name: string; now: number }) {
  const list = useObjectEvents(kindName, namespace, name);
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

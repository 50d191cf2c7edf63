// How a revision is named everywhere in the history views: its type, when (relative, exact time as tooltip),
// who (the user who made it, or the server itself) and its resourceVersion.
import type { Revision } from "./history-client";

export function age(time: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(time)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

export const who = (r: Revision) => r.user?.username ?? "the server";

const typeClass: Record<Revision["type"], string> = {
  ADDED: "bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-50",
  MODIFIED: "bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-50",
  DELETED: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-50",
};
const typeText: Record<Revision["type"], string> = { ADDED: "Created", MODIFIED: "Modified", DELETED: "Deleted" };

export function TypeBadge({ type }: { type: Revision["type"] }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${typeClass[type]}`}>{typeText[type]}</span>;
}

export function When({ time, now }: { time: string; now: number }) {
  return (
    <time dateTime={time} title={new Date(time).toLocaleString()} className="text-xs text-slate-700 dark:text-slate-300">
      {age(time, now)}
    </time>
  );
}

/** A one-line name for a revision (select options, dialog titles). */
export const revisionText = (r: Revision, now: number) => `rv ${r.resourceVersion} · ${typeText[r.type].toLowerCase()} ${age(r.time, now)} by ${who(r)}`;

"use client";
// "Changes in the last hour" of a namespace, replayed from the history (lib/history's namespace changes):
// every write of the kinds the user may list, newest first, who made it, and what it changed (the diff
// against the object's previous revision, on demand), and a replay of the hour step by step
// (namespace-replay.tsx). The namespace page's one feed of changes, live: a change a live list of the page
// sees (its watches, through tapWatchEvents; Secrets come masked) is listed at once, by its resourceVersion,
// with "who" to follow, and the history is read again to say who made it; every few seconds too, for kinds no
// list watches. It scrolls with the page, not in a box of its own.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { tapWatchEvents } from "@/lib/client/use-resource-list";
import { objectHref } from "@/lib/client/console-routes";
import type { KubeObject } from "@/lib/kinds";
import { consoleKind, consoleKindOfResource } from "@/lib/client/console-kinds";
import { watchEventTime } from "../namespace-view/watch-event-time";
import { isForbidden } from "../ui/forbidden";
import { useNow } from "../ui/use-now";
import { fetchChanges, fetchObjectHistory, type Revision } from "./history-client";
import { NamespaceReplay } from "./namespace-replay";
import { comparable } from "./object-history";
import { TypeBadge, When, who } from "./revision-label";
import { TextDiff } from "./text-diff";

const HOUR = 3600;
/** Watch events arriving together (a burst of writes) read the history once. */
const SETTLE_MS = 150;

/**
 * A change seen by a watch (`seenAt`, ms), listed until the history read after it arrived answers: with its
 * revision (and who made it) in it, or without (then the history is the word: nothing is listed twice).
 */
type Seen = Revision & { seenAt: number };

const waitsForHistory = (r: Seen, historyAt: number) => historyAt < r.seenAt + SETTLE_MS;

const newestFirst = (a: Revision, b: Revision) => Number(b.resourceVersion) - Number(a.resourceVersion);

function ChangeDiff({ change }: { change: Revision }) {
  const kind = consoleKindOfResource(change.resource ?? "", change.group)!;
  const meta = change.object.metadata;
  const history = useQuery({
    queryKey: ["object-history", kind.plural, meta.namespace ?? "", meta.name, "before", change.resourceVersion],
    queryFn: () => fetchObjectHistory(kind, meta.namespace, meta.name ?? ""),
    retry: false,
  });
  if (history.error) return <p className="text-xs text-red-800 dark:text-red-300">{(history.error as Error).message}</p>;
  if (!history.data) return <p className="text-xs">Loading…</p>;
  const items = history.data.items;
  const at = items.findIndex((r) => r.resourceVersion === change.resourceVersion);
  const before = at >= 0 ? items[at + 1] : undefined;
  return <TextDiff before={change.type === "ADDED" ? "" : comparable(before?.object)} after={change.type === "DELETED" ? "" : comparable(change.object)}
    label={`What resourceVersion ${change.resourceVersion} changed`} testId="change-diff" />;
}

export function NamespaceChanges({ namespace }: { namespace: string }) {
  const now = useNow(5_000);
  const changes = useQuery({ queryKey: ["namespace-changes", namespace], queryFn: () => fetchChanges(namespace, HOUR), refetchInterval: 5_000, retry: false });
  const queryClient = useQueryClient();
  const [seen, setSeen] = useState<Seen[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const untap = tapWatchEvents((plural, events) => {
      const kind = consoleKind(plural);
      const arrived = Date.now();
      const fresh: Seen[] = [];
      for (const e of events) {
        if (e.type !== "ADDED" && e.type !== "MODIFIED" && e.type !== "DELETED") continue;
        const obj = e.object as KubeObject | undefined;
        const rv = obj?.metadata?.resourceVersion;
        if (!kind || !obj || obj.metadata?.namespace !== namespace || !rv) continue;
        fresh.push({ seenAt: arrived, resourceVersion: rv, type: e.type, time: new Date(watchEventTime(e, arrived)).toISOString(), resource: kind.plural, group: kind.group ?? "", object: obj });
      }
      if (fresh.length === 0) return;
      setSeen((prev) => [...fresh, ...prev]);
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: ["namespace-changes", namespace] });
      }, SETTLE_MS);
    });
    return () => {
      untap();
      if (timer) clearTimeout(timer);
    };
  }, [namespace, queryClient]);
  const [open, setOpen] = useState<string | undefined>();
  const [replaying, setReplaying] = useState(false);
  // Once the history read after them has answered, the changes seen by the watches are dropped.
  const historyAt = changes.dataUpdatedAt;
  useEffect(() => {
    setSeen((prev) => (prev.some((r) => !waitsForHistory(r, historyAt)) ? prev.filter((r) => waitsForHistory(r, historyAt)) : prev));
  }, [historyAt]);
  if (isForbidden(changes.error)) return null;
  const items = changes.data?.items ?? [];
  const stored = new Set(items.map((r) => r.resourceVersion));
  const waiting = seen.filter((r) => !stored.has(r.resourceVersion) && waitsForHistory(r, historyAt));
  const shown: (Revision | Seen)[] = waiting.length ? [...waiting, ...items].sort(newestFirst) : items;
  return (
    <section aria-labelledby="ns-changes-title" className="border-t border-slate-200 px-6 py-3 dark:border-slate-800" data-testid="namespace-changes">
      <div className="mb-2 flex items-center gap-3">
        <h2 id="ns-changes-title" className="text-sm font-semibold">
          Changes in the last hour <span className="font-normal text-slate-700 dark:text-slate-300">({shown.length})</span>
        </h2>
        {items.length > 0 && (
          <button type="button" className="text-xs text-blue-800 underline dark:text-blue-300" aria-expanded={replaying}
            onClick={() => setReplaying(!replaying)} data-testid="replay-toggle">
            {replaying ? "Close the replay" : "Replay the hour"}
          </button>
        )}
      </div>
      {replaying && items.length > 0 && <NamespaceReplay namespace={namespace} changes={items} now={now} renderDiff={(c) => <ChangeDiff change={c} />} />}
      {changes.error ? (
        <p className="text-sm text-red-800 dark:text-red-300">{(changes.error as Error).message}</p>
      ) : !changes.data ? (
        <p className="text-sm">Loading…</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">Nothing changed in the last hour.</p>
      ) : (
        <ol className="space-y-1" data-testid="namespace-changes-list">
          {shown.map((c) => {
            const pending = "seenAt" in c;
            const kind = consoleKindOfResource(c.resource ?? "", c.group);
            const name = c.object.metadata.name ?? "";
            const id = c.resourceVersion;
            return (
              <li key={id} className="rounded-md border border-slate-200 px-2 py-1 text-sm dark:border-slate-700" data-testid="namespace-change" data-rv={id} data-name={name}>
                <div className="flex flex-wrap items-center gap-2">
                  <When time={c.time} now={now} />
                  <TypeBadge type={c.type} />
                  <span>{kind?.kind ?? c.resource}</span>
                  {kind && c.type !== "DELETED" ? (
                    <Link className="font-mono text-blue-800 hover:underline dark:text-blue-300" href={`${objectHref(kind, namespace, name)}?tab=history`}>{name}</Link>
                  ) : (
                    <span className="font-mono">{name}</span>
                  )}
                  {pending ? (
                    <span className="text-slate-700 dark:text-slate-300">by …</span>
                  ) : (
                    <>
                      <span>by <span className="font-medium">{who(c)}</span></span>
                      <button type="button" className="ml-auto text-xs text-blue-800 underline dark:text-blue-300" aria-expanded={open === id}
                        onClick={() => setOpen(open === id ? undefined : id)} data-testid="change-toggle">
                        {open === id ? "Hide changes" : "Show changes"}
                      </button>
                    </>
                  )}
                </div>
                {open === id && kind && !pending && <div className="mt-1"><ChangeDiff change={c} /></div>}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

"use client";
// Everything in one namespace (or, on the overview, in the whole cluster) as it happens: a live count per
// kind, a namespace's quotas and limit ranges, the newest changes across kinds (each with its own age, read
// from the object: watch-event-time.ts; heartbeats such as Lease renewals left out: heartbeats.ts), pods
// counted by state with the problems first (pod-state-counts.ts), and the Events. One live list per kind; over HTTP/2
// every watch streams at once on one connection, and the watch scheduler shares connections fairly when the
// browser is limited to HTTP/1.1.
// Kinds the user may not list show "—" with kube's message as the tooltip and do not count against the
// live status.
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { listHref, namespaceHref, objectHref } from "@/lib/client/console-routes";
import { kindTitle, navigationGroups } from "@/lib/client/navigation";
import { tapWatchEvents, useResourceList, type ResourceListResult } from "@/lib/client/use-resource-list";
import type { WatchEvent } from "@/lib/client/apply-watch-event";
import { watchEventTime } from "./watch-event-time";
import { withoutHeartbeats } from "./heartbeats";
import { podStateCounts } from "./pod-state-counts";
import { kindByPlural, kinds, type AnyKind, type KubeObject } from "@/lib/kinds";
import { consoleKind } from "@/lib/client/console-kinds";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { isCustomKind, kindSegment } from "@/lib/client/custom-kinds";
import { humanDuration } from "@/lib/kinds/columns";
import { EventRows, eventTime } from "../resource-details/events-panel";
import { LiveIndicator } from "../resource-table/live-indicator";
import { ReachableNamespaces, useLandInReachableNamespace } from "../layout/reachable-namespaces";
import { Button } from "../ui/button";
import { toneText } from "../ui/status-badge";
import { isForbidden } from "../ui/forbidden";
import { useNow } from "../ui/use-now";
import { QuotaPanel } from "./quota-panel";

interface Change {
  id: number;
  at: number;
  type: string;
  kind: AnyKind;
  namespace?: string;
  name: string;
}

const MAX_CHANGES = 50;
let changeIds = 0;

function useLists(viewKinds: AnyKind[], namespace: string | undefined): Map<string, ResourceListResult> {
  const out = new Map<string, ResourceListResult>();
  // The kind list is fixed for the page's lifetime, so the hook order is stable.
  for (const kind of viewKinds) {
    // eslint-disable-next-line react-hooks/rules-of-hooks
    out.set(kind.plural, useResourceList(kind, { namespace }));
  }
  return out;
}

/**
 * `embedded`: inside the namespace page, under the Namespace object's own title, which scrolls it together
 * with the namespace's history of changes: that history is then the one feed of changes (live, with who made
 * each), so this view shows no "Newest changes" of its own and does not scroll by itself.
 */
export function NamespaceLiveView({ namespace, embedded }: { namespace?: string; embedded?: boolean }) {
  const viewKinds = useMemo(() => (namespace ? kinds.filter((k) => k.namespaced) : kinds), [namespace]);
  const lists = useLists(viewKinds, namespace);
  // Custom kinds come and go while the page is open: each has its own tile (its own list hook).
  const allKinds = useConsoleKinds();
  const customKinds = useMemo(() => allKinds.filter((k) => isCustomKind(k) && (!namespace || k.namespaced)), [allKinds, namespace]);
  const customSegments = useMemo(() => new Set(customKinds.map(kindSegment)), [customKinds]);
  const now = useNow(1_000);
  const [changes, setChanges] = useState<Change[]>([]);
  const [paused, setPaused] = useState(false);

  useEffect(
    () =>
      tapWatchEvents((plural, events: readonly WatchEvent[], before) => {
        const kind = consoleKind(plural);
        if (embedded || !kind || !(viewKinds.includes(kind) || customSegments.has(plural)) || paused) return;
        const fresh: Change[] = [];
        const arrived = Date.now();
        for (const e of withoutHeartbeats(kind, events, before)) {
          if (e.type === "BOOKMARK" || e.type === "ERROR") continue;
          const obj = e.object as KubeObject;
          if (namespace && obj.metadata?.namespace !== namespace) continue;
          fresh.push({ id: ++changeIds, at: watchEventTime(e, arrived), type: e.type, kind, namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? "" });
        }
        if (fresh.length) setChanges((prev) => [...fresh.reverse(), ...prev].slice(0, MAX_CHANGES));
      }),
    [viewKinds, customSegments, namespace, paused, embedded],
  );

  const podList = lists.get("pods");
  const podStates = useMemo(() => (podList?.data ? podStateCounts(podList.data.items.values(), Date.now()) : undefined), [podList?.data]);
  const eventList = lists.get("events");
  const events = useMemo(() => [...(eventList?.data?.items.values() ?? [])].sort((a, b) => eventTime(b) - eventTime(a)).slice(0, 50), [eventList?.data]);
  const readable = [...lists.values()].filter((l) => !isForbidden(l.error));
  const statuses = readable.map((l) => l.status);
  const allForbidden = lists.size > 0 && readable.length === 0;
  const overall = statuses.includes("error") ? "error" : statuses.some((s) => s === "reconnecting" || s === "relisting") ? "reconnecting" : statuses.every((s) => s === "live") ? "live" : "connecting";
  const groups = navigationGroups(allKinds).map((g) => ({ ...g, kinds: g.kinds.filter((k) => viewKinds.includes(k) || customKinds.includes(k)) })).filter((g) => g.kinds.length);
  // All namespaces shows nothing to a user bound only inside namespaces: open the first one they reach.
  useLandInReachableNamespace(allForbidden && !namespace && !embedded, (ns) => namespaceHref(ns));

  return (
    <div className={embedded ? "px-6 py-4" : "min-h-0 flex-1 overflow-y-auto px-6 py-4"}>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        {embedded ? (
          <h2 className="text-base font-semibold">Everything in this namespace, live</h2>
        ) : (
          <>
            <h1 className="text-lg font-semibold">{namespace ? `Namespace ${namespace}` : "Cluster overview"}</h1>
            <span className="text-sm text-slate-600 dark:text-slate-400">{namespace ? "everything in this namespace, live" : "all namespaces, live"}</span>
          </>
        )}
        <LiveIndicator status={overall} paused={paused} />
        {!embedded && (
          <Button className="ml-auto" aria-pressed={paused} onClick={() => setPaused(!paused)}>
            {paused ? "Resume feed" : "Pause feed"}
          </Button>
        )}
      </div>

      {allForbidden && (
        <div className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="overview-forbidden">
          <p role="status">
            Your roles do not let you list anything {namespace ? `in namespace ${namespace}` : "across all namespaces"}.{" "}
            {namespace ? "Pick another namespace" : "Pick a namespace"} with the switcher at the top (or type one you were given).
          </p>
          <ReachableNamespaces current={namespace} />
        </div>
      )}
      {podStates && podStates.length > 0 && (
        <section aria-label="Pods by state" className="mb-6 text-sm" data-testid="pod-states">
          <h2 className="inline font-semibold">Pods {podList!.data!.items.size}:</h2>{" "}
          {podStates.map((s, i) => (
            <span key={s.label}>
              {i > 0 && ", "}
              <Link
                href={`${listHref(kindByPlural("pods")!, namespace)}?q=${encodeURIComponent(s.state)}`}
                className={`font-medium underline-offset-2 hover:underline ${toneText[s.tone]}`}
                data-testid="pod-state"
                data-state={s.state}
                data-tone={s.tone}
              >
                {s.count} {s.label}
              </Link>
            </span>
          ))}
        </section>
      )}

      <section aria-label="Counts per kind" className="mb-6 grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3" data-testid="kind-counts">
        {groups.flatMap((g) =>
          g.kinds.map((kind) => {
            const list = isCustomKind(kind) ? undefined : lists.get(kind.plural);
            return list ? <CountTile key={kindSegment(kind)} kind={kind} list={list} namespace={namespace} /> : <CustomCountTile key={kindSegment(kind)} kind={kind} namespace={namespace} />;
          }),
        )}
      </section>

      {namespace && <QuotaPanel quotas={lists.get("resourcequotas")} limitRanges={lists.get("limitranges")} />}

      <div className={embedded ? "" : "grid gap-6 lg:grid-cols-2"}>
        {!embedded && <section aria-label="Newest changes" data-testid="recent-changes">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Newest changes</h2>
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">Heartbeats (a Lease renewed, an Event seen again) are left out.</p>
          {changes.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No changes since this page opened. Creates, updates and deletes appear here as they happen.</p>
          ) : (
            <ol className="space-y-0.5 text-sm">
              {changes.map((c) => (
                <li key={c.id} className="flex gap-2" data-testid="change" data-kind={c.kind.kind} data-name={c.name}>
                  <time dateTime={new Date(c.at).toISOString()} title={new Date(c.at).toLocaleString()} className="tabular w-12 shrink-0 text-slate-600 dark:text-slate-400">
                    {humanDuration(Math.max(0, now - c.at))}
                  </time>
                  <span className={`w-20 shrink-0 font-mono text-xs leading-5 ${c.type === "DELETED" ? "text-red-700 dark:text-red-300" : c.type === "ADDED" ? "text-green-700 dark:text-green-300" : "text-slate-700 dark:text-slate-300"}`}>
                    {c.type}
                  </span>
                  <span className="truncate">
                    {c.kind.kind}{" "}
                    {c.type === "DELETED" ? (
                      `${c.namespace && !namespace ? `${c.namespace}/` : ""}${c.name}`
                    ) : (
                      <Link className="text-blue-800 hover:underline dark:text-blue-300" href={objectHref(c.kind, c.namespace, c.name)}>
                        {c.namespace && !namespace ? `${c.namespace}/` : ""}
                        {c.name}
                      </Link>
                    )}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>}
        <section aria-label="Events" data-testid="namespace-events">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Events</h2>
          {eventList?.error && !eventList.data ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">Events are not shown: {eventList.error.message}</p>
          ) : !eventList?.data ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">Loading events…</p>
          ) : events.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No events yet.</p>
          ) : (
            <EventRows events={events} now={now} showObject />
          )}
        </section>
      </div>
    </div>
  );
}

function CountTile({ kind, list, namespace }: { kind: AnyKind; list: ResourceListResult; namespace?: string }) {
  const count = list.data?.items.size;
  return (
    <Link
      href={listHref(kind, namespace)}
      className="rounded-lg border border-slate-200 px-3 py-2 hover:border-blue-400 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-800 dark:hover:border-blue-700"
      data-testid={`count-${kindSegment(kind)}`}
    >
      <span className="block truncate text-xs text-slate-600 dark:text-slate-400" title={kindTitle(kind)}>
        {kindTitle(kind)}
      </span>
      <span className="tabular block h-8 text-2xl font-semibold" title={list.error?.message}>
        {isForbidden(list.error) ? (
          <>
            <span aria-hidden="true">—</span>
            <span className="sr-only">not allowed</span>
          </>
        ) : list.error ? "!" : count === undefined ? "…" : count}
      </span>
    </Link>
  );
}

/** A custom kind's tile: its own live list, so kinds can come and go without changing the page's hooks. */
function CustomCountTile({ kind, namespace }: { kind: AnyKind; namespace?: string }) {
  return <CountTile kind={kind} list={useResourceList(kind, { namespace })} namespace={namespace} />;
}

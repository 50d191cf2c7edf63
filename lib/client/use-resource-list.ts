"use client";
// A live list: React Query holds the listed objects; one watch per (kind, scope) — shared by every component
// that asks for the same list — folds events into that cache entry with setQueryData, batched once per
// animation frame, so a burst of events costs one render. No refetch per event; a 410 re-lists. Secrets are
// held masked (secret-mask.ts): their values never sit in the cache.
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { AnyKind, KubeObject } from "../kinds";
import { apiRequest } from "./api-client";
import { applyWatchEvents, type WatchEvent } from "./apply-watch-event";
import { listStateFromBody, type ListBody, type ListState } from "./list-state";
import { queryKeys } from "./query-keys";
import { kindSegment } from "./custom-kinds";
import { isSecretKind, maskedList, maskSecret } from "./secret-mask";
import { listUrl, watchUrl, type ListScope } from "./resource-path";
import { useHydrated } from "./use-hydrated";
import { startWatch, type WatchStatus } from "./watch-connection";

interface ActiveWatch {
  refs: number;
  /** Subscribers that did not ask for a background watch; while any remain the watch has normal priority. */
  normalRefs: number;
  epoch: number;
  stop: () => void;
  status: WatchStatus;
  detail?: string;
  buffer: WatchEvent[];
  scheduled: boolean;
  stopTimer?: ReturnType<typeof setTimeout>;
}

const active = new Map<string, ActiveWatch>();
// Status listeners live apart from the watch so a component can subscribe before its watch starts.
const listenersById = new Map<string, Set<() => void>>();

function notify(id: string) {
  for (const l of listenersById.get(id) ?? []) l();
}
const keyString = (key: readonly unknown[]) => JSON.stringify(key);

/** `before`: the list's objects as they stood before the batch (undefined if the list was not cached). */
export type WatchTap = (plural: string, events: readonly WatchEvent[], before: ReadonlyMap<string, KubeObject> | undefined) => void;
const taps = new Set<WatchTap>();

/**
 * Sees every batch of events any live list folds (the namespace view's "newest changes" feed), with the
 * objects as they were before it, so a tap can tell what an update changed.
 */
export function tapWatchEvents(tap: WatchTap): () => void {
  taps.add(tap);
  return () => taps.delete(tap);
}

function flush(client: QueryClient, key: readonly unknown[], watch: ActiveWatch) {
  watch.scheduled = false;
  const events = watch.buffer;
  if (events.length === 0) return;
  watch.buffer = [];
  const before = client.getQueryData<ListState>(key)?.items;
  client.setQueryData<ListState>(key, (state) => (state ? applyWatchEvents(state, events) : state));
  for (const tap of taps) tap(String(key[2]), events, before);
  // Read by bench/console.ts to know how many events the page has folded.
  (globalThis as { __clusterCoreFoldedEvents?: number }).__clusterCoreFoldedEvents =
    ((globalThis as { __clusterCoreFoldedEvents?: number }).__clusterCoreFoldedEvents ?? 0) + events.length;
}

function scheduleFlush(client: QueryClient, key: readonly unknown[], watch: ActiveWatch) {
  if (watch.scheduled) return;
  watch.scheduled = true;
  // Hidden tabs get no animation frames; a timer keeps the cache current for when the user comes back.
  if (typeof document !== "undefined" && !document.hidden && typeof requestAnimationFrame === "function") {
    requestAnimationFrame(() => flush(client, key, watch));
  } else {
    setTimeout(() => flush(client, key, watch), 250);
  }
}

function setStatus(id: string, watch: ActiveWatch, status: WatchStatus, detail?: string) {
  if (watch.status === status && watch.detail === detail) return;
  watch.status = status;
  watch.detail = detail;
  if (active.get(id) === watch) notify(id);
}

function ensureWatch(client: QueryClient, kind: AnyKind, scope: ListScope, key: readonly unknown[], state: ListState): ActiveWatch {
  const id = keyString(key);
  let watch = active.get(id);
  if (watch && watch.epoch === state.epoch) return watch;
  watch?.stop();
  const created: ActiveWatch = { refs: watch?.refs ?? 0, normalRefs: watch?.normalRefs ?? 0, epoch: state.epoch, stop: () => {}, status: "connecting", buffer: [], scheduled: false };
  active.set(id, created);
  created.stop = startWatch({
    url: (rv) => watchUrl(kind, scope, rv),
    resourceVersion: state.resourceVersion,
    priority: () => (created.normalRefs > 0 ? "normal" : "background"),
    onEvent: (event) => {
      created.buffer.push(isSecretKind(kind) && event.type !== "ERROR" && event.object ? { ...event, object: maskSecret(event.object as KubeObject) } : event);
      scheduleFlush(client, key, created);
    },
    onStatus: (status, detail) => setStatus(id, created, status, detail),
    onExpired: () => {
      flush(client, key, created);
      void client.refetchQueries({ queryKey: key, exact: true });
    },
  });
  notify(id);
  return created;
}

export interface ResourceListResult {
  data: ListState | undefined;
  error: Error | null;
  isLoading: boolean;
  status: WatchStatus;
  statusDetail?: string;
  refetch: () => void;
}

/**
 * Lists `kind` within `scope` and keeps the list live. `kind` undefined disables the list (e.g. unknown URL).
 * `background`: the watch gives way to other watches when connections are scarce (HTTP/1.1); its list is as
 * current as theirs, only its events may arrive later. A watch another view uses normally stays normal.
 */
export function useResourceList(kind: AnyKind | undefined, scope: ListScope, options: { enabled?: boolean; background?: boolean } = {}): ResourceListResult {
  const client = useQueryClient();
  const effectiveScope: ListScope = { ...scope, namespace: kind?.namespaced ? scope.namespace : undefined };
  const key = queryKeys.list(kind ? kindSegment(kind) : "", effectiveScope);
  const id = keyString(key);
  const enabled = !!kind && options.enabled !== false;
  const background = options.background === true;
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => listStateFromBody(maskedList(kind!, await apiRequest<ListBody>(listUrl(kind!, effectiveScope), { signal }))),
    enabled,
    // The watch keeps the entry current; comparing 10,000 objects after every fold would cost more than it saves.
    structuralSharing: false,
    staleTime: Infinity,
    gcTime: 30_000,
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && (error as { code?: number }).code !== 401 && (error as { code?: number }).code !== 403,
  });
  const epoch = query.data?.epoch;

  useEffect(() => {
    if (!enabled || !kind || !query.data) return;
    const watch = ensureWatch(client, kind, effectiveScope, key, query.data);
    watch.refs++;
    if (!background) watch.normalRefs++;
    if (watch.stopTimer) clearTimeout(watch.stopTimer);
    return () => {
      watch.refs--;
      if (!background) watch.normalRefs--;
      // A short grace period lets a view that re-mounts (navigation between tabs) keep its stream.
      if (watch.refs <= 0) {
        watch.stopTimer = setTimeout(() => {
          if (watch.refs > 0) return;
          watch.stop();
          if (active.get(id) === watch) active.delete(id);
        }, 2_000);
      }
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, epoch, enabled, background]);

  const watchState = useSyncExternalStore(
    (listener) => {
      let set = listenersById.get(id);
      if (!set) listenersById.set(id, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listenersById.delete(id);
      };
    },
    () => {
      const watch = active.get(id);
      return watch ? `${watch.status}\u0000${watch.detail ?? ""}` : "connecting\u0000";
    },
    () => "connecting\u0000",
  );
  const [status, detail] = watchState.split("\u0000") as [WatchStatus, string];
  // On the server and while hydrating, render what the server rendered (no data), whatever the cache holds.
  const hydrated = useHydrated();
  if (!hydrated) return { data: undefined, error: null, isLoading: enabled, status: "connecting", statusDetail: undefined, refetch: () => void query.refetch() };

  return {
    data: query.data,
    error: query.error,
    isLoading: query.isLoading,
    status: query.error ? "error" : query.isFetching && !query.data ? "connecting" : status,
    statusDetail: detail || undefined,
    refetch: () => void query.refetch(),
  };
}

// The watchers of the watch cache and the fan-out to them (kube's cacher dispatching to its cacheWatchers):
// a new watch starts from the current state, from the history after its revision, or from now; then every
// applied event goes to the watchers of its resource and to the in-process listeners (controllers). Periodic
// bookmarks, and one 2 s before a watch's end, keep clients' resume revisions fresh.
import { bookmarkFrame, CacheWatcher, lineOf, asBuffer, type CachedEvent } from "./cache-watcher";
import { timerWheel } from "../timer-wheel/timer-wheel";
import type { WatchSink, WatchSpec } from "./interfaces";
import type { LogEvent, StoredObject } from "./types";
import type { WatchCache } from "./watch-cache";

/** How long before a watch's end its last bookmark is sent (kube's watch cache: 2 s). */
const FINAL_BOOKMARK_LEAD_MS = 2000;

export class Broadcaster {
  private readonly watchers = new Map<string, Set<CacheWatcher>>();
  /** Called for every applied event, in revision order (controllers). */
  readonly listeners = new Set<(e: LogEvent) => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly cache: WatchCache, private readonly bookmarkIntervalMs: number) {}

  start(): void {
    this.timer = setInterval(() => this.sendBookmarks(), this.bookmarkIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.closeAll();
  }

  /** An event the cache applied, to every watcher of its resource and every listener. */
  dispatch(ev: CachedEvent): void {
    const set = this.watchers.get(ev.key.resource);
    if (set) for (const w of set) if (!w.deliver(ev)) this.closeWatcher(w);
    for (const l of this.listeners) l(ev);
  }

  /** Start a watch. Returns a function that stops it. */
  watch(spec: WatchSpec, sink: WatchSink): () => void {
    const cache = this.cache;
    const w = new CacheWatcher(spec, sink, cache.rev);
    if (spec.sinceRev !== undefined && spec.sinceRev < cache.historyStartRev) {
      const status = spec.expired(spec.sinceRev, cache.historyStartRev);
      sink.send(spec.framing ? spec.framing.frame("ERROR", status) : lineOf("ERROR", status));
      sink.close();
      return () => {};
    }
    if (spec.initialState) {
      // The state at this revision (references to the cache's objects, which are replaced, never changed).
      const initial = cache.list(spec.resource, { namespace: spec.namespace });
      const rev = cache.rev;
      const sent = this.sendInitial(w, initial, 0);
      if (sent < 0) { sink.close(); return () => {}; }
      if (sent < initial.length) {
        // The client is behind: the rest goes as it reads, and what happens meanwhile waits behind it.
        w.pending = [];
        this.register(w);
        void this.resumeInitial(w, initial, sent, rev);
        return () => this.closeWatcher(w);
      }
      if (spec.initialEventsEnd) sink.send(bookmarkFrame(spec, rev, true));
    } else if (spec.sinceRev !== undefined) {
      const history = cache.events;
      for (let i = cache.firstAfter(spec.sinceRev); i < history.length; i++) {
        const e = history[i];
        if (e.key.resource === spec.resource && !w.deliver(e)) this.closeWatcher(w);
        if (w.closed) return () => {};
      }
      if (spec.initialEventsEnd) sink.send(bookmarkFrame(spec, cache.rev, true));
    }
    w.lastRev = cache.rev;
    this.register(w);
    return () => this.closeWatcher(w);
  }

  /**
   * Initial events from `from` on until the sink asks to wait (returns where it stopped), all of them
   * (returns their count), or the sink refused one (-1).
   */
  private sendInitial(w: CacheWatcher, initial: readonly StoredObject[], from: number): number {
    const { spec, sink } = w;
    for (let i = from; i < initial.length; i++) {
      const o = initial[i];
      if (!spec.matchesAll && !spec.matches(o.object)) continue;
      if (i > from && sink.ready?.()) return i;
      const line = spec.encode ? asBuffer(spec.encode("ADDED", o.object, o.json))
        : spec.framing ? spec.framing.event("ADDED", o.object, o.json) : lineOf("ADDED", o.json);
      if (!sink.send(line)) return -1;
    }
    return initial.length;
  }

  /** The rest of a watch's initial events as its client reads them, then the events that waited meanwhile. */
  private async resumeInitial(w: CacheWatcher, initial: readonly StoredObject[], from: number, rev: number): Promise<void> {
    let next = from;
    while (next < initial.length) {
      await w.sink.ready?.();
      if (w.closed) return;
      next = this.sendInitial(w, initial, next);
      if (next < 0) { this.closeWatcher(w); return; }
    }
    if (w.spec.initialEventsEnd && !w.sink.send(bookmarkFrame(w.spec, rev, true))) { this.closeWatcher(w); return; }
    const waiting = w.pending ?? [];
    w.pending = undefined;
    for (const e of waiting) {
      if (!w.deliver(e)) { this.closeWatcher(w); return; }
    }
  }

  private register(w: CacheWatcher): void {
    const spec = w.spec;
    let set = this.watchers.get(spec.resource);
    if (!set) { set = new Set(); this.watchers.set(spec.resource, set); }
    set.add(w);
    if (spec.bookmarks && spec.endsAfterMs !== undefined && spec.endsAfterMs > FINAL_BOOKMARK_LEAD_MS) {
      w.finalBookmark = timerWheel.schedule(spec.endsAfterMs - FINAL_BOOKMARK_LEAD_MS, () => {
        if (!w.closed && !w.pending && !w.sink.send(bookmarkFrame(spec, this.cache.rev, false))) this.closeWatcher(w);
      });
    }
  }

  private closeWatcher(w: CacheWatcher): void {
    if (w.closed) return;
    w.closed = true;
    w.finalBookmark?.();
    this.watchers.get(w.spec.resource)?.delete(w);
    w.sink.close();
  }

  /** Watchers cannot be continued across a gap (the cache reloaded): their clients re-list. */
  closeAll(): void {
    for (const set of this.watchers.values()) for (const w of set) this.closeWatcher(w);
  }

  private sendBookmarks(): void {
    for (const set of this.watchers.values()) {
      for (const w of set) {
        // A watcher still writing its initial events has not reached this revision: no bookmark yet.
        if (w.spec.bookmarks && !w.pending && !w.sink.send(bookmarkFrame(w.spec, this.cache.rev, false))) this.closeWatcher(w);
      }
    }
  }

  count(): number {
    let watchers = 0;
    for (const s of this.watchers.values()) watchers += s.size;
    return watchers;
  }
}

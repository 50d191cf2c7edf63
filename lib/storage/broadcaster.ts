// The watchers of the watch cache and the fan-out to them (kube's cacher dispatching to its cacheWatchers):
// a new watch starts from the current state, from the history after its revision, or from now; then every
// applied event goes to the watchers of its resource and to the in-process listeners (controllers). Periodic
// bookmarks, and one 2 s before a watch's end, keep clients' resume revisions fresh.
import { bookmarkFrame, CacheWatcher, lineOf, asBuffer, type CachedEvent } from "./cache-watcher";
import type { WatchSink, WatchSpec } from "./interfaces";
import type { LogEvent } from "./types";
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
      for (const o of cache.list(spec.resource, { namespace: spec.namespace })) {
        if (!spec.matches(o.object)) continue;
        const line = spec.encode ? asBuffer(spec.encode("ADDED", o.object, o.json))
          : spec.framing ? spec.framing.event("ADDED", o.object, o.json) : lineOf("ADDED", o.json);
        if (!sink.send(line)) { sink.close(); return () => {}; }
      }
      if (spec.initialEventsEnd) sink.send(bookmarkFrame(spec, cache.rev, true));
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
    let set = this.watchers.get(spec.resource);
    if (!set) { set = new Set(); this.watchers.set(spec.resource, set); }
    set.add(w);
    if (spec.bookmarks && spec.endsAfterMs !== undefined && spec.endsAfterMs > FINAL_BOOKMARK_LEAD_MS) {
      w.finalBookmark = setTimeout(() => {
        if (!w.closed && !w.sink.send(bookmarkFrame(spec, this.cache.rev, false))) this.closeWatcher(w);
      }, spec.endsAfterMs - FINAL_BOOKMARK_LEAD_MS);
      w.finalBookmark.unref();
    }
    return () => this.closeWatcher(w);
  }

  private closeWatcher(w: CacheWatcher): void {
    if (w.closed) return;
    w.closed = true;
    clearTimeout(w.finalBookmark);
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
        if (w.spec.bookmarks && !w.sink.send(bookmarkFrame(w.spec, this.cache.rev, false))) this.closeWatcher(w);
      }
    }
  }

  count(): number {
    let watchers = 0;
    for (const s of this.watchers.values()) watchers += s.size;
    return watchers;
  }
}

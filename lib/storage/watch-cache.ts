// The in-memory picture of the store (kube-apiserver's watch cache, fed by the revision log the way kine's
// poller feeds etcd clients): every current object parsed and serialised once, the recent history of
// changes for resumable watches and consistent paginated lists, and the watchers. Events enter strictly in
// revision order: local commits hand theirs over directly, other processes' writes arrive by tailing the log
// (woken by PostgreSQL notifications, see notifier.ts; polled otherwise). At start the history of the whole
// compaction window is rebuilt from the log, so a process that starts late serves the same watches as its peers.
import type { KubeObject } from "../kinds/types";
import type { LogRow, RevisionLog } from "./revision-log";
import type { EventType, LogEvent, ObjectKey, StoredObject } from "./types";
import { objectKeyString } from "./types";

export interface WatchSink {
  /** Write one chunk; false when the consumer is too far behind (the watcher is then closed). */
  send(chunk: Buffer): boolean;
  close(): void;
}

export interface WatchSpec {
  resource: string;
  /** Only objects in this namespace; undefined for all namespaces / cluster-scoped kinds. */
  namespace?: string;
  matches: (obj: KubeObject) => boolean;
  /** Start after this revision; undefined = start now. */
  sinceRev?: number;
  /** Send synthetic ADDED events for the current state first. */
  initialState: boolean;
  /** After the initial state, send a bookmark marking its end (sendInitialEvents). */
  initialEventsEnd: boolean;
  /** Send periodic bookmarks (allowWatchBookmarks). */
  bookmarks: boolean;
  /**
   * When the watch ends (ms from its start; the client's timeoutSeconds): with bookmarks, one more is sent
   * 2 s before, as kube's watch cache does, so the client's next watch resumes from the newest revision.
   */
  endsAfterMs?: number;
  /** Serialised bookmark object at a revision (kind-specific; built by the caller). */
  bookmark: (rev: number, initialEventsEnd: boolean) => string;
  /**
   * Per-watcher encoding (e.g. Table rows for kubectl get -w). When absent, every watcher of an event
   * shares one serialisation.
   */
  encode?: (type: EventType, object: KubeObject, json: string) => string | Buffer;
  /**
   * Another wire format than JSON lines (protobuf frames, a metadata-only view, another group's apiVersion).
   * Watchers whose framing has the same id share one frame per event, as JSON watchers share one line.
   */
  framing?: WatchFraming;
  /** The 410 Status for a start revision older than the retained history. */
  expired: (requested: number, oldest: number) => string;
}

export interface WatchFraming {
  id: string;
  /** The frame of an ADDED/MODIFIED/DELETED event about `object` (`json`: its serialisation). */
  event(type: EventType, object: KubeObject, json: string): Buffer;
  /** A BOOKMARK frame (the bookmark object as JSON) or an ERROR frame (a Status as JSON). */
  frame(type: "BOOKMARK" | "ERROR", json: string): Buffer;
}

type Slot = "ADDED" | "MODIFIED" | "DELETED" | "DELETED_PREV";

interface Watcher {
  spec: WatchSpec;
  sink: WatchSink;
  lastRev: number;
  closed: boolean;
  /** The bookmark due 2 s before the watch's end. */
  finalBookmark?: NodeJS.Timeout;
}

/** How long before a watch's end its last bookmark is sent (kube's watch cache: 2 s). */
const FINAL_BOOKMARK_LEAD_MS = 2000;

interface CachedEvent extends LogEvent {
  at: number;
  lines?: Partial<Record<Slot, Buffer>>;
  /** Frames of the framings watchers asked for, by framing id. */
  frames?: Map<string, Partial<Record<Slot, Buffer>>>;
}

interface ResourceState {
  objects: Map<string, StoredObject>;
  sorted: string[] | null;
}

export class ExpiredError extends Error {
  constructor(readonly requested: number, readonly oldest: number) {
    super(`revision ${requested} is older than the retained history (${oldest})`);
  }
}

const lineOf = (type: string, json: string) => Buffer.from(`{"type":"${type}","object":${json}}\n`);
const asBuffer = (chunk: string | Buffer) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk);
const bookmarkFrame = (spec: WatchSpec, rev: number, end: boolean) =>
  spec.framing ? spec.framing.frame("BOOKMARK", spec.bookmark(rev, end)) : lineOf("BOOKMARK", spec.bookmark(rev, end));

export class WatchCache {
  rev = 0;
  /** History covers every event with revision > historyStartRev. */
  historyStartRev = 0;
  private readonly resources = new Map<string, ResourceState>();
  private history: CachedEvent[] = [];
  private readonly watchers = new Map<string, Set<Watcher>>();
  private pending = new Map<number, LogEvent>();
  private waiters: { rev: number; resolve: () => void }[] = [];
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private timers: NodeJS.Timeout[] = [];
  private lastPollAt = 0;
  /** The newest revision notified while a write batch was in flight (see wake). */
  private deferredWake = 0;
  /** Other processes' writes applied from the log, and how long after their commit (metrics). */
  readonly tailStats = { events: 0, lagSecondsSum: 0, lastLagSeconds: 0 };
  /** Observers of each tailed write's lag (seconds from its commit by another process), e.g. a histogram. */
  readonly tailObservers = new Set<(lagSeconds: number) => void>();
  /** Called for every applied event, in revision order (controllers). */
  readonly listeners = new Set<(e: LogEvent) => void>();
  private closed = false;

  constructor(
    private readonly log: RevisionLog,
    private readonly options: {
      windowMs: number;
      pollIntervalMs: number;
      maxHistory: number;
      bookmarkIntervalMs: number;
      /** True while something else (PostgreSQL notifications) wakes the tailer: polls then only every `notifiedPollMs`. */
      notified?: () => boolean;
      notifiedPollMs?: number;
    },
  ) {}

  async start(): Promise<void> {
    await this.resync();
    this.timers.push(setInterval(() => this.tick(), this.options.pollIntervalMs));
    this.timers.push(setInterval(() => this.trimHistory(), Math.min(this.options.windowMs, 10_000)));
    this.timers.push(setInterval(() => this.sendBookmarks(), this.options.bookmarkIntervalMs));
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const set of this.watchers.values()) for (const w of set) this.closeWatcher(w);
  }

  /** The polling fallback: every tick without notifications, a safety read now and then with them. */
  private tick(): void {
    if (this.options.notified?.() && Date.now() - this.lastPollAt < (this.options.notifiedPollMs ?? 2000)) return;
    void this.poll();
  }

  /**
   * Another process committed up to `rev` (a notification): read the log now unless we have it already. While
   * a write batch of this process is in flight, its answer brings what others committed before it (PostgreSQL,
   * see RevisionLog.pgAllocatingBatch): the read waits for that answer and happens only if still needed, so
   * replicas writing at once do not each read the log once more per batch of the other.
   */
  wake(rev: number): void {
    if (rev !== 0 && rev <= this.rev) return;
    if (rev !== 0 && this.log.writing) {
      this.deferredWake = Math.max(this.deferredWake, rev);
      return;
    }
    void this.poll();
  }

  /** Reload everything from the database (start-up, or after falling behind compaction). */
  private async resync(): Promise<void> {
    const snap = await this.log.loadSnapshot();
    this.resources.clear();
    for (const o of snap.objects) {
      this.state(o.key.resource).objects.set(objectKeyString(o.key), { key: o.key, rev: o.rev, json: o.json, object: JSON.parse(o.json), stale: o.stale });
    }
    this.rev = snap.rev;
    const { history, startRev } = this.historyFrom(snap.history, snap.bases, snap.historyStartRev);
    this.historyStartRev = startRev;
    this.history = history;
    if (this.history.length > this.options.maxHistory) this.dropHistory(this.history.length - this.options.maxHistory);
    this.pending.clear();
    // Watchers cannot be continued across a gap: close them so their clients re-list.
    for (const set of this.watchers.values()) for (const w of set) this.closeWatcher(w);
    this.wakeWaiters();
  }

  /**
   * The cached history from the log's entries (contiguous, ending at this.rev): each event with the state it
   * replaced, from the previous entry of its key or from `bases`. Where that state is unknown (a log compacted
   * before compaction kept each key's latest entry), the history starts after that event.
   */
  private historyFrom(rows: LogRow[], baseRows: LogRow[], startRev: number): { history: CachedEvent[]; startRev: number } {
    const id = (k: ObjectKey) => `${k.resource}\u0000${objectKeyString(k)}`;
    const bases = new Map(baseRows.map((b) => [id(b.key), b]));
    const state = new Map<string, StoredObject | null>();
    const events: CachedEvent[] = [];
    let start = startRev;
    for (const r of rows) {
      const k = id(r.key);
      let prev: StoredObject | undefined;
      if (state.has(k)) prev = state.get(k) ?? undefined;
      else if (r.type !== "ADDED") {
        const b = bases.get(k);
        if (b && b.type !== "DELETED") prev = { key: b.key, rev: b.rev, json: b.json, object: JSON.parse(b.json), stale: b.stale };
        else start = r.rev;
      }
      const current = this.get(r.key);
      const object = current && current.rev === r.rev ? current.object : JSON.parse(r.json);
      const ev: CachedEvent = { rev: r.rev, type: r.type, key: r.key, object, json: r.json, stale: r.stale, prev, at: r.createdAt ?? Date.now() };
      state.set(k, r.type === "DELETED" ? null : { key: r.key, rev: r.rev, object, json: r.json, stale: r.stale });
      events.push(ev);
    }
    const history = start === startRev ? events : events.filter((e) => e.rev > start);
    return { history, startRev: start };
  }

  private state(resource: string): ResourceState {
    let s = this.resources.get(resource);
    if (!s) { s = { objects: new Map(), sorted: null }; this.resources.set(resource, s); }
    return s;
  }

  /**
   * Local commits, in any order; applied strictly by revision. `tailed`: other processes' entries that came
   * back with the write (in revision order), applied as the tailer would.
   */
  offer(events: LogEvent[], tailed: LogRow[] = []): void {
    try {
      for (const r of tailed) {
        if (r.rev <= this.rev || this.pending.has(r.rev)) continue;
        this.pending.set(r.rev, { rev: r.rev, type: r.type, key: r.key, json: r.json, object: JSON.parse(r.json), stale: r.stale });
        this.recordTail(r);
      }
    } catch {
      // An entry that does not parse: the tailer's read deals with it.
    }
    for (const e of events) if (e.rev > this.rev) this.pending.set(e.rev, e);
    this.drain();
    const notified = this.deferredWake;
    this.deferredWake = 0;
    // A gap (another process wrote in between), or a notification of more than the write brought.
    if (this.pending.size || notified > this.rev) void this.poll();
  }

  private recordTail(r: LogRow): void {
    if (!r.createdAt) return;
    const lag = Math.max(0, Date.now() - r.createdAt) / 1000;
    this.tailStats.events++; this.tailStats.lagSecondsSum += lag; this.tailStats.lastLagSeconds = lag;
    for (const o of this.tailObservers) o(lag);
  }

  private drain(): void {
    let applied = false;
    for (let e = this.pending.get(this.rev + 1); e; e = this.pending.get(this.rev + 1)) {
      this.pending.delete(e.rev);
      this.apply(e);
      applied = true;
    }
    if (applied) this.wakeWaiters();
  }

  /** Read log rows after our revision (other processes' writes, or gaps in local hand-over). */
  poll(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.polling) { this.pollAgain = true; return this.polling; }
    this.lastPollAt = Date.now();
    this.polling = (async () => {
      try {
        do {
          this.pollAgain = false;
          for (;;) {
            const rows = await this.log.readAfter(this.rev, 1000);
            // A local commit may have been applied while the read was in flight (PostgreSQL reads do not wait for writes).
            while (rows.length && rows[0].rev <= this.rev) rows.shift();
            if (rows.length === 0) break;
            if (rows[0].rev !== this.rev + 1) {
              // The rows we needed were compacted away: start over from current state.
              await this.resync();
              break;
            }
            for (const r of rows) {
              if (r.rev !== this.rev + 1) break;
              const local = this.pending.get(r.rev);
              if (local) this.pending.delete(r.rev);
              else this.recordTail(r);
              this.apply(local ?? { rev: r.rev, type: r.type, key: r.key, json: r.json, object: JSON.parse(r.json), stale: r.stale });
            }
            this.drain();
            this.wakeWaiters();
            if (rows.length < 1000) break;
          }
        } while (this.pollAgain);
      } catch {
        // The database is briefly unavailable; the next tick retries.
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  private apply(e: LogEvent): void {
    const st = this.state(e.key.resource);
    const id = objectKeyString(e.key);
    const prev = st.objects.get(id);
    const ev: CachedEvent = { ...e, prev, at: Date.now() };
    if (e.type === "DELETED") {
      st.objects.delete(id);
      st.sorted = null;
    } else {
      if (!prev) st.sorted = null;
      st.objects.set(id, { key: e.key, rev: e.rev, object: e.object, json: e.json, stale: e.stale });
    }
    this.rev = e.rev;
    this.history.push(ev);
    if (this.history.length > this.options.maxHistory) this.dropHistory(this.history.length - this.options.maxHistory);
    const set = this.watchers.get(e.key.resource);
    if (set) for (const w of set) this.deliver(w, ev);
    for (const l of this.listeners) l(ev);
  }

  /** Every current object of every resource (controllers' start-up scan). */
  *allObjects(): IterableIterator<StoredObject> {
    for (const st of this.resources.values()) yield* st.objects.values();
  }

  private trimHistory(): void {
    const cutoff = Date.now() - this.options.windowMs;
    let n = 0;
    while (n < this.history.length && this.history[n].at < cutoff) n++;
    if (n) this.dropHistory(n);
  }

  private dropHistory(n: number): void {
    this.historyStartRev = this.history[n - 1].rev;
    this.history = this.history.slice(n);
  }

  /** Resolve once the cache has applied `rev` (polling the log for it if needed). */
  waitFor(rev: number, timeoutMs = 10_000): Promise<boolean> {
    if (this.rev >= rev) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiters = this.waiters.filter((w) => w !== waiter); resolve(false); }, timeoutMs);
      const waiter = { rev, resolve: () => { clearTimeout(timer); resolve(true); } };
      this.waiters.push(waiter);
      void this.poll();
    });
  }

  private wakeWaiters(): void {
    if (!this.waiters.length) return;
    const ready = this.waiters.filter((w) => w.rev <= this.rev);
    this.waiters = this.waiters.filter((w) => w.rev > this.rev);
    for (const w of ready) w.resolve();
  }

  /**
   * For consistent reads (resourceVersion unset): catch up with the store's latest revision first, so a write
   * acknowledged by another process on the same store is visible. Reading the counter is a few microseconds on
   * SQLite (a read-only connection) and one query on PostgreSQL, as kube-apiserver asks etcd for its revision.
   */
  async catchUp(): Promise<void> {
    const latest = await this.log.latestRevision();
    if (latest > this.rev) await this.waitFor(latest);
  }

  get(key: ObjectKey): StoredObject | undefined {
    return this.resources.get(key.resource)?.objects.get(objectKeyString(key));
  }

  /** Re-read one object from the log's tail (after a failed precondition, the cache may be behind). */
  async refresh(): Promise<void> {
    await this.poll();
  }

  private sortedKeys(resource: string): string[] {
    const st = this.state(resource);
    if (!st.sorted) st.sorted = [...st.objects.keys()].sort();
    return st.sorted;
  }

  /**
   * Objects of `resource` as they were at revision `atRev` (default: now), sorted by namespace/name,
   * restricted to `namespace` when given and to keys after `startAfter`. Throws ExpiredError when
   * `atRev` is older than the retained history.
   */
  list(resource: string, opts: { namespace?: string; atRev?: number; startAfter?: string } = {}): StoredObject[] {
    const out: StoredObject[] = [];
    this.scan(resource, opts, (o) => { out.push(o); return true; });
    return out;
  }

  /**
   * Visit the objects `list` would return, in order, until `visit` returns false. Returns how many objects of
   * the range (at `atRev`) were left unvisited, so a page of 500 costs 500 visits, not a copy of the range.
   */
  scan(resource: string, opts: { namespace?: string; atRev?: number; startAfter?: string }, visit: (o: StoredObject) => boolean): number {
    const atRev = opts.atRev ?? this.rev;
    if (atRev < this.historyStartRev) throw new ExpiredError(atRev, this.historyStartRev);
    const st = this.state(resource);
    const prefix = opts.namespace !== undefined ? `${opts.namespace}/` : "";
    let keys = this.sortedKeys(resource);
    let overrides: Map<string, StoredObject | null> | null = null;
    if (atRev < this.rev) {
      overrides = new Map();
      for (let i = this.firstAfter(atRev); i < this.history.length; i++) {
        const e = this.history[i];
        if (e.key.resource !== resource) continue;
        const id = objectKeyString(e.key);
        if (!overrides.has(id)) overrides.set(id, e.type === "ADDED" ? null : e.prev ?? null);
      }
      if (overrides.size) {
        const extra = [...overrides.keys()].filter((k) => !st.objects.has(k));
        if (extra.length) keys = [...keys, ...extra].sort();
      }
    }
    let i = opts.startAfter !== undefined ? upperBound(keys, opts.startAfter) : prefix ? lowerBound(keys, prefix) : 0;
    if (prefix && opts.startAfter !== undefined && opts.startAfter < prefix) i = lowerBound(keys, prefix);
    // "0" sorts right after "/": every key of the namespace lies before `${namespace}0`.
    const end = prefix ? lowerBound(keys, `${opts.namespace}0`) : keys.length;
    for (; i < end; i++) {
      const k = keys[i];
      const o = overrides?.has(k) ? overrides.get(k) : st.objects.get(k);
      if (o && !visit(o)) {
        let left = end - i - 1;
        // Keys created after `atRev` are in the range but not in the snapshot.
        if (overrides) for (const [ok, ov] of overrides) if (ov === null && ok > k && (!prefix || ok.startsWith(prefix))) left--;
        return left;
      }
    }
    return 0;
  }

  /** Index of the first history event with revision > rev. */
  private firstAfter(rev: number): number {
    let lo = 0, hi = this.history.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.history[mid].rev <= rev) lo = mid + 1; else hi = mid; }
    return lo;
  }

  /** Start a watch. Returns a function that stops it. */
  watch(spec: WatchSpec, sink: WatchSink): () => void {
    const w: Watcher = { spec, sink, lastRev: this.rev, closed: false };
    if (spec.sinceRev !== undefined && spec.sinceRev < this.historyStartRev) {
      const status = spec.expired(spec.sinceRev, this.historyStartRev);
      sink.send(spec.framing ? spec.framing.frame("ERROR", status) : lineOf("ERROR", status));
      sink.close();
      return () => {};
    }
    if (spec.initialState) {
      for (const o of this.list(spec.resource, { namespace: spec.namespace })) {
        if (!spec.matches(o.object)) continue;
        const line = spec.encode ? asBuffer(spec.encode("ADDED", o.object, o.json))
          : spec.framing ? spec.framing.event("ADDED", o.object, o.json) : lineOf("ADDED", o.json);
        if (!sink.send(line)) { sink.close(); return () => {}; }
      }
      if (spec.initialEventsEnd) sink.send(bookmarkFrame(spec, this.rev, true));
    } else if (spec.sinceRev !== undefined) {
      for (let i = this.firstAfter(spec.sinceRev); i < this.history.length; i++) {
        const e = this.history[i];
        if (e.key.resource === spec.resource) this.deliver(w, e);
        if (w.closed) return () => {};
      }
      if (spec.initialEventsEnd) sink.send(bookmarkFrame(spec, this.rev, true));
    }
    w.lastRev = this.rev;
    let set = this.watchers.get(spec.resource);
    if (!set) { set = new Set(); this.watchers.set(spec.resource, set); }
    set.add(w);
    if (spec.bookmarks && spec.endsAfterMs !== undefined && spec.endsAfterMs > FINAL_BOOKMARK_LEAD_MS) {
      w.finalBookmark = setTimeout(() => {
        if (!w.closed && !w.sink.send(bookmarkFrame(spec, this.rev, false))) this.closeWatcher(w);
      }, spec.endsAfterMs - FINAL_BOOKMARK_LEAD_MS);
      w.finalBookmark.unref();
    }
    return () => this.closeWatcher(w);
  }

  private closeWatcher(w: Watcher): void {
    if (w.closed) return;
    w.closed = true;
    clearTimeout(w.finalBookmark);
    this.watchers.get(w.spec.resource)?.delete(w);
    w.sink.close();
  }

  private deliver(w: Watcher, e: CachedEvent): void {
    const { spec } = w;
    if (spec.namespace !== undefined && e.key.namespace !== spec.namespace) return;
    if (spec.sinceRev !== undefined && e.rev <= spec.sinceRev) return;
    w.lastRev = e.rev;
    if (spec.framing) return this.deliverFramed(w, e, spec.framing);
    const lines = (e.lines ??= {});
    let line: Buffer | undefined;
    if (e.type === "DELETED") {
      if (spec.matches(e.object)) line = spec.encode ? asBuffer(spec.encode("DELETED", e.object, e.json)) : lines.DELETED ??= lineOf("DELETED", e.json);
    } else {
      const now = spec.matches(e.object);
      const before = e.type === "MODIFIED" && e.prev !== undefined && spec.matches(e.prev.object);
      if (now) {
        const t: EventType = before ? "MODIFIED" : "ADDED";
        line = spec.encode ? asBuffer(spec.encode(t, e.object, e.json)) : lines[t] ??= lineOf(t, e.json);
      } else if (before && e.prev) {
        // Stopped matching: DELETED with the last matching state at this event's revision.
        const gone = stoppedMatching(e);
        line = spec.encode ? asBuffer(spec.encode("DELETED", gone, JSON.stringify(gone))) : lines.DELETED_PREV ??= lineOf("DELETED", JSON.stringify(gone));
      }
    }
    if (line && !w.sink.send(line)) this.closeWatcher(w);
  }

  /** deliver() for a watcher with a framing: the same decisions, one frame per event and framing id. */
  private deliverFramed(w: Watcher, e: CachedEvent, framing: WatchFraming): void {
    const { spec } = w;
    let slots = e.frames?.get(framing.id);
    if (!slots) (e.frames ??= new Map()).set(framing.id, (slots = {}));
    let frame: Buffer | undefined;
    if (e.type === "DELETED") {
      if (spec.matches(e.object)) frame = slots.DELETED ??= framing.event("DELETED", e.object, e.json);
    } else {
      const now = spec.matches(e.object);
      const before = e.type === "MODIFIED" && e.prev !== undefined && spec.matches(e.prev.object);
      if (now) {
        const t: EventType = before ? "MODIFIED" : "ADDED";
        frame = slots[t] ??= framing.event(t, e.object, e.json);
      } else if (before && e.prev) {
        if (!slots.DELETED_PREV) {
          const gone = stoppedMatching(e);
          slots.DELETED_PREV = framing.event("DELETED", gone, JSON.stringify(gone));
        }
        frame = slots.DELETED_PREV;
      }
    }
    if (frame && !w.sink.send(frame)) this.closeWatcher(w);
  }

  private sendBookmarks(): void {
    for (const set of this.watchers.values()) {
      for (const w of set) {
        if (w.spec.bookmarks && !w.sink.send(bookmarkFrame(w.spec, this.rev, false))) this.closeWatcher(w);
      }
    }
  }

  /** Counts for health and metrics. */
  /** Current objects per resource (metrics: apiserver_storage_objects). */
  objectCounts(): Map<string, number> {
    return new Map([...this.resources].map(([resource, st]) => [resource, st.objects.size]));
  }

  stats(): { rev: number; historyStartRev: number; history: number; watchers: number; objects: number } {
    let watchers = 0, objects = 0;
    for (const s of this.watchers.values()) watchers += s.size;
    for (const s of this.resources.values()) objects += s.objects.size;
    return { rev: this.rev, historyStartRev: this.historyStartRev, history: this.history.length, watchers, objects };
  }
}

/** The DELETED an event sends to a watcher whose selectors the object stopped matching: the last matching state at this revision. */
function stoppedMatching(e: CachedEvent): KubeObject {
  const prev = e.prev!.object;
  return { ...prev, metadata: { ...prev.metadata, resourceVersion: String(e.rev) } };
}

function lowerBound(a: string[], x: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}

function upperBound(a: string[], x: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] <= x) lo = mid + 1; else hi = mid; }
  return lo;
}

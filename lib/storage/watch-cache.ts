// The in-memory picture of the store (kube-apiserver's watch cache): every current object parsed and
// serialised once, and the history of recent events (the window) for resumable watches and consistent
// paginated lists at an older revision. It is the ObjectStore callers read: events enter only through the
// tailer (tailer.ts), strictly in revision order, and go on to the watchers (broadcaster.ts).
import { Broadcaster } from "./broadcaster";
import type { CachedEvent } from "./cache-watcher";
import { CachedObject, internKey } from "./cached-object";
import type { Dialect } from "./dialect";
import { HistoryEvent } from "./history-event";
import type { ListRange, ObjectStore, WatchSink, WatchSpec } from "./interfaces";
import type { LogRow } from "./log-rows";
import type { StoreSnapshot } from "./startup-snapshot";
import type { LogEvent, ObjectKey, StoredObject } from "./types";
import { objectKeyString } from "./types";

interface ResourceState {
  objects: Map<string, CachedObject>;
  sorted: string[] | null;
  /** The objects' serialised bytes (flow control weighs a list by them). */
  bytes: number;
}

/**
 * `objectKeyString` as one flat string, for the keys the cache keeps (one per object): a template literal
 * makes a rope (a cons string) that V8 flattens into a second string on the first Map lookup, keeping both.
 */
const storedId = (key: ObjectKey): string => [key.namespace, key.name].join("/");

export class ExpiredError extends Error {
  constructor(readonly requested: number, readonly oldest: number) {
    super(`revision ${requested} is older than the retained history (${oldest})`);
  }
}

export class WatchCache implements ObjectStore {
  rev = 0;
  /** History covers every event with revision > historyStartRev. */
  historyStartRev = 0;
  private readonly resources = new Map<string, ResourceState>();
  private history: CachedEvent[] = [];
  private waiters: { rev: number; resolve: () => void }[] = [];
  /** The change signal read before the last catch-up's counter read (see catchUp). */
  private caughtUpAt: number | undefined;
  private timer: NodeJS.Timeout | null = null;
  private readonly broadcaster: Broadcaster;
  readonly listeners: Set<(e: LogEvent) => void>;

  constructor(
    private readonly options: { windowMs: number; maxHistory: number; bookmarkIntervalMs: number },
    /** The store's revision counter (consistent reads compare with it). */
    private readonly counter: Pick<Dialect, "latestRevision" | "changeSignal">,
    /** Reads the log's tail now (the tailer): what other processes committed reaches the cache. */
    private readonly readLog: () => Promise<void>,
  ) {
    this.broadcaster = new Broadcaster(this, options.bookmarkIntervalMs);
    this.listeners = this.broadcaster.listeners;
  }

  start(): void {
    this.timer = setInterval(() => this.trimHistory(), Math.min(this.options.windowMs, 10_000));
    this.timer.unref();
    this.broadcaster.start();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.broadcaster.stop();
  }

  /** Everything from a start-up snapshot (or after falling behind compaction); open watchers are closed. */
  reset(snap: StoreSnapshot): void {
    this.resources.clear();
    /** The current objects by revision: the history's entries that are their key's current row (below). */
    const byRev = new Map<number, CachedObject>();
    for (const o of snap.objects) {
      const key = internKey(o.key);
      const st = this.state(key.resource);
      // Parsed when first read (cached-object.ts).
      const cached = new CachedObject(key, o.rev, o.json, undefined, o.stale);
      st.objects.set(storedId(key), cached);
      st.bytes += o.json.length;
      byRev.set(o.rev, cached);
    }
    this.rev = snap.rev;
    const { history, startRev } = this.historyFrom(snap.history, snap.bases, snap.historyStartRev, byRev);
    this.historyStartRev = startRev;
    this.history = history;
    this.capHistory();
    this.broadcaster.closeAll();
    this.wakeWaiters();
  }

  /**
   * The cached history from the log's entries (contiguous, ending at this.rev): each event with the state it
   * replaced, from the previous entry of its key or from `bases`. Where that state is unknown (a log compacted
   * before compaction kept each key's latest entry), the history starts after that event.
   */
  private historyFrom(rows: LogRow[], baseRows: LogRow[], startRev: number, byRev: Map<number, CachedObject>): { history: CachedEvent[]; startRev: number } {
    const id = (k: ObjectKey) => `${k.resource}\u0000${objectKeyString(k)}`;
    const bases = new Map(baseRows.map((b) => [id(b.key), b]));
    // Only a resource with an entry that is not its key's latest can have a key with several entries: the
    // others' entries need no state by key (at 150,000 pods written once, no key string per entry).
    const churned = new Set<string>();
    for (const r of rows) if (!r.current) churned.add(r.key.resource);
    const state = new Map<string, CachedObject | null>();
    const events: CachedEvent[] = [];
    let start = startRev;
    for (const r of rows) {
      const k = churned.has(r.key.resource) ? id(r.key) : undefined;
      let prev: CachedObject | undefined;
      if (k !== undefined && state.has(k)) prev = state.get(k) ?? undefined;
      else if (r.type !== "ADDED") {
        const b = bases.get(k ?? id(r.key));
        if (b && b.type !== "DELETED") prev = new CachedObject(internKey(b.key), b.rev, b.json, undefined, b.stale);
        else start = r.rev;
      }
      // The key's latest entry is the current state: the same object, not a second copy of its bytes.
      const current = byRev.get(r.rev);
      const after = current && current.key.resource === r.key.resource && current.key.namespace === r.key.namespace && current.key.name === r.key.name
        ? current : new CachedObject(prev?.key ?? internKey(r.key), r.rev, r.json, undefined, r.stale);
      if (r.current && after !== current) throw new Error(`start-up snapshot: ${r.key.resource} ${objectKeyString(r.key)} at ${r.rev} is not the current object`);
      events.push(new HistoryEvent(r.type, after, prev, r.createdAt ?? Date.now()));
      if (k !== undefined) state.set(k, r.type === "DELETED" ? null : after);
    }
    const history = start === startRev ? events : events.filter((e) => e.rev > start);
    return { history, startRev: start };
  }

  private state(resource: string): ResourceState {
    let s = this.resources.get(resource);
    if (!s) { s = { objects: new Map(), sorted: null, bytes: 0 }; this.resources.set(resource, s); }
    return s;
  }

  /** The next event (revision rev + 1): into the objects and the history, then to the watchers. */
  apply(e: LogEvent): void {
    const st = this.state(e.key.resource);
    const id = objectKeyString(e.key);
    const prev = st.objects.get(id);
    const after = new CachedObject(prev?.key ?? internKey(e.key), e.rev, e.json, e.object, e.stale);
    const ev = new HistoryEvent(e.type, after, prev, Date.now(), e.user);
    if (prev) st.bytes -= prev.json.length;
    if (e.type === "DELETED") {
      st.objects.delete(id);
      st.sorted = null;
    } else if (prev) {
      // The same key: the Map keeps the string it has.
      st.objects.set(id, after);
      st.bytes += e.json.length;
    } else {
      st.sorted = null;
      st.objects.set(storedId(e.key), after);
      st.bytes += e.json.length;
    }
    this.rev = e.rev;
    this.history.push(ev);
    this.capHistory();
    this.broadcaster.dispatch(ev);
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

  /**
   * At most `maxHistory` events: past it, the oldest go with a 64th of the cap more, so the array (copied on
   * each drop) is copied once per that many writes, not on every write (a million creates in a row slowed to
   * tens per second once the history was full).
   */
  private capHistory(): void {
    const { maxHistory } = this.options;
    if (this.history.length > maxHistory) this.dropHistory(Math.min(this.history.length, this.history.length - maxHistory + (maxHistory >> 6)));
  }

  private dropHistory(n: number): void {
    this.historyStartRev = this.history[n - 1].rev;
    this.history = this.history.slice(n);
  }

  /** The history, oldest first (the broadcaster replays it to a watch that resumes). */
  get events(): readonly CachedEvent[] {
    return this.history;
  }

  /** Resolve once the cache has applied `rev` (reading the log for it if needed). */
  waitFor(rev: number, timeoutMs = 10_000): Promise<boolean> {
    if (this.rev >= rev) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiters = this.waiters.filter((w) => w !== waiter); resolve(false); }, timeoutMs);
      const waiter = { rev, resolve: () => { clearTimeout(timer); resolve(true); } };
      this.waiters.push(waiter);
      void this.readLog();
    });
  }

  /** After events were applied: resolve the waits they satisfy. */
  wakeWaiters(): void {
    if (!this.waiters.length) return;
    const ready = this.waiters.filter((w) => w.rev <= this.rev);
    this.waiters = this.waiters.filter((w) => w.rev > this.rev);
    for (const w of ready) w.resolve();
  }

  /**
   * For consistent reads (resourceVersion unset): catch up with the store's latest revision first, so a write
   * acknowledged by another process on the same store is visible. On SQLite the counter is read only when
   * another process committed since the last catch-up (its change signal); on PostgreSQL it is one query per
   * call, as kube-apiserver asks etcd for its revision.
   */
  async catchUp(): Promise<void> {
    // Nobody else committed since the last catch-up (the dialect's change signal is unchanged): the database
    // holds nothing newer than this process's own commits, which reach the cache before they are answered.
    const signal = this.counter.changeSignal?.();
    if (signal !== undefined && signal === this.caughtUpAt) return;
    const latest = await this.counter.latestRevision();
    if (latest > this.rev && !(await this.waitFor(latest))) return;
    // Read before the counter: a commit after that read changes the signal again.
    if (signal !== undefined) this.caughtUpAt = signal;
  }

  /** catchUp's test alone, for a read that is answered synchronously when it holds. */
  current(): boolean {
    const signal = this.counter.changeSignal?.();
    return signal !== undefined && signal === this.caughtUpAt;
  }

  get(key: ObjectKey): StoredObject | undefined {
    return this.resources.get(key.resource)?.objects.get(objectKeyString(key));
  }

  /** Read the log's tail (after a failed precondition, the cache may be behind). */
  async refresh(): Promise<void> {
    await this.readLog();
  }

  watch(spec: WatchSpec, sink: WatchSink): () => void {
    return this.broadcaster.watch(spec, sink);
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
  list(resource: string, opts: ListRange = {}): StoredObject[] {
    const out: StoredObject[] = [];
    this.scan(resource, opts, (o) => { out.push(o); return true; });
    return out;
  }

  /**
   * Visit the objects `list` would return, in order, until `visit` returns false. Returns how many objects of
   * the range (at `atRev`) were left unvisited, so a page of 500 costs 500 visits, not a copy of the range.
   */
  scan(resource: string, opts: ListRange, visit: (o: StoredObject) => boolean): number {
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
  firstAfter(rev: number): number {
    let lo = 0, hi = this.history.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.history[mid].rev <= rev) lo = mid + 1; else hi = mid; }
    return lo;
  }

  /** How many objects of `resource` there are now and their serialised bytes. */
  size(resource: string): { objects: number; bytes: number } {
    const st = this.resources.get(resource);
    return st ? { objects: st.objects.size, bytes: st.bytes } : { objects: 0, bytes: 0 };
  }

  /** Current objects per resource (metrics: apiserver_storage_objects). */
  objectCounts(): Map<string, number> {
    return new Map([...this.resources].map(([resource, st]) => [resource, st.objects.size]));
  }

  stats(): { rev: number; historyStartRev: number; history: number; watchers: number; objects: number } {
    let objects = 0;
    for (const s of this.resources.values()) objects += s.objects.size;
    return { rev: this.rev, historyStartRev: this.historyStartRev, history: this.history.length, watchers: this.broadcaster.count(), objects };
  }
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

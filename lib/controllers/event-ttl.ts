// Event expiry. kube-apiserver stores Events under an etcd lease of --event-ttl (1 h), so an Event vanishes that
// long after its last write; here the leader deletes it through the registry once `eventTTLSeconds` have passed
// since its last occurrence (lastTimestamp, eventTime or series.lastObservedTime) or its creation, whichever is
// later. One timer for the earliest expiry (a min-heap keyed by due time), so 10,000 Events cost one timer; a
// periodic sweep backs it up. After a restart the initial list schedules every Event, and overdue ones go at once.
import { isStatusError } from "../status";
import { event as eventKind, type Event } from "../kinds/event";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export interface EventTTLControllerOptions {
  registry: Registry;
  informer: Informer;
  ttlSeconds: number;
  /** How often every Event is checked regardless of timers (default: a minute, or the TTL when shorter). */
  sweepIntervalMs?: number;
  now?: () => number;
  onError?: (key: string, err: unknown) => void;
}

const timeOf = (s: string | null | undefined) => (s ? Date.parse(s) : NaN);

/** When an Event was last written about, as far as its fields tell. */
export function lastOccurrence(ev: Event): number {
  const times = [
    timeOf(ev.lastTimestamp), timeOf(ev.eventTime), timeOf(ev.series?.lastObservedTime),
    timeOf(ev.firstTimestamp), timeOf(ev.metadata.creationTimestamp),
  ].filter((t) => !Number.isNaN(t));
  // A client may post an Event with old timestamps: it still lives a full TTL from its creation. Timestamps
  // are whole seconds: the end of that second, so an Event never goes before a full TTL has passed.
  return times.length ? Math.max(...times) + 999 : 0;
}

interface HeapEntry { due: number; key: string }

export class EventTTLController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** The current due time of every known Event; heap entries that disagree are stale. */
  private readonly due = new Map<string, number>();
  private heap: HeapEntry[] = [];
  private timer?: NodeJS.Timeout;
  private timerDue = Infinity;
  private readonly sweeper: NodeJS.Timeout;
  private stopped = false;

  constructor(opts: EventTTLControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.ttlMs = opts.ttlSeconds * 1000;
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue((key) => this.sync(key), { onError: opts.onError, waitFor: opts.informer, concurrency: 4 });
    opts.informer.on(eventKind.plural, (e) => {
      const key = `${e.key.namespace}/${e.key.name}`;
      if (e.type === "DELETED") { this.due.delete(key); return; }
      let due = lastOccurrence(e.object as Event) + this.ttlMs;
      // Any write renews the etcd lease in kube; a change seen live counts as one even when it moved no timestamp.
      if (e.type === "MODIFIED") due = Math.max(due, this.now() + this.ttlMs);
      this.schedule(key, due);
    });
    const sweepMs = opts.sweepIntervalMs ?? Math.min(60_000, this.ttlMs);
    this.sweeper = setInterval(() => this.sweep(), Math.max(sweepMs, 100));
    this.sweeper.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.stop();
  }

  /** Events waiting for their expiry. */
  get size(): number {
    return this.due.size;
  }

  private schedule(key: string, due: number): void {
    if (this.stopped) return;
    this.due.set(key, due);
    if (due <= this.now()) { this.queue.add(key); return; }
    this.push({ due, key });
    // Stale entries pile up as Events are re-counted; rebuild when they dominate.
    if (this.heap.length > 2 * this.due.size + 1024) this.rebuild();
    this.arm();
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first || first.due >= this.timerDue) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = first.due;
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(first.due - this.now(), 0), 2 ** 31 - 1));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.timerDue = Infinity;
    const now = this.now();
    while (this.heap.length && this.heap[0].due <= now) {
      const { key, due } = this.pop()!;
      if (this.due.get(key) === due) this.queue.add(key);
    }
    this.arm();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, due] of this.due) if (due <= now) this.queue.add(key);
  }

  async sync(key: string): Promise<void> {
    const slash = key.indexOf("/");
    const namespace = key.slice(0, slash), name = key.slice(slash + 1);
    const ev = this.informer.get(eventKind.plural, namespace, name) as Event | undefined;
    if (!ev) { this.due.delete(key); return; }
    const due = Math.max(lastOccurrence(ev) + this.ttlMs, this.due.get(key) ?? 0);
    if (due > this.now()) { this.schedule(key, due); return; }
    try {
      // Conditional: an Event counted again meanwhile is newer than what expired, and stays.
      await this.registry.delete(eventKind, namespace, name, { dryRun: false, preconditions: { resourceVersion: ev.metadata.resourceVersion } });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err; // a conflict retries against the newer Event
    }
  }

  // --- min-heap on due time -------------------------------------------------------------------------

  private push(entry: HeapEntry): void {
    const h = this.heap;
    h.push(entry);
    for (let i = h.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (h[parent].due <= h[i].due) break;
      [h[parent], h[i]] = [h[i], h[parent]];
      i = parent;
    }
  }

  private pop(): HeapEntry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (!h.length || !last) return top;
    h[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < h.length && h[l].due < h[m].due) m = l;
      if (r < h.length && h[r].due < h[m].due) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
    return top;
  }

  private rebuild(): void {
    const now = this.now();
    this.heap = [];
    for (const [key, due] of this.due) if (due > now) this.push({ due, key });
  }
}

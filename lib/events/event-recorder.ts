// The server's EventRecorder: core/v1 Events written through the registry the way client-go's legacy recorder
// and EventCorrelator write them. Recording never blocks or fails the caller: events wait in a bounded queue
// (overflow is dropped and counted, as client-go's broadcaster drops when its channel is full) and one worker
// writes them in order; a failed write is reported and forgotten.
import { hostname } from "node:os";
import { isStatusError } from "../status";
import { event as eventKind, type Event } from "../kinds/event";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { EventRecorder, EventType } from "./recorder";

/** client-go's defaults: similar events within 10 minutes are aggregated once more than 10 differ only by message. */
const AGGREGATION_WINDOW_MS = 10 * 60 * 1000;
const MAX_SIMILAR_EVENTS = 10;
const CACHE_SIZE = 4096;
const DEFAULT_QUEUE_SIZE = 1000;

export interface RegistryEventRecorderOptions {
  registry: Registry;
  /** reportingInstance (default: this machine's host name). */
  host?: string;
  /** Events waiting beyond this are dropped (counted in `dropped`). */
  maxQueue?: number;
  now?: () => number;
  /** Told about failed Event writes; the work that recorded the Event is unaffected. */
  onError?: (err: unknown) => void;
}

interface Pending {
  object: KubeObject;
  type: EventType;
  reason: string;
  message: string;
  component: string;
  at: number;
}

/** The last Event written for a key (client-go's eventLogger observation). */
interface Observation {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
  seenAt: number;
}

/** Messages seen for one aggregate key (client-go's aggregateRecord). */
interface SimilarRecord {
  messages: Set<string>;
  lastAt: number;
}

const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** A Map used as an LRU: reads move the key to the back, inserts evict from the front. */
function lruGet<K, V>(m: Map<K, V>, k: K): V | undefined {
  const v = m.get(k);
  if (v !== undefined) { m.delete(k); m.set(k, v); }
  return v;
}
function lruSet<K, V>(m: Map<K, V>, k: K, v: V): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > CACHE_SIZE) m.delete(m.keys().next().value as K);
}

export class RegistryEventRecorder implements EventRecorder {
  /** Events dropped because the queue was full or the recorder was stopped. */
  dropped = 0;
  /** Event writes that failed. */
  failed = 0;
  private readonly queue: Pending[] = [];
  private readonly observations = new Map<string, Observation>();
  private readonly similar = new Map<string, SimilarRecord>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly host: string;
  private readonly maxQueue: number;
  private readonly now: () => number;
  private working = false;
  private stopped = false;
  private lastNanos = 0n;

  constructor(private readonly opts: RegistryEventRecorderOptions) {
    this.host = opts.host ?? hostname();
    this.maxQueue = opts.maxQueue ?? DEFAULT_QUEUE_SIZE;
    this.now = opts.now ?? Date.now;
  }

  event(object: KubeObject, type: EventType, reason: string, message: string, component: string): void {
    if (this.stopped || this.queue.length >= this.maxQueue || !object?.metadata?.name) {
      this.dropped++;
      return;
    }
    // The reference is taken now: the object may change before the write.
    this.queue.push({ object: { apiVersion: object.apiVersion, kind: object.kind, metadata: { ...object.metadata } }, type, reason, message, component, at: this.now() });
    if (!this.working) void this.drain();
  }

  /** Resolves once every queued Event has been written (or has failed). */
  flush(): Promise<void> {
    if (!this.working && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what is queued and records nothing more. */
  stop(): void {
    this.stopped = true;
    this.dropped += this.queue.length;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    this.working = true;
    try {
      for (let p = this.queue.shift(); p; p = this.queue.shift()) {
        try {
          await this.write(p);
        } catch (err) {
          this.failed++;
          this.opts.onError?.(err);
        }
      }
    } finally {
      this.working = false;
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  /** `%x` of a nanosecond timestamp, strictly increasing so two Events of one object never share a name. */
  private nameSuffix(at: number): string {
    let nanos = BigInt(at) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    return nanos.toString(16);
  }

  private makeEvent(p: Pending): Event {
    const meta = p.object.metadata;
    const namespace = meta.namespace || "default";
    const ts = seconds(p.at);
    return {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${meta.name}.${this.nameSuffix(p.at)}`, namespace },
      involvedObject: {
        kind: p.object.kind,
        ...(meta.namespace ? { namespace: meta.namespace } : {}),
        name: meta.name,
        uid: meta.uid,
        apiVersion: p.object.apiVersion,
        resourceVersion: meta.resourceVersion,
      },
      reason: p.reason,
      message: p.message,
      source: { component: p.component },
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type: p.type,
      eventTime: null,
      reportingComponent: p.component,
      reportingInstance: this.host,
    };
  }

  private async write(p: Pending): Promise<void> {
    let ev = this.makeEvent(p);
    const ref = ev.involvedObject;
    const base = [p.component, this.host, ref.kind, ref.namespace ?? "", ref.name, ref.uid ?? "", ref.apiVersion ?? "", p.type, p.reason].join("\u0000");

    // Similar events (same everything but the message): past the limit, one combined Event stands for them all.
    let key = `${base}\u0000${p.message}`;
    let similar = this.similar.get(base);
    if (!similar || p.at - similar.lastAt > AGGREGATION_WINDOW_MS) similar = { messages: new Set(), lastAt: p.at };
    similar.messages.add(p.message);
    similar.lastAt = p.at;
    lruSet(this.similar, base, similar);
    if (similar.messages.size >= MAX_SIMILAR_EVENTS) {
      similar.messages.delete(similar.messages.values().next().value as string);
      ev = { ...ev, message: `(combined from similar events): ${p.message}` };
      key = base;
    }

    // Identical events: count and lastTimestamp of the Event already written go up.
    const seen = lruGet(this.observations, key);
    if (seen && p.at - seen.seenAt <= AGGREGATION_WINDOW_MS) {
      const count = seen.count + 1;
      try {
        await this.opts.registry.patch(eventKind, seen.namespace, seen.name, (current) => ({
          ...current, count, lastTimestamp: ev.lastTimestamp, message: ev.message,
        }), { dryRun: false, fieldValidation: "Ignore" });
        lruSet(this.observations, key, { ...seen, count, seenAt: p.at });
        return;
      } catch (err) {
        // Expired (Event TTL) or deleted meanwhile: start a new Event.
        if (!isStatusError(err) || err.code !== 404) throw err;
      }
    }
    await this.opts.registry.create(eventKind, ev.metadata.namespace, ev, { dryRun: false, fieldValidation: "Ignore" });
    lruSet(this.observations, key, {
      namespace: ev.metadata.namespace!, name: ev.metadata.name!, count: 1, firstTimestamp: ev.firstTimestamp!, seenAt: p.at,
    });
  }
}

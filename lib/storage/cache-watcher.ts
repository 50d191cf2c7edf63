// One watcher of the broadcaster (kube's cacheWatcher): what each event becomes for it, given its selectors
// (ADDED, MODIFIED, DELETED, or DELETED when the object stopped matching), in JSON lines or its framing.
// Events memoise their serialisations, so watchers with the same encoding share the same bytes.
import type { KubeObject } from "../kinds/types";
import type { WatchFraming, WatchSink, WatchSpec } from "./interfaces";
import type { EventType, LogEvent } from "./types";

type Slot = "ADDED" | "MODIFIED" | "DELETED" | "DELETED_PREV";

/** An event as the watch cache holds it in its history. */
export interface CachedEvent extends LogEvent {
  /** When it was applied here (the history window is trimmed by it). */
  at: number;
  lines?: Partial<Record<Slot, Buffer>>;
  /** Frames of the framings watchers asked for, by framing id. */
  frames?: Map<string, Partial<Record<Slot, Buffer>>>;
}

export const lineOf = (type: string, json: string) => Buffer.from(`{"type":"${type}","object":${json}}\n`);
export const asBuffer = (chunk: string | Buffer) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk);
export const bookmarkFrame = (spec: WatchSpec, rev: number, end: boolean) =>
  spec.framing ? spec.framing.frame("BOOKMARK", spec.bookmark(rev, end)) : lineOf("BOOKMARK", spec.bookmark(rev, end));

/**
 * Events a watcher may have waiting while its initial events are still being written (kube's cacheWatcher
 * input buffer): references to the cache's history, so cheap, but a client that reads its initial state more
 * slowly than this many events arrive is closed and re-lists.
 */
export const MAX_PENDING_EVENTS = 10_000;

export class CacheWatcher {
  lastRev: number;
  closed = false;
  /** Cancels the bookmark due 2 s before the watch's end (one shared timer wheel, not a timer per watcher). */
  finalBookmark?: () => void;
  /** While the initial events are written as the client reads them: the events that arrived meanwhile. */
  pending?: CachedEvent[];

  constructor(readonly spec: WatchSpec, readonly sink: WatchSink, rev: number) {
    this.lastRev = rev;
  }

  /** Sends what `e` means to this watcher, if anything (or queues it behind the initial events); false when refused. */
  deliver(e: CachedEvent): boolean {
    if (this.pending) {
      this.pending.push(e);
      return this.pending.length <= MAX_PENDING_EVENTS;
    }
    const { spec } = this;
    if (spec.namespace !== undefined && e.key.namespace !== spec.namespace) return true;
    const all = spec.matchesAll === true;
    if (spec.sinceRev !== undefined && e.rev <= spec.sinceRev) return true;
    this.lastRev = e.rev;
    if (spec.framing) return this.deliverFramed(e, spec.framing);
    const lines = (e.lines ??= {});
    let line: Buffer | undefined;
    if (e.type === "DELETED") {
      if (all || spec.matches(e.object)) line = spec.encode ? asBuffer(spec.encode("DELETED", e.object, e.json)) : lines.DELETED ??= lineOf("DELETED", e.json);
    } else {
      const now = all || spec.matches(e.object);
      const before = e.type === "MODIFIED" && e.prev !== undefined && (all || spec.matches(e.prev.object));
      if (now) {
        const t: EventType = before ? "MODIFIED" : "ADDED";
        line = spec.encode ? asBuffer(spec.encode(t, e.object, e.json)) : lines[t] ??= lineOf(t, e.json);
      } else if (before && e.prev) {
        // Stopped matching: DELETED with the last matching state at this event's revision.
        const gone = stoppedMatching(e);
        line = spec.encode ? asBuffer(spec.encode("DELETED", gone, JSON.stringify(gone))) : lines.DELETED_PREV ??= lineOf("DELETED", JSON.stringify(gone));
      }
    }
    return !line || this.sink.send(line);
  }

  /** deliver() for a watcher with a framing: the same decisions, one frame per event and framing id. */
  private deliverFramed(e: CachedEvent, framing: WatchFraming): boolean {
    const { spec } = this;
    const all = spec.matchesAll === true;
    let slots = e.frames?.get(framing.id);
    if (!slots) (e.frames ??= new Map()).set(framing.id, (slots = {}));
    let frame: Buffer | undefined;
    if (e.type === "DELETED") {
      if (all || spec.matches(e.object)) frame = slots.DELETED ??= framing.event("DELETED", e.object, e.json);
    } else {
      const now = all || spec.matches(e.object);
      const before = e.type === "MODIFIED" && e.prev !== undefined && (all || spec.matches(e.prev.object));
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
    return !frame || this.sink.send(frame);
  }
}

/** The DELETED an event sends to a watcher whose selectors the object stopped matching: the last matching state at this revision. */
function stoppedMatching(e: CachedEvent): KubeObject {
  const prev = e.prev!.object;
  return { ...prev, metadata: { ...prev.metadata, resourceVersion: String(e.rev) } };
}

// When the change a watch event reports was made, read from the object itself, so a feed shows each change's
// own age even when events arrive in a burst (a reconnect catching up, a busy tab): an ADDED object's
// creationTimestamp; a MODIFIED object's newest managedFields time (the server stamps a manager's entry
// whenever it changes a field), its deletionTimestamp, and an Event's last occurrence; a DELETED object's
// deletionTimestamp. Timestamps have whole seconds. Without any, or when the stamp cannot describe this
// change (after its arrival, or older than CATCH_UP_MS: e.g. a write that left every stamp alone), the
// arrival time stands in.
import type { WatchEvent } from "@/lib/client/apply-watch-event";

/** How far back a stamp may lie behind the event's arrival and still be taken as the change's time. */
export const CATCH_UP_MS = 10 * 60_000;

interface Stamped {
  metadata?: {
    creationTimestamp?: string;
    deletionTimestamp?: string;
    managedFields?: { time?: string }[];
  };
  lastTimestamp?: string;
  eventTime?: string;
  series?: { lastObservedTime?: string };
}

const ms = (t: string | undefined): number => (t ? Date.parse(t) : NaN);

/** Epoch ms of the change `event` reports, which arrived at `arrivedAt`. */
export function watchEventTime(event: WatchEvent, arrivedAt: number): number {
  const obj = (event.object ?? {}) as Stamped;
  const meta = obj.metadata ?? {};
  let at = NaN;
  const take = (t: string | undefined) => {
    const v = ms(t);
    if (!Number.isNaN(v) && (Number.isNaN(at) || v > at)) at = v;
  };
  if (event.type === "ADDED") take(meta.creationTimestamp);
  else if (event.type === "DELETED") take(meta.deletionTimestamp);
  else if (event.type === "MODIFIED") {
    for (const entry of meta.managedFields ?? []) take(entry.time);
    take(meta.deletionTimestamp);
    take(obj.lastTimestamp);
    take(obj.eventTime);
    take(obj.series?.lastObservedTime);
  }
  // Whole-second stamps: a change at 12.9 s is stamped 12 s; a stamp up to a second "ahead" is clock skew.
  if (Number.isNaN(at) || at > arrivedAt + 1_000 || at < arrivedAt - CATCH_UP_MS) return arrivedAt;
  return Math.min(at, arrivedAt);
}

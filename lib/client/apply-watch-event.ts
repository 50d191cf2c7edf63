// Folds watch events into a cached list. Pure: returns a new ListState and never mutates its input, so
// React Query sees a new reference and tests need no React.
import type { KubeObject } from "../kinds";
import { objectKey, stripObject, type ListState } from "./list-state";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject | { kind?: string; code?: number; reason?: string; message?: string; metadata?: { resourceVersion?: string } };
}

/** A 410 ERROR event (or Status) means the start version was compacted: the list must be fetched again. */
export function isExpired(event: WatchEvent): boolean {
  const status = event.object as { code?: number; reason?: string };
  return event.type === "ERROR" && (status.code === 410 || status.reason === "Expired" || status.reason === "Gone");
}

/** Folds a batch with a single copy of the maps; ERROR events are the watcher's business and ignored here. */
export function applyWatchEvents(state: ListState, events: readonly WatchEvent[], now = Date.now()): ListState {
  if (events.length === 0) return state;
  const items = new Map(state.items);
  const changedAt = new Map(state.changedAt);
  let resourceVersion = state.resourceVersion;
  let counted = 0;
  for (const event of events) {
    if (event.type === "ERROR") continue;
    const obj = event.object as KubeObject;
    const rv = obj.metadata?.resourceVersion;
    if (rv) resourceVersion = rv;
    if (event.type === "BOOKMARK") continue;
    const key = objectKey(obj);
    counted++;
    if (event.type === "DELETED") {
      items.delete(key);
      changedAt.delete(key);
    } else {
      items.set(key, stripObject(obj));
      changedAt.set(key, now);
    }
  }
  // Forget flash times that have long expired so the map does not grow with churn.
  if (changedAt.size > 2 * Math.max(64, items.size)) {
    for (const [key, at] of changedAt) if (now - at > 10_000) changedAt.delete(key);
  }
  return { ...state, resourceVersion, items, changedAt, revision: state.revision + 1, eventCount: state.eventCount + counted };
}

export function applyWatchEvent(state: ListState, event: WatchEvent, now = Date.now()): ListState {
  return applyWatchEvents(state, [event], now);
}

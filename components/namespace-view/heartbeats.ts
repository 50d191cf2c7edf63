// Heartbeats are writes a timer makes with nothing new to say: a Lease renewed (only spec.renewTime moves), an
// Event seen again (only its count and last time move). A change feed that lists them buries the changes a
// person made; the fields each kind rewrites on a timer are declared by the kind (`heartbeatFields`).
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { objectKey } from "@/lib/client/list-state";
import type { WatchEvent } from "@/lib/client/apply-watch-event";

/** Metadata every write moves (or that the list cache drops): not a change of the object's content. */
const WRITE_STAMPS = ["resourceVersion", "managedFields", "generation"];

function without(obj: KubeObject, paths: readonly string[]): unknown {
  const copy = structuredClone(obj) as Record<string, unknown>;
  const metadata = copy.metadata as Record<string, unknown> | undefined;
  if (metadata) for (const stamp of WRITE_STAMPS) delete metadata[stamp];
  for (const path of paths) {
    const parts = path.split(".");
    let at: unknown = copy;
    for (const part of parts.slice(0, -1)) at = at && typeof at === "object" ? (at as Record<string, unknown>)[part] : undefined;
    if (at && typeof at === "object") delete (at as Record<string, unknown>)[parts[parts.length - 1]];
  }
  return copy;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * True when `next` differs from `previous` only in the fields `kind` rewrites on a timer (and the stamps every
 * write moves). A kind that declares none never beats; an object seen for the first time is news.
 */
export function isHeartbeat(kind: AnyKind, previous: KubeObject | undefined, next: KubeObject): boolean {
  const fields = kind.heartbeatFields;
  if (!fields?.length || !previous) return false;
  return sameJson(without(previous, fields), without(next, fields));
}

/**
 * The events of one watch batch that are news: MODIFIED events that are heartbeats are left out. `before` is
 * the list as it stood before the batch (objects by namespace/name); within the batch each event is compared
 * with the one before it for the same object.
 */
export function withoutHeartbeats(kind: AnyKind, events: readonly WatchEvent[], before: ReadonlyMap<string, KubeObject> | undefined): WatchEvent[] {
  if (!kind.heartbeatFields?.length) return [...events];
  const latest = new Map<string, KubeObject | undefined>();
  const out: WatchEvent[] = [];
  for (const event of events) {
    if (event.type !== "ADDED" && event.type !== "MODIFIED" && event.type !== "DELETED") {
      out.push(event);
      continue;
    }
    const obj = event.object as KubeObject;
    const key = objectKey(obj);
    const previous = latest.has(key) ? latest.get(key) : before?.get(key);
    latest.set(key, event.type === "DELETED" ? undefined : obj);
    if (event.type === "MODIFIED" && isHeartbeat(kind, previous, obj)) continue;
    out.push(event);
  }
  return out;
}

// Heartbeats are writes a timer makes with nothing new to say: a Lease renewed (only spec.renewTime moves), an
// Event seen again (only its count and last time move). A change feed that lists them buries the changes a
// person made; the fields each kind rewrites on a timer are declared by the kind (`heartbeatFields`).
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { objectKey } from "@/lib/client/list-state";
import type { WatchEvent } from "@/lib/client/apply-watch-event";

/** Metadata every write moves (or that the list cache drops): not a change of the object's content. */
const WRITE_STAMPS = ["metadata.resourceVersion", "metadata.managedFields", "metadata.generation"];

/** Deep equality of two JSON values, skipping the dotted paths in `skip` (no copies: feeds see every event). */
function sameExcept(a: unknown, b: unknown, skip: ReadonlySet<string>, path: string): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) {
    const at = path ? `${path}.${k}` : k;
    if (skip.has(at)) continue;
    if (!sameExcept(ra[k], rb[k], skip, at)) return false;
  }
  return true;
}

/**
 * True when `next` differs from `previous` only in the fields `kind` rewrites on a timer (and the stamps every
 * write moves). A kind that declares none never beats; an object seen for the first time is news.
 */
export function isHeartbeat(kind: AnyKind, previous: KubeObject | undefined, next: KubeObject): boolean {
  const fields = kind.heartbeatFields;
  if (!fields?.length || !previous) return false;
  return sameExcept(previous, next, new Set([...WRITE_STAMPS, ...fields]), "");
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

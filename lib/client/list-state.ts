// The cached form of a watched list: objects keyed by namespace/name (the key informers use), the
// resourceVersion to resume the watch from, and when each key last changed (drives the row flash).
// Kept as a Map so one watch event costs O(1) to fold, not a copy of a 10,000-element array.
import type { KubeObject } from "../kinds";

export interface ListState {
  resourceVersion: string;
  items: Map<string, KubeObject>;
  /** key → ms timestamp of the last ADDED/MODIFIED seen by the watch (not the initial list). */
  changedAt: Map<string, number>;
  /** Bumped on every fold, so memoised views can depend on one number. */
  revision: number;
  /** Watch events folded since the list was fetched (a paused view shows the difference as "N changes waiting"). */
  eventCount: number;
  /** Identifies the list fetch this state descends from; a new value means "start a new watch". */
  epoch: number;
}

export interface ListBody {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string };
  items?: KubeObject[] | null;
}

export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ""}` : obj.metadata?.name ?? "";
}

/** managedFields are large, never shown, and change on every write; dropping them keeps memory and diffs small. */
export function stripObject(obj: KubeObject): KubeObject {
  if (!obj.metadata || !("managedFields" in obj.metadata)) return obj;
  const { managedFields: _ignored, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * A list item with its type meta: kube-apiserver's JSON lists leave `kind` and `apiVersion` off their items
 * (the list names them once), while the editor, copies and downloads need each object whole.
 */
function withTypeMeta(item: KubeObject, kind: string | undefined, apiVersion: string | undefined): KubeObject {
  if (item.kind || !kind) return item;
  return { kind, apiVersion: item.apiVersion ?? apiVersion ?? "", ...item };
}

let epochs = 0;

export function listStateFromBody(body: ListBody): ListState {
  const items = new Map<string, KubeObject>();
  const kind = body.kind?.endsWith("List") ? body.kind.slice(0, -"List".length) : undefined;
  for (const item of body.items ?? []) items.set(objectKey(item), stripObject(withTypeMeta(item, kind, body.apiVersion)));
  return { resourceVersion: body.metadata?.resourceVersion ?? "", items, changedAt: new Map(), revision: 0, eventCount: 0, epoch: ++epochs };
}

// Types shared by the storage layer and its callers (the registry). Nothing here names a kind.
import type { KubeObject } from "../kinds/types";

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

/** Where an object lives: the resource (plural), its namespace ("" when cluster-scoped) and name. */
export interface ObjectKey {
  resource: string;
  namespace: string;
  name: string;
}

/** One object as held by the cache: parsed (never mutated once stored) and serialised once. */
export interface StoredObject {
  key: ObjectKey;
  rev: number;
  object: KubeObject;
  json: string;
}

/** One entry of the revision log, as committed. `object` is the state after the write (the last state for DELETED). */
export interface LogEvent {
  rev: number;
  type: EventType;
  key: ObjectKey;
  object: KubeObject;
  json: string;
  /** The state before this write, when known (filled in by the cache). */
  prev?: StoredObject;
}

/**
 * A write to commit. `expectRev` is the revision the caller computed its change from: the write fails
 * with "conflict" when the stored object is at another revision. The store sets
 * `metadata.resourceVersion` on `object` to the new revision.
 */
export type WriteOp =
  | { type: "create"; key: ObjectKey; object: KubeObject }
  | { type: "update"; key: ObjectKey; object: KubeObject; expectRev: number }
  | { type: "delete"; key: ObjectKey; object: KubeObject; expectRev: number };

export type WriteResult =
  | { ok: true; event: LogEvent }
  | { ok: false; reason: "exists" | "missing" | "conflict" };

export const objectKeyString = (key: ObjectKey): string => `${key.namespace}/${key.name}`;

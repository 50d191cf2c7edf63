// Types shared by the storage layer and its callers (the registry). Nothing here names a kind.
import type { KubeObject, ObjectMeta } from "../kinds/types";

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

/** Where an object lives: the resource (plural), its namespace ("" when cluster-scoped) and name. */
export interface ObjectKey {
  resource: string;
  namespace: string;
  name: string;
}

/**
 * One object as held by the cache: serialised once (`json`), `object` parsed from it (the cache parses on
 * demand; never mutate it).
 */
export interface StoredObject {
  key: ObjectKey;
  rev: number;
  object: KubeObject;
  json: string;
  /** `object.metadata`, which the cache can give without parsing the whole object. */
  readonly metadata?: ObjectMeta;
  /** `object.metadata.labels` ({} for none), which the cache keeps at hand once read (label selectors). */
  readonly labels?: Readonly<Record<string, string>>;
  /** `json` and a newline as UTF-8 bytes (a JSON answer's body), which the cache keeps for recently asked objects. */
  readonly jsonLine?: Buffer;
  /**
   * The database holds this object in a form other than the one a write would produce now (an older
   * encryption provider or key, see lib/encryption): an unchanged update must still write it (key rotation).
   */
  stale?: boolean;
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
  /** See StoredObject.stale (read from the database; local commits are never stale). */
  stale?: boolean;
  /** Who made the write (local commits only; the history reads it back from the log). */
  user?: WriteUser;
}

/** Who made a write, as the history records it (the request's authenticated user; none for the server's own writes). */
export interface WriteUser {
  username: string;
  groups?: string[];
}

/** One revision of an object as the history holds it (see HistoryReader.history). */
export interface HistoryEntry {
  rev: number;
  type: EventType;
  key: ObjectKey;
  /** The object after the write (the last state for DELETED), as JSON. */
  json: string;
  /** When the write was committed (epoch ms). */
  createdAt: number;
  user?: WriteUser;
}

/**
 * A write to commit. `expectRev` is the revision the caller computed its change from: the write fails
 * with "conflict" when the stored object is at another revision. The store sets
 * `metadata.resourceVersion` on `object` to the new revision.
 */
export type WriteOp = (
  | { type: "create"; key: ObjectKey; object: KubeObject }
  | { type: "update"; key: ObjectKey; object: KubeObject; expectRev: number }
  | { type: "delete"; key: ObjectKey; object: KubeObject; expectRev: number }
) & { /** Who asks (kept in the history with the revision). */ user?: WriteUser };

export type WriteResult =
  | { ok: true; event: LogEvent }
  | { ok: false; reason: "exists" | "missing" | "conflict" };

export const objectKeyString = (key: ObjectKey): string => `${key.namespace}/${key.name}`;

/**
 * How object JSON is held in the database: encryption at rest (lib/encryption implements kube's
 * EncryptionConfiguration). Synchronous, so a SQLite write batch never yields. `fromStorage` reports `stale`
 * when the value was not written by the current write provider and key.
 */
export interface ValueTransformer {
  toStorage(key: ObjectKey, json: string): string;
  fromStorage(key: ObjectKey, stored: string): { json: string; stale: boolean };
}

/** Values as they are (no ENCRYPTION_CONFIG); refuses a value that was stored encrypted, naming only its provider and key. */
export const plainValues: ValueTransformer = {
  toStorage: (_key, json) => json,
  fromStorage(key, stored) {
    if (stored.startsWith("k8s:enc:")) {
      const prefix = stored.split(":", 5).join(":");
      throw new Error(`${key.resource} ${objectKeyString(key)} is stored encrypted (${prefix}) but ENCRYPTION_CONFIG is not set`);
    }
    return { json: stored, stale: false };
  },
};

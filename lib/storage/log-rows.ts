// A revision-log row as the database holds it, and as the tailer, the start-up snapshot and the history read
// it back: values pass through the transformer (encryption at rest), who wrote it is a JSON column.
import type { EventType, ObjectKey, ValueTransformer, WriteUser } from "./types";
import { objectKeyString } from "./types";

/** One log entry as read back (JSON already through the transformer). */
export interface LogRow {
  rev: number;
  type: EventType;
  key: ObjectKey;
  json: string;
  stale?: boolean;
  /** When the write was committed (epoch ms, the writer's clock). */
  createdAt?: number;
  /**
   * The start-up snapshot's history: the entry is its key's current row (same revision), whose value the
   * snapshot read already; `json` is then "" and the current object stands for it (the bytes read once).
   */
  current?: true;
}

/** A "LogEntry" row as the drivers return it (node-postgres gives BIGINTs as strings). */
export interface DbLogRow { rev: bigint | string; resource: string; namespace: string; name: string; type: string; object: string | null; createdAt: bigint | string }

export const LOG_COLUMNS = `"rev", "resource", "namespace", "name", "type", "object", "createdAt"`;

export const keyId = (k: ObjectKey) => `${k.resource}\u0000${objectKeyString(k)}`;

/** The log's "user" column: who made the write, as JSON ("" for the server's own writes). */
export const userColumn = (e: { user?: WriteUser }) => (e.user ? JSON.stringify({ username: e.user.username, groups: e.user.groups ?? [] }) : "");

export function parseUser(raw: string | null | undefined): WriteUser | undefined {
  if (!raw) return undefined;
  try {
    const u = JSON.parse(raw) as WriteUser;
    return typeof u?.username === "string" ? { username: u.username, groups: Array.isArray(u.groups) ? u.groups : [] } : undefined;
  } catch {
    return undefined;
  }
}

export function logRow(r: DbLogRow, transformer: ValueTransformer): LogRow {
  const key = { resource: r.resource, namespace: r.namespace, name: r.name };
  if (r.object === null) return { rev: Number(r.rev), type: r.type as EventType, key, json: "", current: true, createdAt: Number(r.createdAt) };
  return { rev: Number(r.rev), type: r.type as EventType, key, ...transformer.fromStorage(key, r.object), createdAt: Number(r.createdAt) };
}

/** The row, or undefined when the transformer cannot read its value (see loadSnapshot). */
export function readableLogRow(r: DbLogRow, transformer: ValueTransformer): LogRow | undefined {
  try {
    return logRow(r, transformer);
  } catch {
    return undefined;
  }
}

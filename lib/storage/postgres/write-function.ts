// The usual PostgreSQL batch: ONE autocommitted statement, `cluster_core_write` (migration 0004).
import type pg from "pg";
import type { KubeObject } from "../../kinds/types";
import type { BatchResult } from "../dialect";
import { readableLogRow, userColumn, type LogRow } from "../log-rows";
import type { EventType, LogEvent, ValueTransformer, WriteOp, WriteResult } from "../types";

/** Stands for the revision in an object's JSON until the database allocates it. */
const REV_MARK = "\u0000rev";

/** A log entry as cluster_core_write returns it (node-postgres gives BIGINTs as strings). */
interface GapRow { g_rev: string; g_resource: string; g_namespace: string; g_name: string; g_type: string; g_object: string; g_createdAt: string }

/**
 * Inside the database the function takes the counter row, checks each op's precondition against the stored
 * row, gives the ops that pass the next revisions, writes the current rows and the log rows, sets the counter
 * and notifies. The counter row is locked only from that statement's start to its commit, inside the
 * database: writers on several replicas queue there for a moment instead of failing a compare-and-set and
 * planning again. The revision goes into each object's JSON in the database (`head || revision || tail`, the
 * JSON split around `metadata.resourceVersion`'s value), so this works only while the stored value is that
 * JSON itself: null (the caller takes another way) when a value is transformed at rest, or its JSON holds the
 * marker twice. The answer also carries the entries other processes committed after `after` (the caller's
 * cache revision) and before the batch, up to 256.
 */
export async function allocatingBatch(pool: pg.Pool, ops: WriteOp[], transformer: ValueTransformer, after: number): Promise<BatchResult | null> {
  const n = ops.length;
  const types: string[] = new Array(n), resources: string[] = new Array(n), namespaces: string[] = new Array(n), names: string[] = new Array(n);
  const expect: (string | null)[] = new Array(n), heads: string[] = new Array(n), tails: string[] = new Array(n);
  const objects: KubeObject[] = new Array(n);
  const needle = `"resourceVersion":${JSON.stringify(REV_MARK)}`;
  for (let i = 0; i < n; i++) {
    const op = ops[i];
    const object: KubeObject = { ...op.object, metadata: { ...op.object.metadata, resourceVersion: REV_MARK } };
    const json = JSON.stringify(object);
    if (transformer.toStorage(op.key, json) !== json) return null;
    const at = json.indexOf(needle);
    if (at < 0 || json.indexOf(needle, at + 1) >= 0) return null;
    const valueAt = at + needle.length - JSON.stringify(REV_MARK).length;
    heads[i] = `${json.slice(0, valueAt)}"`;
    tails[i] = `"${json.slice(at + needle.length)}`;
    objects[i] = object;
    types[i] = op.type;
    resources[i] = op.key.resource; namespaces[i] = op.key.namespace; names[i] = op.key.name;
    expect[i] = op.type === "create" ? null : String(op.expectRev);
  }
  // A named statement: each connection parses and plans it once, not once per batch.
  const { rows } = await pool.query<GapRow & { revs: string[] | null }>({
    name: "cluster_core_write",
    text: `SELECT * FROM cluster_core_write($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::bigint, $9::bigint, $10::text[])`,
    values: [types, resources, namespaces, names, expect, heads, tails, String(Date.now()), String(after), ops.map((op) => userColumn(op))],
  });
  const revs = rows[rows.length - 1].revs!;
  // Others' entries before the batch: handed to the cache with it, unless one cannot be read (the tailer then reads them).
  const tailed: LogRow[] = [];
  for (let i = 0; i < rows.length - 1; i++) {
    const g = rows[i];
    const row = readableLogRow({ rev: g.g_rev, resource: g.g_resource, namespace: g.g_namespace, name: g.g_name, type: g.g_type, object: g.g_object, createdAt: g.g_createdAt }, transformer);
    if (!row) { tailed.length = 0; break; }
    tailed.push(row);
  }
  const results: WriteResult[] = new Array(n);
  const events: LogEvent[] = [];
  for (let i = 0; i < n; i++) {
    const rev = Number(revs[i]);
    if (rev < 0) { results[i] = { ok: false, reason: rev === -1 ? "exists" : rev === -2 ? "missing" : "conflict" }; continue; }
    const object = objects[i];
    object.metadata.resourceVersion = String(rev);
    const op = ops[i];
    const type: EventType = op.type === "create" ? "ADDED" : op.type === "update" ? "MODIFIED" : "DELETED";
    const event: LogEvent = { rev, type, key: op.key, object, json: `${heads[i]}${rev}${tails[i]}`, ...(op.user ? { user: op.user } : {}) };
    events.push(event);
    results[i] = { ok: true, event };
  }
  return { results, events, tailed };
}

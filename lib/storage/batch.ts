// One write batch: its plan (each op's precondition checked in order against the stored revisions, revisions
// given from the store's) and the statements of its transaction, written once for every executor: SQLite's
// synchronous driver and PostgreSQL's counter-locked way (postgres/locked-batch.ts).
import type { KubeObject } from "../kinds/types";
import type { BatchResult } from "./dialect";
import { keyId, userColumn } from "./log-rows";
import type { EventType, LogEvent, ObjectKey, ValueTransformer, WriteOp, WriteResult } from "./types";

/** Runs SQL inside a write transaction: synchronously (SQLite driver) or asynchronously (node-postgres). */
export interface Executor {
  query<T>(sql: string, params: unknown[]): T[] | Promise<T[]>;
  execute(sql: string, params: unknown[]): number | Promise<number>;
}

/**
 * A batch's outcome given the stored revision of each key it touches (`current`, by keyId; updated in place)
 * and the store's revision before it: each op's precondition checked in order, revisions from `startRev + 1`.
 */
export function planBatch(ops: WriteOp[], current: Map<string, number>, startRev: number): BatchResult & { finalState: Map<string, LogEvent> } {
  let rev = startRev;
  const results: WriteResult[] = [];
  const events: LogEvent[] = [];
  const finalState = new Map<string, LogEvent>();
  for (const op of ops) {
    const id = keyId(op.key);
    const stored = current.get(id);
    if (op.type === "create" && stored !== undefined) { results.push({ ok: false, reason: "exists" }); continue; }
    if (op.type !== "create" && stored === undefined) { results.push({ ok: false, reason: "missing" }); continue; }
    if (op.type !== "create" && stored !== op.expectRev) { results.push({ ok: false, reason: "conflict" }); continue; }
    rev += 1;
    const object: KubeObject = { ...op.object, metadata: { ...op.object.metadata, resourceVersion: String(rev) } };
    const type: EventType = op.type === "create" ? "ADDED" : op.type === "update" ? "MODIFIED" : "DELETED";
    const event: LogEvent = { rev, type, key: op.key, object, json: JSON.stringify(object), ...(op.user ? { user: op.user } : {}) };
    if (op.type === "delete") current.delete(id); else current.set(id, rev);
    events.push(event);
    finalState.set(id, event);
    results.push({ ok: true, event });
  }
  return { results, events, finalState };
}

/**
 * Drives a generator whose `yield`s are executor results: plain values are fed straight back (no await, so a
 * synchronous executor never yields to the event loop), promises are awaited.
 */
function run<R>(gen: () => Generator<unknown, R, unknown>): R | Promise<R> {
  const it = gen();
  const step = (input: unknown): R | Promise<R> => {
    let next = it.next(input);
    while (!next.done) {
      const v = next.value as { then?: unknown } | null;
      if (v && typeof v.then === "function") return Promise.resolve(v).then(step); // lazy promises are thenables
      next = it.next(next.value);
    }
    return next.value;
  };
  return step(undefined);
}

/**
 * The statements of one batch's transaction: bump the counter row first (its lock serialises writers), read
 * the stored revisions of the batch's keys, append the log rows, upsert/delete current rows, set the counter,
 * and on PostgreSQL notify `notifyChannel` (delivered only if the transaction commits). With the synchronous
 * SQLite executor every step returns a plain value and the whole function runs without yielding.
 */
export function batchStatements(
  ops: WriteOp[], ex: Executor, p: (i: number) => string, transformer: ValueTransformer, notifyChannel?: string,
): BatchResult | Promise<BatchResult> {
  const now = BigInt(Date.now());
  return run(function* () {
    const [{ rev: startRev }] = (yield ex.query<{ rev: bigint | number }>(
      `UPDATE "Revision" SET "rev" = "rev" WHERE "id" = 1 RETURNING "rev"`, [])) as { rev: bigint | number }[];
    let rev = Number(startRev);

    // Current revision of every key the batch touches, then apply the ops in order in memory.
    const keys = new Map<string, ObjectKey>();
    for (const op of ops) keys.set(keyId(op.key), op.key);
    const current = new Map<string, number>();
    const keyList = [...keys.values()];
    const where = keyList.map((_, i) => `("resource" = ${p(3 * i + 1)} AND "namespace" = ${p(3 * i + 2)} AND "name" = ${p(3 * i + 3)})`).join(" OR ");
    const rows = (yield ex.query(
      `SELECT "resource", "namespace", "name", "rev" FROM "CurrentObject" WHERE ${where}`,
      keyList.flatMap((k) => [k.resource, k.namespace, k.name]))) as { resource: string; namespace: string; name: string; rev: bigint | number }[];
    for (const r of rows) current.set(keyId(r), Number(r.rev));

    const { results, events, finalState } = planBatch(ops, current, rev);
    rev += events.length;
    if (events.length === 0) return { results, events };
    const stored = new Map(events.map((e) => [e, transformer.toStorage(e.key, e.json)]));

    yield ex.execute(
      `INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt", "user") VALUES ${
        events.map((_, i) => `(${[1, 2, 3, 4, 5, 6, 7, 8].map((j) => p(8 * i + j)).join(", ")})`).join(", ")}`,
      events.flatMap((e) => [BigInt(e.rev), e.key.resource, e.key.namespace, e.key.name, e.type, stored.get(e)!, now, userColumn(e)]));

    const upserts = [...finalState.values()].filter((e) => e.type !== "DELETED");
    const deletes = [...finalState.values()].filter((e) => e.type === "DELETED");
    if (upserts.length) {
      yield ex.execute(
        `INSERT INTO "CurrentObject" ("resource", "namespace", "name", "rev", "object") VALUES ${
          upserts.map((_, i) => `(${[1, 2, 3, 4, 5].map((j) => p(5 * i + j)).join(", ")})`).join(", ")
        } ON CONFLICT ("resource", "namespace", "name") DO UPDATE SET "rev" = excluded."rev", "object" = excluded."object"`,
        upserts.flatMap((e) => [e.key.resource, e.key.namespace, e.key.name, BigInt(e.rev), stored.get(e)!]));
    }
    if (deletes.length) {
      yield ex.execute(
        `DELETE FROM "CurrentObject" WHERE ${deletes.map((_, i) => `("resource" = ${p(3 * i + 1)} AND "namespace" = ${p(3 * i + 2)} AND "name" = ${p(3 * i + 3)})`).join(" OR ")}`,
        deletes.flatMap((e) => [e.key.resource, e.key.namespace, e.key.name]));
    }
    yield ex.execute(`UPDATE "Revision" SET "rev" = ${p(1)} WHERE "id" = 1`, [BigInt(rev)]);
    // Delivered to every listening replica when (and only if) this transaction commits.
    if (notifyChannel) yield ex.execute(`NOTIFY ${notifyChannel}, '${rev}'`, []);
    return { results, events };
  });
}

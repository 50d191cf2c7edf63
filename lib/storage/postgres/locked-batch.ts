// The PostgreSQL batch of last resort (a batch planned in this process missed three times): under the counter
// row's lock, with the statements every dialect's batch runs (batch.ts).
import type pg from "pg";
import { batchStatements, type Executor } from "../batch";
import type { BatchResult } from "../dialect";
import { keyId } from "../log-rows";
import type { ValueTransformer, WriteOp } from "../types";
import { LOG_CHANNEL } from "./notifier";
import { inTransaction, pgParams } from "./session";

/**
 * Three round trips, whatever the batch's size: BEGIN with the counter bump and the precondition read (one
 * simple-protocol message; the keys are quoted literals), every write of the batch as one statement
 * (data-modifying WITH clauses), and the notification with COMMIT. The counter row stays locked from the first
 * to the last, so the fewer waits for the database backend in between (each a scheduling delay on a busy
 * machine), the more batches per second every replica together can commit.
 */
export function lockedBatch(pool: pg.Pool, ops: WriteOp[], transformer: ValueTransformer): Promise<BatchResult> {
  return inTransaction(pool, async (client) => {
    const writes: { sql: string; params: unknown[] }[] = [];
    let notify = "";
    // The statements batchStatements reads with, answered from one message sent up front: its first query is
    // the counter bump, its second the current revisions of the batch's keys (it looks rows up by key).
    const keys = new Map(ops.map((op) => [keyId(op.key), op.key]));
    const lit = (v: string) => client.escapeLiteral(v);
    const current = `SELECT "resource", "namespace", "name", "rev" FROM "CurrentObject" WHERE ${[...keys.values()]
      .map((k) => `("resource" = ${lit(k.resource)} AND "namespace" = ${lit(k.namespace)} AND "name" = ${lit(k.name)})`).join(" OR ")}`;
    let prelude: pg.QueryResult[] | undefined;
    let reads = 0;
    const ex: Executor = {
      query: async <T>(sql: string, params: unknown[]) => {
        reads++;
        if (reads === 1 && params.length === 0 && sql.startsWith(`UPDATE "Revision"`)) {
          prelude = (await client.query(`BEGIN; ${sql}; ${current}`)) as unknown as pg.QueryResult[];
          return prelude[1].rows as T[];
        }
        if (reads === 2 && prelude && sql.startsWith(`SELECT "resource", "namespace", "name", "rev" FROM "CurrentObject"`)) return prelude[2].rows as T[];
        if (!prelude) throw new Error(`unexpected first statement of a write batch: ${sql.slice(0, 60)}`);
        return (await client.query(sql, pgParams(params))).rows as T[];
      },
      // Writes are collected (their row counts are not used) and sent together before COMMIT.
      execute: (sql: string, params: unknown[]) => {
        if (sql.startsWith("NOTIFY ")) notify = sql;
        else writes.push({ sql, params });
        return 0;
      },
    };
    const out = await batchStatements(ops, ex, (i) => `$${i}`, transformer, LOG_CHANNEL);
    if (writes.length) {
      let offset = 0;
      const parts = writes.map((w) => {
        const shifted = w.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
        offset += w.params.length;
        return shifted;
      });
      const last = parts.pop()!;
      const sql = parts.length ? `WITH ${parts.map((p, i) => `"w${i}" AS (${p})`).join(", ")} ${last}` : last;
      await client.query(sql, pgParams(writes.flatMap((w) => w.params)));
    }
    await client.query(notify ? `${notify}; COMMIT` : "COMMIT");
    return out;
  });
}

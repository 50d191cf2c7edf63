// A PostgreSQL batch planned in this process (against the watch cache at revision `base`) and committed only
// if the store is still there: the way for values transformed at rest, which the write function cannot take.
import type pg from "pg";
import { userColumn } from "../log-rows";
import type { LogEvent, ValueTransformer } from "../types";
import { LOG_CHANNEL } from "./notifier";

/**
 * One statement: set the counter from `base` to `base + events.length` if it is at `base`, and only then
 * append the events, write the current rows and notify (data-modifying WITH clauses conditioned on the
 * compare and set). True when it committed.
 */
export async function commitIf(pool: pg.Pool, base: number, events: LogEvent[], finalState: LogEvent[], transformer: ValueTransformer): Promise<boolean> {
  if (events.length === 0) {
    // Every precondition failed against the cache: right if the cache was current.
    const { rows } = await pool.query(`SELECT 1 FROM "Revision" WHERE "id" = 1 AND "rev" = $1`, [String(base)]);
    return rows.length === 1;
  }
  const params: unknown[] = [];
  const $ = (v: unknown, cast = "") => { params.push(typeof v === "bigint" ? v.toString() : v); return `$${params.length}${cast}`; };
  const now = Date.now();
  const stored = new Map(events.map((e) => [e, transformer.toStorage(e.key, e.json)]));
  const parts = [
    `"cas" AS (UPDATE "Revision" SET "rev" = ${$(String(base + events.length), "::bigint")} WHERE "id" = 1 AND "rev" = ${$(String(base), "::bigint")} RETURNING "rev")`,
    `"log" AS (INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt", "user") SELECT * FROM (VALUES ${
      events.map((e) => `(${$(String(e.rev), "::bigint")}, ${$(e.key.resource)}, ${$(e.key.namespace)}, ${$(e.key.name)}, ${$(e.type)}, ${$(stored.get(e))}, ${$(String(now), "::bigint")}, ${$(userColumn(e))})`).join(", ")
    }) AS "v" WHERE EXISTS (SELECT 1 FROM "cas"))`,
  ];
  const upserts = finalState.filter((e) => e.type !== "DELETED");
  const deletes = finalState.filter((e) => e.type === "DELETED");
  if (upserts.length) {
    parts.push(`"up" AS (INSERT INTO "CurrentObject" ("resource", "namespace", "name", "rev", "object") SELECT * FROM (VALUES ${
      upserts.map((e) => `(${$(e.key.resource)}, ${$(e.key.namespace)}, ${$(e.key.name)}, ${$(String(e.rev), "::bigint")}, ${$(stored.get(e))})`).join(", ")
    }) AS "v" WHERE EXISTS (SELECT 1 FROM "cas") ON CONFLICT ("resource", "namespace", "name") DO UPDATE SET "rev" = excluded."rev", "object" = excluded."object")`);
  }
  if (deletes.length) {
    parts.push(`"del" AS (DELETE FROM "CurrentObject" WHERE EXISTS (SELECT 1 FROM "cas") AND (${
      deletes.map((e) => `("resource" = ${$(e.key.resource)} AND "namespace" = ${$(e.key.namespace)} AND "name" = ${$(e.key.name)})`).join(" OR ")}))`);
  }
  const { rows } = await pool.query(`WITH ${parts.join(", ")} SELECT "rev", pg_notify('${LOG_CHANNEL}', "rev"::text) FROM "cas"`, params);
  return rows.length === 1;
}

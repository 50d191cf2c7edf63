// The log read back as object history (lib/history serves it): an object's revisions, deleted objects, a
// namespace's recent changes, each entry with who wrote it, values through the transformer (Secret history is
// encrypted at rest like the Secret). What the log still holds is compaction's retention (compaction.ts).
import type { Dialect } from "./dialect";
import type { HistoryReader } from "./interfaces";
import { LOG_COLUMNS, parseUser, readableLogRow, type DbLogRow } from "./log-rows";
import type { HistoryEntry, ObjectKey, ValueTransformer } from "./types";

export class LogHistory implements HistoryReader {
  constructor(private readonly dialect: Dialect, private readonly transformer: ValueTransformer) {}

  private entry(r: DbLogRow & { user: string }): HistoryEntry | undefined {
    const row = readableLogRow(r, this.transformer);
    if (!row) return undefined; // written with a key this process cannot read
    const user = parseUser(r.user);
    return { rev: row.rev, type: row.type, key: row.key, json: row.json, createdAt: row.createdAt ?? 0, ...(user ? { user } : {}) };
  }

  history(key: ObjectKey, limit: number, beforeRev?: number): Promise<HistoryEntry[]> {
    const p = this.dialect.param;
    return this.dialect.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS}, "user" FROM "LogEntry" WHERE "resource" = ${p(1)} AND "namespace" = ${p(2)} AND "name" = ${p(3)} ` +
        `AND "rev" < ${p(4)} ORDER BY "rev" DESC LIMIT ${p(5)}`,
        key.resource, key.namespace, key.name, BigInt(beforeRev ?? Number.MAX_SAFE_INTEGER), BigInt(limit));
      return rows.map((r) => this.entry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }

  deletedObjects(resource: string, namespace: string | undefined, limit: number): Promise<HistoryEntry[]> {
    const p = this.dialect.param;
    return this.dialect.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS.split(", ").map((c) => `"d".${c}`).join(", ")}, "d"."user" FROM "LogEntry" AS "d" WHERE "d"."resource" = ${p(1)} ` +
        `${namespace === undefined ? "" : `AND "d"."namespace" = ${p(2)} `}AND "d"."type" = 'DELETED' AND NOT EXISTS (SELECT 1 FROM "LogEntry" AS "l" ` +
        `WHERE "l"."resource" = "d"."resource" AND "l"."namespace" = "d"."namespace" AND "l"."name" = "d"."name" AND "l"."rev" > "d"."rev") ` +
        `ORDER BY "d"."rev" DESC LIMIT ${p(namespace === undefined ? 2 : 3)}`,
        ...(namespace === undefined ? [resource, BigInt(limit)] : [resource, namespace, BigInt(limit)]));
      return rows.map((r) => this.entry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }

  changes(namespace: string, resources: string[], sinceMs: number, limit: number): Promise<HistoryEntry[]> {
    if (resources.length === 0) return Promise.resolve([]);
    const p = this.dialect.param;
    return this.dialect.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS}, "user" FROM "LogEntry" WHERE "namespace" = ${p(1)} AND "createdAt" >= ${p(2)} ` +
        `AND "resource" IN (${resources.map((_, i) => p(i + 3)).join(", ")}) ORDER BY "rev" DESC LIMIT ${p(resources.length + 3)}`,
        namespace, BigInt(Math.floor(sinceMs)), ...resources, BigInt(limit));
      return rows.map((r) => this.entry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }
}

// Compaction as etcd's, and the object history's pruning, in one transaction per round (the driver runs the
// round: SQLite on its write connection, PostgreSQL one replica at a time).
import type { Dialect } from "./dialect";

/** How much history the log keeps beyond the compaction window. */
export interface HistoryRetention {
  /** The last this many revisions of every object (at least 1: the latest entry is always kept). */
  revisions: number;
  /** A deleted object's entries for this many days after its deletion (0: gone with the window). */
  days: number;
}

export class Compactor {
  /** Deleted objects whose deletion is older than this (epoch ms) were pruned by an earlier round. */
  private deletedPrunedBefore = 0;

  constructor(
    private readonly dialect: Dialect,
    /** History kept beyond the window; by default none (etcd's compaction). */
    private readonly retention: HistoryRetention = { revisions: 1, days: 0 },
  ) {}

  /**
   * Moves `LogCompaction.rev` to the newest revision written before `beforeMs` (epoch ms); the watch history
   * starts there. Entries at or below it are then pruned to the retention: an entry goes when its key has
   * `retention.revisions` newer entries and a newer one at or below the compaction revision (each key's latest
   * entry there stays: the state a later write replaces, which a starting replica needs to rebuild its
   * history); every entry of a key whose latest entry is a delete older than `retention.days` goes. With the
   * default retention (1 revision, 0 days) this is etcd's compaction. Entries above the compaction revision and
   * current state are untouched. Returns the number of entries removed (0 when another replica compacts).
   */
  compact(beforeMs: number): Promise<number> {
    const p = this.dialect.param;
    const keep = Math.max(1, Math.floor(this.retention.revisions));
    const deletedBefore = Math.min(beforeMs, Date.now() - this.retention.days * 86_400_000);
    const since = Math.min(this.deletedPrunedBefore, deletedBefore);
    const sameKey = (a: string, b: string) => `"${a}"."resource" = "${b}"."resource" AND "${a}"."namespace" = "${b}"."namespace" AND "${a}"."name" = "${b}"."name"`;
    // Keys written in (done, upTo] are the only ones whose count of newer entries, or newer entries at or
    // below the compaction revision, changed since the last round. Params: done, upTo, upTo, keep, upTo.
    const pruneSql = `DELETE FROM "LogEntry" WHERE "rev" IN (SELECT "rev" FROM (SELECT "e"."rev" AS "rev", ` +
      `ROW_NUMBER() OVER "w" AS "n", LAG("e"."rev") OVER "w" AS "newer" FROM "LogEntry" AS "e" WHERE EXISTS (` +
      `SELECT 1 FROM "LogEntry" AS "t" WHERE ${sameKey("t", "e")} AND "t"."rev" > ${p(1)} AND "t"."rev" <= ${p(2)}) ` +
      `WINDOW "w" AS (PARTITION BY "e"."resource", "e"."namespace", "e"."name" ORDER BY "e"."rev" DESC)) AS "ranked" ` +
      `WHERE "rev" <= ${p(3)} AND "n" > ${p(4)} AND "newer" <= ${p(5)})`;
    // Keys whose latest entry is a delete made in [since, deletedBefore) at or below the compaction revision.
    // Params: since, deletedBefore, upTo.
    const deletedSql = `DELETE FROM "LogEntry" WHERE EXISTS (SELECT 1 FROM "LogEntry" AS "d" WHERE ${sameKey("d", "LogEntry")} ` +
      `AND "d"."type" = 'DELETED' AND "d"."createdAt" >= ${p(1)} AND "d"."createdAt" < ${p(2)} AND "d"."rev" <= ${p(3)} ` +
      `AND NOT EXISTS (SELECT 1 FROM "LogEntry" AS "l" WHERE ${sameKey("l", "d")} AND "l"."rev" > "d"."rev"))`;
    const round = this.dialect.compact({
      doneSql: `SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`,
      maxSql: `SELECT MAX("rev") AS "rev" FROM "LogEntry" WHERE "createdAt" < ${p(1)} AND "rev" > ${p(2)}`,
      beforeMs,
      pruned: (done, upTo) => [
        { sql: pruneSql, params: [done, upTo, upTo, BigInt(keep), upTo] },
        { sql: deletedSql, params: [BigInt(since), BigInt(deletedBefore), upTo] },
      ],
      markSql: `UPDATE "LogCompaction" SET "rev" = ${p(1)} WHERE "id" = 1`,
    });
    // The lower bound of deleted objects' pruning moves only once the round has committed: a round that
    // rolled back leaves its deleted objects to the next.
    return round.then((removed) => {
      if (removed === undefined) return 0;
      this.deletedPrunedBefore = Math.max(this.deletedPrunedBefore, deletedBefore);
      return removed;
    });
  }

  /** The revision up to which the log is compacted. */
  compactedRevision(): Promise<number> {
    return this.dialect.reads(async (db) => {
      const [{ rev }] = await db.query<{ rev: bigint }>(`SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`);
      return Number(rev);
    });
  }
}

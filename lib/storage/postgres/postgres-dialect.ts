// PostgreSQL, every statement over node-postgres (session.ts). A write batch goes one of three ways: the write
// function allocating its revisions in the database (write-function.ts, the usual way); when a value is
// transformed at rest, planned against this process's watch cache and committed only if the store is still at
// the cache's revision (compare-and-set.ts), planned again after catching up on a miss; after three misses,
// under the counter row's lock (locked-batch.ts). One replica compacts at a time (an advisory lock). Other
// replicas' commits are notified (notifier.ts). This folder is everything that runs only on PostgreSQL.
import pg from "pg";
import { planBatch } from "../batch";
import { ADVISORY_LOCK } from "../db";
import type { BatchResult, CompactionRound, Dialect, Session, StoreView } from "../dialect";
import { keyId } from "../log-rows";
import type { ValueTransformer, WriteOp } from "../types";
import { commitIf } from "./compare-and-set";
import { lockedBatch } from "./locked-batch";
import { inTransaction, pgSession } from "./session";
import { allocatingBatch } from "./write-function";

export class PostgresDialect implements Dialect {
  readonly name = "postgresql" as const;
  readonly param = (i: number) => `$${i}`;
  private readonly pool: pg.Pool;
  /** Which way write batches went: allocated in the database, or planned here and committed at once, after catching up, under the lock (metrics). */
  readonly batchPaths = { allocated: 0, optimistic: 0, retried: 0, locked: 0 };

  constructor(
    url: string,
    private readonly transformer: ValueTransformer,
    /** This process's watch cache, for batches planned here. */
    private readonly view: StoreView,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 10, keepAlive: true });
    this.pool.on("error", () => { /* an idle connection dropped: the pool replaces it */ });
  }

  async writeBatch(ops: WriteOp[]): Promise<BatchResult> {
    const pool = this.pool;
    const allocated = await allocatingBatch(pool, ops, this.transformer, this.view.rev());
    if (allocated) {
      this.batchPaths.allocated++;
      return allocated;
    }
    const view = this.view;
    for (let attempt = 0; attempt < 3; attempt++) {
      const base = view.rev();
      const current = new Map<string, number>();
      for (const op of ops) {
        const id = keyId(op.key);
        if (current.has(id)) continue;
        const r = view.revOf(op.key);
        if (r !== undefined) current.set(id, r);
      }
      const plan = planBatch(ops, current, base);
      if (await commitIf(pool, base, plan.events, [...plan.finalState.values()], this.transformer)) {
        if (attempt === 0) this.batchPaths.optimistic++; else this.batchPaths.retried++;
        return { results: plan.results, events: plan.events };
      }
      await view.catchUp();
    }
    this.batchPaths.locked++;
    return lockedBatch(pool, ops, this.transformer);
  }

  transaction<T>(fn: (s: Session) => Promise<T>, opts: { snapshot?: boolean; timeoutMs?: number } = {}): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(opts.snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
      const out = await fn(pgSession(client));
      await client.query("COMMIT");
      return out;
    });
  }

  reads<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    return fn(pgSession(this.pool));
  }

  latestRevision(): Promise<number> {
    return this.reads(async (db) => {
      const [{ rev }] = await db.query<{ rev: bigint }>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      return Number(rev);
    });
  }

  /** One replica at a time: the others skip the round. */
  compact(round: CompactionRound): Promise<number | undefined> {
    return this.transaction(async (tx) => {
      const [{ locked }] = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCK.compact}) AS "locked"`);
      if (!locked) return undefined;
      const [{ rev: done }] = await tx.query<{ rev: bigint }>(round.doneSql);
      const [{ rev: upToRaw }] = await tx.query<{ rev: bigint | null }>(round.maxSql, BigInt(round.beforeMs), done);
      // No new entry to compact: deleted objects may still have aged past the retention.
      const upTo = BigInt(upToRaw ?? done);
      let removed = 0;
      for (const st of round.pruned(BigInt(done), upTo)) removed += await tx.execute(st.sql, ...st.params);
      if (upToRaw != null) await tx.execute(round.markSql, upTo);
      return removed;
    }, { timeoutMs: 120_000 });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

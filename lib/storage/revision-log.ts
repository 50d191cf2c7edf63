// The durable store: an append-only revision log plus a current-state table, written together in one
// transaction per batch of writes (group commit). The single counter row in "Revision" is bumped first in
// every write transaction; that row lock serialises writers on SQLite and PostgreSQL alike, so revisions
// are contiguous and commit in order, and a tailing process can never miss or reorder one.
import Database, { type Statement } from "better-sqlite3";
import pg from "pg";
import type { Db, Dialect } from "./db";
import { ADVISORY_LOCK, placeholder } from "./db";
import { Mutex } from "./mutex";
import type { EventType, LogEvent, ObjectKey, ValueTransformer, WriteOp, WriteResult } from "./types";
import { objectKeyString, plainValues } from "./types";
import type { KubeObject } from "../kinds/types";

interface Pending {
  op: WriteOp;
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

export interface LogRow {
  rev: number;
  type: EventType;
  key: ObjectKey;
  json: string;
  stale?: boolean;
  /** When the write was committed (epoch ms, the writer's clock). */
  createdAt?: number;
}

/**
 * What a cache needs to start: every current object at `rev`, and the log entries after `historyStartRev` up
 * to `rev` (contiguous), each with the state it replaced where that lies before the history (`bases`).
 */
export interface StoreSnapshot {
  rev: number;
  objects: { key: ObjectKey; rev: number; json: string; stale?: boolean }[];
  historyStartRev: number;
  history: LogRow[];
  /** For keys whose first history entry is not a create: their latest entry at or before historyStartRev. */
  bases: LogRow[];
}

/** PostgreSQL: every write transaction notifies this channel with its last revision (see notifier.ts). */
export const LOG_CHANNEL = "cluster_core_log";

/** Counters for metrics (lib/metrics reads them): commit latency and volume. */
export interface CommitStats {
  /** Write transactions committed (one per batch). */
  batches: number;
  /** Writes committed (log entries appended). */
  writes: number;
  /** Sum of the batches' commit durations, seconds (from the first statement to COMMIT). */
  commitSecondsSum: number;
  /** The last batch's commit duration, seconds. */
  lastCommitSeconds: number;
  /** Failed write transactions (the database refused or was unreachable). */
  failures: number;
}

const MAX_BATCH = 64;

const keyId = (k: ObjectKey) => `${k.resource}\u0000${objectKeyString(k)}`;

/**
 * A batch's outcome given the stored revision of each key it touches (`current`, by keyId; updated in place)
 * and the store's revision before it: each op's precondition checked in order, revisions from `startRev + 1`.
 */
function planBatch(ops: WriteOp[], current: Map<string, number>, startRev: number): BatchResult & { finalState: Map<string, LogEvent> } {
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
    const event: LogEvent = { rev, type, key: op.key, object, json: JSON.stringify(object) };
    if (op.type === "delete") current.delete(id); else current.set(id, rev);
    events.push(event);
    finalState.set(id, event);
    results.push({ ok: true, event });
  }
  return { results, events, finalState };
}

/**
 * What this process's watch cache knows (set by openStore): the revision it has applied and each object's
 * revision at it. PostgreSQL write batches are planned against it and committed only if the store is still
 * at that revision (see RevisionLog.pgWriteBatch).
 */
export interface StoreView {
  rev(): number;
  revOf(key: ObjectKey): number | undefined;
  /** Read what other processes committed since. */
  catchUp(): Promise<void>;
}

interface DbLogRow { rev: bigint; resource: string; namespace: string; name: string; type: string; object: string; createdAt: bigint }
const LOG_COLUMNS = `"rev", "resource", "namespace", "name", "type", "object", "createdAt"`;

interface BatchResult {
  results: WriteResult[];
  events: LogEvent[];
}

/** Runs SQL inside a write transaction: synchronously (SQLite driver) or asynchronously (Prisma). */
interface Executor {
  query<T>(sql: string, params: unknown[]): T[] | Promise<T[]>;
  execute(sql: string, params: unknown[]): number | Promise<number>;
}

/** Statements inside one transaction (or plain reads), with numbered or `?` placeholders as `placeholder()` makes them. */
interface Session {
  query<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  execute(sql: string, ...params: unknown[]): Promise<number>;
}

/** node-postgres sends strings for BIGINT parameters (it has no BigInt encoding); int8 results come back as strings. */
const pgParams = (params: unknown[]) => params.map((v) => (typeof v === "bigint" ? v.toString() : v));

function pgSession(client: pg.PoolClient): Session {
  return {
    query: async <T>(sql: string, ...params: unknown[]) => (await client.query(sql, pgParams(params))).rows as T[],
    execute: async (sql: string, ...params: unknown[]) => (await client.query(sql, pgParams(params))).rowCount ?? 0,
  };
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
      if (v && typeof v.then === "function") return Promise.resolve(v).then(step); // Prisma's lazy promises are thenables
      next = it.next(next.value);
    }
    return next.value;
  };
  return step(undefined);
}

export class RevisionLog {
  private queue: Pending[] = [];
  private flushing = false;
  /** SQLite runs every statement on one connection: reads must not interleave with an open write transaction. */
  private readonly connection: Mutex | null;
  private readonly p: (i: number) => string;
  /** How object JSON is held in the database (encryption at rest, lib/encryption); set by openStore. */
  transformer: ValueTransformer = plainValues;

  readonly commitStats: CommitStats = { batches: 0, writes: 0, commitSecondsSum: 0, lastCommitSeconds: 0, failures: 0 };
  /** Observers of each committed batch's duration (seconds) and size, e.g. a latency histogram. */
  readonly commitObservers = new Set<(seconds: number, writes: number) => void>();

  /** SQLite: a read-only connection used only to read the revision counter. */
  private readonly counterReader: Statement | null = null;
  private readonly readerDb: Database.Database | null = null;
  /** SQLite: the driver connection write transactions run on. */
  private readonly writer: Database.Database | null = null;
  /**
   * PostgreSQL: node-postgres connections for every statement of this class. Through Prisma each statement
   * costs milliseconds (more than the database's own work and the commit's flush); its client stays for
   * migrations and for callers of `Store.db`.
   */
  private readonly pool: pg.Pool | null = null;
  /** PostgreSQL: the watch cache's view, for optimistic write batches (see pgWriteBatch). */
  view: StoreView | undefined;
  /** PostgreSQL write batches committed on the first try, after catching up, and under the counter lock (metrics). */
  readonly batchPaths = { optimistic: 0, retried: 0, locked: 0 };

  constructor(
    private readonly db: Db,
    readonly dialect: Dialect,
    private readonly onCommitted: (events: LogEvent[]) => void,
    sqliteFile?: string,
    synchronous: "FULL" | "NORMAL" = "FULL",
    postgresUrl?: string,
  ) {
    this.connection = dialect === "sqlite" ? new Mutex() : null;
    this.p = placeholder(dialect);
    if (dialect === "postgresql" && postgresUrl) {
      this.pool = new pg.Pool({ connectionString: postgresUrl, max: 10, keepAlive: true });
      this.pool.on("error", () => { /* an idle connection dropped: the pool replaces it */ });
    }
    if (sqliteFile) {
      this.writer = new Database(sqliteFile, { fileMustExist: true, timeout: 10_000 });
      this.writer.pragma("journal_mode = WAL");
      this.writer.pragma(`synchronous = ${synchronous}`);
      this.readerDb = new Database(sqliteFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
      this.counterReader = this.readerDb.prepare(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
    }
  }

  /** Prepared statements by SQL text (batch statements differ only by batch size, so there are few). */
  private readonly statements = new Map<string, Statement>();

  private prepared(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.writer!.prepare(sql);
      if (this.statements.size > 512) this.statements.clear();
      this.statements.set(sql, st);
    }
    return st;
  }

  async close(): Promise<void> {
    this.readerDb?.close();
    this.writer?.close();
    await this.pool?.end();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.connection ? this.connection.run(fn) : fn();
  }

  /**
   * Runs `fn` in one transaction (`snapshot`: a read-only consistent snapshot): on PostgreSQL on a pooled
   * node-postgres connection, otherwise as a Prisma interactive transaction (one at a time on SQLite).
   */
  private transaction<T>(fn: (s: Session) => Promise<T>, opts: { snapshot?: boolean; timeoutMs?: number } = {}): Promise<T> {
    const pool = this.pool;
    if (pool) {
      return (async () => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query(opts.snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
          const out = await fn(pgSession(client));
          await client.query("COMMIT");
          return out;
        } catch (err) {
          await client.query("ROLLBACK").catch((e: Error) => { broken = e; });
          throw err;
        } finally {
          client.release(broken);
        }
      })();
    }
    return this.exclusive(() => this.db.$transaction(async (tx) => fn({
      query: <R>(sql: string, ...params: unknown[]) => tx.$queryRawUnsafe<R[]>(sql, ...params),
      execute: (sql: string, ...params: unknown[]) => tx.$executeRawUnsafe(sql, ...params),
    }), {
      ...(opts.snapshot ? { isolationLevel: this.dialect === "postgresql" ? "RepeatableRead" as const : "Serializable" as const } : {}),
      timeout: opts.timeoutMs ?? 30_000, maxWait: 30_000,
    }));
  }

  /** Runs `fn`'s reads outside a transaction (each statement on its own). */
  private reads<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const pool = this.pool;
    if (pool) {
      return fn({
        query: async <R>(sql: string, ...params: unknown[]) => (await pool.query(sql, pgParams(params))).rows as R[],
        execute: async (sql: string, ...params: unknown[]) => (await pool.query(sql, pgParams(params))).rowCount ?? 0,
      });
    }
    return this.exclusive(() => fn({
      query: <R>(sql: string, ...params: unknown[]) => this.db.$queryRawUnsafe<R[]>(sql, ...params),
      execute: (sql: string, ...params: unknown[]) => this.db.$executeRawUnsafe(sql, ...params),
    }));
  }

  /** Queue one write; resolves once it is durably committed (or refused by its precondition). */
  commit(op: WriteOp): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // After this event-loop pass: requests read from other connections in the same pass join the batch
        // (SQLite commits synchronously, so a microtask would commit each write alone, one fsync each).
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const t0 = performance.now();
        const { results, events } = await this.writeBatch(batch.map((b) => b.op));
        const seconds = (performance.now() - t0) / 1000;
        const st = this.commitStats;
        st.batches++; st.writes += events.length; st.commitSecondsSum += seconds; st.lastCommitSeconds = seconds;
        for (const o of this.commitObservers) o(seconds, events.length);
        this.onCommitted(events);
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        this.commitStats.failures++;
        batch.forEach((b) => b.reject(err));
      }
    }
    this.flushing = false;
  }

  /**
   * One write transaction for a batch, the same SQL on every database. SQLite runs it synchronously on a
   * dedicated driver connection (BEGIN IMMEDIATE takes the write lock first); Prisma's per-statement cost
   * (0.2-0.4 ms) would otherwise dominate every write. PostgreSQL runs it on a node-postgres connection (see
   * `pool`), the statements one after another.
   */
  private writeBatch(ops: WriteOp[]): Promise<BatchResult> {
    if (this.writer) {
      const w = this.writer;
      const ex: Executor = {
        query: <T>(sql: string, params: unknown[]) => this.prepared(sql).all(...params) as T[],
        execute: (sql: string, params: unknown[]) => this.prepared(sql).run(...params).changes,
      };
      w.exec("BEGIN IMMEDIATE");
      try {
        const out = this.batchStatements(ops, ex) as BatchResult;
        w.exec("COMMIT");
        return Promise.resolve(out);
      } catch (err) {
        if (w.inTransaction) w.exec("ROLLBACK");
        return Promise.reject(err);
      }
    }
    if (this.pool) return this.pgWriteBatch(this.pool, ops);
    return this.transaction((tx) => {
      const ex: Executor = {
        query: <T>(sql: string, params: unknown[]) => tx.query<T>(sql, ...params),
        execute: (sql: string, params: unknown[]) => tx.execute(sql, ...params),
      };
      return Promise.resolve(this.batchStatements(ops, ex));
    });
  }

  /**
   * A batch on PostgreSQL. Planned against this process's watch cache at its revision N and sent as one
   * statement that commits only if the store is still at N (the counter row: compare and set), so the counter
   * row is locked only inside the database, never across a round trip: replicas writing at the same time
   * keep out of each other's way. When another process committed in between, the cache catches up and the
   * batch is planned again; after three misses it takes the counter lock first (`pgLockedBatch`).
   */
  private async pgWriteBatch(pool: pg.Pool, ops: WriteOp[]): Promise<BatchResult> {
    const view = this.view;
    if (view) {
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
        if (await this.pgCommitIf(pool, base, plan.events, [...plan.finalState.values()])) {
          if (attempt === 0) this.batchPaths.optimistic++; else this.batchPaths.retried++;
          return { results: plan.results, events: plan.events };
        }
        await view.catchUp();
      }
    }
    this.batchPaths.locked++;
    return this.pgLockedBatch(pool, ops);
  }

  /**
   * One statement: set the counter from `base` to `base + events.length` if it is at `base`, and only then
   * append the events, write the current rows and notify (data-modifying WITH clauses conditioned on the
   * compare and set). True when it committed.
   */
  private async pgCommitIf(pool: pg.Pool, base: number, events: LogEvent[], finalState: LogEvent[]): Promise<boolean> {
    if (events.length === 0) {
      // Every precondition failed against the cache: right if the cache was current.
      const { rows } = await pool.query(`SELECT 1 FROM "Revision" WHERE "id" = 1 AND "rev" = $1`, [String(base)]);
      return rows.length === 1;
    }
    const params: unknown[] = [];
    const $ = (v: unknown, cast = "") => { params.push(typeof v === "bigint" ? v.toString() : v); return `$${params.length}${cast}`; };
    const now = Date.now();
    const stored = new Map(events.map((e) => [e, this.transformer.toStorage(e.key, e.json)]));
    const parts = [
      `"cas" AS (UPDATE "Revision" SET "rev" = ${$(String(base + events.length), "::bigint")} WHERE "id" = 1 AND "rev" = ${$(String(base), "::bigint")} RETURNING "rev")`,
      `"log" AS (INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt") SELECT * FROM (VALUES ${
        events.map((e) => `(${$(String(e.rev), "::bigint")}, ${$(e.key.resource)}, ${$(e.key.namespace)}, ${$(e.key.name)}, ${$(e.type)}, ${$(stored.get(e))}, ${$(String(now), "::bigint")})`).join(", ")
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

  /**
   * A batch on PostgreSQL in three round trips, whatever its size: BEGIN with the counter bump and the
   * precondition read (one simple-protocol message; the keys are quoted literals), every write of the batch
   * as one statement (data-modifying WITH clauses), and the notification with COMMIT. The counter row stays
   * locked from the first to the last, so the fewer waits for the database backend in between (each a
   * scheduling delay on a busy machine), the more batches per second every replica together can commit.
   */
  private async pgLockedBatch(pool: pg.Pool, ops: WriteOp[]): Promise<BatchResult> {
    const client = await pool.connect();
    const writes: { sql: string; params: unknown[] }[] = [];
    let notify = "";
    let broken: Error | undefined;
    // The statements batchStatements reads with, answered from one message sent up front: its first query is
    // the counter bump, its second the current revisions of the batch's keys (it looks rows up by key).
    const keys = new Map(ops.map((op) => [`${op.key.resource}\u0000${objectKeyString(op.key)}`, op.key]));
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
    try {
      const out = await this.batchStatements(ops, ex);
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
    } catch (err) {
      await client.query("ROLLBACK").catch((e: Error) => { broken = e; });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The statements of one batch. Written once for both executors: with the synchronous SQLite executor every
   * `step` call returns a plain value and the whole function runs without yielding.
   */
  private batchStatements(ops: WriteOp[], ex: Executor): BatchResult | Promise<BatchResult> {
    const p = this.p;
    const transformer = this.transformer;
    const notify = this.dialect === "postgresql";
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
        `INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt") VALUES ${
          events.map((_, i) => `(${[1, 2, 3, 4, 5, 6, 7].map((j) => p(7 * i + j)).join(", ")})`).join(", ")}`,
        events.flatMap((e) => [BigInt(e.rev), e.key.resource, e.key.namespace, e.key.name, e.type, stored.get(e)!, now]));

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
      if (notify) yield ex.execute(`NOTIFY ${LOG_CHANNEL}, '${rev}'`, []);
      return { results, events };
    });
  }

  /** Log rows after `rev`, in revision order. */
  readAfter(rev: number, limit: number): Promise<LogRow[]> {
    return this.reads(async (db) => {
      const rows = await db.query<DbLogRow>(
        `SELECT ${LOG_COLUMNS} FROM "LogEntry" WHERE "rev" > ${this.p(1)} ORDER BY "rev" LIMIT ${this.p(2)}`,
        BigInt(rev), BigInt(limit));
      return rows.map((r) => this.logRow(r));
    });
  }

  private logRow(r: DbLogRow): LogRow {
    const key = { resource: r.resource, namespace: r.namespace, name: r.name };
    return { rev: Number(r.rev), type: r.type as EventType, key, ...this.transformer.fromStorage(key, r.object), createdAt: Number(r.createdAt) };
  }

  /** The row, or undefined when the transformer cannot read its value (see loadSnapshot). */
  private readableLogRow(r: DbLogRow): LogRow | undefined {
    try {
      return this.logRow(r);
    } catch {
      return undefined;
    }
  }

  /**
   * The store's revision, every current object and the watch history the log still holds, read as one
   * consistent snapshot. The history is the contiguous run of log entries ending at the revision (entries
   * above the compaction revision; on a log compacted before compaction kept each key's latest entry, the
   * run after the last gap), plus, for each key whose first entry there is not a create, the entry it
   * replaced: with it a replica that starts late serves watches and lists from any revision in the window.
   */
  loadSnapshot(): Promise<StoreSnapshot> {
    const p = this.p;
    return this.transaction(async (tx) => {
      const [{ rev: revRaw }] = await tx.query<{ rev: bigint }>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      const rev = Number(revRaw);
      const rows = await tx.query<{ resource: string; namespace: string; name: string; rev: bigint; object: string }>(
        `SELECT "resource", "namespace", "name", "rev", "object" FROM "CurrentObject"`);
      const objects = rows.map((r) => {
        const key = { resource: r.resource, namespace: r.namespace, name: r.name };
        return { key, rev: Number(r.rev), ...this.transformer.fromStorage(key, r.object) };
      });
      const [{ rev: compactedRaw }] = await tx.query<{ rev: bigint }>(`SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`);
      const entries = await tx.query<DbLogRow>(
        `SELECT ${LOG_COLUMNS} FROM "LogEntry" WHERE "rev" > ${p(1)} AND "rev" <= ${p(2)} ORDER BY "rev"`, compactedRaw, revRaw);
      // The contiguous run that ends at `rev`.
      let first = entries.length;
      while (first > 0 && Number(entries[first - 1].rev) === rev - (entries.length - first)) first--;
      // An entry this process cannot read (written with an encryption key since removed, or in clear before
      // encryption without an identity provider) ends the history there, as compaction would.
      const readable = entries.slice(first).map((r) => this.readableLogRow(r));
      const history = readable.slice(readable.lastIndexOf(undefined) + 1) as LogRow[];
      const historyStartRev = rev - history.length;
      // Keys whose first history entry replaced an older state: that state, from the log.
      const seen = new Set<string>();
      const need = new Map<string, ObjectKey>();
      for (const e of history) {
        const id = `${e.key.resource}\u0000${objectKeyString(e.key)}`;
        if (!seen.has(id) && e.type !== "ADDED") need.set(id, e.key);
        seen.add(id);
      }
      const bases: LogRow[] = [];
      const keys = [...need.values()];
      for (let i = 0; i < keys.length; i += 200) {
        const chunk = keys.slice(i, i + 200);
        const where = chunk.map((_, j) => `("resource" = ${p(3 * j + 2)} AND "namespace" = ${p(3 * j + 3)} AND "name" = ${p(3 * j + 4)})`).join(" OR ");
        const found = await tx.query<DbLogRow>(
          `SELECT ${LOG_COLUMNS} FROM "LogEntry" WHERE "rev" <= ${p(1)} AND (${where}) ORDER BY "rev" DESC`,
          BigInt(historyStartRev), ...chunk.flatMap((k) => [k.resource, k.namespace, k.name]));
        const latest = new Set<string>();
        for (const r of found) {
          const id = `${r.resource}\u0000${r.namespace}/${r.name}`;
          if (latest.has(id)) continue;
          latest.add(id);
          const base = this.readableLogRow(r);
          if (base) bases.push(base); // unreadable: the history starts after this key's first event
        }
      }
      return { rev, objects, historyStartRev, history, bases };
    }, { snapshot: true, timeoutMs: 120_000 });
  }

  /** The store's latest committed revision, cheaply (see WatchCache.catchUp). */
  latestRevision(): Promise<number> | number {
    if (this.counterReader) return Number((this.counterReader.get() as { rev: bigint | number }).rev);
    return this.currentRevision();
  }

  currentRevision(): Promise<number> {
    return this.reads(async (db) => {
      const [{ rev }] = await db.query<{ rev: bigint }>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      return Number(rev);
    });
  }

  /** Oldest revision still in the log (0 when the log is empty). */
  oldestRevision(): Promise<number> {
    return this.reads(async (db) => {
      const [row] = await db.query<{ rev: bigint | null }>(`SELECT MIN("rev") AS "rev" FROM "LogEntry"`);
      return row?.rev == null ? 0 : Number(row.rev);
    });
  }

  /** The revision up to which the log is compacted. */
  compactedRevision(): Promise<number> {
    return this.reads(async (db) => {
      const [{ rev }] = await db.query<{ rev: bigint }>(`SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`);
      return Number(rev);
    });
  }

  /**
   * Compaction, as etcd's: every entry written before `beforeMs` (epoch ms) that a later entry of its key
   * replaced, and every delete, goes, up to the newest such revision; each key's latest entry stays (the
   * state a later write replaces, which a starting replica needs to rebuild its history). Current state is
   * untouched. On PostgreSQL one replica compacts at a time (an advisory lock; the others skip this round).
   * Returns the number of entries removed.
   */
  compact(beforeMs: number): Promise<number> {
    const p = this.p;
    const maxSql = `SELECT MAX("rev") AS "rev" FROM "LogEntry" WHERE "createdAt" < ${p(1)} AND "rev" > ${p(2)}`;
    const deleteSql = `DELETE FROM "LogEntry" WHERE "rev" <= ${p(1)} AND ("type" = 'DELETED' OR EXISTS (SELECT 1 FROM "LogEntry" AS "later" WHERE ` +
      `"later"."resource" = "LogEntry"."resource" AND "later"."namespace" = "LogEntry"."namespace" AND "later"."name" = "LogEntry"."name" ` +
      `AND "later"."rev" > "LogEntry"."rev" AND "later"."rev" <= ${p(2)}))`;
    const doneSql = `SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`;
    const markSql = `UPDATE "LogCompaction" SET "rev" = ${p(1)} WHERE "id" = 1`;
    if (this.writer) {
      // SQLite: on the write connection, between write batches (both run synchronously), holding the write lock.
      const w = this.writer;
      w.exec("BEGIN IMMEDIATE");
      try {
        const done = (this.prepared(doneSql).get() as { rev: bigint | number }).rev;
        const upTo = (this.prepared(maxSql).get(BigInt(beforeMs), BigInt(done)) as { rev: bigint | number | null }).rev;
        let removed = 0;
        if (upTo != null) {
          removed = this.prepared(deleteSql).run(BigInt(upTo), BigInt(upTo)).changes;
          this.prepared(markSql).run(BigInt(upTo));
        }
        w.exec("COMMIT");
        return Promise.resolve(removed);
      } catch (err) {
        if (w.inTransaction) w.exec("ROLLBACK");
        return Promise.reject(err);
      }
    }
    return this.transaction(async (tx) => {
      if (this.dialect === "postgresql") {
        const [{ locked }] = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCK.compact}) AS "locked"`);
        if (!locked) return 0;
      }
      const [{ rev: done }] = await tx.query<{ rev: bigint }>(doneSql);
      const [{ rev: upTo }] = await tx.query<{ rev: bigint | null }>(maxSql, BigInt(beforeMs), done);
      if (upTo == null) return 0;
      const removed = await tx.execute(deleteSql, upTo, upTo);
      await tx.execute(markSql, upTo);
      return removed;
    }, { timeoutMs: 120_000 });
  }
}

// The durable store: an append-only revision log plus a current-state table, written together in one
// transaction per batch of writes (group commit). The single counter row in "Revision" is bumped first in
// every write transaction; that row lock serialises writers on SQLite and PostgreSQL alike, so revisions
// are contiguous and commit in order, and a tailing process can never miss or reorder one.
import Database, { type Statement } from "better-sqlite3";
import pg from "pg";
import type { Db, Dialect } from "./db";
import { ADVISORY_LOCK, placeholder } from "./db";
import { Mutex } from "./mutex";
import type { EventType, HistoryEntry, LogEvent, ObjectKey, ValueTransformer, WriteOp, WriteResult, WriteUser } from "./types";
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

/** Stands for the revision in an object's JSON until the database allocates it (see pgAllocatingBatch). */
const REV_MARK = "\u0000rev";

const keyId = (k: ObjectKey) => `${k.resource}\u0000${objectKeyString(k)}`;

/** The log's "user" column: who made the write, as JSON ("" for the server's own writes). */
const userColumn = (e: { user?: WriteUser }) => (e.user ? JSON.stringify({ username: e.user.username, groups: e.user.groups ?? [] }) : "");

function parseUser(raw: string | null | undefined): WriteUser | undefined {
  if (!raw) return undefined;
  try {
    const u = JSON.parse(raw) as WriteUser;
    return typeof u?.username === "string" ? { username: u.username, groups: Array.isArray(u.groups) ? u.groups : [] } : undefined;
  } catch {
    return undefined;
  }
}

/** How much history the log keeps beyond the compaction window (see RevisionLog.compact). */
export interface HistoryRetention {
  /** The last this many revisions of every object (at least 1: the latest entry is always kept). */
  revisions: number;
  /** A deleted object's entries for this many days after its deletion (0: gone with the window). */
  days: number;
}

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
    const event: LogEvent = { rev, type, key: op.key, object, json: JSON.stringify(object), ...(op.user ? { user: op.user } : {}) };
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

interface DbLogRow { rev: bigint | string; resource: string; namespace: string; name: string; type: string; object: string; createdAt: bigint | string }
/** A log entry as cluster_core_write returns it (node-postgres gives BIGINTs as strings). */
interface GapRow { g_rev: string; g_resource: string; g_namespace: string; g_name: string; g_type: string; g_object: string; g_createdAt: string }
const LOG_COLUMNS = `"rev", "resource", "namespace", "name", "type", "object", "createdAt"`;

interface BatchResult {
  results: WriteResult[];
  events: LogEvent[];
  /** Log entries other processes committed before the batch, read with it (PostgreSQL; see pgAllocatingBatch). */
  tailed?: LogRow[];
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
  /** History kept beyond the window (set by openStore; by default none: etcd's compaction). */
  retention: HistoryRetention = { revisions: 1, days: 0 };
  /** Deleted objects whose deletion is older than this (epoch ms) were pruned by an earlier round. */
  private deletedPrunedBefore = 0;

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
  readonly batchPaths = { allocated: 0, optimistic: 0, retried: 0, locked: 0 };
  /**
   * PostgreSQL: taking turns with other processes writing at the same time (see `awaitTurn`). `contended`: the
   * last two batches came back with other processes' entries committed just before them (they queued behind
   * them at the counter row); `lastRev`: the last batch's last revision; `turn`: the wait for another
   * process's next commit, if any.
   */
  private contended = false;
  private othersBefore = false;
  private lastRev = 0;
  private turn: { after: number; resolve: () => void } | null = null;
  private notifiedRev = 0;
  /** PostgreSQL: whether other processes' commits are notified (set by openStore); without notifications batches never wait. */
  notifications: () => boolean = () => false;
  /** Batches that waited for their turn, and the batches that ended that wait on a notification (metrics, tests). */
  readonly turnStats = { waited: 0, notified: 0 };

  constructor(
    private readonly db: Db,
    readonly dialect: Dialect,
    /**
     * After each write batch: its events, and entries other processes committed before it that came back with
     * it (`tailed`, contiguous, possibly overlapping what the cache has). Also called with nothing after a failed batch.
     */
    private readonly onCommitted: (events: LogEvent[], tailed: LogRow[]) => void,
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

  /** Runs `fn`'s reads outside a transaction (each statement on its own). SQLite's `?` placeholders bind in order of appearance. */
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
      if (this.contended && this.queue.length < MAX_BATCH && this.notifiedRev <= this.lastRev && this.notifications()) await this.awaitTurn();
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const t0 = performance.now();
        const { results, events, tailed } = await this.writeBatch(batch.map((b) => b.op));
        const seconds = (performance.now() - t0) / 1000;
        const st = this.commitStats;
        st.batches++; st.writes += events.length; st.commitSecondsSum += seconds; st.lastCommitSeconds = seconds;
        // Two batches in a row: one write of another process now and then (a lease renewal) is no contention.
        const others = !!this.pool && !!tailed?.length;
        this.contended = others && this.othersBefore;
        this.othersBefore = others;
        if (events.length) this.lastRev = events[events.length - 1].rev;
        for (const o of this.commitObservers) o(seconds, events.length);
        this.onCommitted(events, tailed ?? []);
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        this.commitStats.failures++;
        this.contended = this.othersBefore = false;
        this.onCommitted([], []);
        batch.forEach((b) => b.reject(err));
      }
    }
    this.flushing = false;
  }

  /**
   * PostgreSQL, while other processes write at the same time: every batch takes the counter row, whose lock is
   * held until its commit is flushed, so concurrent batches of several processes commit one after another. A
   * batch sent right after the previous one committed holds only what queued during that commit, then waits
   * at the lock behind the other process's batch while more requests arrive here. So after contended batches
   * the next one is sent when the other process's next commit is notified (the lock is then free; what queued
   * meanwhile goes with it), or after at most twice the last commit's duration (capped at 20 ms; notifications
   * may be late), or at once when the queue is full (or another process's commit after ours was notified
   * already). Processes writing alone never wait: their batches return no other process's entries. Nothing
   * about what commits changes, only how writes are grouped into batches.
   */
  private awaitTurn(): Promise<void> {
    this.turnStats.waited++;
    // The other process's batch started when ours committed and takes about as long as ours did.
    const ms = Math.min(20, Math.max(1, 2 * this.commitStats.lastCommitSeconds * 1000));
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.turn = null; resolve(); }, ms);
      this.turn = { after: this.lastRev, resolve: () => { clearTimeout(timer); this.turn = null; this.turnStats.notified++; resolve(); } };
    });
  }

  /** PostgreSQL: a commit of `rev` was notified (notifier.ts); another process's commit after our last batch ends a wait for our turn. */
  notified(rev: number): void {
    if (rev > this.notifiedRev) this.notifiedRev = rev;
    if (this.turn && rev > this.turn.after) this.turn.resolve();
  }

  /** Whether a write batch is queued or in flight: its answer will bring what other processes committed before it. */
  get writing(): boolean {
    return this.flushing;
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
   * A batch on PostgreSQL: as one statement that allocates the revisions in the database
   * (`pgAllocatingBatch`), the usual way. When that cannot be used (values transformed at rest), planned against
   * this process's watch cache at its revision N and sent as one statement that commits only if the store is
   * still at N (the counter row: compare and set). When another process committed in between, the cache
   * catches up and the batch is planned again; after three misses it takes the counter lock first
   * (`pgLockedBatch`).
   */
  private async pgWriteBatch(pool: pg.Pool, ops: WriteOp[]): Promise<BatchResult> {
    const allocated = await this.pgAllocatingBatch(pool, ops);
    if (allocated) {
      this.batchPaths.allocated++;
      return allocated;
    }
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
   * A batch on PostgreSQL as ONE autocommitted statement, `cluster_core_write` (migration 0004): the
   * database takes the counter row, checks each op's precondition against the stored row, gives the ops that
   * pass the next revisions, writes the current rows and the log rows, sets the counter and notifies. The
   * counter row is locked only from that statement's start to its commit, inside the database: writers on
   * several replicas queue there for a moment instead of failing a compare-and-set and planning again. The
   * revision goes into each object's JSON in the database (`head || revision || tail`, the JSON split around
   * `metadata.resourceVersion`'s value), so this works only while the stored value is that JSON itself:
   * null (the caller takes another way) when a value is encrypted at rest, or its JSON holds the marker twice.
   */
  private async pgAllocatingBatch(pool: pg.Pool, ops: WriteOp[]): Promise<BatchResult | null> {
    const n = ops.length;
    const types: string[] = new Array(n), resources: string[] = new Array(n), namespaces: string[] = new Array(n), names: string[] = new Array(n);
    const expect: (string | null)[] = new Array(n), heads: string[] = new Array(n), tails: string[] = new Array(n);
    const objects: KubeObject[] = new Array(n);
    const needle = `"resourceVersion":${JSON.stringify(REV_MARK)}`;
    for (let i = 0; i < n; i++) {
      const op = ops[i];
      const object: KubeObject = { ...op.object, metadata: { ...op.object.metadata, resourceVersion: REV_MARK } };
      const json = JSON.stringify(object);
      if (this.transformer.toStorage(op.key, json) !== json) return null;
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
    const after = this.view?.rev() ?? 0;
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
      const row = this.readableLogRow({ rev: g.g_rev, resource: g.g_resource, namespace: g.g_namespace, name: g.g_name, type: g.g_type, object: g.g_object, createdAt: g.g_createdAt });
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
   * Compaction and history pruning, one transaction. Compaction as etcd's moves `LogCompaction.rev` to the
   * newest revision written before `beforeMs` (epoch ms); the watch history starts there. Entries at or
   * below it are then pruned to the history's retention (`retention`): an entry goes when its key has
   * `retention.revisions` newer entries and a newer one at or below the compaction revision (each key's
   * latest entry there stays: the state a later write replaces, which a starting replica needs to rebuild
   * its history); every entry of a key whose latest entry is a delete older than `retention.days` goes.
   * With the default retention (1 revision, 0 days) this is etcd's compaction. Entries above the compaction
   * revision and current state are untouched. On PostgreSQL one replica compacts at a time (an advisory
   * lock; the others skip this round). Returns the number of entries removed.
   */
  compact(beforeMs: number): Promise<number> {
    const p = this.p;
    const keep = Math.max(1, Math.floor(this.retention.revisions));
    const deletedBefore = Math.min(beforeMs, Date.now() - this.retention.days * 86_400_000);
    const since = Math.min(this.deletedPrunedBefore, deletedBefore);
    const sameKey = (a: string, b: string) => `"${a}"."resource" = "${b}"."resource" AND "${a}"."namespace" = "${b}"."namespace" AND "${a}"."name" = "${b}"."name"`;
    const maxSql = `SELECT MAX("rev") AS "rev" FROM "LogEntry" WHERE "createdAt" < ${p(1)} AND "rev" > ${p(2)}`;
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
    const doneSql = `SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`;
    const markSql = `UPDATE "LogCompaction" SET "rev" = ${p(1)} WHERE "id" = 1`;
    const pruned = (done: bigint, upTo: bigint) => [
      { sql: pruneSql, params: [done, upTo, upTo, BigInt(keep), upTo] },
      { sql: deletedSql, params: [BigInt(since), BigInt(deletedBefore), upTo] },
    ];
    const finish = (removed: number) => {
      this.deletedPrunedBefore = Math.max(this.deletedPrunedBefore, deletedBefore);
      return removed;
    };
    if (this.writer) {
      // SQLite: on the write connection, between write batches (both run synchronously), holding the write lock.
      const w = this.writer;
      w.exec("BEGIN IMMEDIATE");
      try {
        const done = BigInt((this.prepared(doneSql).get() as { rev: bigint | number }).rev);
        const upToRaw = (this.prepared(maxSql).get(BigInt(beforeMs), done) as { rev: bigint | number | null }).rev;
        // No new entry to compact: deleted objects may still have aged past the retention.
        const upTo = upToRaw == null ? done : BigInt(upToRaw);
        let removed = 0;
        for (const st of pruned(done, upTo)) removed += this.prepared(st.sql).run(...st.params).changes;
        if (upToRaw != null) this.prepared(markSql).run(upTo);
        w.exec("COMMIT");
        return Promise.resolve(finish(removed));
      } catch (err) {
        if (w.inTransaction) w.exec("ROLLBACK");
        return Promise.reject(err);
      }
    }
    const round = this.transaction(async (tx) => {
      if (this.dialect === "postgresql") {
        const [{ locked }] = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCK.compact}) AS "locked"`);
        if (!locked) return undefined;
      }
      const [{ rev: done }] = await tx.query<{ rev: bigint }>(doneSql);
      const [{ rev: upToRaw }] = await tx.query<{ rev: bigint | null }>(maxSql, BigInt(beforeMs), done);
      // No new entry to compact: deleted objects may still have aged past the retention.
      const upTo = BigInt(upToRaw ?? done);
      let removed = 0;
      for (const st of pruned(BigInt(done), upTo)) removed += await tx.execute(st.sql, ...st.params);
      if (upToRaw != null) await tx.execute(markSql, upTo);
      return removed;
    }, { timeoutMs: 120_000 });
    // The lower bound of deleted objects' pruning moves only once the round has committed: a round that
    // rolled back leaves its deleted objects to the next.
    return round.then((removed) => (removed === undefined ? 0 : finish(removed)));
  }

  // --- object history (lib/history serves it) ----------------------------------------------------------

  private historyEntry(r: DbLogRow & { user: string }): HistoryEntry | undefined {
    const row = this.readableLogRow(r);
    if (!row) return undefined; // written with a key this process cannot read
    const user = parseUser(r.user);
    return { rev: row.rev, type: row.type, key: row.key, json: row.json, createdAt: row.createdAt ?? 0, ...(user ? { user } : {}) };
  }

  /** An object's revisions the log still holds, newest first (at most `limit`, those below `beforeRev` when given). */
  history(key: ObjectKey, limit: number, beforeRev?: number): Promise<HistoryEntry[]> {
    const p = this.p;
    return this.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS}, "user" FROM "LogEntry" WHERE "resource" = ${p(1)} AND "namespace" = ${p(2)} AND "name" = ${p(3)} ` +
        `AND "rev" < ${p(4)} ORDER BY "rev" DESC LIMIT ${p(5)}`,
        key.resource, key.namespace, key.name, BigInt(beforeRev ?? Number.MAX_SAFE_INTEGER), BigInt(limit));
      return rows.map((r) => this.historyEntry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }

  /**
   * Objects of `resource` whose latest entry is a delete (deleted, not created again), newest deletion
   * first, each with that entry (its last state); in one namespace, or every one when `namespace` is undefined.
   */
  deletedObjects(resource: string, namespace: string | undefined, limit: number): Promise<HistoryEntry[]> {
    const p = this.p;
    return this.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS.split(", ").map((c) => `"d".${c}`).join(", ")}, "d"."user" FROM "LogEntry" AS "d" WHERE "d"."resource" = ${p(1)} ` +
        `${namespace === undefined ? "" : `AND "d"."namespace" = ${p(2)} `}AND "d"."type" = 'DELETED' AND NOT EXISTS (SELECT 1 FROM "LogEntry" AS "l" ` +
        `WHERE "l"."resource" = "d"."resource" AND "l"."namespace" = "d"."namespace" AND "l"."name" = "d"."name" AND "l"."rev" > "d"."rev") ` +
        `ORDER BY "d"."rev" DESC LIMIT ${p(namespace === undefined ? 2 : 3)}`,
        ...(namespace === undefined ? [resource, BigInt(limit)] : [resource, namespace, BigInt(limit)]));
      return rows.map((r) => this.historyEntry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }

  /** Every write in `namespace` of the given resources since `sinceMs` (epoch ms), newest first, at most `limit`. */
  changes(namespace: string, resources: string[], sinceMs: number, limit: number): Promise<HistoryEntry[]> {
    if (resources.length === 0) return Promise.resolve([]);
    const p = this.p;
    return this.reads(async (db) => {
      const rows = await db.query<DbLogRow & { user: string }>(
        `SELECT ${LOG_COLUMNS}, "user" FROM "LogEntry" WHERE "namespace" = ${p(1)} AND "createdAt" >= ${p(2)} ` +
        `AND "resource" IN (${resources.map((_, i) => p(i + 3)).join(", ")}) ORDER BY "rev" DESC LIMIT ${p(resources.length + 3)}`,
        namespace, BigInt(Math.floor(sinceMs)), ...resources, BigInt(limit));
      return rows.map((r) => this.historyEntry(r)).filter((e): e is HistoryEntry => !!e);
    });
  }
}

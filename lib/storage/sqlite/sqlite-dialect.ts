// SQLite: write batches and compaction run synchronously on a dedicated better-sqlite3 connection (BEGIN
// IMMEDIATE takes the write lock first; Prisma's per-statement cost, 0.2-0.4 ms, would otherwise dominate
// every write), in WAL mode with `synchronous` as configured, so an acknowledged write is on disk. Other reads
// go through the Prisma client one at a time, but the start-up snapshot, which reads every row on a read-only
// driver connection; the revision counter is read on a read-only connection.
import Database, { type Statement } from "better-sqlite3";
import { batchStatements, type Executor } from "../batch";
import type { Db } from "../db";
import type { BatchResult, CompactionRound, Dialect, Session } from "../dialect";
import type { ValueTransformer, WriteOp } from "../types";
import { Mutex } from "./mutex";
import { WalIndexHeader } from "./wal-index-header";

/** SQLite's largest memory mapping (SQLITE_MAX_MMAP_SIZE's default); a larger file is read past it as usual. */
const SNAPSHOT_MMAP_BYTES = 0x7fff0000;

export class SqliteDialect implements Dialect {
  readonly name = "sqlite" as const;
  readonly param = () => "?";
  /** Reads through Prisma must not interleave with one of its open transactions. */
  private readonly connection = new Mutex();
  /** A read-only connection used only to read the revision counter. */
  private readonly readerDb: Database.Database;
  private readonly counterReader: Statement;
  /** The driver connection write transactions and compaction run on. */
  private readonly writer: Database.Database;
  /** `PRAGMA data_version` on the writer: changes only when another connection (another process) commits. */
  private readonly dataVersion: Statement;
  /** The wal-index header, which any commit rewrites: data_version is asked only once it moved. */
  private readonly walIndex: WalIndexHeader;
  /** The header read before the last data_version was (empty until then), and that data_version. */
  private readonly headerAtVersion = Buffer.alloc(96);
  private lastDataVersion = -1;
  /** The signal as read in the I/O callback running now (undefined once it ended: `forgetSignal`). */
  private signalNow: number | undefined;
  private readonly forgetSignal = () => { this.signalNow = undefined; };
  /** Prepared statements by SQL text (batch statements differ only by batch size, so there are few). */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly file: string,
    synchronous: "FULL" | "NORMAL",
    private readonly transformer: ValueTransformer,
  ) {
    this.writer = new Database(file, { fileMustExist: true, timeout: 10_000 });
    this.writer.pragma("journal_mode = WAL");
    this.writer.pragma(`synchronous = ${synchronous}`);
    this.dataVersion = this.writer.prepare("PRAGMA data_version").pluck();
    this.readerDb = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    this.walIndex = new WalIndexHeader(file);
    this.counterReader = this.readerDb.prepare(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
  }

  private prepared(sql: string): Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.writer.prepare(sql);
      if (this.statements.size > 512) this.statements.clear();
      this.statements.set(sql, st);
    }
    return st;
  }

  writeBatch(ops: WriteOp[]): Promise<BatchResult> {
    const w = this.writer;
    const ex: Executor = {
      query: <T>(sql: string, params: unknown[]) => this.prepared(sql).all(...params) as T[],
      execute: (sql: string, params: unknown[]) => this.prepared(sql).run(...params).changes,
    };
    w.exec("BEGIN IMMEDIATE");
    try {
      const out = batchStatements(ops, ex, this.param, this.transformer) as BatchResult;
      w.exec("COMMIT");
      return Promise.resolve(out);
    } catch (err) {
      if (w.inTransaction) w.exec("ROLLBACK");
      return Promise.reject(err);
    }
  }

  transaction<T>(fn: (s: Session) => Promise<T>, opts: { snapshot?: boolean; timeoutMs?: number } = {}): Promise<T> {
    if (opts.snapshot) return this.snapshot(fn);
    return this.connection.run(() => this.db.$transaction(async (tx) => fn({
      query: <R>(sql: string, ...params: unknown[]) => tx.$queryRawUnsafe<R[]>(sql, ...params),
      execute: (sql: string, ...params: unknown[]) => tx.$executeRawUnsafe(sql, ...params),
    }), {
      ...(opts.snapshot ? { isolationLevel: "Serializable" as const } : {}),
      timeout: opts.timeoutMs ?? 30_000, maxWait: 30_000,
    }));
  }

  /**
   * A read-only snapshot (the start-up snapshot: every current object and the log) on its own read-only
   * driver connection: one read transaction (WAL: every statement in it sees the same commit), rows straight
   * from better-sqlite3 with no Prisma in between (its per-row cost was most of a 150,000-pod start).
   */
  private async snapshot<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const conn = new Database(this.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    try {
      // Pages read in place from the file's mapping instead of copied into SQLite's page cache (a pass over
      // the whole database; the mapping goes with the connection).
      conn.pragma(`mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      conn.exec("BEGIN");
      const out = await fn({
        query: <R>(sql: string, ...params: unknown[]) => Promise.resolve(conn.prepare(sql).all(...params) as R[]),
        execute: () => Promise.reject(new Error("a read-only snapshot cannot write")),
        each: (sql, params, row) => {
          for (const values of conn.prepare(sql).raw().iterate(...params)) row(values as unknown[]);
          return Promise.resolve();
        },
      });
      conn.exec("COMMIT");
      return out;
    } finally {
      conn.close();
    }
  }

  reads<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    return this.connection.run(() => fn({
      query: <R>(sql: string, ...params: unknown[]) => this.db.$queryRawUnsafe<R[]>(sql, ...params),
      execute: (sql: string, ...params: unknown[]) => this.db.$executeRawUnsafe(sql, ...params),
    }));
  }

  latestRevision(): number {
    return Number((this.counterReader.get() as { rev: bigint | number }).rev);
  }

  /**
   * data_version, asked of SQLite only when the wal-index header moved since it was last asked: a read
   * transaction (two lock calls) costs several times the header's one read. Sound because every commit moves
   * the header and the header is read before data_version: an unchanged header means no commit since that
   * data_version was read.
   */
  changeSignal(): number {
    // Read once per I/O callback: node runs the callback's nextTick queue before any other callback, so the
    // signal is forgotten before bytes read later reach JavaScript. Every request answered in this callback was
    // read from its socket before the callback began, hence before the signal was read: a commit acknowledged
    // to any client before that client sent such a request is seen (the header moved before the read).
    if (this.signalNow !== undefined) return this.signalNow;
    const signal = this.readSignal();
    this.signalNow = signal;
    process.nextTick(this.forgetSignal);
    return signal;
  }

  private readSignal(): number {
    const same = this.walIndex.unchanged(this.headerAtVersion);
    if (same === true && this.lastDataVersion >= 0) return this.lastDataVersion;
    if (same === false) this.walIndex.copyInto(this.headerAtVersion);
    const version = Number(this.dataVersion.get());
    this.lastDataVersion = same === undefined ? -1 : version;
    return version;
  }

  /** On the write connection, between write batches (both run synchronously), holding the write lock. */
  compact(round: CompactionRound): Promise<number> {
    const w = this.writer;
    w.exec("BEGIN IMMEDIATE");
    try {
      const done = BigInt((this.prepared(round.doneSql).get() as { rev: bigint | number }).rev);
      const upToRaw = (this.prepared(round.maxSql).get(BigInt(round.beforeMs), done) as { rev: bigint | number | null }).rev;
      // No new entry to compact: deleted objects may still have aged past the retention.
      const upTo = upToRaw == null ? done : BigInt(upToRaw);
      let removed = 0;
      for (const st of round.pruned(done, upTo)) removed += this.prepared(st.sql).run(...st.params).changes;
      if (upToRaw != null) this.prepared(round.markSql).run(upTo);
      w.exec("COMMIT");
      return Promise.resolve(removed);
    } catch (err) {
      if (w.inTransaction) w.exec("ROLLBACK");
      return Promise.reject(err);
    }
  }

  async close(): Promise<void> {
    this.walIndex.close();
    this.readerDb.close();
    this.writer.close();
  }
}

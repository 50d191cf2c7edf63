// What a database driver gives the revision log (kine's Dialect): how statements run, one write batch, one
// compaction round, the latest revision. sqlite/ and postgres/ implement it, one folder per driver; the SQL
// both share (the tail, the start-up snapshot, history, compaction's statements) is written once against it.
import type { DialectName } from "./db";
import type { LogRow } from "./log-rows";
import type { LogEvent, ObjectKey, WriteOp, WriteResult } from "./types";

/** Statements inside one transaction (or plain reads), with the placeholders `Dialect.param` makes. */
export interface Session {
  query<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  execute(sql: string, ...params: unknown[]): Promise<number>;
  /**
   * Each row as an array of its columns, handed over as it is read (no array of every row, no object per row):
   * the start-up snapshot's reads of every object. Where absent, `query` serves.
   */
  each?(sql: string, params: unknown[], row: (values: unknown[]) => void): Promise<void>;
}

export interface BatchResult {
  results: WriteResult[];
  events: LogEvent[];
  /** Log entries other processes committed before the batch, read with it (PostgreSQL's write function). */
  tailed?: LogRow[];
}

/**
 * One compaction round's statements (compaction.ts); the driver runs them in one transaction, holding
 * whatever keeps a second process from compacting at the same time.
 */
export interface CompactionRound {
  /** The revision compacted so far. */
  doneSql: string;
  /** The newest revision written before `beforeMs` above the compacted one. Params: beforeMs, done. */
  maxSql: string;
  beforeMs: number;
  /** The pruning statements between `done` and `upTo`. */
  pruned(done: bigint, upTo: bigint): { sql: string; params: unknown[] }[];
  /** Records `upTo` as compacted. */
  markSql: string;
}

/**
 * What this process's watch cache knows: the revision it has applied and each object's revision at it.
 * PostgreSQL batches that cannot get their revisions in the database are planned against it.
 */
export interface StoreView {
  rev(): number;
  revOf(key: ObjectKey): number | undefined;
  /** Read what other processes committed since. */
  catchUp(): Promise<void>;
}

export interface Dialect {
  readonly name: DialectName;
  /** The placeholder of the i-th parameter (from 1): `$i`, or SQLite's `?` (bound in order of appearance). */
  readonly param: (i: number) => string;
  /** One batch of writes as one transaction (group commit): preconditions checked in order, revisions contiguous. */
  writeBatch(ops: WriteOp[]): Promise<BatchResult>;
  /** Runs `fn` in one transaction (`snapshot`: a read-only consistent snapshot). */
  transaction<T>(fn: (s: Session) => Promise<T>, opts?: { snapshot?: boolean; timeoutMs?: number }): Promise<T>;
  /** Runs `fn`'s statements outside a transaction, each on its own. */
  reads<T>(fn: (s: Session) => Promise<T>): Promise<T>;
  /** The store's latest committed revision, as cheaply as the database allows (consistent reads ask it). */
  latestRevision(): Promise<number> | number;
  /**
   * A value that changes whenever another process (another database connection) commits, read without a
   * query: SQLite's `PRAGMA data_version` on the write connection, which this process's own commits leave
   * alone. Absent where no such signal keeps read-your-writes across processes (PostgreSQL: a notification
   * arrives after the other process acknowledged its write, so the counter is read instead).
   */
  changeSignal?(): number;
  /** One compaction round; the number of entries removed, or undefined when another process is compacting. */
  compact(round: CompactionRound): Promise<number | undefined>;
  close(): Promise<void>;
}

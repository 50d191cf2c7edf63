// The durable store: an append-only revision log plus a current-state table, written together in one
// transaction per batch of writes (group commit). The single counter row in "Revision" is bumped first in
// every write transaction; that row lock serialises writers on SQLite and PostgreSQL alike, so revisions
// are contiguous and commit in order, and a tailing process can never miss or reorder one.
import Database, { type Statement } from "better-sqlite3";
import type { Db, Dialect } from "./db";
import { placeholder } from "./db";
import { Mutex } from "./mutex";
import type { EventType, LogEvent, ObjectKey, WriteOp, WriteResult } from "./types";
import { objectKeyString } from "./types";
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
}

const MAX_BATCH = 64;

interface BatchResult {
  results: WriteResult[];
  events: LogEvent[];
}

/** Runs SQL inside a write transaction: synchronously (SQLite driver) or asynchronously (Prisma). */
interface Executor {
  query<T>(sql: string, params: unknown[]): T[] | Promise<T[]>;
  execute(sql: string, params: unknown[]): number | Promise<number>;
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

  /** SQLite: a read-only connection used only to read the revision counter. */
  private readonly counterReader: Statement | null = null;
  private readonly readerDb: Database.Database | null = null;
  /** SQLite: the driver connection write transactions run on. */
  private readonly writer: Database.Database | null = null;

  constructor(
    private readonly db: Db,
    readonly dialect: Dialect,
    private readonly onCommitted: (events: LogEvent[]) => void,
    sqliteFile?: string,
    synchronous: "FULL" | "NORMAL" = "FULL",
  ) {
    this.connection = dialect === "sqlite" ? new Mutex() : null;
    this.p = placeholder(dialect);
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

  close(): void {
    this.readerDb?.close();
    this.writer?.close();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.connection ? this.connection.run(fn) : fn();
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
        const { results, events } = await this.writeBatch(batch.map((b) => b.op));
        this.onCommitted(events);
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    this.flushing = false;
  }

  /**
   * One write transaction for a batch, the same SQL on every database. SQLite runs it synchronously on a
   * dedicated driver connection (BEGIN IMMEDIATE takes the write lock first); Prisma's per-statement cost
   * (0.2-0.4 ms) would otherwise dominate every write. PostgreSQL runs it as a Prisma interactive transaction.
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
    return this.db.$transaction(async (tx) => {
      const ex: Executor = {
        query: <T>(sql: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...params),
        execute: (sql: string, params: unknown[]) => tx.$executeRawUnsafe(sql, ...params),
      };
      return this.batchStatements(ops, ex);
    }, { maxWait: 30_000, timeout: 30_000 });
  }

  /**
   * The statements of one batch. Written once for both executors: with the synchronous SQLite executor every
   * `step` call returns a plain value and the whole function runs without yielding.
   */
  private batchStatements(ops: WriteOp[], ex: Executor): BatchResult | Promise<BatchResult> {
    const p = this.p;
    const now = BigInt(Date.now());
    return run(function* () {
      const [{ rev: startRev }] = (yield ex.query<{ rev: bigint | number }>(
        `UPDATE "Revision" SET "rev" = "rev" WHERE "id" = 1 RETURNING "rev"`, [])) as { rev: bigint | number }[];
      let rev = Number(startRev);

      // Current revision of every key the batch touches, then apply the ops in order in memory.
      const keys = new Map<string, ObjectKey>();
      for (const op of ops) keys.set(`${op.key.resource}\u0000${objectKeyString(op.key)}`, op.key);
      const current = new Map<string, number>();
      const keyList = [...keys.values()];
      const where = keyList.map((_, i) => `("resource" = ${p(3 * i + 1)} AND "namespace" = ${p(3 * i + 2)} AND "name" = ${p(3 * i + 3)})`).join(" OR ");
      const rows = (yield ex.query(
        `SELECT "resource", "namespace", "name", "rev" FROM "CurrentObject" WHERE ${where}`,
        keyList.flatMap((k) => [k.resource, k.namespace, k.name]))) as { resource: string; namespace: string; name: string; rev: bigint | number }[];
      for (const r of rows) current.set(`${r.resource}\u0000${r.namespace}/${r.name}`, Number(r.rev));

      const results: WriteResult[] = [];
      const events: LogEvent[] = [];
      const finalState = new Map<string, LogEvent>();
      for (const op of ops) {
        const id = `${op.key.resource}\u0000${objectKeyString(op.key)}`;
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
      if (events.length === 0) return { results, events };

      yield ex.execute(
        `INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt") VALUES ${
          events.map((_, i) => `(${[1, 2, 3, 4, 5, 6, 7].map((j) => p(7 * i + j)).join(", ")})`).join(", ")}`,
        events.flatMap((e) => [BigInt(e.rev), e.key.resource, e.key.namespace, e.key.name, e.type, e.json, now]));

      const upserts = [...finalState.values()].filter((e) => e.type !== "DELETED");
      const deletes = [...finalState.values()].filter((e) => e.type === "DELETED");
      if (upserts.length) {
        yield ex.execute(
          `INSERT INTO "CurrentObject" ("resource", "namespace", "name", "rev", "object") VALUES ${
            upserts.map((_, i) => `(${[1, 2, 3, 4, 5].map((j) => p(5 * i + j)).join(", ")})`).join(", ")
          } ON CONFLICT ("resource", "namespace", "name") DO UPDATE SET "rev" = excluded."rev", "object" = excluded."object"`,
          upserts.flatMap((e) => [e.key.resource, e.key.namespace, e.key.name, BigInt(e.rev), e.json]));
      }
      if (deletes.length) {
        yield ex.execute(
          `DELETE FROM "CurrentObject" WHERE ${deletes.map((_, i) => `("resource" = ${p(3 * i + 1)} AND "namespace" = ${p(3 * i + 2)} AND "name" = ${p(3 * i + 3)})`).join(" OR ")}`,
          deletes.flatMap((e) => [e.key.resource, e.key.namespace, e.key.name]));
      }
      yield ex.execute(`UPDATE "Revision" SET "rev" = ${p(1)} WHERE "id" = 1`, [BigInt(rev)]);
      return { results, events };
    });
  }

  /** Log rows after `rev`, in revision order. */
  readAfter(rev: number, limit: number): Promise<LogRow[]> {
    return this.exclusive(async () => {
      const rows = await this.db.$queryRawUnsafe<{ rev: bigint; resource: string; namespace: string; name: string; type: string; object: string }[]>(
        `SELECT "rev", "resource", "namespace", "name", "type", "object" FROM "LogEntry" WHERE "rev" > ${this.p(1)} ORDER BY "rev" LIMIT ${this.p(2)}`,
        BigInt(rev), BigInt(limit));
      return rows.map((r) => ({ rev: Number(r.rev), type: r.type as EventType, key: { resource: r.resource, namespace: r.namespace, name: r.name }, json: r.object }));
    });
  }

  /** The store's revision and every current object, read as one consistent snapshot. */
  loadSnapshot(): Promise<{ rev: number; objects: { key: ObjectKey; rev: number; json: string }[] }> {
    return this.exclusive(() => this.db.$transaction(async (tx) => {
      const [{ rev }] = await tx.$queryRawUnsafe<{ rev: bigint }[]>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      const rows = await tx.$queryRawUnsafe<{ resource: string; namespace: string; name: string; rev: bigint; object: string }[]>(
        `SELECT "resource", "namespace", "name", "rev", "object" FROM "CurrentObject"`);
      return {
        rev: Number(rev),
        objects: rows.map((r) => ({ key: { resource: r.resource, namespace: r.namespace, name: r.name }, rev: Number(r.rev), json: r.object })),
      };
    }, { isolationLevel: this.dialect === "postgresql" ? "RepeatableRead" : "Serializable", timeout: 120_000, maxWait: 30_000 }));
  }

  /** The store's latest committed revision, cheaply (see WatchCache.catchUp). */
  latestRevision(): Promise<number> | number {
    if (this.counterReader) return Number((this.counterReader.get() as { rev: bigint | number }).rev);
    return this.currentRevision();
  }

  currentRevision(): Promise<number> {
    return this.exclusive(async () => {
      const [{ rev }] = await this.db.$queryRawUnsafe<{ rev: bigint }[]>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      return Number(rev);
    });
  }

  /** Oldest revision still in the log (0 when the log is empty). */
  oldestRevision(): Promise<number> {
    return this.exclusive(async () => {
      const [row] = await this.db.$queryRawUnsafe<{ rev: bigint | null }[]>(`SELECT MIN("rev") AS "rev" FROM "LogEntry"`);
      return row?.rev == null ? 0 : Number(row.rev);
    });
  }

  /** Drop log rows written before `beforeMs` (epoch ms). Current state is untouched. */
  compact(beforeMs: number): Promise<number> {
    return this.exclusive(() => this.db.$executeRawUnsafe(`DELETE FROM "LogEntry" WHERE "createdAt" < ${this.p(1)}`, BigInt(beforeMs)));
  }
}

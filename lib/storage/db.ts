// Opens the Prisma client for DATABASE_URL (SQLite file by default, PostgreSQL for shared stores) and
// creates the tables from the committed SQL migrations: Prisma's schema engine cannot run on this
// offline machine, so prisma/migrations/<dialect>/*.sql are applied by migrate() below.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PrismaClient as PgClient } from "../generated/pg/client";
import { PrismaClient as SqliteClient } from "../generated/sqlite/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";

const makePg = (url: string) => new PgClient({ adapter: new PrismaPg({ connectionString: url }) });
export type Db = ReturnType<typeof makePg>;
export type DialectName = "sqlite" | "postgresql";

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The file behind a SQLite URL (`file:./data/x.db` -> `./data/x.db`). */
export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, "").split("?", 1)[0];
}

export function createDb(url: string): { db: Db; dialect: DialectName } {
  if (isPostgresUrl(url)) return { db: makePg(url), dialect: "postgresql" };
  // timeout = SQLite busy timeout: a second server process on the same file waits for the write lock.
  const db = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url, timeout: 10_000 }) });
  return { db: db as unknown as Db, dialect: "sqlite" };
}

/** SQLite settings for durability: WAL, and every commit fsynced before it is acknowledged. */
export async function configureConnection(db: Db, dialect: DialectName, synchronous: "FULL" | "NORMAL"): Promise<void> {
  if (dialect !== "sqlite") return;
  await db.$queryRawUnsafe(`PRAGMA journal_mode=WAL`);
  await db.$executeRawUnsafe(`PRAGMA synchronous=${synchronous}`);
}

export function placeholder(dialect: DialectName): (i: number) => string {
  return dialect === "postgresql" ? (i) => `$${i}` : () => "?";
}

/** Advisory lock keys (PostgreSQL): one per job that only one replica may do at a time. */
export const ADVISORY_LOCK = { migrate: 0x63630001, compact: 0x63630002 } as const;

/**
 * Creates the schema on an empty database and applies every migration not applied yet. On PostgreSQL the
 * whole run is one transaction holding an advisory lock, so replicas starting together on an empty
 * database wait for each other instead of racing (DDL is transactional there).
 */
export async function migrate(db: Db, dialect: DialectName, dir = path.join(process.cwd(), "prisma/migrations")): Promise<string[]> {
  const p = placeholder(dialect);
  const files = readdirSync(path.join(dir, dialect)).filter((f) => f.endsWith(".sql")).sort();
  const statementsOf = (file: string) => splitStatements(readFileSync(path.join(dir, dialect, file), "utf8"));
  const createTable = `CREATE TABLE IF NOT EXISTS "_app_migrations" ("name" TEXT PRIMARY KEY, "applied_at" TEXT NOT NULL)`;
  const record = `INSERT INTO "_app_migrations" ("name","applied_at") VALUES (${p(1)}, ${p(2)})`;
  if (dialect === "postgresql") {
    return db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK.migrate})::text AS "locked"`);
      await tx.$executeRawUnsafe(createTable);
      const done = new Set((await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations"`)).map((r) => r.name));
      const applied: string[] = [];
      for (const file of files.filter((f) => !done.has(f))) {
        for (const s of statementsOf(file)) await tx.$executeRawUnsafe(s);
        await tx.$executeRawUnsafe(record, file, new Date().toISOString());
        applied.push(file);
      }
      return applied;
    }, { maxWait: 60_000, timeout: 120_000 });
  }
  // SQLite: processes starting together on one new file may find it locked (a lock upgrade does not wait for
  // the busy timeout): try again until the other one is done.
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateSqlite(db, files, statementsOf, createTable, record);
    } catch (err) {
      if (attempt >= 50 || !/SQLITE_BUSY|database is locked/i.test(String((err as Error)?.message ?? err))) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A migration file's statements: split at a `;` that ends a line, except inside a dollar-quoted body
 * (`$$ ... $$`, e.g. a PostgreSQL function, whose own statements end in `;`).
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = "";
  sql.split("$$").forEach((part, i) => {
    if (i % 2 === 1) { current += `$$${part}$$`; return; } // inside a dollar-quoted body
    const pieces = part.split(/;\s*(?:\n|$)/);
    current += pieces[0];
    for (const piece of pieces.slice(1)) { out.push(current); current = piece; }
  });
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

async function migrateSqlite(db: Db, files: string[], statementsOf: (file: string) => string[], createTable: string, record: string): Promise<string[]> {
  await db.$executeRawUnsafe(createTable);
  const done = new Set((await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations"`)).map((r) => r.name));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    try {
      await db.$transaction(async (tx) => {
        for (const s of statementsOf(file)) await tx.$executeRawUnsafe(s); // SQLite: one statement per call
        await tx.$executeRawUnsafe(record, file, new Date().toISOString());
      });
    } catch (err) {
      // Another server process on the same file may have applied it at the same moment.
      const again = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations" WHERE "name" = ?`, file);
      if (again.length === 0) throw err;
      continue;
    }
    applied.push(file);
  }
  return applied;
}

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
export type Dialect = "sqlite" | "postgresql";

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The file behind a SQLite URL (`file:./data/x.db` -> `./data/x.db`). */
export function sqliteFilePath(url: string): string {
  return url.replace(/^file:/, "").split("?", 1)[0];
}

export function createDb(url: string): { db: Db; dialect: Dialect } {
  if (isPostgresUrl(url)) return { db: makePg(url), dialect: "postgresql" };
  // timeout = SQLite busy timeout: a second server process on the same file waits for the write lock.
  const db = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url, timeout: 10_000 }) });
  return { db: db as unknown as Db, dialect: "sqlite" };
}

/** SQLite settings for durability: WAL, and every commit fsynced before it is acknowledged. */
export async function configureConnection(db: Db, dialect: Dialect, synchronous: "FULL" | "NORMAL"): Promise<void> {
  if (dialect !== "sqlite") return;
  await db.$queryRawUnsafe(`PRAGMA journal_mode=WAL`);
  await db.$executeRawUnsafe(`PRAGMA synchronous=${synchronous}`);
}

export function placeholder(dialect: Dialect): (i: number) => string {
  return dialect === "postgresql" ? (i) => `$${i}` : () => "?";
}

export async function migrate(db: Db, dialect: Dialect, dir = path.join(process.cwd(), "prisma/migrations")): Promise<string[]> {
  const p = placeholder(dialect);
  await db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS "_app_migrations" ("name" TEXT PRIMARY KEY, "applied_at" TEXT NOT NULL)`);
  const done = new Set((await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations"`)).map((r) => r.name));
  const applied: string[] = [];
  for (const file of readdirSync(path.join(dir, dialect)).filter((f) => f.endsWith(".sql")).sort()) {
    if (done.has(file)) continue;
    const statements = readFileSync(path.join(dir, dialect, file), "utf8")
      .split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter(Boolean);
    try {
      await db.$transaction(async (tx) => {
        for (const s of statements) await tx.$executeRawUnsafe(s); // SQLite: one statement per call
        await tx.$executeRawUnsafe(`INSERT INTO "_app_migrations" ("name","applied_at") VALUES (${p(1)}, ${p(2)})`, file, new Date().toISOString());
      });
    } catch (err) {
      // Another server process on the same store may have applied it at the same moment.
      const again = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations" WHERE "name" = ${p(1)}`, file);
      if (again.length === 0) throw err;
      continue;
    }
    applied.push(file);
  }
  return applied;
}

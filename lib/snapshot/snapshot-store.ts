// Saves a consistent snapshot of a store (SQLite or PostgreSQL) and restores one into an empty store.
//
// Consistency while a server runs: one read transaction (SQLite: a deferred transaction, whose first read
// pins a WAL snapshot, so the server's writers are never blocked; PostgreSQL: REPEATABLE READ, one MVCC
// snapshot) reads the revision counter and then every current object page by page. Writers update the counter
// and the objects in one transaction, so every object read is exactly its state at that revision.
//
// Values are copied as the database holds them: Secrets encrypted at rest stay encrypted in the file, and
// the restored store needs the same ENCRYPTION_CONFIG keys to be read.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { configureConnection, createDb, isPostgresUrl, migrate, placeholder, sqliteFilePath, type Db, type DialectName } from "../storage/db";
import { readSnapshotFile, SnapshotWriter, type SnapshotRecord } from "./snapshot-file";

const PAGE = 1000;
const INSERT_BATCH = 200;
/** Interactive transactions last as long as the copy takes. */
const LONG = { maxWait: 60_000, timeout: 24 * 3600_000 };

export class SnapshotError extends Error {}

/** A database URL fit for messages: PostgreSQL without its password. */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return sqliteFilePath(url);
  try {
    const u = new URL(url);
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "postgresql://(unparsable URL)";
  }
}

async function openDb(url: string): Promise<{ db: Db; dialect: DialectName }> {
  const opened = createDb(url);
  await configureConnection(opened.db, opened.dialect, "FULL");
  return opened;
}

type Queryable = Pick<Db, "$queryRawUnsafe">;

async function tableExists(db: Queryable, dialect: DialectName, name: string): Promise<boolean> {
  const rows = dialect === "sqlite"
    ? await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM sqlite_master WHERE type = 'table' AND name = ?`, name)
    : await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`, name);
  return Number(rows[0].n) === 1;
}

async function hasStoreTables(db: Db, dialect: DialectName): Promise<boolean> {
  const rows = dialect === "sqlite"
    ? await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM sqlite_master WHERE type = 'table' AND name IN ('Revision', 'CurrentObject', '_app_migrations')`)
    : await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('Revision', 'CurrentObject', '_app_migrations')`);
  return Number(rows[0].n) === 3;
}

/**
 * Writes a snapshot of the store at `databaseUrl` to `file`. The store may be in use by running servers.
 * Refuses to overwrite `file` unless `overwrite`.
 */
export async function saveSnapshot(opts: { databaseUrl: string; file: string; overwrite?: boolean }): Promise<{ revision: number; objects: number; sha256: string }> {
  const where = describeDatabase(opts.databaseUrl);
  if (!isPostgresUrl(opts.databaseUrl) && !existsSync(sqliteFilePath(opts.databaseUrl))) {
    throw new SnapshotError(`no store at ${where}: set DATA_DIR or DATABASE_URL to the server's`);
  }
  if (existsSync(opts.file) && !opts.overwrite) throw new SnapshotError(`${opts.file} exists; choose another name (or pass --force to replace it)`);
  const { db, dialect } = await openDb(opts.databaseUrl);
  try {
    if (!(await hasStoreTables(db, dialect))) throw new SnapshotError(`${where} holds no Cluster Core store`);
    const p = placeholder(dialect);
    return await db.$transaction(async (tx) => {
      const [{ rev }] = await tx.$queryRawUnsafe<{ rev: bigint | number }[]>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
      const migrations = (await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_app_migrations" ORDER BY "name"`)).map((r) => r.name);
      const revision = Number(rev);
      const writer = await SnapshotWriter.create(opts.file, { revision, createdAt: new Date().toISOString(), source: dialect, migrations });
      try {
        let after: [string, string, string] | undefined;
        for (;;) {
          const rows = await tx.$queryRawUnsafe<{ resource: string; namespace: string; name: string; rev: bigint | number; object: string }[]>(
            `SELECT "resource", "namespace", "name", "rev", "object" FROM "CurrentObject"${after ? ` WHERE ("resource", "namespace", "name") > (${p(1)}, ${p(2)}, ${p(3)})` : ""}
             ORDER BY "resource", "namespace", "name" LIMIT ${PAGE}`, ...(after ?? []));
          for (const r of rows) {
            const record: SnapshotRecord = { resource: r.resource, namespace: r.namespace, name: r.name, rev: Number(r.rev), value: r.object };
            if (record.rev > revision) throw new SnapshotError(`inconsistent read: ${r.resource} ${r.namespace}/${r.name} is at revision ${record.rev}, after the store's ${revision}`);
            await writer.add(record);
          }
          if (rows.length < PAGE) break;
          const last = rows[rows.length - 1];
          after = [last.resource, last.namespace, last.name];
        }
        const done = await writer.finish();
        return { revision, ...done };
      } catch (err) {
        await writer.abort();
        throw err;
      }
    }, { ...LONG, isolationLevel: dialect === "postgresql" ? "RepeatableRead" : "Serializable" });
  } finally {
    await db.$disconnect();
  }
}

/**
 * Fills the empty store at `databaseUrl` from `file`. The whole file is verified first (nothing is opened or
 * written when it is damaged); the load is one transaction that is rolled back on any problem. Refuses a
 * store that has any object, log entry or revision.
 */
export async function restoreSnapshot(opts: { databaseUrl: string; file: string }): Promise<{ revision: number; objects: number; sha256: string }> {
  const verified = await readSnapshotFile(opts.file);
  const where = describeDatabase(opts.databaseUrl);
  if (!isPostgresUrl(opts.databaseUrl)) await mkdir(path.dirname(path.resolve(sqliteFilePath(opts.databaseUrl))), { recursive: true, mode: 0o700 });
  const { db, dialect } = await openDb(opts.databaseUrl);
  try {
    // An empty database gets the schema here, as a server start would.
    await migrate(db, dialect);
    const p = placeholder(dialect);
    return await db.$transaction(async (tx) => {
      // Take the writers' lock first (as every write transaction does), then check that the store is empty.
      const [{ rev }] = await tx.$queryRawUnsafe<{ rev: bigint | number }[]>(`UPDATE "Revision" SET "rev" = "rev" WHERE "id" = 1 RETURNING "rev"`);
      const [{ n: objects }] = await tx.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM "CurrentObject"`);
      const [{ n: logged }] = await tx.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS "n" FROM "LogEntry"`);
      if (Number(rev) !== 0 || Number(objects) !== 0 || Number(logged) !== 0) {
        throw new SnapshotError(`the store at ${where} is not empty (revision ${Number(rev)}, ${Number(objects)} objects): restore needs an empty store (a new DATA_DIR, or an empty PostgreSQL database); nothing was changed`);
      }
      let batch: SnapshotRecord[] = [];
      const now = BigInt(Date.now());
      const flush = async () => {
        if (!batch.length) return;
        await tx.$executeRawUnsafe(
          `INSERT INTO "CurrentObject" ("resource", "namespace", "name", "rev", "object") VALUES ${batch.map((_, i) => `(${[1, 2, 3, 4, 5].map((j) => p(5 * i + j)).join(", ")})`).join(", ")}`,
          ...batch.flatMap((r) => [r.resource, r.namespace, r.name, BigInt(r.rev), r.value]));
        // Each key's latest log entry, as compaction leaves the log: the state a later write replaces, which a
        // server starting after that write needs to rebuild its watch history.
        await tx.$executeRawUnsafe(
          `INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt") VALUES ${batch.map((_, i) => `(${[1, 2, 3, 4, 5, 6, 7].map((j) => p(7 * i + j)).join(", ")})`).join(", ")}`,
          ...batch.flatMap((r) => [BigInt(r.rev), r.resource, r.namespace, r.name, "ADDED", r.value, now]));
        batch = [];
      };
      // Read again and load; the file is checked again as it is read, and any difference rolls the load back.
      const loaded = await readSnapshotFile(opts.file, async (r) => {
        batch.push(r);
        if (batch.length >= INSERT_BATCH) await flush();
      });
      await flush();
      if (loaded.sha256 !== verified.sha256) throw new SnapshotError(`${opts.file} changed while it was being restored; nothing was changed`);
      await tx.$executeRawUnsafe(`UPDATE "Revision" SET "rev" = ${p(1)} WHERE "id" = 1`, BigInt(loaded.revision));
      // The log holds no history before the snapshot's revision: it is compacted up to there.
      if (await tableExists(tx, dialect, "LogCompaction")) await tx.$executeRawUnsafe(`UPDATE "LogCompaction" SET "rev" = ${p(1)} WHERE "id" = 1`, BigInt(loaded.revision));
      return { revision: loaded.revision, objects: loaded.objects, sha256: loaded.sha256 };
    }, LONG);
  } finally {
    await db.$disconnect();
  }
}

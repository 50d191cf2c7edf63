// Test helpers shared by the snapshot and encryption tests: fresh SQLite files and PostgreSQL databases, raw
// reads of the tables. PostgreSQL cases need TEST_PG_URL (scripts/with-postgres.sh sets it); without it they
// fail, unless SKIP_POSTGRES=1 says to leave them out.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, sqliteFilePath } from "../storage/db";

export type Backend = "sqlite" | "postgresql";

/** The backends to run: both, unless SKIP_POSTGRES=1. */
export const backends: Backend[] = process.env.SKIP_POSTGRES === "1" ? ["sqlite"] : ["sqlite", "postgresql"];

export function sqliteUrl(prefix = "cc-test-"): string {
  return `file:${path.join(mkdtempSync(path.join(tmpdir(), prefix)), "cluster-core.db")}`;
}

/** A new, empty database on TEST_PG_URL's server. Throws (the test fails) when TEST_PG_URL is not set. */
export async function postgresUrl(): Promise<string> {
  const server = process.env.TEST_PG_URL;
  if (!server) throw new Error("TEST_PG_URL is not set: run the tests under scripts/with-postgres.sh, or set SKIP_POSTGRES=1 to leave the PostgreSQL cases out");
  const { default: pg } = await import("pg");
  const name = `cc_snap_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try { await client.query(`CREATE DATABASE ${name}`); } finally { await client.end(); }
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

export const freshUrl = (backend: Backend): Promise<string> => (backend === "sqlite" ? Promise.resolve(sqliteUrl()) : postgresUrl());

export interface RawState {
  revision: number;
  rows: { resource: string; namespace: string; name: string; rev: number; object: string }[];
  log: { rev: number; object: string }[];
}

/** Everything the store's tables hold, read directly (no cache, no transformer). Undefined when there is no store. */
export async function rawState(url: string): Promise<RawState | undefined> {
  if (!url.startsWith("postgres") && !existsSync(sqliteFilePath(url))) return undefined;
  const { db } = createDb(url);
  try {
    const tables = url.startsWith("postgres")
      ? await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS "n" FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'Revision'`)
      : await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS "n" FROM sqlite_master WHERE name = 'Revision'`);
    if (Number(tables[0].n) === 0) return undefined;
    const [{ rev }] = await db.$queryRawUnsafe<{ rev: bigint }[]>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
    const rows = await db.$queryRawUnsafe<{ resource: string; namespace: string; name: string; rev: bigint; object: string }[]>(
      `SELECT "resource", "namespace", "name", "rev", "object" FROM "CurrentObject"`);
    const log = await db.$queryRawUnsafe<{ rev: bigint; object: string }[]>(`SELECT "rev", "object" FROM "LogEntry" ORDER BY "rev"`);
    const key = (r: { resource: string; namespace: string; name: string }) => `${r.resource}\u0000${r.namespace}\u0000${r.name}`;
    return {
      revision: Number(rev),
      rows: rows.map((r) => ({ ...r, rev: Number(r.rev) })).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
      log: log.map((r) => ({ rev: Number(r.rev), object: r.object })),
    };
  } finally {
    await db.$disconnect();
  }
}

/** The SQLite database and its WAL, as bytes (what `grep` on the data directory would search). */
export function sqliteBytes(url: string): Buffer {
  const file = sqliteFilePath(url);
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

// Test support: the stores every storage-dependent suite runs on. SQLite always; PostgreSQL on the server
// TEST_PG_URL names (scripts/with-postgres.sh starts a throw-away one for `npm test`), a fresh database per
// call. A PostgreSQL case without TEST_PG_URL fails, it is not skipped, unless the developer opts out
// explicitly with SKIP_POSTGRES=1 (never set by CI).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type Backend = "sqlite" | "postgresql";

/** SKIP_POSTGRES=1: leave the PostgreSQL cases out (a developer without PostgreSQL; never CI). */
export const skipPostgres = process.env.SKIP_POSTGRES === "1";

/** The backends a suite runs on: both, or SQLite only when SKIP_POSTGRES=1. */
export const testBackends: Backend[] = skipPostgres ? ["sqlite"] : ["sqlite", "postgresql"];

/** TEST_PG_URL, or a clear failure saying how to get one. */
export function postgresServerUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) {
    throw new Error("TEST_PG_URL is not set: run the tests through scripts/with-postgres.sh (npm test does), " +
      "point TEST_PG_URL at a PostgreSQL server (postgresql://user@host:port/db), or set SKIP_POSTGRES=1 to leave the PostgreSQL cases out");
  }
  return url;
}

/** A new, empty database on the PostgreSQL server TEST_PG_URL (or `serverUrl`) names; its URL. */
export async function freshPostgresDatabase(serverUrl = postgresServerUrl(), prefix = "cc_test"): Promise<string> {
  const { default: pg } = await import("pg");
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh store URL of the backend: a SQLite file in a new temp dir, or a new PostgreSQL database. */
export async function freshDatabaseUrl(backend: Backend, prefix = "cc_test"): Promise<string> {
  if (backend === "postgresql") return freshPostgresDatabase(postgresServerUrl(), prefix);
  return `file:${path.join(mkdtempSync(path.join(tmpdir(), "cc-store-")), "store.db")}`;
}

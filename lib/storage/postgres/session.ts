// Statements over node-postgres: through Prisma each costs milliseconds on PostgreSQL (more than the database's
// own work and the commit's flush), so the revision log uses `pg` directly; Prisma's client stays for
// migrations and for callers of `Store.db`.
import type pg from "pg";
import type { Session } from "../dialect";

/** node-postgres sends strings for BIGINT parameters (it has no BigInt encoding); int8 results come back as strings. */
export const pgParams = (params: unknown[]) => params.map((v) => (typeof v === "bigint" ? v.toString() : v));

/** A session on one client (inside a transaction) or on the pool (each statement on its own). */
export function pgSession(client: pg.PoolClient | pg.Pool): Session {
  return {
    query: async <T>(sql: string, ...params: unknown[]) => (await client.query(sql, pgParams(params))).rows as T[],
    execute: async (sql: string, ...params: unknown[]) => (await client.query(sql, pgParams(params))).rowCount ?? 0,
  };
}

/**
 * One pooled connection for a transaction that `fn` begins and commits: rolled back when `fn` throws, and
 * dropped from the pool (not reused) when even the rollback fails.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await fn(client);
  } catch (err) {
    await client.query("ROLLBACK").catch((e: Error) => { broken = e; });
    throw err;
  } finally {
    client.release(broken);
  }
}

// lib/storage: the revision log over Prisma (SQLite or PostgreSQL) and the in-memory watch cache it feeds.
// The only layer that touches the database. Knows nothing about kinds; callers address objects by
// { resource, namespace, name }. Never imports lib/api, lib/registry or lib/kinds (types only).
import { configureConnection, createDb, migrate, sqliteFilePath, type Db, type Dialect } from "./db";
import { RevisionLog } from "./revision-log";
import { WatchCache } from "./watch-cache";

export { ExpiredError } from "./watch-cache";
export type { WatchSink, WatchSpec } from "./watch-cache";
export * from "./types";

export interface StoreOptions {
  databaseUrl: string;
  /** How long the log and the watch history are kept (kube-apiserver/etcd compact after ~5 minutes). */
  compactionWindowSeconds: number;
  /** How often the log is read for other processes' writes. */
  pollIntervalMs?: number;
  synchronous?: "FULL" | "NORMAL";
}

export interface Store {
  db: Db;
  dialect: Dialect;
  log: RevisionLog;
  cache: WatchCache;
  close(): Promise<void>;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  const { db, dialect } = createDb(opts.databaseUrl);
  await configureConnection(db, dialect, opts.synchronous ?? "FULL");
  await migrate(db, dialect);
  let cache: WatchCache | undefined;
  const log = new RevisionLog(db, dialect, (events) => cache?.offer(events), dialect === "sqlite" ? sqliteFilePath(opts.databaseUrl) : undefined, opts.synchronous ?? "FULL");
  const windowMs = opts.compactionWindowSeconds * 1000;
  cache = new WatchCache(log, {
    windowMs,
    pollIntervalMs: opts.pollIntervalMs ?? 200,
    maxHistory: 500_000,
    bookmarkIntervalMs: 60_000,
  });
  await cache.start();
  const compactor = setInterval(() => {
    log.compact(Date.now() - windowMs).catch(() => { /* retried on the next tick */ });
  }, Math.max(1000, Math.min(windowMs / 2, 60_000)));
  compactor.unref();
  return {
    db, dialect, log, cache,
    async close() {
      clearInterval(compactor);
      cache!.stop();
      log.close();
      await db.$disconnect();
    },
  };
}

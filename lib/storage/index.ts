// lib/storage: the revision log over Prisma (SQLite or PostgreSQL) and the in-memory watch cache it feeds.
// The only layer that touches the database. Knows nothing about kinds; callers address objects by
// { resource, namespace, name }. Never imports lib/api, lib/registry or lib/kinds (types only).
import { configureConnection, createDb, migrate, sqliteFilePath, type Db, type Dialect } from "./db";
import { LogNotifier } from "./notifier";
import { RevisionLog, type CommitStats, type HistoryRetention } from "./revision-log";
import type { ValueTransformer } from "./types";
import { WatchCache } from "./watch-cache";

export { ExpiredError } from "./watch-cache";
export type { WatchFraming, WatchSink, WatchSpec } from "./watch-cache";
export type { HistoryRetention } from "./revision-log";
export * from "./types";

export interface StoreOptions {
  databaseUrl: string;
  /** How long the log and the watch history are kept (kube-apiserver/etcd compact after ~5 minutes). */
  compactionWindowSeconds: number;
  /**
   * How often the log is read for other processes' writes. On PostgreSQL notifications wake the reader at
   * once; polling is then only the fallback (every 2 s while the notification connection is up).
   */
  pollIntervalMs?: number;
  synchronous?: "FULL" | "NORMAL";
  /** Encryption at rest (lib/encryption); values are stored as they are by default. */
  transformer?: ValueTransformer;
  /** Object history kept beyond the window (HISTORY_REVISIONS, HISTORY_DAYS); none by default (etcd's compaction). */
  history?: HistoryRetention;
}

export interface Store {
  db: Db;
  dialect: Dialect;
  log: RevisionLog;
  cache: WatchCache;
  /** Counters and gauges for metrics (commit latency, cross-replica tail lag); cheap, read on demand. */
  stats(): StoreStats;
  close(): Promise<void>;
}

export interface StoreStats {
  /** The latest revision this process has applied. */
  revision: number;
  commits: CommitStats;
  /**
   * PostgreSQL write batches: revisions allocated in the database (the usual way), or (values encrypted at
   * rest) committed as planned against the cache, after catching up, or under the counter lock.
   */
  postgresBatches: { allocated: number; optimistic: number; retried: number; locked: number };
  /** Other processes' writes read from the log, and how long after their commit they were applied here. */
  tail: { events: number; lagSecondsSum: number; lastLagSeconds: number };
  /** PostgreSQL: whether the notification connection is up (false on SQLite, which polls). */
  notificationsConnected: boolean;
  watchers: number;
  objects: number;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  const { db, dialect } = createDb(opts.databaseUrl);
  await configureConnection(db, dialect, opts.synchronous ?? "FULL");
  await migrate(db, dialect);
  let cache: WatchCache | undefined;
  const log = new RevisionLog(db, dialect, (events, tailed) => cache?.offer(events, tailed), dialect === "sqlite" ? sqliteFilePath(opts.databaseUrl) : undefined, opts.synchronous ?? "FULL", dialect === "postgresql" ? opts.databaseUrl : undefined);
  if (opts.transformer) log.transformer = opts.transformer;
  if (opts.history) log.retention = opts.history;
  const windowMs = opts.compactionWindowSeconds * 1000;
  // PostgreSQL: other replicas' commits wake the tailer (LISTEN/NOTIFY); polling stays as the fallback.
  const notifier = dialect === "postgresql" ? new LogNotifier(opts.databaseUrl, (rev) => { log.notified(rev); cache?.wake(rev); }) : undefined;
  cache = new WatchCache(log, {
    windowMs,
    pollIntervalMs: opts.pollIntervalMs ?? 200,
    maxHistory: 500_000,
    bookmarkIntervalMs: 60_000,
    notified: notifier && (() => notifier.connected),
  });
  await cache.start();
  await notifier?.start();
  if (notifier) log.notifications = () => notifier.connected;
  if (dialect === "postgresql") {
    const c = cache;
    log.view = { rev: () => c.rev, revOf: (key) => c.get(key)?.rev, catchUp: () => c.poll() };
  }
  const compactor = setInterval(() => {
    log.compact(Date.now() - windowMs).catch(() => { /* retried on the next tick */ });
  }, Math.max(1000, Math.min(windowMs / 2, 60_000)));
  compactor.unref();
  return {
    db, dialect, log, cache,
    stats() {
      const c = cache!.stats();
      return {
        revision: c.rev, commits: { ...log.commitStats }, postgresBatches: { ...log.batchPaths }, tail: { ...cache!.tailStats },
        notificationsConnected: notifier?.connected ?? false, watchers: c.watchers, objects: c.objects,
      };
    },
    async close() {
      clearInterval(compactor);
      await notifier?.close();
      cache!.stop();
      await log.close();
      await db.$disconnect();
    },
  };
}

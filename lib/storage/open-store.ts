// Opens a store: the database (migrated), its dialect, the watch cache loaded from the start-up snapshot and
// kept current by the tailer, the commit queue, compaction on a timer, and on PostgreSQL the notifications.
// Everything is built here, in order, with its options; the few references that go both ways (the commit
// queue hands its events to the tailer, the dialect plans some batches against the cache) are callbacks.
import { Compactor, type HistoryRetention } from "./compaction";
import { CommitQueue } from "./commit-queue";
import { configureConnection, createDb, migrate, sqliteFilePath } from "./db";
import type { StoreView } from "./dialect";
import { LogHistory } from "./history";
import type { Store } from "./interfaces";
import { LogNotifier } from "./postgres/notifier";
import { PostgresDialect } from "./postgres/postgres-dialect";
import { SqliteDialect } from "./sqlite/sqlite-dialect";
import { Tailer } from "./tailer";
import { plainValues, type ValueTransformer } from "./types";
import { withValueUpgrade, type ValueUpgrade } from "./value-upgrade";
import { WatchCache } from "./watch-cache";

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
  /** Values an older version stored, brought to today's form as they are read (after the transformer). */
  upgrade?: ValueUpgrade;
  /** Object history kept beyond the window (HISTORY_REVISIONS, HISTORY_DAYS); none by default (etcd's compaction). */
  history?: HistoryRetention;
}

/** The pieces behind a Store, for lib/storage's own tests. */
export interface StoreParts {
  dialect: SqliteDialect | PostgresDialect;
  queue: CommitQueue;
  cache: WatchCache;
  tailer: Tailer;
  compactor: Compactor;
  /** PostgreSQL: what batches planned in this process read of the cache. */
  view: StoreView;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  return openStoreParts(opts);
}

export async function openStoreParts(opts: StoreOptions): Promise<Store & { parts: StoreParts }> {
  const { db, dialect: name } = createDb(opts.databaseUrl);
  const synchronous = opts.synchronous ?? "FULL";
  await configureConnection(db, name, synchronous);
  await migrate(db, name);
  const transformer = withValueUpgrade(opts.transformer ?? plainValues, opts.upgrade);
  const windowMs = opts.compactionWindowSeconds * 1000;

  const view: StoreView = { rev: () => cache.rev, revOf: (key) => cache.get(key)?.rev, catchUp: () => tailer.poll() };
  const dialect = name === "postgresql"
    ? new PostgresDialect(opts.databaseUrl, transformer, view)
    : new SqliteDialect(db, sqliteFilePath(opts.databaseUrl), synchronous, transformer);
  // PostgreSQL: other replicas' commits wake the tailer (LISTEN/NOTIFY); polling stays as the fallback.
  const notifier = name === "postgresql" ? new LogNotifier(opts.databaseUrl, (rev) => { queue.notified(rev); tailer.wake(rev); }) : undefined;
  const cache = new WatchCache({ windowMs, maxHistory: 500_000, bookmarkIntervalMs: 60_000 }, dialect, () => tailer.poll());
  const queue = new CommitQueue(dialect, (events, tailed) => tailer.offer(events, tailed), notifier && (() => notifier.connected));
  const tailer = new Tailer(dialect, transformer, cache, {
    pollIntervalMs: opts.pollIntervalMs ?? 200,
    notified: notifier && (() => notifier.connected),
    writing: () => queue.writing,
  });
  const compactor = new Compactor(dialect, opts.history);
  const history = new LogHistory(dialect, transformer);

  await tailer.start();
  cache.start();
  await notifier?.start();
  const compaction = setInterval(() => {
    compactor.compact(Date.now() - windowMs).catch(() => { /* retried on the next tick */ });
  }, Math.max(1000, Math.min(windowMs / 2, 60_000)));
  compaction.unref();
  const none = { allocated: 0, optimistic: 0, retried: 0, locked: 0 };
  return {
    db, dialect: name, objects: cache, writer: queue, history,
    commitObservers: queue.commitObservers,
    tailObservers: tailer.tailObservers,
    objectCounts: () => cache.objectCounts(),
    stats() {
      const c = cache.stats();
      return {
        revision: c.rev, historyStartRev: c.historyStartRev, historyEvents: c.history,
        commits: { ...queue.commitStats }, postgresBatches: { ...(dialect instanceof PostgresDialect ? dialect.batchPaths : none) },
        tail: { ...tailer.tailStats }, notificationsConnected: notifier?.connected ?? false, watchers: c.watchers, objects: c.objects,
      };
    },
    async close() {
      clearInterval(compaction);
      await notifier?.close();
      tailer.stop();
      cache.stop();
      await dialect.close();
      await db.$disconnect();
    },
    parts: { dialect, queue, cache, tailer, compactor, view },
  };
}

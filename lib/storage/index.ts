// lib/storage: the revision log over SQLite or PostgreSQL and the in-memory watch cache it feeds. The only
// layer that touches the database. Knows nothing about kinds; callers address objects by
// { resource, namespace, name } and use the interfaces below, never the classes behind them.
export { openStore, type StoreOptions } from "./open-store";
export { ExpiredError } from "./watch-cache";
export type { HistoryRetention } from "./compaction";
export type { CommitStats } from "./commit-queue";
export type {
  HistoryReader, ListRange, ObjectStore, ObjectWriter, Store, StoreFigures, StoreStats, WatchFraming, WatchSink, WatchSpec,
} from "./interfaces";
export * from "./types";
export type { ValueUpgrade } from "./value-upgrade";

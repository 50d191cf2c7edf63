// The storage contract its callers build on (the registry, controllers, admission, bootstrap, allocators,
// history, metrics): reads and watches served from memory, writes, the log read as history, figures. The
// classes behind them (watch cache, tailer, broadcaster, commit queue, dialects) stay inside lib/storage.
import type { KubeObject } from "../kinds/types";
import type { CommitStats } from "./commit-queue";
import type { DialectName, Db } from "./db";
import type { EventType, HistoryEntry, LogEvent, ObjectKey, StoredObject, WriteOp, WriteResult } from "./types";

export interface WatchSink {
  /** Write one chunk; false when the consumer is too far behind (the watcher is then closed). */
  send(chunk: Buffer): boolean;
  close(): void;
  /**
   * Undefined while the consumer keeps up; otherwise a promise that settles once it has taken what waits for
   * it (or gone). A watch's initial events wait on it, so a large initial state is written as the client reads
   * it, never buffered whole; events that happen meanwhile wait in the watcher's queue. Without it, every
   * initial event is sent at once.
   */
  ready?(): Promise<void> | undefined;
}

export interface WatchSpec {
  resource: string;
  /** Only objects in this namespace; undefined for all namespaces / cluster-scoped kinds. */
  namespace?: string;
  matches: (obj: KubeObject) => boolean;
  /** `matches` is true for every object: the watch never asks it (nor parses an object to ask it). */
  matchesAll?: boolean;
  /** Start after this revision; undefined = start now. */
  sinceRev?: number;
  /** Send synthetic ADDED events for the current state first. */
  initialState: boolean;
  /** After the initial state, send a bookmark marking its end (sendInitialEvents). */
  initialEventsEnd: boolean;
  /** Send periodic bookmarks (allowWatchBookmarks). */
  bookmarks: boolean;
  /**
   * When the watch ends (ms from its start; the client's timeoutSeconds): with bookmarks, one more is sent
   * 2 s before, as kube's watch cache does, so the client's next watch resumes from the newest revision.
   */
  endsAfterMs?: number;
  /** Serialised bookmark object at a revision (kind-specific; built by the caller). */
  bookmark: (rev: number, initialEventsEnd: boolean) => string;
  /**
   * Per-watcher encoding (e.g. Table rows for kubectl get -w). When absent, every watcher of an event
   * shares one serialisation.
   */
  encode?: (type: EventType, object: KubeObject, json: string) => string | Buffer;
  /**
   * Another wire format than JSON lines (protobuf frames, a metadata-only view, another group's apiVersion).
   * Watchers whose framing has the same id share one frame per event, as JSON watchers share one line.
   */
  framing?: WatchFraming;
  /** The 410 Status for a start revision older than the retained history. */
  expired: (requested: number, oldest: number) => string;
}

export interface WatchFraming {
  id: string;
  /** The frame of an ADDED/MODIFIED/DELETED event about `object` (`json`: its serialisation). */
  event(type: EventType, object: KubeObject, json: string): Buffer;
  /** A BOOKMARK frame (the bookmark object as JSON) or an ERROR frame (a Status as JSON). */
  frame(type: "BOOKMARK" | "ERROR", json: string): Buffer;
}

/** Which objects a list or scan covers. */
export interface ListRange {
  namespace?: string;
  /** The revision to read at (default: the latest applied); older than the history: ExpiredError. */
  atRev?: number;
  /** Only keys (`namespace/name`) after this one. */
  startAfter?: string;
}

/**
 * Every current object, its recent history and the watchers, in this process's memory (kube's cacher): reads
 * never touch the database; `catchUp` first makes them consistent with every acknowledged write.
 */
export interface ObjectStore {
  /** The latest revision applied here. */
  readonly rev: number;
  /** Lists and watches from before this revision get ExpiredError / 410. */
  readonly historyStartRev: number;
  get(key: ObjectKey): StoredObject | undefined;
  /** Objects of `resource` in the range, sorted by namespace/name. */
  list(resource: string, range?: ListRange): StoredObject[];
  /** Visits what `list` would return until `visit` returns false; returns how many of the range were left unvisited. */
  scan(resource: string, range: ListRange, visit: (o: StoredObject) => boolean): number;
  /** Every current object of every resource. */
  allObjects(): IterableIterator<StoredObject>;
  /** How many objects of `resource` there are now and their serialised bytes (flow control weighs lists by it). */
  size(resource: string): { objects: number; bytes: number };
  /** Catch up with the store's latest revision (a write acknowledged by another process is then visible). */
  catchUp(): Promise<void>;
  /**
   * Whether a consistent read may be answered from the cache as it is, with no wait: nobody else committed since
   * the last catch-up (SQLite's change signal). False means `catchUp` first (PostgreSQL: always).
   */
  current(): boolean;
  /** Resolves true once `rev` is applied here, false after `timeoutMs`. */
  waitFor(rev: number, timeoutMs?: number): Promise<boolean>;
  /** Read what other processes committed (after a failed precondition this process may be behind). */
  refresh(): Promise<void>;
  /** Start a watch; returns a function that stops it. */
  watch(spec: WatchSpec, sink: WatchSink): () => void;
  /** Called for every applied event, in revision order (controllers, indexes). */
  readonly listeners: Set<(e: LogEvent) => void>;
}

export interface ObjectWriter {
  /** Queue one write; resolves once it is durably committed (or refused by its precondition). */
  commit(op: WriteOp): Promise<WriteResult>;
}

/** The log read back as object history (what compaction's retention keeps). */
export interface HistoryReader {
  /** An object's revisions, newest first (at most `limit`, those below `beforeRev` when given). */
  history(key: ObjectKey, limit: number, beforeRev?: number): Promise<HistoryEntry[]>;
  /**
   * Objects of `resource` whose latest entry is a delete (deleted, not created again), newest deletion
   * first, each with that entry (its last state); in one namespace, or every one when `namespace` is undefined.
   */
  deletedObjects(resource: string, namespace: string | undefined, limit: number): Promise<HistoryEntry[]>;
  /** Every write in `namespace` of the given resources since `sinceMs` (epoch ms), newest first, at most `limit`. */
  changes(namespace: string, resources: string[], sinceMs: number, limit: number): Promise<HistoryEntry[]>;
}

export interface StoreStats {
  /** The latest revision this process has applied. */
  revision: number;
  /** Lists and watches from before this revision get 410. */
  historyStartRev: number;
  /** Events held for resumable watches and consistent pages. */
  historyEvents: number;
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

/** What metrics read: figures on demand (cheap), and observers of each commit and each write tailed from another process. */
export interface StoreFigures {
  stats(): StoreStats;
  /** Current objects per resource (apiserver_storage_objects). */
  objectCounts(): Map<string, number>;
  /** Each committed batch's duration (seconds) and size. */
  readonly commitObservers: Set<(seconds: number, writes: number) => void>;
  /** Each tailed write's lag (seconds from its commit by another process). */
  readonly tailObservers: Set<(lagSeconds: number) => void>;
}

export interface Store extends StoreFigures {
  readonly objects: ObjectStore;
  readonly writer: ObjectWriter;
  readonly history: HistoryReader;
  /** The Prisma client (migrations; lib/snapshot opens its own). */
  readonly db: Db;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

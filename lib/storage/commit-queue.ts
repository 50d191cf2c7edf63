// Group commit: concurrent writes queue here and go to the database together, one transaction per batch
// (Dialect.writeBatch), so a burst of writes costs one flush, not one each. On PostgreSQL, while other
// processes write at the same time, batches take turns with theirs (see `awaitTurn`).
import type { Dialect } from "./dialect";
import type { ObjectWriter } from "./interfaces";
import type { LogRow } from "./log-rows";
import type { LogEvent, WriteOp, WriteResult } from "./types";

interface Pending {
  op: WriteOp;
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

/** Counters for metrics (lib/metrics reads them): commit latency and volume. */
export interface CommitStats {
  /** Write transactions committed (one per batch). */
  batches: number;
  /** Writes committed (log entries appended). */
  writes: number;
  /** Sum of the batches' commit durations, seconds (from the first statement to COMMIT). */
  commitSecondsSum: number;
  /** The last batch's commit duration, seconds. */
  lastCommitSeconds: number;
  /** Failed write transactions (the database refused or was unreachable). */
  failures: number;
}

const MAX_BATCH = 64;

export class CommitQueue implements ObjectWriter {
  private queue: Pending[] = [];
  private flushing = false;
  readonly commitStats: CommitStats = { batches: 0, writes: 0, commitSecondsSum: 0, lastCommitSeconds: 0, failures: 0 };
  /** Observers of each committed batch's duration (seconds) and size, e.g. a latency histogram. */
  readonly commitObservers = new Set<(seconds: number, writes: number) => void>();
  /**
   * Taking turns with other processes writing at the same time (see `awaitTurn`). `contended`: the last two
   * batches came back with other processes' entries committed just before them (they queued behind them at
   * the counter row); `lastRev`: the last batch's last revision; `turn`: the wait for another process's next
   * commit, if any.
   */
  private contended = false;
  private othersBefore = false;
  private lastRev = 0;
  private turn: { after: number; resolve: () => void } | null = null;
  private notifiedRev = 0;
  /** Batches that waited for their turn, and the batches that ended that wait on a notification (metrics, tests). */
  readonly turnStats = { waited: 0, notified: 0 };

  constructor(
    private readonly dialect: Dialect,
    /**
     * After each write batch: its events, and entries other processes committed before it that came back with
     * it (`tailed`, contiguous, possibly overlapping what the cache has). Also called with nothing after a failed batch.
     */
    private readonly onCommitted: (events: LogEvent[], tailed: LogRow[]) => void,
    /** Whether other processes' commits are notified (PostgreSQL's LISTEN is up); without notifications batches never wait. */
    private readonly notifications: () => boolean = () => false,
  ) {}

  /** Queue one write; resolves once it is durably committed (or refused by its precondition). */
  commit(op: WriteOp): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // After this event-loop pass: requests read from other connections in the same pass join the batch
        // (SQLite commits synchronously, so a microtask would commit each write alone, one fsync each).
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length) {
      if (this.contended && this.queue.length < MAX_BATCH && this.notifiedRev <= this.lastRev && this.notifications()) await this.awaitTurn();
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const t0 = performance.now();
        const { results, events, tailed } = await this.dialect.writeBatch(batch.map((b) => b.op));
        const seconds = (performance.now() - t0) / 1000;
        const st = this.commitStats;
        st.batches++; st.writes += events.length; st.commitSecondsSum += seconds; st.lastCommitSeconds = seconds;
        // Two batches in a row: one write of another process now and then (a lease renewal) is no contention.
        // Only PostgreSQL's answers bring other processes' entries.
        const others = !!tailed?.length;
        this.contended = others && this.othersBefore;
        this.othersBefore = others;
        if (events.length) this.lastRev = events[events.length - 1].rev;
        for (const o of this.commitObservers) o(seconds, events.length);
        this.onCommitted(events, tailed ?? []);
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        this.commitStats.failures++;
        this.contended = this.othersBefore = false;
        this.onCommitted([], []);
        batch.forEach((b) => b.reject(err));
      }
    }
    this.flushing = false;
  }

  /**
   * PostgreSQL, while other processes write at the same time: every batch takes the counter row, whose lock is
   * held until its commit is flushed, so concurrent batches of several processes commit one after another. A
   * batch sent right after the previous one committed holds only what queued during that commit, then waits
   * at the lock behind the other process's batch while more requests arrive here. So after contended batches
   * the next one is sent when the other process's next commit is notified (the lock is then free; what queued
   * meanwhile goes with it), or after at most twice the last commit's duration (capped at 20 ms; notifications
   * may be late), or at once when the queue is full (or another process's commit after ours was notified
   * already). Processes writing alone never wait: their batches return no other process's entries. Nothing
   * about what commits changes, only how writes are grouped into batches.
   */
  private awaitTurn(): Promise<void> {
    this.turnStats.waited++;
    // The other process's batch started when ours committed and takes about as long as ours did.
    const ms = Math.min(20, Math.max(1, 2 * this.commitStats.lastCommitSeconds * 1000));
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.turn = null; resolve(); }, ms);
      this.turn = { after: this.lastRev, resolve: () => { clearTimeout(timer); this.turn = null; this.turnStats.notified++; resolve(); } };
    });
  }

  /** PostgreSQL: a commit of `rev` was notified (notifier.ts); another process's commit after our last batch ends a wait for our turn. */
  notified(rev: number): void {
    if (rev > this.notifiedRev) this.notifiedRev = rev;
    if (this.turn && rev > this.turn.after) this.turn.resolve();
  }

  /** Whether a write batch is queued or in flight: its answer will bring what other processes committed before it. */
  get writing(): boolean {
    return this.flushing;
  }
}

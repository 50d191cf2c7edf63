// Keeps the watch cache current (kube's reflector, kine's poller): loads it from the start-up snapshot, then
// hands it events strictly in revision order. Local commits come straight from the commit queue (`offer`);
// other processes' writes are read from the log (at once on a PostgreSQL notification or when a gap is seen;
// otherwise polled), or come with this process's own write answers.
import type { Dialect } from "./dialect";
import { LOG_COLUMNS, logRow, type DbLogRow, type LogRow } from "./log-rows";
import { loadSnapshot } from "./startup-snapshot";
import type { LogEvent, ValueTransformer } from "./types";
import type { WatchCache } from "./watch-cache";

export interface TailerOptions {
  pollIntervalMs: number;
  /** True while something else (PostgreSQL notifications) wakes the tailer: polls then only every `notifiedPollMs`. */
  notified?: () => boolean;
  notifiedPollMs?: number;
  /** Whether a write batch of this process is queued or in flight (its answer brings other processes' entries). */
  writing: () => boolean;
}

export class Tailer {
  private pending = new Map<number, LogEvent>();
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private timer: NodeJS.Timeout | null = null;
  private lastPollAt = 0;
  /** The newest revision notified while a write batch was in flight (see wake). */
  private deferredWake = 0;
  private closed = false;
  /** Other processes' writes applied from the log, and how long after their commit (metrics). */
  readonly tailStats = { events: 0, lagSecondsSum: 0, lastLagSeconds: 0 };
  /** Observers of each tailed write's lag (seconds from its commit by another process), e.g. a histogram. */
  readonly tailObservers = new Set<(lagSeconds: number) => void>();

  constructor(
    private readonly dialect: Dialect,
    private readonly transformer: ValueTransformer,
    private readonly cache: WatchCache,
    private readonly options: TailerOptions,
  ) {}

  async start(): Promise<void> {
    await this.resync();
    this.timer = setInterval(() => this.tick(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** The polling fallback: every tick without notifications, a safety read now and then with them. */
  private tick(): void {
    if (this.options.notified?.() && Date.now() - this.lastPollAt < (this.options.notifiedPollMs ?? 2000)) return;
    void this.poll();
  }

  /**
   * Another process committed up to `rev` (a notification): read the log now unless we have it already. While
   * a write batch of this process is in flight, its answer brings what others committed before it (PostgreSQL,
   * see postgres/write-function.ts): the read waits for that answer and happens only if still needed, so
   * replicas writing at once do not each read the log once more per batch of the other.
   */
  wake(rev: number): void {
    if (rev !== 0 && rev <= this.cache.rev) return;
    if (rev !== 0 && this.options.writing()) {
      this.deferredWake = Math.max(this.deferredWake, rev);
      return;
    }
    void this.poll();
  }

  /** Reload everything from the database (start-up, or after falling behind compaction). */
  private async resync(): Promise<void> {
    const snap = await loadSnapshot(this.dialect, this.transformer);
    this.pending.clear();
    this.cache.reset(snap);
  }

  /**
   * Local commits, in any order; applied strictly by revision. `tailed`: other processes' entries that came
   * back with the write (in revision order), applied as a read of the log would.
   */
  offer(events: LogEvent[], tailed: LogRow[] = []): void {
    const cache = this.cache;
    try {
      for (const r of tailed) {
        if (r.rev <= cache.rev || this.pending.has(r.rev)) continue;
        this.pending.set(r.rev, { rev: r.rev, type: r.type, key: r.key, json: r.json, object: JSON.parse(r.json), stale: r.stale });
        this.recordTail(r);
      }
    } catch {
      // An entry that does not parse: the tailer's read deals with it.
    }
    for (const e of events) if (e.rev > cache.rev) this.pending.set(e.rev, e);
    this.drain();
    const notified = this.deferredWake;
    this.deferredWake = 0;
    // A gap (another process wrote in between), or a notification of more than the write brought.
    if (this.pending.size || notified > cache.rev) void this.poll();
  }

  private recordTail(r: LogRow): void {
    if (!r.createdAt) return;
    const lag = Math.max(0, Date.now() - r.createdAt) / 1000;
    this.tailStats.events++; this.tailStats.lagSecondsSum += lag; this.tailStats.lastLagSeconds = lag;
    for (const o of this.tailObservers) o(lag);
  }

  private drain(): void {
    const cache = this.cache;
    let applied = false;
    for (let e = this.pending.get(cache.rev + 1); e; e = this.pending.get(cache.rev + 1)) {
      this.pending.delete(e.rev);
      cache.apply(e);
      applied = true;
    }
    if (applied) cache.wakeWaiters();
  }

  /** Log rows after `rev`, in revision order. */
  readAfter(rev: number, limit: number): Promise<LogRow[]> {
    const p = this.dialect.param;
    return this.dialect.reads(async (db) => {
      const rows = await db.query<DbLogRow>(
        `SELECT ${LOG_COLUMNS} FROM "LogEntry" WHERE "rev" > ${p(1)} ORDER BY "rev" LIMIT ${p(2)}`,
        BigInt(rev), BigInt(limit));
      return rows.map((r) => logRow(r, this.transformer));
    });
  }

  /** Read log rows after the cache's revision (other processes' writes, or gaps in local hand-over). */
  poll(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.polling) { this.pollAgain = true; return this.polling; }
    this.lastPollAt = Date.now();
    const cache = this.cache;
    this.polling = (async () => {
      try {
        do {
          this.pollAgain = false;
          for (;;) {
            const rows = await this.readAfter(cache.rev, 1000);
            // A local commit may have been applied while the read was in flight (PostgreSQL reads do not wait for writes).
            while (rows.length && rows[0].rev <= cache.rev) rows.shift();
            if (rows.length === 0) break;
            if (rows[0].rev !== cache.rev + 1) {
              // The rows we needed were compacted away: start over from current state.
              await this.resync();
              break;
            }
            for (const r of rows) {
              if (r.rev !== cache.rev + 1) break;
              const local = this.pending.get(r.rev);
              if (local) this.pending.delete(r.rev);
              else this.recordTail(r);
              cache.apply(local ?? { rev: r.rev, type: r.type, key: r.key, json: r.json, object: JSON.parse(r.json), stale: r.stale });
            }
            this.drain();
            cache.wakeWaiters();
            if (rows.length < 1000) break;
          }
        } while (this.pollAgain);
      } catch {
        // The database is briefly unavailable; the next tick retries.
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }
}

// A work queue keyed by object (client-go's rate-limited workqueue, reduced): a key waiting is queued once however
// often it is added; a key being processed is never processed twice at the same time, and is processed again
// afterwards when it was added meanwhile; a failure retries the key with exponential backoff, reset by success.

export interface WorkQueueOptions {
  /** First retry delay after a failure; doubles per consecutive failure of the same key. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Keys processed at the same time (each key still one at a time). */
  concurrency?: number;
  /** Told about every failure (the queue retries regardless). */
  onError?: (key: string, err: unknown) => void;
  /**
   * Process nothing until this has synced (client-go's WaitForCacheSync before a controller's workers start):
   * keys added meanwhile wait, so no decision is taken on a partly replayed initial list.
   */
  waitFor?: { hasSynced(): boolean; whenSynced(): Promise<void> };
}

export class WorkQueue {
  /** Keys waiting, from `head` on (taking from the front of a large array one by one would copy it each time). */
  private queue: string[] = [];
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  /** Added while being processed: run again when the current run ends. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly idleWaiters: (() => void)[] = [];
  private running = 0;
  private stopped = false;
  /** Waiting for `waitFor` to sync (pump armed once). */
  private waiting = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly concurrency: number;

  constructor(private readonly process: (key: string) => Promise<void>, private readonly options: WorkQueueOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.concurrency = options.concurrency ?? 1;
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) { this.dirty.add(key); return; }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Add `key` once `ms` have passed (an earlier pending timer for the key is kept if it fires sooner). */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) { this.add(key); return; }
    if (this.timers.has(key)) return;
    const timer = setTimeout(() => { this.timers.delete(key); this.add(key); }, Math.min(ms, 2 ** 31 - 1));
    timer.unref();
    this.timers.set(key, timer);
  }

  /** Drop everything queued and pending; work in flight finishes but is not repeated. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.queue = [];
    this.head = 0;
    this.queued.clear();
    this.dirty.clear();
    this.wakeIfIdle();
  }

  /** Resolves once nothing is queued or running (timers for later retries may still be pending). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get length(): number {
    return this.queue.length - this.head;
  }

  private isIdle(): boolean {
    return this.running === 0 && this.length === 0;
  }

  private wakeIfIdle(): void {
    if (!this.isIdle()) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private pump(): void {
    const gate = this.options.waitFor;
    if (gate && !gate.hasSynced()) {
      if (!this.waiting) { this.waiting = true; void gate.whenSynced().then(() => { this.waiting = false; this.pump(); }); }
      return;
    }
    while (!this.stopped && this.running < this.concurrency && this.length) {
      const key = this.queue[this.head++];
      if (this.head === this.queue.length) { this.queue = []; this.head = 0; }
      else if (this.head >= 1024 && this.head * 2 >= this.queue.length) { this.queue = this.queue.slice(this.head); this.head = 0; }
      this.queued.delete(key);
      this.processing.add(key);
      this.running++;
      void this.run(key);
    }
  }

  private async run(key: string): Promise<void> {
    try {
      await this.process(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.options.onError?.(key, err);
      this.addAfter(key, Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (n - 1)));
    } finally {
      this.processing.delete(key);
      this.running--;
      if (this.dirty.delete(key)) this.add(key);
      this.pump();
      this.wakeIfIdle();
    }
  }
}

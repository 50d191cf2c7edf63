// Browsers open at most six HTTP/1.1 connections per host, and a watch holds one for as long as it runs.
// A view that streams ten kinds would starve every other request. Watches therefore take a slot before
// connecting; over HTTP/1.1 there are few slots, and a watch that has held one for `sliceMs` while others wait
// hands it over and queues again (it resumes from its last resourceVersion, so nothing is missed, only
// delayed). Over HTTP/2 every stream shares one connection and the limit is lifted.

export interface WatchSlot {
  /** Give the slot back. Safe to call twice. */
  release(): void;
  /** Set by the holder: called when the scheduler wants the slot back for a waiting watch. */
  onPreempt?: () => void;
}

interface Holder {
  slot: WatchSlot;
  since: number;
}

export class WatchSlots {
  private readonly holders = new Set<Holder>();
  private readonly waiting: ((slot: WatchSlot) => void)[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limit: number,
    private readonly sliceMs = 3_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get active(): number {
    return this.holders.size;
  }

  get queued(): number {
    return this.waiting.length;
  }

  acquire(signal?: AbortSignal): Promise<WatchSlot> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (this.holders.size < this.limit) return resolve(this.grant());
      const waiter = (slot: WatchSlot) => resolve(slot);
      this.waiting.push(waiter);
      this.ensureTimer();
      signal?.addEventListener("abort", () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          reject(signal.reason);
        }
      });
    });
  }

  /** Asks the longest holders to yield when watches are waiting; exposed for tests. */
  rebalance(): void {
    if (this.waiting.length === 0) return;
    const now = this.clock();
    const due = [...this.holders].filter((h) => now - h.since >= this.sliceMs).sort((a, b) => a.since - b.since);
    for (const holder of due.slice(0, this.waiting.length)) holder.slot.onPreempt?.();
  }

  private grant(): WatchSlot {
    let released = false;
    const holder: Holder = { since: this.clock(), slot: undefined as unknown as WatchSlot };
    holder.slot = {
      release: () => {
        if (released) return;
        released = true;
        this.holders.delete(holder);
        const next = this.waiting.shift();
        if (next) next(this.grant());
        if (this.waiting.length === 0 && this.timer) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
      },
    };
    this.holders.add(holder);
    return holder.slot;
  }

  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.rebalance(), Math.max(250, this.sliceMs / 4));
  }
}

/** HTTP/2 (or 3) multiplexes streams; over HTTP/1.1 keep two connections free for ordinary requests. */
export function detectWatchSlotLimit(): number {
  if (typeof performance === "undefined") return 4;
  const nav = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  const protocol = nav?.nextHopProtocol ?? "";
  return protocol === "h2" || protocol === "h3" ? 64 : 4;
}

let shared: WatchSlots | undefined;

export function sharedWatchSlots(): WatchSlots {
  shared ??= new WatchSlots(detectWatchSlotLimit());
  return shared;
}

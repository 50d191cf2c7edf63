// Browsers open at most six HTTP/1.1 connections per host, and a watch holds one for as long as it runs.
// A view that streams ten kinds would starve every other request. Watches therefore take a slot before
// connecting; over HTTP/1.1 there are few slots, and a watch that has held one for `sliceMs` while others wait
// hands it over and queues again (it resumes from its last resourceVersion, so nothing is missed, only
// delayed). Over HTTP/2 every stream shares one connection and the limit is lifted.
// A "background" watch (the object page's scan for dependents, which watches every kind) never keeps a
// "normal" one waiting: it is preempted at once for it, and takes a normal watch's slot only when no background
// watch holds one and that normal watch has held its slot for `BACKGROUND_SHARE_SLICES` slices. Background
// watches take turns among themselves with a third of a slice (many of them share few slots; a turn is cheap,
// since a watch resumes from its resourceVersion and gets what it missed at once).

export type WatchPriority = "normal" | "background";

/** How many slices a normal watch keeps its slot against background watches that have none. */
export const BACKGROUND_SHARE_SLICES = 4;

export interface WatchSlot {
  /** Give the slot back. Safe to call twice. */
  release(): void;
  /** Set by the holder: called when the scheduler wants the slot back for a waiting watch. */
  onPreempt?: () => void;
}

interface Holder {
  slot: WatchSlot;
  since: number;
  priority: WatchPriority;
}

interface Waiter {
  priority: WatchPriority;
  grant: (slot: WatchSlot) => void;
}

export class WatchSlots {
  private readonly holders = new Set<Holder>();
  private readonly waiting: Waiter[] = [];
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

  acquire(signal?: AbortSignal, priority: WatchPriority = "normal"): Promise<WatchSlot> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (this.holders.size < this.limit) return resolve(this.grant(priority));
      const waiter: Waiter = { priority, grant: (slot) => resolve(slot) };
      this.waiting.push(waiter);
      this.ensureTimer();
      // A normal watch should not wait for the next tick behind a background one.
      if (priority === "normal") this.rebalance();
      signal?.addEventListener("abort", () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          reject(signal.reason);
        }
      });
    });
  }

  /** Asks holders to yield when watches are waiting (see the header for who yields to whom); exposed for tests. */
  rebalance(): void {
    if (this.waiting.length === 0) return;
    const now = this.clock();
    const byAge = [...this.holders].sort((a, b) => a.since - b.since);
    const due = (h: Holder, slices = 1) => now - h.since >= (h.priority === "background" ? this.sliceMs / 3 : this.sliceMs) * slices;
    const normalWaiting = this.waiting.filter((w) => w.priority === "normal").length;
    const backgroundWaiting = this.waiting.length - normalWaiting;
    const preempt = new Set<Holder>();
    const take = (count: number, pick: (h: Holder) => boolean) => {
      for (const h of byAge) {
        if (count <= 0) return;
        if (preempt.has(h) || !pick(h)) continue;
        preempt.add(h);
        count--;
      }
    };
    take(normalWaiting, (h) => h.priority === "background");
    take(normalWaiting - preempt.size, (h) => h.priority === "normal" && due(h));
    const before = preempt.size;
    take(backgroundWaiting, (h) => h.priority === "background" && due(h));
    const backgroundHolders = byAge.filter((h) => h.priority === "background" && !preempt.has(h)).length;
    if (backgroundWaiting > 0 && preempt.size === before && backgroundHolders === 0) {
      take(1, (h) => h.priority === "normal" && due(h, BACKGROUND_SHARE_SLICES));
    }
    for (const holder of preempt) holder.slot.onPreempt?.();
  }

  private grant(priority: WatchPriority): WatchSlot {
    let released = false;
    const holder: Holder = { since: this.clock(), priority, slot: undefined as unknown as WatchSlot };
    holder.slot = {
      release: () => {
        if (released) return;
        released = true;
        this.holders.delete(holder);
        const next = this.nextWaiter();
        if (next) next.grant(this.grant(next.priority));
        if (this.waiting.length === 0 && this.timer) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
      },
    };
    this.holders.add(holder);
    return holder.slot;
  }

  /** The first normal waiter, else the first background one (each kind in arrival order). */
  private nextWaiter(): Waiter | undefined {
    const i = this.waiting.findIndex((w) => w.priority === "normal");
    return this.waiting.splice(i >= 0 ? i : 0, 1)[0];
  }

  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.rebalance(), Math.max(250, this.sliceMs / 8));
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

// One timer for many deadlines that need not be exact (a watch's end, its last bookmark): node keeps a list
// and a priority-queue entry per distinct duration, so ten thousand watches with kube's random 30-60 minute
// timeouts cost ten thousand timers and lists. Here deadlines are rounded up to a tick and kept in one Map
// of slots; a single unref'd interval, running only while something is scheduled, fires each slot when its
// time has come (at most one tick late, never early).

export type Cancel = () => void;

interface Entry {
  fn: () => void;
  slot: number;
}

export class TimerWheel {
  private readonly slots = new Map<number, Set<Entry>>();
  private size = 0;
  private cursor = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly tickMs = 100) {}

  /** Calls `fn` once, `delayMs` from now (up to a tick later); the returned function cancels it. */
  schedule(delayMs: number, fn: () => void): Cancel {
    const now = performance.now();
    if (!this.timer) {
      this.cursor = Math.floor(now / this.tickMs);
      this.timer = setInterval(() => this.advance(), this.tickMs);
      this.timer.unref();
    }
    const slot = Math.max(this.cursor + 1, Math.ceil((now + Math.max(0, delayMs)) / this.tickMs));
    const entry: Entry = { fn, slot };
    let set = this.slots.get(slot);
    if (!set) this.slots.set(slot, (set = new Set()));
    set.add(entry);
    this.size++;
    return () => this.cancel(entry);
  }

  /** Deadlines waiting. */
  get pending(): number {
    return this.size;
  }

  private cancel(entry: Entry): void {
    const set = this.slots.get(entry.slot);
    if (!set?.delete(entry)) return;
    this.size--;
    if (set.size === 0) this.slots.delete(entry.slot);
    if (this.size === 0) this.stop();
  }

  private advance(): void {
    const upTo = Math.floor(performance.now() / this.tickMs);
    while (this.cursor < upTo && this.size > 0) {
      const slot = ++this.cursor;
      const set = this.slots.get(slot);
      if (!set) continue;
      this.slots.delete(slot);
      this.size -= set.size;
      for (const entry of set) {
        try {
          entry.fn();
        } catch (err) {
          queueMicrotask(() => { throw err; });
        }
      }
    }
    if (this.size === 0) this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The process's wheel for long-lived deadlines (watch streams and their bookmarks). */
export const timerWheel = new TimerWheel();

// Flow control for the request pipeline, after authentication (kube-apiserver's max-in-flight limits with
// API Priority and Fairness' idea of fair queuing per flow): two pools of seats, read-only and mutating; a
// request takes a seat or waits in its user's queue; freed seats go to the waiting users in turn (round
// robin), so one token's flood cannot starve another's requests. A queue that is full, or a wait that runs
// out, is answered 429 with Retry-After. Long-running requests (watches) take no seat: they are counted per
// user and capped apart.
import { errors, StatusError } from "../status";
import { MemoryBudget } from "./memory-budget";

export type SeatKind = "readOnly" | "mutating";

export interface FlowControlLimits {
  /** Seats for reads (kube's --max-requests-inflight, 400). */
  readOnly: number;
  /** Seats for writes (kube's --max-mutating-requests-inflight, 200). */
  mutating: number;
  /** Longest wait for a seat before 429. */
  queueWaitMs: number;
  /** Requests one user may have waiting in one pool. */
  queueLengthPerUser: number;
  /** Watches one user may hold open at once. */
  watchesPerUser: number;
  /** Longest a request that is not long-running may take, queue included (REQUEST_TIMEOUT_SECONDS, 60). */
  requestTimeoutSeconds: number;
  /** What list answers in flight may hold at once (LIST_MEMORY_BUDGET_BYTES, 512 MiB); beyond it, 429. */
  listMemoryBytes: number;
}

export const DEFAULT_LIMITS: FlowControlLimits = {
  readOnly: 400, mutating: 200, queueWaitMs: 10_000, queueLengthPerUser: 100, watchesPerUser: 1000, requestTimeoutSeconds: 60,
  listMemoryBytes: 512 * 2 ** 20,
};

const TOO_MANY = "Too many requests, please try again later.";
export const tooManyRequests = (): StatusError => errors.tooManyRequests(TOO_MANY);

/** Gives back a seat (or a watch slot); calling it more than once has no effect. */
export type Release = () => void;

interface Waiter {
  /** Seats it takes (a list's width). */
  width: number;
  grant: (release: Release) => void;
  refuse: (err: StatusError) => void;
  timer: NodeJS.Timeout;
}

/** One pool of seats with a FIFO queue per user, served round robin. */
class SeatPool {
  inUse = 0;
  private readonly queues = new Map<string, Waiter[]>();
  /** Users with waiting requests, in the order they are served. */
  private readonly turn: string[] = [];

  constructor(private readonly seats: number, private readonly limits: FlowControlLimits) {}

  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** `width` seats (at most the pool's): at once when they are free and nobody waits, else in the user's queue. */
  acquire(user: string, width = 1): Release | Promise<Release> {
    width = Math.max(1, Math.min(width, this.seats));
    if (this.inUse + width <= this.seats && this.turn.length === 0) return this.seat(width);
    const queue = this.queues.get(user) ?? [];
    if (queue.length >= this.limits.queueLengthPerUser) throw tooManyRequests();
    return new Promise<Release>((grant, refuse) => {
      const waiter: Waiter = {
        width, grant, refuse,
        timer: setTimeout(() => this.giveUp(user, waiter), this.limits.queueWaitMs),
      };
      waiter.timer.unref();
      if (!queue.length) {
        this.queues.set(user, queue);
        this.turn.push(user);
      }
      queue.push(waiter);
      this.dispatch();
    });
  }

  private seat(width: number): Release {
    this.inUse += width;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= width;
      this.dispatch();
    };
  }

  /**
   * Free seats go to the next user in turn; a served user goes to the back of the line. A wide request at the
   * head waits until its seats are free (narrower ones behind it do not overtake it, so it cannot starve).
   */
  private dispatch(): void {
    while (this.turn.length) {
      const user = this.turn[0];
      const queue = this.queues.get(user)!;
      if (this.inUse + queue[0].width > this.seats) return;
      this.turn.shift();
      const waiter = queue.shift()!;
      if (queue.length) this.turn.push(user); else this.queues.delete(user);
      clearTimeout(waiter.timer);
      waiter.grant(this.seat(waiter.width));
    }
  }

  private giveUp(user: string, waiter: Waiter): void {
    const queue = this.queues.get(user);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (!queue.length) {
      this.queues.delete(user);
      this.turn.splice(this.turn.indexOf(user), 1);
    }
    waiter.refuse(tooManyRequests());
    this.dispatch(); // a wide request that gave up may have held back narrower ones
  }
}

export class FlowController {
  readonly limits: FlowControlLimits;
  /** Bytes that list answers in flight may hold at once (`limits.listMemoryBytes`). */
  readonly listMemory: MemoryBudget;
  private readonly pools: Record<SeatKind, SeatPool>;
  private readonly watches = new Map<string, number>();

  constructor(limits: Partial<FlowControlLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.pools = { readOnly: new SeatPool(this.limits.readOnly, this.limits), mutating: new SeatPool(this.limits.mutating, this.limits) };
    this.listMemory = new MemoryBudget(this.limits.listMemoryBytes, tooManyRequests);
  }

  /**
   * Seats for a request that is not long-running (`width` of them for a list, from listWorkEstimate): at once,
   * after a fair wait, or a 429.
   */
  admit(user: string, kind: SeatKind, width = 1): Release | Promise<Release> {
    return this.pools[kind].acquire(user, width);
  }

  /** A watch slot for `user`, or a 429 when they hold the most allowed. */
  admitLongRunning(user: string): Release {
    const held = this.watches.get(user) ?? 0;
    if (held >= this.limits.watchesPerUser) throw tooManyRequests();
    this.watches.set(user, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.watches.get(user) ?? 1) - 1;
      if (left > 0) this.watches.set(user, left); else this.watches.delete(user);
    };
  }

  /** Seats in use and requests waiting, per pool (metrics and tests). */
  usage(): Record<SeatKind, { inUse: number; waiting: number }> {
    return {
      readOnly: { inUse: this.pools.readOnly.inUse, waiting: this.pools.readOnly.waiting },
      mutating: { inUse: this.pools.mutating.inUse, waiting: this.pools.mutating.waiting },
    };
  }
}

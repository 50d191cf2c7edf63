// The memory list answers in flight may hold at once: each reserves its estimate (listWorkEstimate) until its
// last byte is written; one that does not fit is refused at once with kube's 429 (Retry-After: 1), so a burst
// of large lists is turned away instead of growing the process until it dies, while smaller requests that
// fit keep being served.
import type { StatusError } from "../status";

/** Gives the reservation back; calling it more than once has no effect. */
export type Release = () => void;

export class MemoryBudget {
  inUse = 0;

  /** `refusal`: the error a reservation that does not fit throws (the pipeline's 429). */
  constructor(readonly bytes: number, private readonly refusal: () => StatusError) {}

  /** Reserve `bytes`, or throw the 429 when they do not fit (a reservation larger than the budget fits only alone). */
  reserve(bytes: number): Release {
    if (this.inUse > 0 && this.inUse + bytes > this.bytes) throw this.refusal();
    this.inUse += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= bytes;
    };
  }
}

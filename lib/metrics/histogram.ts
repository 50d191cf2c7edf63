// A histogram family: per label set, a count per bucket (upper bounds, `+Inf` implied), the sum and the
// count of observations; exposed cumulatively as `_bucket{le=...}`, `_sum` and `_count`.
import { LabelSets } from "./label-sets";
import { checkNames, formatValue, labelsText, type Collectable } from "./text-format";

interface State {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** `count` bounds starting at `start`, each `factor` times the previous (Prometheus' ExponentialBuckets). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

export class Histogram implements Collectable {
  readonly type = "histogram";
  private readonly sets: LabelSets<State>;
  private readonly bounds: Float64Array;

  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[], readonly buckets: readonly number[]) {
    checkNames(name, labelNames, ["le"]);
    if (buckets.length === 0 || buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1]))) {
      throw new Error(`${name}: buckets must be finite and strictly increasing`);
    }
    this.bounds = Float64Array.from(buckets);
    this.sets = new LabelSets(name, labelNames, () => ({ counts: new Float64Array(buckets.length + 1), sum: 0, count: 0 }));
  }

  observe(values: readonly string[], v: number): void {
    this.record(this.sets.get(values), v);
  }

  /** The histogram of these label values, found once: a hot path (a watch's events) observes without a lookup. */
  child(values: readonly string[]): { observe(v: number): void } {
    const state = this.sets.get(values);
    const family = this;
    return { observe(v) { family.record(state, v); } };
  }

  private record(s: State, v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    s.counts[i]++;
    s.sum += v;
    s.count++;
  }

  /** Count and sum of these label values (tests, and readers of the numbers). */
  snapshot(values: readonly string[] = []): { count: number; sum: number; buckets: number[] } | undefined {
    const s = this.sets.peek(values);
    if (!s) return undefined;
    let acc = 0;
    return { count: s.count, sum: s.sum, buckets: [...s.counts].map((c) => (acc += c)) };
  }

  write(out: string[]): boolean {
    if (this.sets.size === 0) return false;
    for (const s of this.sets.sorted()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.state.counts[i];
        out.push(`${this.name}_bucket${labelsText(this.labelNames, s.values, ["le", formatValue(this.bounds[i])])} ${formatValue(acc)}`);
      }
      out.push(`${this.name}_bucket${labelsText(this.labelNames, s.values, ["le", "+Inf"])} ${formatValue(s.state.count)}`);
      const labels = labelsText(this.labelNames, s.values);
      out.push(`${this.name}_sum${labels} ${formatValue(s.state.sum)}`);
      out.push(`${this.name}_count${labels} ${formatValue(s.state.count)}`);
    }
    return true;
  }
}

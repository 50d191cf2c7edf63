// A counter family: monotonically increasing values per label set (`_total` names by convention).
import { LabelSets } from "./label-sets";
import { checkNames, formatValue, labelsText, type Collectable } from "./text-format";

export class Counter implements Collectable {
  readonly type = "counter";
  private readonly sets: LabelSets<{ value: number }>;

  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[] = []) {
    checkNames(name, labelNames);
    this.sets = new LabelSets(name, labelNames, () => ({ value: 0 }));
  }

  /** Add `by` (≥ 0) to the counter of these label values. */
  inc(values: readonly string[] = [], by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter cannot decrease (${by})`);
    this.sets.get(values).value += by;
  }

  /** The counter of these label values, found once: a hot path (a watch's events) adds without a lookup. */
  child(values: readonly string[] = []): { inc(by?: number): void } {
    const state = this.sets.get(values);
    const name = this.name;
    return {
      inc(by = 1) {
        if (!(by >= 0)) throw new Error(`${name}: a counter cannot decrease (${by})`);
        state.value += by;
      },
    };
  }

  /** The current value (0 for label values never used). */
  value(values: readonly string[] = []): number {
    return this.sets.peek(values)?.value ?? 0;
  }

  write(out: string[]): boolean {
    if (this.sets.size === 0) return false;
    for (const s of this.sets.sorted()) out.push(`${this.name}${labelsText(this.labelNames, s.values)} ${formatValue(s.state.value)}`);
    return true;
  }
}

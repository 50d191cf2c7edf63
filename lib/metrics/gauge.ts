// A gauge family: values that go up and down per label set. With `collect`, the samples are read at scrape
// time instead (object counts, process figures): nothing is kept between scrapes.
import { LabelSets } from "./label-sets";
import { checkNames, formatValue, labelsText, type Collectable, type MetricType } from "./text-format";

/** Samples read at scrape time: label values (in the family's label order) and the value. */
export type Samples = Iterable<readonly [values: readonly string[], value: number]>;

export class Gauge implements Collectable {
  readonly type: MetricType;
  private readonly sets: LabelSets<{ value: number }>;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[] = [],
    private readonly collect?: () => Samples,
    /** A collected total (process_cpu_seconds_total) is a counter. */
    type: "gauge" | "counter" = "gauge",
  ) {
    checkNames(name, labelNames);
    this.type = type;
    this.sets = new LabelSets(name, labelNames, () => ({ value: 0 }));
  }

  set(values: readonly string[], value: number): void {
    this.sets.get(values).value = value;
  }

  inc(values: readonly string[] = [], by = 1): void {
    this.sets.get(values).value += by;
  }

  dec(values: readonly string[] = [], by = 1): void {
    this.sets.get(values).value -= by;
  }

  value(values: readonly string[] = []): number {
    return this.sets.peek(values)?.value ?? 0;
  }

  write(out: string[]): boolean {
    if (this.collect) {
      const samples = [...this.collect()];
      if (samples.length === 0) return false; // nothing to read (e.g. no /proc): left out, not shown as 0
      this.sets.clear();
      for (const [values, value] of samples) this.set(values, value);
    }
    if (this.sets.size === 0) return false;
    for (const s of this.sets.sorted()) out.push(`${this.name}${labelsText(this.labelNames, s.values)} ${formatValue(s.state.value)}`);
    return true;
  }
}

// The children of a labelled family: one entry per distinct tuple of label values, found by one Map lookup on
// the joined values (the request path pays this, so no sorting or object keys). Callers pass values from
// bounded sets (verbs, resources, codes), never free text: each tuple lives until the process ends.

const SEPARATOR = "\u0000";

export interface LabelSet<T> {
  values: readonly string[];
  state: T;
}

export class LabelSets<T> {
  private readonly byKey = new Map<string, LabelSet<T>>();

  constructor(private readonly family: string, private readonly labelNames: readonly string[], private readonly make: () => T) {
    if (labelNames.length === 0) this.byKey.set("", { values: [], state: make() });
  }

  /** The state for these label values, created on first use. */
  get(values: readonly string[]): T {
    const key = values.length === 1 ? values[0] : values.join(SEPARATOR);
    let set = this.byKey.get(key);
    if (!set) {
      if (values.length !== this.labelNames.length) {
        throw new Error(`${this.family}: ${values.length} label values for ${this.labelNames.length} labels (${this.labelNames.join(", ")})`);
      }
      set = { values: [...values], state: this.make() };
      this.byKey.set(key, set);
    }
    return set.state;
  }

  /** The state if these values were ever used. */
  peek(values: readonly string[]): T | undefined {
    return this.byKey.get(values.length === 1 ? values[0] : values.join(SEPARATOR))?.state;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Every label set, ordered by label values (as the Go client orders a family's samples). */
  sorted(): LabelSet<T>[] {
    return [...this.byKey.values()].sort((a, b) => compareValues(a.values, b.values));
  }

  clear(): void {
    this.byKey.clear();
    if (this.labelNames.length === 0) this.byKey.set("", { values: [], state: this.make() });
  }
}

function compareValues(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

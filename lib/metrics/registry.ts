// A set of metric families exposed together (one per process: the server's /metrics).
import { encode, type Collectable } from "./text-format";

export class MetricsRegistry {
  private readonly families = new Map<string, Collectable>();

  /** Adds families; a second family of the same name is a programming error. */
  add<T extends Collectable>(family: T): T {
    if (this.families.has(family.name)) throw new Error(`metric ${family.name} registered twice`);
    this.families.set(family.name, family);
    return family;
  }

  /** The whole text exposition (families in name order). */
  expose(): string {
    return encode(this.families.values());
  }
}

// The service node port range (--service-node-port-range) as kube-apiserver 1.32's portallocator sees it: every
// port of base..base+size-1 is usable, and the lower band (min(max(16, size/32), 128) ports) is tried last by
// dynamic allocation, so that ports people pick by hand rarely collide with assigned ones
// (ServiceNodePortStaticSubrange, GA since 1.29).

/** portallocator's ErrAllocated text. */
export const PORT_ALREADY_ALLOCATED = "provided port is already allocated";

export class PortRange {
  readonly staticBand: number;

  constructor(readonly base: number, readonly size: number) {
    this.staticBand = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 32)), 128);
  }

  /** net.PortRange.String(): `30000-32767`. */
  toString(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }

  offsetOf(port: number): number | undefined {
    const offset = port - this.base;
    return Number.isInteger(port) && offset >= 0 && offset < this.size ? offset : undefined;
  }

  at(offset: number): number {
    return this.base + offset;
  }

  /** portallocator's ErrNotInRange text. */
  notInRange(): string {
    return `provided port is not in the valid range. The range of valid ports is ${this.toString()}`;
  }
}

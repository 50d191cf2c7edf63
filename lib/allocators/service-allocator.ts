// Cluster IPs and node ports held in the store, one key per taken value (the `serviceipallocations` and
// `servicenodeportallocations` resources, internal and never served). The store's create-if-absent is the
// lock: two requests, or two server processes on one database, can never both take a value. A record names the
// Service it was taken for; a record no live Service claims is a leftover (a failed create, a missed release)
// that is given back after a settle time, or at once to a retry by the same Service name.
import type { KubeObject } from "../kinds/types";
import type { ObjectKey, Store, StoredObject } from "../storage";
import { effectiveClusterIPs, needsHealthCheck } from "../validation/service-spec";
import { IP_ALREADY_ALLOCATED, IPRange, RANGE_FULL } from "./ip-range";
import { PORT_ALREADY_ALLOCATED, PortRange } from "./port-range";

export const IP_ALLOCATIONS = "serviceipallocations";
export const NODE_PORT_ALLOCATIONS = "servicenodeportallocations";
export const SERVICES = "services";
/** Longer than any create's time between admission and commit: a younger unclaimed record may be in flight. */
export const DEFAULT_SETTLE_MS = 30_000;

export type Pool = "ip" | "port";

export interface AllocationOwner {
  namespace: string;
  name: string;
  uid: string;
}

export interface AllocationRecord extends KubeObject {
  owner: AllocationOwner;
  /** ms since epoch. */
  allocatedAt: number;
}

/** A value could not be taken; `message` is kube's allocator text. */
export class AllocationError extends Error {
  constructor(readonly reason: "allocated" | "not-in-range" | "full", message: string) {
    super(message);
  }
}

/** What a Service holds: cluster IPs (canonical text) and node ports, health-check node port included. */
export function serviceClaims(svc: KubeObject, range?: IPRange): { ips: string[]; ports: number[] } {
  const spec = (svc.spec ?? {}) as Record<string, unknown>;
  const ips = spec.type === "ExternalName" ? [] : effectiveClusterIPs(spec)
    .filter((ip) => ip && ip !== "None")
    .map((ip) => range?.canonical(ip) ?? ip);
  const ports: number[] = [];
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    const n = (p as { nodePort?: unknown } | null)?.nodePort;
    if (typeof n === "number" && n > 0 && !ports.includes(n)) ports.push(n);
  }
  const hc = spec.healthCheckNodePort;
  if (needsHealthCheck(spec) && typeof hc === "number" && hc > 0 && !ports.includes(hc)) ports.push(hc);
  return { ips, ports };
}

/** The first usable IP is the `kubernetes` Service's (kube-apiserver's own), as in every kube cluster. */
const KUBERNETES_SERVICE = { namespace: "default", name: "kubernetes" };

export interface ServiceAllocatorOptions {
  settleMs?: number;
  now?: () => number;
  random?: () => number;
  /** Told about background releases that failed (they are retried by the repair controller). */
  onError?: (err: unknown) => void;
}

export class ServiceAllocator {
  readonly settleMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    readonly ipRange: IPRange,
    readonly portRange: PortRange,
    private readonly opts: ServiceAllocatorOptions = {},
  ) {
    this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  resource(pool: Pool): string {
    return pool === "ip" ? IP_ALLOCATIONS : NODE_PORT_ALLOCATIONS;
  }

  key(pool: Pool, value: string): ObjectKey {
    return { resource: this.resource(pool), namespace: "", name: value };
  }

  record(pool: Pool, value: string): StoredObject | undefined {
    return this.store.objects.get(this.key(pool, value));
  }

  records(pool: Pool): StoredObject[] {
    return this.store.objects.list(this.resource(pool));
  }

  /** The live Services that hold `value` (several only when something went wrong). */
  claimants(pool: Pool, value: string): KubeObject[] {
    return this.store.objects.list(SERVICES).map((s) => s.object).filter((svc) => {
      const claims = serviceClaims(svc, this.ipRange);
      return pool === "ip" ? claims.ips.includes(value) : claims.ports.includes(Number(value));
    });
  }

  /** A record nobody holds that the owner may take: the same Service name retrying, or anyone once settled. */
  private canTakeOver(pool: Pool, value: string, rec: StoredObject, owner: AllocationOwner): boolean {
    const r = rec.object as AllocationRecord;
    const sameName = r.owner?.namespace === owner.namespace && r.owner?.name === owner.name;
    const settled = this.now() - (r.allocatedAt ?? 0) >= this.settleMs;
    return (sameName || settled) && this.claimants(pool, value).length === 0;
  }

  /** Takes a requested cluster IP, or any free one. Returns the IP as stored in the Service (the request's text). */
  async allocateIP(requested: string, owner: AllocationOwner, dryRun: boolean): Promise<string> {
    const range = this.ipRange;
    if (requested) {
      const offset = range.offsetOf(requested);
      if (offset === undefined) throw new AllocationError("not-in-range", range.notInRange(requested));
      if (offset === 0 && !(owner.namespace === KUBERNETES_SERVICE.namespace && owner.name === KUBERNETES_SERVICE.name)) {
        throw new AllocationError("allocated", IP_ALREADY_ALLOCATED);
      }
      if (!(await this.take("ip", range.at(offset), owner, dryRun))) throw new AllocationError("allocated", IP_ALREADY_ALLOCATED);
      return requested;
    }
    // Offset 0 is the kubernetes Service's and never handed out dynamically.
    const found = await this.takeAny("ip", range.size, range.staticBand, 1, (o) => range.at(o), owner, dryRun);
    if (found === undefined) throw new AllocationError("full", RANGE_FULL);
    return found;
  }

  async allocatePort(requested: number, owner: AllocationOwner, dryRun: boolean): Promise<number> {
    const range = this.portRange;
    if (requested) {
      const offset = range.offsetOf(requested);
      if (offset === undefined) throw new AllocationError("not-in-range", range.notInRange());
      if (!(await this.take("port", String(requested), owner, dryRun))) throw new AllocationError("allocated", PORT_ALREADY_ALLOCATED);
      return requested;
    }
    const found = await this.takeAny("port", range.size, range.staticBand, 0, (o) => String(range.at(o)), owner, dryRun);
    if (found === undefined) throw new AllocationError("full", RANGE_FULL);
    return Number(found);
  }

  /**
   * Gives a value back when no live Service holds it and (with `ownerUid`) it is still recorded for that owner.
   * Returns whether a record was removed.
   */
  async release(pool: Pool, value: string, ownerUid?: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const rec = this.record(pool, value);
      if (!rec) return false;
      if (ownerUid !== undefined && (rec.object as AllocationRecord).owner?.uid !== ownerUid) return false;
      if (this.claimants(pool, value).length) return false;
      const result = await this.store.writer.commit({ type: "delete", key: rec.key, object: rec.object, expectRev: rec.rev });
      if (result.ok) { await this.store.objects.waitFor(result.event.rev); return true; }
      if (result.reason === "missing") return false;
      await this.store.objects.refresh();
    }
    return false;
  }

  /** Records a value a live Service holds without a record (the repair controller's "not allocated; repairing"). */
  async adopt(pool: Pool, value: string, owner: AllocationOwner): Promise<boolean> {
    if (this.record(pool, value)) return false;
    const result = await this.store.writer.commit({ type: "create", key: this.key(pool, value), object: this.newRecord(pool, value, owner) });
    if (result.ok) await this.store.objects.waitFor(result.event.rev);
    return result.ok;
  }

  // --- internals -------------------------------------------------------------------------------------------

  private newRecord(pool: Pool, value: string, owner: AllocationOwner): AllocationRecord {
    return {
      apiVersion: "v1",
      kind: pool === "ip" ? "ServiceIPAllocation" : "ServiceNodePortAllocation",
      metadata: { name: value, creationTimestamp: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z") },
      owner: { ...owner },
      allocatedAt: this.now(),
    };
  }

  /** Takes one value: free, already the owner's, or a leftover it may take over. False when someone holds it. */
  private async take(pool: Pool, value: string, owner: AllocationOwner, dryRun: boolean, refreshed = false): Promise<boolean> {
    const rec = this.record(pool, value);
    if (rec) {
      if ((rec.object as AllocationRecord).owner?.uid === owner.uid) return true;
      if (!this.canTakeOver(pool, value, rec, owner)) return false;
      if (dryRun) return true;
      const result = await this.store.writer.commit({ type: "update", key: rec.key, object: this.newRecord(pool, value, owner), expectRev: rec.rev });
      if (result.ok) { await this.allocated(pool, value, owner, result.event.rev); return true; }
    } else {
      if (dryRun) return true;
      const result = await this.store.writer.commit({ type: "create", key: this.key(pool, value), object: this.newRecord(pool, value, owner) });
      if (result.ok) { await this.allocated(pool, value, owner, result.event.rev); return true; }
    }
    // Another request or process won the race, or the cache was behind it: look once more at the current state.
    if (refreshed) return false;
    await this.store.objects.refresh();
    return this.take(pool, value, owner, dryRun, true);
  }

  /**
   * kube's random scan with offset: a random start in the upper band, scanning up and wrapping within it, then
   * the lower (static) band the same way; leftovers are taken over only when no value is free.
   */
  private async takeAny(pool: Pool, size: number, band: number, skip: number, at: (offset: number) => string,
    owner: AllocationOwner, dryRun: boolean): Promise<string | undefined> {
    const bands: [number, number][] = [[Math.max(band, skip), size], [skip, Math.min(band, size)]];
    for (const [lo, hi] of bands) {
      const n = hi - lo;
      if (n <= 0) continue;
      const start = Math.floor(this.random() * n);
      for (let i = 0; i < n; i++) {
        const value = at(lo + ((start + i) % n));
        if (this.record(pool, value)) continue;
        if (dryRun) return value;
        const result = await this.store.writer.commit({ type: "create", key: this.key(pool, value), object: this.newRecord(pool, value, owner) });
        if (result.ok) { await this.allocated(pool, value, owner, result.event.rev); return value; }
      }
    }
    await this.store.objects.refresh();
    for (const rec of this.records(pool)) {
      const value = rec.key.name;
      const offset = pool === "ip" ? this.ipRange.offsetOf(value) : this.portRange.offsetOf(Number(value));
      if (offset === undefined || offset < skip) continue;
      if (await this.take(pool, value, owner, dryRun, true)) return value;
    }
    return undefined;
  }

  /** A fresh value is given back if the Service it was taken for never shows up holding it (a failed write). */
  private async allocated(pool: Pool, value: string, owner: AllocationOwner, rev: number): Promise<void> {
    await this.store.objects.waitFor(rev);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.release(pool, value, owner.uid).catch((err) => this.opts.onError?.(err));
    }, this.settleMs + 1000);
    timer.unref();
    this.timers.add(timer);
  }
}

/** The allocator for a server's configured ranges (SERVICE_CLUSTER_IP_RANGE, SERVICE_NODE_PORT_RANGE). */
export function serviceAllocatorFor(
  store: Store,
  config: { serviceClusterIPRange: string; serviceNodePortRange: { base: number; size: number } },
  opts?: ServiceAllocatorOptions,
): ServiceAllocator {
  return new ServiceAllocator(store, new IPRange(config.serviceClusterIPRange),
    new PortRange(config.serviceNodePortRange.base, config.serviceNodePortRange.size), opts);
}

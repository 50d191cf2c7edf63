// kube-apiserver's cluster IP and node port repair controllers (ipallocator/controller/repair.go,
// portallocator/controller/repair.go), on the store-held allocations of lib/allocators: what a deleted Service
// held is released at once, what an update gave up is released once the update is committed, and a full pass
// (at start and then periodically) records values Services hold without a record, reports values held twice
// or outside the range, and releases records no Service holds (failed creates, releases a crash missed).
import { type AllocationOwner, type Pool, type ServiceAllocator, SERVICES, serviceClaims } from "../allocators/service-allocator";
import type { KubeObject } from "../kinds/types";
import type { EventRecorder } from "../events/recorder";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

const IP_COMPONENT = "ipallocator-repair-controller";
const PORT_COMPONENT = "portallocator-repair-controller";
const FULL_PASS = "*";
export const DEFAULT_REPAIR_INTERVAL_MS = 60_000;

export interface ServiceAllocationRepairOptions {
  allocator: ServiceAllocator;
  informer: Informer;
  recorder: EventRecorder;
  intervalMs?: number;
  onError?: (key: string, err: unknown) => void;
}

const ownerOf = (svc: KubeObject): AllocationOwner =>
  ({ namespace: svc.metadata.namespace ?? "", name: svc.metadata.name ?? "", uid: svc.metadata.uid ?? "" });

export class ServiceAllocationRepair {
  readonly queue: WorkQueue;
  private readonly allocator: ServiceAllocator;
  private readonly informer: Informer;
  private readonly recorder: EventRecorder;
  /** "ip/10.96.0.5" -> the uid of the Service that gave it up. */
  private readonly releases = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(opts: ServiceAllocationRepairOptions) {
    this.allocator = opts.allocator;
    this.informer = opts.informer;
    this.recorder = opts.recorder;
    this.queue = new WorkQueue((key) => this.sync(key), { onError: opts.onError, waitFor: opts.informer, baseDelayMs: 50 });
    opts.informer.on(SERVICES, (e) => {
      if (e.type === "ADDED") return;
      const before = serviceClaims(e.type === "DELETED" ? e.object : e.old ?? e.object, this.allocator.ipRange);
      const after = e.type === "DELETED" ? { ips: [], ports: [] } : serviceClaims(e.object, this.allocator.ipRange);
      const uid = e.object.metadata.uid ?? "";
      for (const ip of before.ips) if (!after.ips.includes(ip)) this.enqueueRelease("ip", ip, uid);
      for (const port of before.ports) if (!after.ports.includes(port)) this.enqueueRelease("port", String(port), uid);
    });
    // The informer's initial list is in the cache by the time the first pass runs.
    this.queue.add(FULL_PASS);
    const interval = opts.intervalMs ?? DEFAULT_REPAIR_INTERVAL_MS;
    this.timer = setInterval(() => this.queue.add(FULL_PASS), interval);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.queue.stop();
  }

  private enqueueRelease(pool: Pool, value: string, uid: string): void {
    const key = `${pool}/${value}`;
    this.releases.set(key, uid);
    this.queue.add(key);
  }

  async sync(key: string): Promise<void> {
    if (key === FULL_PASS) return this.fullPass();
    const uid = this.releases.get(key);
    this.releases.delete(key);
    const slash = key.indexOf("/");
    await this.allocator.release(key.slice(0, slash) as Pool, key.slice(slash + 1), uid);
  }

  /** One repair pass over every Service and every allocation record. */
  async fullPass(): Promise<void> {
    const { ipRange, portRange } = this.allocator;
    const holders = { ip: new Map<string, KubeObject[]>(), port: new Map<string, KubeObject[]>() };
    for (const svc of this.informer.list(SERVICES)) {
      const claims = serviceClaims(svc, ipRange);
      for (const ip of claims.ips) holders.ip.set(ip, [...(holders.ip.get(ip) ?? []), svc]);
      for (const port of claims.ports) holders.port.set(String(port), [...(holders.port.get(String(port)) ?? []), svc]);
    }
    for (const [ip, services] of holders.ip) {
      const svc = services[0];
      if (ipRange.offsetOf(ip) === undefined) {
        this.recorder.event(svc, "Warning", "ClusterIPOutOfRange", `Cluster IP [${ipRange.family}]:${ip} is not within the configured Service CIDR ${ipRange.cidr}; please recreate service`, IP_COMPONENT);
        continue;
      }
      if (services.length > 1) {
        for (const s of services.slice(1)) this.recorder.event(s, "Warning", "ClusterIPAlreadyAllocated", `Cluster IP [${ipRange.family}]:${ip} was assigned to multiple services; please recreate service`, IP_COMPONENT);
      }
      if (!this.allocator.record("ip", ip) && await this.allocator.adopt("ip", ip, ownerOf(svc))) {
        this.recorder.event(svc, "Warning", "ClusterIPNotAllocated", `Cluster IP [${ipRange.family}]:${ip} is not allocated; repairing`, IP_COMPONENT);
      }
    }
    for (const [port, services] of holders.port) {
      const svc = services[0];
      if (portRange.offsetOf(Number(port)) === undefined) {
        this.recorder.event(svc, "Warning", "PortOutOfRange", `Port ${port} is not within the port range ${portRange}; please recreate service`, PORT_COMPONENT);
        continue;
      }
      if (services.length > 1) {
        for (const s of services.slice(1)) this.recorder.event(s, "Warning", "PortAlreadyAllocated", `Port ${port} was assigned to multiple services; please recreate service`, PORT_COMPONENT);
      }
      if (!this.allocator.record("port", port) && await this.allocator.adopt("port", port, ownerOf(svc))) {
        this.recorder.event(svc, "Warning", "PortNotAllocated", `Port ${port} is not allocated; repairing`, PORT_COMPONENT);
      }
    }
    // Leftovers: records nobody holds, once they are old enough not to belong to a write still in flight.
    const now = Date.now();
    for (const pool of ["ip", "port"] as const) {
      for (const rec of this.allocator.records(pool)) {
        if (holders[pool].has(rec.key.name)) continue;
        const at = (rec.object as { allocatedAt?: number }).allocatedAt ?? 0;
        if (now - at >= this.allocator.settleMs) await this.allocator.release(pool, rec.key.name);
      }
    }
  }
}

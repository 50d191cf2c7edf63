// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection package does it, so that with
// several server processes on one store exactly one runs the controllers. Every write is conditional on the
// Lease's resourceVersion (the store checks it inside its transaction), so two candidates can never both take it.
// A candidate takes the Lease when nobody holds it or when it has not changed for leaseDurationSeconds as this
// process observed it (client-go trusts its own clock, never the holder's renewTime); the holder renews every
// retry period and gives up leading if it could not renew within the renew deadline, before anyone else may take
// over. On shutdown the holder releases the Lease (empty holder) so a restarted or standby process takes over at once.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { isStatusError } from "../status";
import { lease as leaseKind, type Lease, type LeaseSpec } from "../kinds/lease";
import type { Registry } from "../registry/registry";

export const CONTROLLERS_LEASE = { namespace: "kube-system", name: "cluster-core-controllers" };

export interface LeaderElectionConfig {
  namespace?: string;
  name?: string;
  /** Default `<hostname>_<uuid>`, client-go's usual identity. */
  identity?: string;
  leaseDurationSeconds?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

export interface LeaderElectorOptions extends LeaderElectionConfig {
  registry: Registry;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
  onError?: (err: unknown) => void;
  now?: () => number;
}

/** MicroTime as kube writes it: RFC 3339 with six fractional digits. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

const write = { dryRun: false, fieldValidation: "Ignore" as const };

export class LeaderElector {
  readonly identity: string;
  private readonly namespace: string;
  private readonly name: string;
  private readonly durationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private leading = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** The Lease as last seen, and when (by this process's clock) it last changed. */
  private observed?: { resourceVersion: string; spec: LeaseSpec };
  private observedAt = 0;
  private lastRenew = 0;

  constructor(private readonly opts: LeaderElectorOptions) {
    this.identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    this.namespace = opts.namespace ?? CONTROLLERS_LEASE.namespace;
    this.name = opts.name ?? CONTROLLERS_LEASE.name;
    this.durationMs = (opts.leaseDurationSeconds ?? 15) * 1000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryMs = opts.retryPeriodMs ?? 2_000;
    this.now = opts.now ?? Date.now;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Tries at once, then every retry period (jittered while waiting, as client-go's acquire loop). */
  start(): void {
    this.stopped = false;
    this.tick();
  }

  /** Stops trying; a leader stops leading and releases the Lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (!this.leading) return;
    this.setLeading(false);
    try {
      await this.release();
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  private tick(): void {
    if (this.stopped) return;
    this.running = this.tryAcquireOrRenew().then((ok) => {
      if (ok) this.lastRenew = this.now();
      if (ok && !this.leading && !this.stopped) this.setLeading(true);
      // Not renewed within the deadline: stop before anyone else may take the Lease.
      if (!ok && this.leading && this.now() - this.lastRenew >= this.renewDeadlineMs) this.setLeading(false);
    }, (err) => {
      this.opts.onError?.(err);
      if (this.leading && this.now() - this.lastRenew >= this.renewDeadlineMs) this.setLeading(false);
    }).finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      const delay = this.leading ? this.retryMs : this.retryMs * (1 + Math.random() * 0.2);
      this.timer = setTimeout(() => this.tick(), delay);
      this.timer.unref();
    });
  }

  private setLeading(leading: boolean): void {
    if (this.leading === leading) return;
    this.leading = leading;
    try {
      if (leading) this.opts.onStartedLeading(); else this.opts.onStoppedLeading();
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /** One round: true when this process holds the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.now();
    const spec = (transitions: number, acquireTime: string): LeaseSpec => ({
      holderIdentity: this.identity,
      leaseDurationSeconds: this.durationMs / 1000,
      acquireTime,
      renewTime: microTime(now),
      leaseTransitions: transitions,
    });
    let current: Lease | undefined;
    try {
      const answer = await this.opts.registry.get(leaseKind, this.namespace, this.name);
      current = ("object" in answer ? answer.object : undefined) as Lease | undefined;
    } catch (err) {
      if (!isStatusError(err) || err.code !== 404) throw err;
    }
    if (!current) {
      try {
        await this.opts.registry.create(leaseKind, this.namespace, {
          apiVersion: "coordination.k8s.io/v1", kind: "Lease",
          metadata: { name: this.name, namespace: this.namespace },
          spec: spec(0, microTime(now)),
        }, write);
        return true;
      } catch (err) {
        if (isStatusError(err) && err.code === 409) return false; // another candidate was faster
        throw err;
      }
    }
    const old = current.spec ?? {};
    const rv = current.metadata.resourceVersion ?? "";
    if (this.observed?.resourceVersion !== rv) {
      this.observed = { resourceVersion: rv, spec: old };
      this.observedAt = now;
    }
    const held = !!old.holderIdentity && old.holderIdentity !== this.identity;
    const expired = this.observedAt + (old.leaseDurationSeconds ?? 0) * 1000 <= now;
    if (held && !expired) return false;
    const renewing = old.holderIdentity === this.identity && this.leading;
    const next = renewing
      ? spec(old.leaseTransitions ?? 0, old.acquireTime ?? microTime(now))
      : spec((old.leaseTransitions ?? 0) + (old.holderIdentity === this.identity ? 0 : 1), microTime(now));
    try {
      await this.opts.registry.update(leaseKind, this.namespace, this.name, { ...current, spec: { ...old, ...next } }, write);
      return true;
    } catch (err) {
      if (isStatusError(err) && (err.code === 409 || err.code === 404)) return false;
      throw err;
    }
  }

  /** client-go's release: an empty holder with a one-second duration, transitions kept. */
  private async release(): Promise<void> {
    const answer = await this.opts.registry.get(leaseKind, this.namespace, this.name);
    const current = ("object" in answer ? answer.object : undefined) as Lease | undefined;
    if (!current || current.spec?.holderIdentity !== this.identity) return;
    const now = microTime(this.now());
    await this.opts.registry.update(leaseKind, this.namespace, this.name, {
      ...current,
      spec: { leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: current.spec?.leaseTransitions ?? 0 },
    }, write);
  }
}

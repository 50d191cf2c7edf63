// kube-apiserver's kubernetesservice controller with its lease endpoint reconciler: the Service `default/kubernetes`
// (ClusterIP the first address of the service range, port `https` 443 to the serving port) through which pods
// find the API, and its Endpoints listing every live replica. Unlike the other controllers it runs in every
// replica, as in kube: each one renews its own identity Lease (apiserver-identity-lease.ts) and reconciles the
// Endpoints against the live Leases, so a replica that stops renewing drops out after its Lease duration.
//
// As kube since 1.17 the Service is only created when missing, never reset: an admin's changes to it stay. The
// Endpoints are this controller's: their addresses and ports are put back, the `skip-mirror` label re-added,
// anything else (other labels, annotations) kept. Deleted, either comes back at once (kube: within 10 s).
import { isStatusError } from "../status";
import { endpoints as endpointsKind, type EndpointSubset, type Endpoints } from "../kinds/endpoints";
import { lease as leaseKind, type Lease } from "../kinds/lease";
import { service as serviceKind } from "../kinds/service";
import type { Registry } from "../registry/registry";
import { semanticEqual } from "../validation/semantic-equal";
import {
  ApiserverIdentityLease, IDENTITY_LEASE_NAMESPACE, liveApiservers, type ApiserverAddress,
} from "./apiserver-identity-lease";
import { Informer, type InformerEvent } from "./informer";
import { WorkQueue } from "./work-queue";

export const KUBERNETES_SERVICE = { namespace: "default", name: "kubernetes" };
export const KUBERNETES_SERVICE_LABELS = { provider: "kubernetes", component: "apiserver" };
export const SKIP_MIRROR_LABEL = "endpointslice.kubernetes.io/skip-mirror";
export const KUBERNETES_PORT_NAME = "https";

const KEY = `${KUBERNETES_SERVICE.namespace}/${KUBERNETES_SERVICE.name}`;
const write = { dryRun: false, fieldValidation: "Ignore" as const };

/** Replicas listening on one port share a subset (kube's single subset); others get one each (unique port names). */
export function endpointSubsets(live: ApiserverAddress[]): EndpointSubset[] {
  const byPort = new Map<number, string[]>();
  for (const { ip, port } of live) byPort.set(port, [...(byPort.get(port) ?? []), ip]);
  return [...byPort.entries()].sort(([a], [b]) => a - b).map(([port, ips]) => ({
    addresses: [...new Set(ips)].sort().map((ip) => ({ ip })),
    ports: [{ name: KUBERNETES_PORT_NAME, port, protocol: "TCP" }],
  }));
}

/** The Service kube-apiserver creates: no selector (its Endpoints are kept here), single stack, no affinity. */
export function kubernetesService(clusterIP: string, targetPort: number) {
  return {
    apiVersion: "v1", kind: "Service",
    metadata: { name: KUBERNETES_SERVICE.name, namespace: KUBERNETES_SERVICE.namespace, labels: { ...KUBERNETES_SERVICE_LABELS } },
    spec: {
      ports: [{ name: KUBERNETES_PORT_NAME, protocol: "TCP", port: 443, targetPort }],
      clusterIP,
      ipFamilyPolicy: "SingleStack",
      sessionAffinity: "None",
      type: "ClusterIP",
    },
  };
}

export interface KubernetesServiceOptions {
  registry: Registry;
  informer: Informer;
  /** The first address of SERVICE_CLUSTER_IP_RANGE. */
  clusterIP: string;
  /** The port this replica serves on (the Service's targetPort). */
  port: number;
  /** This replica's advertised address; without one the Service is kept but no address is published. */
  advertiseAddress?: string;
  /** The identity Lease's duration (IDENTITY_LEASE_DURATION_SECONDS); renewed every two thirds of it. */
  leaseDurationSeconds: number;
  hostname?: string;
  now?: () => number;
  onError?: (key: string, err: unknown) => void;
}

export class KubernetesServiceController {
  readonly queue: WorkQueue;
  readonly lease?: ApiserverIdentityLease;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private renewDue = true;
  private stopped = false;

  constructor(private readonly opts: KubernetesServiceOptions) {
    this.now = opts.now ?? Date.now;
    if (opts.advertiseAddress) {
      this.lease = new ApiserverIdentityLease({
        registry: opts.registry, informer: opts.informer, address: { ip: opts.advertiseAddress, port: opts.port },
        durationSeconds: opts.leaseDurationSeconds, hostname: opts.hostname, now: opts.now,
      });
    }
    this.queue = new WorkQueue(() => this.sync(), { onError: opts.onError, waitFor: opts.informer });
    const mine = (e: InformerEvent) => e.key.namespace === KUBERNETES_SERVICE.namespace && e.key.name === KUBERNETES_SERVICE.name;
    opts.informer.on(serviceKind.plural, (e) => { if (mine(e)) this.queue.add(KEY); });
    opts.informer.on(endpointsKind.plural, (e) => { if (mine(e)) this.queue.add(KEY); });
    // kube's 10 s against a 15 s TTL: one late renewal does not drop a live replica.
    this.timer = setInterval(() => this.tick(), (opts.leaseDurationSeconds * 1000 * 2) / 3);
    this.timer.unref();
    this.queue.add(KEY);
  }

  /** A renewal of this replica's Lease and a full pass (what the timer does). */
  tick(): void {
    this.renewDue = true;
    this.queue.add(KEY);
  }

  /**
   * Stops, deleting this replica's Lease and its address from the Endpoints (kube's RemoveEndpoints on shutdown),
   * so clients stop being sent here at once; bounded, as kube does not let it hold up a shutdown.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.queue.stop();
    if (!this.lease) return;
    const leave = async () => {
      await this.lease!.remove();
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await this.reconcileEndpoints(this.lease!.name);
          return;
        } catch (err) {
          if (!(isStatusError(err) && err.code === 409)) throw err;
          await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
        }
      }
    };
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      leave().catch((err) => this.opts.onError?.(KEY, err)),
      new Promise((r) => { timeout = setTimeout(r, 2000); }),
    ]);
    clearTimeout(timeout);
  }

  /** One pass: renew this replica's Lease when due (first, whatever fails after, as kube), the Service, the Endpoints. */
  async sync(): Promise<void> {
    if (this.lease && this.renewDue) {
      await this.lease.renew();
      this.renewDue = false;
      await this.lease.collectExpired();
    }
    await this.ensureService();
    if (this.lease) await this.reconcileEndpoints();
  }

  private async ensureService(): Promise<void> {
    const { namespace, name } = KUBERNETES_SERVICE;
    if (this.opts.informer.get(serviceKind.plural, namespace, name)) return;
    try {
      await this.opts.registry.create(serviceKind, namespace, kubernetesService(this.opts.clusterIP, this.opts.port), write);
    } catch (err) {
      // Another replica made it first.
      if (!(isStatusError(err) && err.code === 409)) throw err;
    }
  }

  /**
   * The Endpoints against the live Leases, read from one cache snapshot (so a replica's Lease is never missing
   * from a snapshot that already has its address); the write is pinned to the version read, a conflict retried.
   */
  private async reconcileEndpoints(exclude?: string): Promise<void> {
    const { namespace, name } = KUBERNETES_SERVICE;
    const current = this.opts.informer.get(endpointsKind.plural, namespace, name) as Endpoints | undefined;
    const leases = this.opts.informer.list(leaseKind.plural, IDENTITY_LEASE_NAMESPACE) as Lease[];
    const live = liveApiservers(leases, this.now(), exclude);
    // As kube: no live address at all means something is wrong with the records, not that every replica left.
    if (live.length === 0) return;
    const subsets = endpointSubsets(live);
    const labelled = current?.metadata.labels?.[SKIP_MIRROR_LABEL] === "true";
    if (current && labelled && semanticEqual(current.subsets ?? [], subsets)) return;
    const labels = { ...(current?.metadata.labels ?? {}), [SKIP_MIRROR_LABEL]: "true" };
    if (!current) {
      await this.opts.registry.create(endpointsKind, namespace, {
        apiVersion: "v1", kind: "Endpoints", metadata: { name, namespace, labels }, subsets,
      }, write);
      return;
    }
    await this.opts.registry.update(endpointsKind, namespace, name, {
      ...current, apiVersion: "v1", kind: "Endpoints", metadata: { ...current.metadata, labels }, subsets,
    }, write);
  }
}

export type StartKubernetesServiceOptions = Omit<KubernetesServiceOptions, "informer"> & { firstPassTimeoutMs?: number };

/**
 * Runs the controller on an informer of its own (it runs in every replica, outside the controllers' Lease) and
 * waits for its first pass, bounded: a server then starts serving with the Service and its own address in place.
 */
export async function startKubernetesService(opts: StartKubernetesServiceOptions): Promise<() => Promise<void>> {
  const informer = new Informer(opts.registry.store.objects, (err) => opts.onError?.("informer", err));
  const controller = new KubernetesServiceController({ ...opts, informer });
  informer.start();
  let timeout: NodeJS.Timeout | undefined;
  await Promise.race([controller.queue.idle(), new Promise((r) => { timeout = setTimeout(r, opts.firstPassTimeoutMs ?? 5000); })]);
  clearTimeout(timeout);
  return async () => {
    await controller.stop();
    informer.stop();
  };
}

// kube-controller-manager's resourcequota controller: status.hard follows spec.hard and status.used is measured
// from the watch cache, at start for every quota (a restart recomputes), whenever an object a quota counts
// changes in its namespace (debounced), and every five minutes. Admission charges usage before a write is
// stored; if that write then fails, the measurement gives the charge back. A measurement never lowers usage
// within `settleMs` of a charge, since the charged object may still be on its way to the store.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { resourceQuota as resourceQuotaKind, type ResourceQuota } from "../kinds/resource-quota";
import type { AnyKind, KubeObject } from "../kinds/types";
import { quotaMatches } from "../quota/evaluator";
import { QuotaEvaluators } from "../quota/evaluators";
import { equals, fromResourceList, toResourceList, type QuantityList } from "../quota/resource-list";
import { compareQuantities } from "../validation/quantity";
import { calculateUsage, desiredStatus } from "../quota/usage";
import type { Registry } from "../registry/registry";
import { ALL_RESOURCES, type Informer, type InformerEvent } from "./informer";
import { WorkQueue } from "./work-queue";

export const RESOURCE_QUOTA_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:resourcequota-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

const QUOTAS = resourceQuotaKind.plural;

export interface ResourceQuotaControllerOptions {
  registry: Registry;
  informer: Informer;
  kinds: readonly AnyKind[];
  user?: UserInfo;
  /** How long after a charge usage may not be lowered (the charged write is still in flight). */
  settleMs?: number;
  /** Changes in a namespace within this window are measured once. */
  debounceMs?: number;
  /** Full recalculation period (kube: 5 minutes). */
  resyncMs?: number;
  now?: () => number;
  onError?: (key: string, err: unknown) => void;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/** Some resource's usage grew, or started being tracked. */
function grew(before: QuantityList, after: QuantityList): boolean {
  return Object.entries(after).some(([name, q]) => !(name in before) || compareQuantities(q, before[name]) > 0);
}

export class ResourceQuotaController {
  readonly queue: WorkQueue;
  private readonly evaluators: QuotaEvaluators;
  private readonly user: UserInfo;
  private readonly settleMs: number;
  private readonly debounceMs: number;
  private readonly now: () => number;
  /** When each quota was last seen charged (by the clock of this process). */
  private readonly chargedAt = new Map<string, number>();
  private readonly resync: NodeJS.Timeout;

  constructor(private readonly opts: ResourceQuotaControllerOptions) {
    this.evaluators = new QuotaEvaluators(opts.kinds);
    this.user = opts.user ?? RESOURCE_QUOTA_CONTROLLER_USER;
    this.settleMs = opts.settleMs ?? 2000;
    this.debounceMs = opts.debounceMs ?? 50;
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue((key) => this.sync(key), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(QUOTAS, (e) => this.onQuota(e));
    opts.informer.on(ALL_RESOURCES, (e) => this.onObject(e));
    this.resync = setInterval(() => {
      for (const q of opts.informer.list(QUOTAS)) this.queue.add(keyOf(q.metadata.namespace!, q.metadata.name!));
    }, opts.resyncMs ?? 5 * 60_000);
    this.resync.unref();
  }

  stop(): void {
    clearInterval(this.resync);
    this.queue.stop();
  }

  private onQuota(e: InformerEvent): void {
    const key = keyOf(e.key.namespace, e.key.name);
    if (e.type === "DELETED") { this.chargedAt.delete(key); return; }
    if (e.type === "ADDED" || !e.old) { this.queue.add(key); return; }
    const before = e.old as ResourceQuota, after = e.object as ResourceQuota;
    const usedBefore = fromResourceList(before.status?.used), usedAfter = fromResourceList(after.status?.used);
    if (!equals(fromResourceList(after.spec?.hard), fromResourceList(after.status?.hard))) this.queue.add(key);
    if (equals(usedBefore, usedAfter)) return;
    if (grew(usedBefore, usedAfter)) {
      // A charge: measure once it has settled, to give it back if its write failed.
      this.chargedAt.set(key, this.now());
      this.queue.addAfter(key, this.settleMs);
    } else {
      this.queue.addAfter(key, this.debounceMs);
    }
  }

  /** A change to something a quota of the namespace may count: measure those quotas again shortly. */
  private onObject(e: InformerEvent): void {
    const namespace = e.key.namespace;
    if (!namespace) return;
    const evaluator = this.evaluators.forResource(e.key.resource);
    if (!evaluator) return;
    const quotas = this.opts.informer.list(QUOTAS, namespace) as ResourceQuota[];
    if (quotas.length === 0) return;
    if (e.type === "MODIFIED" && e.old) {
      const now = this.now();
      if (equals(evaluator.usage(e.old, now), evaluator.usage(e.object, now))
        && quotas.every((q) => quotaMatches(evaluator, q, e.old!) === quotaMatches(evaluator, q, e.object))) return;
    }
    for (const q of quotas) {
      const hard = Object.keys(q.spec?.hard ?? {});
      if (evaluator.matchingResources(hard).length) this.queue.addAfter(keyOf(namespace, q.metadata.name!), this.debounceMs);
    }
  }

  async sync(key: string): Promise<void> {
    const slash = key.indexOf("/");
    const namespace = key.slice(0, slash), name = key.slice(slash + 1);
    const quota = this.opts.informer.get(QUOTAS, namespace, name) as ResourceQuota | undefined;
    if (!quota) return;
    const now = this.now();
    const measured = calculateUsage(quota, this.evaluators.entries(), (resource) => this.opts.informer.list(resource, namespace), now);
    const { hard, used } = desiredStatus(quota, measured);
    const current = fromResourceList(quota.status?.used);

    const sinceCharge = now - (this.chargedAt.get(key) ?? -Infinity);
    if (sinceCharge < this.settleMs) {
      let held = false;
      for (const [n, q] of Object.entries(used)) {
        if (n in current && compareQuantities(q, current[n]) < 0) { used[n] = current[n]; held = true; }
      }
      if (held) this.queue.addAfter(key, this.settleMs - sinceCharge);
    }

    const dirty = !quota.status?.hard || !quota.status?.used
      || !equals(hard, fromResourceList(quota.status.hard)) || !equals(used, current);
    if (!dirty) return;
    const body: KubeObject = { ...quota, status: { hard: toResourceList(hard), used: toResourceList(used) } };
    try {
      await this.opts.registry.update(resourceQuotaKind, namespace, name, body,
        { dryRun: false, fieldValidation: "Ignore", subresource: "status", user: this.user });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      // A charge (or another writer) came first: measure again against the newer quota.
      if (isStatusError(err) && err.code === 409) { this.queue.add(key); return; }
      throw err;
    }
  }
}

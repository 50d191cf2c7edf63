// ResourceQuota (kube-apiserver's admission plug-in of that name, validating, last in the chain): a write that
// would take a namespace over any of its quotas is refused 403, and an admitted one is charged to the quotas
// at once by writing their status.used with the quota's resourceVersion as precondition, before the object
// itself is stored. A conflicting charge is re-evaluated against the newer quota, so two racing creates can
// never both take the last unit. Charges within one namespace are made one at a time here, as kube batches
// them per namespace. The quota controller later gives back what a failed write had been charged.
import { isStatusError, StatusError } from "../status";
import type { ResourceQuota } from "../kinds/resource-quota";
import { resourceQuota as resourceQuotaKind } from "../kinds/resource-quota";
import { kinds as allKinds } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { checkRequest } from "../quota/check-request";
import { groupResourceOf, QuotaEvaluators } from "../quota/evaluators";
import type { Registry } from "../registry/registry";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

/** Re-evaluations after a conflicting charge before giving up with the conflict (kube gives up after 3). */
const MAX_RETRIES = 8;

export interface QuotaAccess {
  /** The namespace's quotas as the cache holds them. */
  list(namespace: string): ResourceQuota[];
  /** Brings the cache up to the latest committed write (after a conflict). */
  catchUp(): Promise<void>;
  /** Writes status.used with the quota's resourceVersion as precondition; a 409 or 404 StatusError when it moved. */
  updateStatus(quota: ResourceQuota): Promise<void>;
  now?: () => number;
}

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = "ResourceQuota";
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly access: QuotaAccess, private readonly evaluators: QuotaEvaluators) {
    this.now = access.now ?? Date.now;
  }

  async validate(req: AdmissionRequest): Promise<void> {
    // kube ignores subresources (its own charges are status writes) and everything outside a namespace.
    if (req.subresource || !req.kind.namespaced || !req.namespace || !req.object) return;
    const evaluator = this.evaluators.forKind(req.kind);
    if (!evaluator || !evaluator.handles(req.operation)) return;
    if (this.access.list(req.namespace).length === 0) return;
    await this.inLane(req.namespace, async () => {
      let names: Set<string> | undefined;
      let lastConflict: StatusError | undefined;
      for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
        if (attempt > 0) await this.access.catchUp();
        // After a failed charge only the quotas that failed are evaluated again; the others are charged.
        const quotas = this.access.list(req.namespace)
          .filter((q) => !names || names.has(q.metadata.name!))
          .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
        if (quotas.length === 0) return;
        const charge = checkRequest(quotas, {
          operation: req.operation as "CREATE" | "UPDATE", groupResource: groupResourceOf(req.kind), name: req.name,
          object: req.object!, oldObject: req.oldObject,
        }, evaluator, this.now());
        if (req.dryRun || charge.changed.length === 0) return;
        const failed = new Set<string>();
        for (const i of charge.changed) {
          try {
            await this.access.updateStatus(charge.quotas[i]);
          } catch (err) {
            if (!isStatusError(err) || (err.code !== 409 && err.code !== 404)) throw err;
            failed.add(charge.quotas[i].metadata.name!);
            if (err.code === 409) lastConflict = err;
          }
        }
        if (failed.size === 0) return;
        names = failed;
      }
      if (lastConflict) throw lastConflict;
    });
  }

  /** Runs `fn` after every earlier charge in the namespace has finished. */
  private async inLane(namespace: string, fn: () => Promise<void>): Promise<void> {
    const previous = this.lanes.get(namespace) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const tail = previous.then(() => mine);
    this.lanes.set(namespace, tail);
    await previous;
    try {
      await fn();
    } finally {
      release();
      if (this.lanes.get(namespace) === tail) this.lanes.delete(namespace);
    }
  }
}

/** The plug-in over a registry: quotas read from its watch cache, charges written through it as the server. */
export function resourceQuotaAdmission(registry: Registry, kinds: readonly AnyKind[] = allKinds): ResourceQuotaAdmission {
  const cache = registry.store.objects;
  return new ResourceQuotaAdmission({
    list: (namespace) => cache.list(resourceQuotaKind.plural, { namespace }).map((o) => o.object as ResourceQuota),
    catchUp: () => cache.catchUp(),
    async updateStatus(quota) {
      await registry.update(resourceQuotaKind, quota.metadata.namespace!, quota.metadata.name!, quota,
        { dryRun: false, fieldValidation: "Ignore", subresource: "status" });
    },
  }, new QuotaEvaluators(kinds));
}

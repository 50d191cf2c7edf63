// The namespace controller's deleter (kube-controller-manager's namespaced-resources deleter): once a namespace
// has a deletionTimestamp, delete everything in it through the registry (so finalizers and grace periods are
// honoured), report progress in status.conditions as kube does, and when nothing is left remove the `kubernetes`
// finalizer through /finalize, which lets the registry remove the namespace. It reacts to events: every change
// to an object in a terminating namespace re-runs that namespace, so an empty one goes in milliseconds.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { KUBERNETES_FINALIZER, namespace as namespaceKind, TERMINATING, type Namespace, type NamespaceCondition } from "../kinds/namespace";
import type { AnyKind, KubeObject } from "../kinds/types";
import { addedStoredKinds, storageResourceOf } from "../kinds";
import { parseListOptions } from "../registry/options";
import type { Registry } from "../registry/registry";
import { ALL_RESOURCES, type Informer } from "./informer";
import { WorkQueue } from "./work-queue";

/** kube's identity for this controller (its writes show up under it in audit). */
export const NAMESPACE_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:namespace-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

/** Re-check a namespace waiting on finalizers this often even without events (a safety net; events drive it). */
const FINALIZER_RECHECK_MS = 15_000;

// Condition types the deleter maintains, in kube's order, with the reason and message of their "all is well" form.
const CONDITION_TYPES = [
  ["NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"],
  ["NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
  ["NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
  ["NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"],
  ["NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"],
] as const;

const nowSeconds = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

export interface NamespaceDeleterOptions {
  registry: Registry;
  informer: Informer;
  /** Every kind the registry serves; the namespaced ones are emptied. */
  kinds: AnyKind[];
  user?: UserInfo;
  onError?: (namespace: string, err: unknown) => void;
}

/** What is left in a namespace after one deletion pass. */
interface ContentTotals {
  /** `<resource>.<group>` -> objects remaining. */
  remaining: Map<string, number>;
  /** finalizer -> objects remaining that carry it. */
  finalizers: Map<string, number>;
  /** Objects waiting out a grace period (they go by themselves; a recheck is due then). */
  soonestGraceEndMs?: number;
  errors: string[];
}

export class NamespaceDeleter {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly namespaced: AnyKind[];
  private readonly user: UserInfo | undefined;

  constructor(opts: NamespaceDeleterOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.namespaced = opts.kinds.filter((k) => k.namespaced);
    this.user = opts.user ?? NAMESPACE_CONTROLLER_USER;
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(namespaceKind.plural, (e) => {
      if (e.type !== "DELETED" && e.object.metadata.deletionTimestamp) this.queue.add(e.key.name);
    });
    // Content leaving (or losing its finalizers) in a terminating namespace is what the deletion waits for.
    opts.informer.on(ALL_RESOURCES, (e) => {
      if (!e.key.namespace) return;
      if (this.informer.get(namespaceKind.plural, "", e.key.namespace)?.metadata.deletionTimestamp) this.queue.add(e.key.namespace);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  /** One pass over a namespace; throws to be retried with backoff. */
  async sync(name: string): Promise<void> {
    let ns = this.informer.get(namespaceKind.plural, "", name) as Namespace | undefined;
    if (!ns?.metadata.deletionTimestamp) return;
    if (ns.status?.phase !== TERMINATING) {
      ns = await this.writeStatus(ns, { ...ns.status, phase: TERMINATING });
      if (!ns) return;
    }
    if (!ns.spec?.finalizers?.includes(KUBERNETES_FINALIZER)) return;

    const totals = await this.deleteAllContent(name);
    const status = withConditions(ns, totals);
    if (status) {
      ns = await this.writeStatus(ns, status);
      if (!ns) return;
    }
    if (totals.errors.length) throw new Error(`namespace ${name}: ${totals.errors.join("; ")}`);
    if (totals.remaining.size) {
      // Events bring the namespace back as content goes; these timers only cover what no event announces.
      const graceWait = totals.soonestGraceEndMs !== undefined ? Math.max(0, totals.soonestGraceEndMs - Date.now()) + 50 : undefined;
      this.queue.addAfter(name, graceWait ?? FINALIZER_RECHECK_MS);
      return;
    }
    await this.finalize(ns);
  }

  /** Delete every object of every namespaced kind in the namespace; report what is left. */
  private async deleteAllContent(namespace: string): Promise<ContentTotals> {
    const totals: ContentTotals = { remaining: new Map(), finalizers: new Map(), errors: [] };
    const listAll = parseListOptions(new URLSearchParams());
    // Custom resources too: the kinds Established CRDs serve now, each once (its storage version).
    for (const kind of [...this.namespaced, ...addedStoredKinds().filter((k) => k.namespaced)]) {
      if (this.informer.list(storageResourceOf(kind), namespace).length === 0) continue;
      try {
        await this.registry.deleteCollection(kind, namespace, listAll, { dryRun: false, propagationPolicy: "Background", user: this.user });
      } catch (err) {
        totals.errors.push(errorMessage(err));
      }
      const left = this.informer.list(storageResourceOf(kind), namespace);
      if (!left.length) continue;
      totals.remaining.set(`${kind.plural}.${kind.group ?? ""}`, left.length);
      for (const obj of left) {
        for (const f of obj.metadata.finalizers ?? []) totals.finalizers.set(f, (totals.finalizers.get(f) ?? 0) + 1);
        const due = graceEnd(obj);
        if (due !== undefined && (totals.soonestGraceEndMs === undefined || due < totals.soonestGraceEndMs)) totals.soonestGraceEndMs = due;
      }
    }
    return totals;
  }

  /** Status writes go through /status; a namespace gone meanwhile ends the pass (undefined). */
  private async writeStatus(ns: Namespace, status: NonNullable<Namespace["status"]>): Promise<Namespace | undefined> {
    try {
      const answer = await this.registry.update(namespaceKind, "", ns.metadata.name!, { ...ns, status }, {
        subresource: "status", dryRun: false, fieldValidation: "Ignore", user: this.user,
      });
      return ("object" in answer ? answer.object : undefined) as Namespace | undefined;
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return undefined;
      throw err;
    }
  }

  /** Remove our finalizer token through /finalize; with no spec finalizers left the registry removes the namespace. */
  private async finalize(ns: Namespace): Promise<void> {
    const finalizers = (ns.spec?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER);
    try {
      await this.registry.update(namespaceKind, "", ns.metadata.name!, { ...ns, spec: { ...ns.spec, finalizers } }, {
        subresource: "finalize", dryRun: false, fieldValidation: "Ignore", user: this.user,
      });
    } catch (err) {
      // Another replica finished first.
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

/** When an object's graceful deletion completes (ms), if it is waiting out a grace period and nothing else. */
function graceEnd(obj: KubeObject): number | undefined {
  const m = obj.metadata;
  if (!m.deletionTimestamp || m.finalizers?.length || !m.deletionGracePeriodSeconds) return undefined;
  return Date.parse(m.deletionTimestamp);
}

/** kube's namespaceConditionUpdater: the conditions for `totals`, or undefined when nothing changed. */
function withConditions(ns: Namespace, totals: ContentTotals): Namespace["status"] | undefined {
  const wanted = new Map<string, { status: string; reason: string; message: string }>();
  if (totals.errors.length) {
    const aggregate = totals.errors.length === 1 ? totals.errors[0] : `[${totals.errors.join(", ")}]`;
    wanted.set("NamespaceDeletionContentFailure", {
      status: "True", reason: "ContentDeletionFailed",
      message: `Failed to delete all resource types, ${totals.errors.length} remaining: ${aggregate}`,
    });
  }
  if (totals.remaining.size) {
    const parts = [...totals.remaining].map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
    wanted.set("NamespaceContentRemaining", { status: "True", reason: "SomeResourcesRemain", message: `Some resources are remaining: ${parts.join(", ")}` });
  }
  if (totals.finalizers.size) {
    const parts = [...totals.finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
    wanted.set("NamespaceFinalizersRemaining", {
      status: "True", reason: "SomeFinalizersRemain", message: `Some content in the namespace has finalizers remaining: ${parts.join(", ")}`,
    });
  }
  const conditions: NamespaceCondition[] = structuredClone(ns.status?.conditions ?? []);
  let changed = false;
  for (const [type, okReason, okMessage] of CONDITION_TYPES) {
    const next = wanted.get(type) ?? { status: "False", reason: okReason, message: okMessage };
    const current = conditions.find((c) => c.type === type);
    if (!current) {
      conditions.push({ type, ...next, lastTransitionTime: nowSeconds() });
      changed = true;
    } else if (current.status !== next.status || current.reason !== next.reason || current.message !== next.message) {
      if (current.status !== next.status) current.lastTransitionTime = nowSeconds();
      Object.assign(current, next);
      changed = true;
    }
  }
  // Keep kube's field order within each condition (type, status, lastTransitionTime, reason, message).
  const ordered = conditions.map(({ type, status, lastTransitionTime, reason, message, ...rest }) => ({ type, status, lastTransitionTime, reason, message, ...rest }));
  return changed ? { ...ns.status, conditions: ordered } : undefined;
}

// kube-controller-manager's clusterrole-aggregation controller: a ClusterRole with an `aggregationRule`
// gets, as its `rules`, the union of the rules of every ClusterRole its selectors match, written back so
// that `kubectl get clusterrole edit -o yaml` shows what the role grants. The authorizer computes the same
// union itself, so decisions never wait for this write.
import { isStatusError } from "../status";
import type { RbacAuthorizer } from "../authz/rbac-authorizer";
import { clusterRole as clusterRoleKind } from "../kinds/cluster-role";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export class ClusterRoleAggregationController {
  readonly queue: WorkQueue;

  constructor(private readonly opts: { registry: Registry; informer: Informer; rbac: RbacAuthorizer; onError?: (key: string, err: unknown) => void }) {
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(clusterRoleKind.plural, () => {
      for (const stale of opts.rbac.staleAggregatedClusterRoles()) this.queue.add(stale.name);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(name: string): Promise<void> {
    const stale = this.opts.rbac.staleAggregatedClusterRoles().find((r) => r.name === name);
    const current = this.opts.informer.get(clusterRoleKind.plural, "", name);
    if (!stale || !current) return;
    try {
      await this.opts.registry.update(clusterRoleKind, "", name, { ...structuredClone(current), rules: stale.rules },
        // The server's own write (no user): kube grants this controller `escalate`; nothing here can be escalated.
        { dryRun: false, fieldValidation: "Ignore" });
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }
}

// kube-apiserver's system namespaces controller: `kube-system`, `kube-public` and `kube-node-lease` come back
// when they are missing (kube checks every minute; here, as soon as a deletion has finished). Only
// `kube-node-lease` can actually go (NamespaceLifecycle keeps the others), e.g. by `kubectl delete ns --all`.
import { isStatusError } from "../status";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { Registry } from "../registry/registry";
import { SYSTEM_NAMESPACES } from "../bootstrap/namespaces";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export interface SystemNamespacesControllerOptions {
  registry: Registry;
  informer: Informer;
  onError?: (name: string, err: unknown) => void;
}

export class SystemNamespacesController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;

  constructor(opts: SystemNamespacesControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(namespaceKind.plural, (e) => {
      if (e.type === "DELETED" && SYSTEM_NAMESPACES.includes(e.key.name)) this.queue.add(e.key.name);
    });
    // One deleted while no process held the controllers' Lease is found at start.
    for (const name of SYSTEM_NAMESPACES) this.queue.add(name);
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(name: string): Promise<void> {
    if (this.informer.get(namespaceKind.plural, "", name)) return;
    try {
      // As the server itself, like the bootstrap that made it first.
      await this.registry.create(namespaceKind, undefined, { metadata: { name } }, { dryRun: false, fieldValidation: "Ignore" });
    } catch (err) {
      if (isStatusError(err) && err.code === 409) return; // made meanwhile
      throw err;
    }
  }
}

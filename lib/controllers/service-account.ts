// kube-controller-manager's serviceaccounts controller: every Active namespace has a `default` ServiceAccount,
// created when the namespace appears and again whenever it is deleted.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { ACTIVE, namespace as namespaceKind } from "../kinds/namespace";
import { serviceAccount as serviceAccountKind } from "../kinds/service-account";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export const SERVICE_ACCOUNT_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:service-account-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

/** The accounts every namespace gets (kube's default list: just `default`). */
export const DEFAULT_SERVICE_ACCOUNTS = ["default"];

const isActive = (ns: KubeObject | undefined) =>
  !!ns && !ns.metadata.deletionTimestamp && (ns.status as { phase?: string } | undefined)?.phase === ACTIVE;

export interface ServiceAccountControllerOptions {
  registry: Registry;
  informer: Informer;
  user?: UserInfo;
  onError?: (namespace: string, err: unknown) => void;
}

export class ServiceAccountController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly user: UserInfo;

  constructor(opts: ServiceAccountControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.user = opts.user ?? SERVICE_ACCOUNT_CONTROLLER_USER;
    this.queue = new WorkQueue((ns) => this.sync(ns), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(namespaceKind.plural, (e) => {
      if (e.type !== "DELETED" && isActive(e.object)) this.queue.add(e.key.name);
    });
    opts.informer.on(serviceAccountKind.plural, (e) => {
      if (e.type === "DELETED" && DEFAULT_SERVICE_ACCOUNTS.includes(e.key.name)) this.queue.add(e.key.namespace);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(namespace: string): Promise<void> {
    if (!isActive(this.informer.get(namespaceKind.plural, "", namespace))) return;
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      if (this.informer.get(serviceAccountKind.plural, namespace, name)) continue;
      try {
        await this.registry.create(serviceAccountKind, namespace, { metadata: { name } }, { dryRun: false, fieldValidation: "Ignore", user: this.user });
      } catch (err) {
        // Created meanwhile, or the namespace went away or began terminating: nothing left to do.
        if (isStatusError(err) && (err.code === 409 || err.code === 403 || err.code === 404)) continue;
        throw err;
      }
    }
  }
}

// kube-controller-manager's root-ca-cert-publisher: every Active namespace holds a ConfigMap `kube-root-ca.crt`
// whose `ca.crt` is the cluster CA (what pods' projected token volumes mount), created with the namespace,
// recreated when deleted and put back when edited.
import { ROOT_CA_CONFIG_MAP } from "../admission/service-account";
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { configMap as configMapKind } from "../kinds/config-map";
import { ACTIVE, namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export { ROOT_CA_CONFIG_MAP };
export const DESCRIPTION_ANNOTATION = "kubernetes.io/description";
export const ROOT_CA_DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. "
  + "No other usage is guaranteed across distributions of Kubernetes clusters.";

export const ROOT_CA_PUBLISHER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:root-ca-cert-publisher",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

type ConfigMap = KubeObject & { data?: Record<string, string> };

const isActive = (ns: KubeObject | undefined) =>
  !!ns && !ns.metadata.deletionTimestamp && (ns.status as { phase?: string } | undefined)?.phase === ACTIVE;

export interface RootCAPublisherOptions {
  registry: Registry;
  informer: Informer;
  /** PEM of the cluster CA. */
  caPem: string;
  user?: UserInfo;
  onError?: (namespace: string, err: unknown) => void;
}

export class RootCAPublisher {
  readonly queue: WorkQueue;
  private readonly user: UserInfo;

  constructor(private readonly opts: RootCAPublisherOptions) {
    this.user = opts.user ?? ROOT_CA_PUBLISHER_USER;
    this.queue = new WorkQueue((ns) => this.sync(ns), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(namespaceKind.plural, (e) => {
      if (e.type !== "DELETED" && isActive(e.object)) this.queue.add(e.key.name);
    });
    opts.informer.on(configMapKind.plural, (e) => {
      if (e.key.name === ROOT_CA_CONFIG_MAP && e.type !== "ADDED") this.queue.add(e.key.namespace);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(namespace: string): Promise<void> {
    const { informer, registry, caPem } = this.opts;
    if (!isActive(informer.get(namespaceKind.plural, "", namespace))) return;
    const data = { "ca.crt": caPem };
    const current = informer.get(configMapKind.plural, namespace, ROOT_CA_CONFIG_MAP) as ConfigMap | undefined;
    const write = { dryRun: false, fieldValidation: "Ignore" as const, user: this.user };
    if (!current) {
      const body = { metadata: { name: ROOT_CA_CONFIG_MAP, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } }, data };
      try {
        await registry.create(configMapKind, namespace, body, write);
      } catch (err) {
        // Created meanwhile (its event brings us back if it is wrong), or the namespace is gone or terminating.
        if (isStatusError(err) && (err.code === 409 || err.code === 403 || err.code === 404)) return;
        throw err;
      }
      return;
    }
    if (current.metadata.deletionTimestamp) return;
    const keys = Object.keys(current.data ?? {});
    if (keys.length === 1 && current.data?.["ca.crt"] === caPem && current.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
    const next = structuredClone(current);
    next.data = data;
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
    try {
      await registry.update(configMapKind, namespace, ROOT_CA_CONFIG_MAP, next, write);
    } catch (err) {
      // Deleted meanwhile: its DELETED event queues a create. A conflict is retried from the newer state.
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

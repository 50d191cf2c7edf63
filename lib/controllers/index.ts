// The controllers that run inside the server (reference decision 12), started once the store is open. They share
// one informer over the registry's watch cache and write through the registry under their own identities.
import { kinds as allKinds } from "../kinds";
import type { AnyKind } from "../kinds/types";
import type { Registry } from "../registry/registry";
import { ServiceAllocationRepair } from "./service-allocation-repair";
import { serviceAllocatorFor } from "../allocators/service-allocator";
import { Informer } from "./informer";
import { NamespaceDeleter } from "./namespace-deleter";
import { SystemNamespacesController } from "./system-namespaces";
import { ServiceAccountController } from "./service-account";
import { NamespaceSccAllocationController } from "./namespace-scc-allocation";
import { RootCAPublisher } from "./root-ca-publisher";
import { TokenSecretController } from "./token-secret";
import { ClusterRoleAggregationController } from "./cluster-role-aggregation";
import type { ServiceAccountTokens } from "../auth/service-account-token";
import type { RbacAuthorizer } from "../authz/rbac-authorizer";
import type { ServerConfig } from "../config/server-config";
import { noEvents, type EventRecorder } from "../events/recorder";
import { EventTTLController } from "./event-ttl";
import { EndpointsController } from "./endpoints";
import { ResourceQuotaController } from "./resource-quota";
import { PersistentVolumeBinder } from "./persistent-volume-binder";
import { PvcProtectionController } from "./pvc-protection";
import { PvProtectionController } from "./pv-protection";
import { LeaderElector, type LeaderElectionConfig } from "./leader-election";
import { GarbageCollector } from "./garbage-collector";
import { CustomResourceDefinitionController } from "./custom-resource-definitions";
import { deleteCustomResourcesWith } from "./custom-resource-serving";

export interface ControllerContext {
  registry: Registry;
  /** The kinds the registry serves (default: every kind of lib/kinds). */
  kinds?: AnyKind[];
  /** Signs the legacy tokens the tokens controller puts into token Secrets. */
  tokens?: ServiceAccountTokens;
  /** PEM of the cluster CA for token Secrets' `ca.crt`. */
  caPem?: string;
  /** The authorizer's index, whose aggregated ClusterRoles the aggregation controller writes back. */
  rbac?: RbacAuthorizer;
  /** Settings (service ranges, event TTL); controllers that need one are skipped without it. */
  config?: ServerConfig;
  /** Where controllers record Events (default: nowhere). */
  recorder?: EventRecorder;
  /** Told about controller failures (they are retried regardless); never given secrets. */
  onError?: (controller: string, key: string, err: unknown) => void;
  /** Run the controllers only while holding the controllers' Lease (the server: one instance across replicas). */
  leaderElection?: LeaderElectionConfig;
}

/**
 * Starts every controller; returns a function that stops them all. With `leaderElection`, they run only while
 * this process holds the controllers' Lease (started on acquiring it, stopped on losing it), and stopping
 * releases the Lease; the returned promise settles once it is released.
 */
export function startControllers(ctx: ControllerContext): () => Promise<void> {
  if (!ctx.leaderElection) {
    const stop = runControllers(ctx);
    return async () => stop();
  }
  let stopRunning: (() => void) | undefined;
  const elector = new LeaderElector({
    ...ctx.leaderElection,
    registry: ctx.registry,
    onStartedLeading: () => { stopRunning ??= runControllers(ctx); },
    onStoppedLeading: () => { stopRunning?.(); stopRunning = undefined; },
    onError: (err) => ctx.onError?.("leader-election", "", err),
  });
  elector.start();
  return async () => {
    await elector.stop();
    stopRunning?.();
    stopRunning = undefined;
  };
}

/** Builds the informer and every controller and starts them (the work of the Lease holder). */
function runControllers(ctx: ControllerContext): () => void {
  const onError = ctx.onError ?? (() => {});
  const recorder = ctx.recorder ?? noEvents;
  const informer = new Informer(ctx.registry.store.objects, (err) => onError("informer", "", err));
  const controllers = [
    new NamespaceDeleter({ registry: ctx.registry, informer, kinds: ctx.kinds ?? allKinds, onError: (k, e) => onError("namespace", k, e) }),
    new SystemNamespacesController({ registry: ctx.registry, informer, onError: (k, e) => onError("system-namespaces", k, e) }),
    new ServiceAccountController({ registry: ctx.registry, informer, onError: (k, e) => onError("serviceaccount", k, e) }),
    new NamespaceSccAllocationController({ registry: ctx.registry, informer, onError: (k, e) => onError("namespace-scc-allocation", k, e) }),
    ...(ctx.caPem !== undefined ? [new RootCAPublisher({ registry: ctx.registry, informer, caPem: ctx.caPem, onError: (k, e) => onError("root-ca-cert-publisher", k, e) })] : []),
    ...(ctx.tokens ? [new TokenSecretController({ registry: ctx.registry, informer, tokens: ctx.tokens, caPem: ctx.caPem ?? "", onError: (k, e) => onError("tokens", k, e) })] : []),
    ...(ctx.rbac ? [new ClusterRoleAggregationController({ registry: ctx.registry, informer, rbac: ctx.rbac, onError: (k, e) => onError("clusterrole-aggregation", k, e) })] : []),
    ...(ctx.config ? [new EventTTLController({ registry: ctx.registry, informer, ttlSeconds: ctx.config.eventTTLSeconds, onError: (k, e) => onError("event-ttl", k, e) })] : []),
    ...(ctx.config ? [new ServiceAllocationRepair({ allocator: serviceAllocatorFor(ctx.registry.store, ctx.config), informer, recorder, onError: (k, e) => onError("service-allocation-repair", k, e) })] : []),
    new EndpointsController({ registry: ctx.registry, informer, recorder, onError: (k, e) => onError("endpoint", k, e) }),
    new ResourceQuotaController({ registry: ctx.registry, informer, kinds: ctx.kinds ?? allKinds, onError: (k, e) => onError("resourcequota", k, e) }),
    new PersistentVolumeBinder({ registry: ctx.registry, informer, recorder, onError: (k, e) => onError("persistentvolume-binder", k, e) }),
    new PvcProtectionController({ registry: ctx.registry, informer, onError: (k, e) => onError("pvc-protection", k, e) }),
    new PvProtectionController({ registry: ctx.registry, informer, onError: (k, e) => onError("pv-protection", k, e) }),
    new GarbageCollector({ registry: ctx.registry, informer, kinds: ctx.kinds ?? allKinds, recorder, onError: (k, e) => onError("garbagecollector", k, e) }),
    new CustomResourceDefinitionController({
      registry: ctx.registry, informer, deleteCustomResources: deleteCustomResourcesWith(ctx.registry),
      onError: (k, e) => onError("customresourcedefinitions", k, e),
    }),
  ];
  // Handlers are registered in the constructors; the initial list reaches all of them, in slices that leave the
  // event loop to the server between them (at 150,000 pods the first pass took 1-2.5 s before /readyz could
  // answer). The controllers' work queues wait for it (WaitForCacheSync).
  void informer.startInSlices();
  return () => {
    informer.stop();
    for (const c of controllers) c.stop();
  };
}

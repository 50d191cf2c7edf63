// The controllers that run inside the server (reference decision 12), started once the store is open. They share
// one informer over the registry's watch cache and write through the registry under their own identities.
import { kinds as allKinds } from "../kinds";
import type { AnyKind } from "../kinds/types";
import type { Registry } from "../registry/registry";
import { Informer } from "./informer";
import { NamespaceDeleter } from "./namespace-deleter";
import { ServiceAccountController } from "./service-account";
import { TokenSecretController } from "./token-secret";
import { ClusterRoleAggregationController } from "./cluster-role-aggregation";
import type { ServiceAccountTokens } from "../auth/service-account-token";
import type { RbacAuthorizer } from "../authz/rbac-authorizer";
import type { ServerConfig } from "../config/server-config";
import { noEvents, type EventRecorder } from "../events/recorder";

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
}

/** Starts every controller; returns a function that stops them all. */
export function startControllers(ctx: ControllerContext): () => void {
  const onError = ctx.onError ?? (() => {});
  const recorder = ctx.recorder ?? noEvents;
  void recorder;
  const informer = new Informer(ctx.registry.store.cache, (err) => onError("informer", "", err));
  const controllers = [
    new NamespaceDeleter({ registry: ctx.registry, informer, kinds: ctx.kinds ?? allKinds, onError: (k, e) => onError("namespace", k, e) }),
    new ServiceAccountController({ registry: ctx.registry, informer, onError: (k, e) => onError("serviceaccount", k, e) }),
    ...(ctx.tokens ? [new TokenSecretController({ registry: ctx.registry, informer, tokens: ctx.tokens, caPem: ctx.caPem ?? "", onError: (k, e) => onError("tokens", k, e) })] : []),
    ...(ctx.rbac ? [new ClusterRoleAggregationController({ registry: ctx.registry, informer, rbac: ctx.rbac, onError: (k, e) => onError("clusterrole-aggregation", k, e) })] : []),
  ];
  // Handlers are registered in the constructors; the initial list reaches all of them.
  informer.start();
  return () => {
    informer.stop();
    for (const c of controllers) c.stop();
  };
}

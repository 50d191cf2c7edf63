// The controllers that run inside the server (reference decision 12), started once the store is open. They share
// one informer over the registry's watch cache and write through the registry under their own identities.
import { kinds as allKinds } from "../kinds";
import type { AnyKind } from "../kinds/types";
import type { Registry } from "../registry/registry";
import { Informer } from "./informer";
import { NamespaceDeleter } from "./namespace-deleter";
import { ServiceAccountController } from "./service-account";

export interface ControllerContext {
  registry: Registry;
  /** The kinds the registry serves (default: every kind of lib/kinds). */
  kinds?: AnyKind[];
  /** Told about controller failures (they are retried regardless); never given secrets. */
  onError?: (controller: string, key: string, err: unknown) => void;
}

/** Starts every controller; returns a function that stops them all. */
export function startControllers(ctx: ControllerContext): () => void {
  const onError = ctx.onError ?? (() => {});
  const informer = new Informer(ctx.registry.store.cache, (err) => onError("informer", "", err));
  const controllers = [
    new NamespaceDeleter({ registry: ctx.registry, informer, kinds: ctx.kinds ?? allKinds, onError: (k, e) => onError("namespace", k, e) }),
    new ServiceAccountController({ registry: ctx.registry, informer, onError: (k, e) => onError("serviceaccount", k, e) }),
  ];
  // Handlers are registered in the constructors; the initial list reaches all of them.
  informer.start();
  return () => {
    informer.stop();
    for (const c of controllers) c.stop();
  };
}

// The admission plug-ins this server runs, in kube-apiserver's order.
import { AdmissionChain } from "../admission/admission-chain";
import { NamespaceLifecycle } from "../admission/namespace-lifecycle";
import { RbacEscalation } from "../admission/rbac-escalation";
import type { Authorizer } from "../authz/attributes";
import type { EscalationResolver } from "../authz/escalation";
import type { ServerConfig } from "../config/server-config";
import type { EventRecorder } from "../events/recorder";
import type { Registry } from "../registry/registry";

export interface AdmissionContext {
  registry: Registry;
  rbac: EscalationResolver & Authorizer;
  config: ServerConfig;
  recorder: EventRecorder;
}

/** kube-apiserver's order: NamespaceLifecycle, LimitRanger, ServiceAccount, ..., SCC, ResourceQuota last. */
export function admissionChain(ctx: AdmissionContext): AdmissionChain {
  const cache = ctx.registry.store.cache;
  return new AdmissionChain([
    new NamespaceLifecycle((name) => cache.get({ resource: "namespaces", namespace: "", name })?.object, () => cache.catchUp()),
    new RbacEscalation(ctx.rbac),
  ]);
}

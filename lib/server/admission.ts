// The admission plug-ins this server runs, in kube-apiserver's order.
import { AdmissionChain } from "../admission/admission-chain";
import { NamespaceLifecycle } from "../admission/namespace-lifecycle";
import { LimitRanger } from "../admission/limit-ranger";
import { ServiceAccountAdmission } from "../admission/service-account";
import { SecurityContextConstraintsAdmission } from "../admission/security-context-constraints";
import { RbacEscalation } from "../admission/rbac-escalation";
import { resourceQuotaAdmission } from "../admission/resource-quota";
import { StorageObjectInUseProtection } from "../admission/storage-object-in-use-protection";
import { ServiceAllocation } from "../admission/service-allocation";
import { serviceAllocatorFor } from "../allocators/service-allocator";
import type { Authorizer } from "../authz/attributes";
import type { EscalationResolver } from "../authz/escalation";
import type { ServerConfig } from "../config/server-config";
import type { Registry } from "../registry/registry";

export interface AdmissionContext {
  registry: Registry;
  rbac: EscalationResolver & Authorizer;
  config: ServerConfig;
}

/** kube-apiserver's order: NamespaceLifecycle, LimitRanger, ServiceAccount, ..., SCC, ResourceQuota last. */
export function admissionChain(ctx: AdmissionContext): AdmissionChain {
  const cache = ctx.registry.store.objects;
  return new AdmissionChain([
    new NamespaceLifecycle((name) => cache.get({ resource: "namespaces", namespace: "", name })?.object, () => cache.catchUp()),
    new LimitRanger((namespace) => cache.list("limitranges", { namespace }).map((o) => o.object), () => cache.catchUp()),
    new ServiceAccountAdmission((namespace, name) => cache.get({ resource: "serviceaccounts", namespace, name })?.object, { catchUp: () => cache.catchUp() }),
    new SecurityContextConstraintsAdmission({ listSCCs: () => cache.list("securitycontextconstraints").map((o) => o.object), namespace: (name) => cache.get({ resource: "namespaces", namespace: "", name })?.object, catchUp: () => cache.catchUp() }, ctx.rbac),
    // After every other mutating plug-in: kube assigns service addresses in the service storage itself.
    new ServiceAllocation(serviceAllocatorFor(ctx.registry.store, ctx.config), (namespace, name) => !!cache.get({ resource: "services", namespace, name })),
    new StorageObjectInUseProtection(),
    new RbacEscalation(ctx.rbac),
    resourceQuotaAdmission(ctx.registry),
  ]);
}

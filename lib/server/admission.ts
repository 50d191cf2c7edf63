// The admission plug-ins this server runs, in kube-apiserver's order.
import { AdmissionChain } from "../admission/admission-chain";
import { NamespaceLifecycle } from "../admission/namespace-lifecycle";
import { RbacEscalation } from "../admission/rbac-escalation";
import type { EscalationResolver } from "../authz/escalation";
import type { Registry } from "../registry/registry";

export function admissionChain(registry: Registry, rbac: EscalationResolver): AdmissionChain {
  const cache = registry.store.cache;
  return new AdmissionChain([
    new NamespaceLifecycle((name) => cache.get({ resource: "namespaces", namespace: "", name })?.object, () => cache.catchUp()),
    new RbacEscalation(rbac),
  ]);
}

// RBAC's escalation and bind prevention (kube's RBAC REST storage, pkg/registry/rbac/*/policybased): a user
// may only write a Role or ClusterRole whose rules they already hold (or hold `escalate` on it), and only bind
// a role whose rules they hold (or hold `bind` on it). The server's own writes (user undefined) pass.
import { checkBindingWrite, checkRoleWrite, onlyGCFieldsChanged, type EscalationResolver } from "../authz/escalation";
import { readRoleRef, readRules } from "../authz/rbac-objects";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

const RBAC_GROUP = "rbac.authorization.k8s.io";

function hasAggregation(obj: unknown): boolean {
  const rule = (obj as { aggregationRule?: { clusterRoleSelectors?: unknown[] } } | undefined)?.aggregationRule;
  return !!rule?.clusterRoleSelectors?.length;
}

export class RbacEscalation implements AdmissionPlugin {
  readonly name = "RBACEscalation";

  constructor(private readonly resolver: EscalationResolver) {}

  validate(req: AdmissionRequest): void {
    if (req.kind.group !== RBAC_GROUP || !req.user || !req.object) return;
    if (req.operation !== "CREATE" && req.operation !== "UPDATE") return;
    if (req.operation === "UPDATE" && onlyGCFieldsChanged(req.object, req.oldObject)) return;
    const resource = req.kind.plural;
    const base = { user: req.user, namespace: req.namespace, name: req.name };
    const rejection = resource === "roles" || resource === "clusterroles"
      ? checkRoleWrite(this.resolver, {
        ...base, resource, rules: readRules(req.object),
        hasAggregationRule: hasAggregation(req.object) || hasAggregation(req.oldObject),
      })
      : resource === "rolebindings" || resource === "clusterrolebindings"
        ? checkBindingWrite(this.resolver, { ...base, resource, roleRef: readRoleRef(req.object) })
        : undefined;
    if (rejection) throw rejection;
  }
}

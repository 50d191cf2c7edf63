// kube-apiserver 1.32's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) as the
// objects it reconciles at every start: the tables of bootstrap-cluster-roles.ts, bootstrap-controller-
// roles.ts and bootstrap-namespace-roles.ts, each object labelled as kube's defaults and open to
// reconciliation (autoupdate "true").
import {
  AGGREGATE_TO_ADMIN,
  AGGREGATE_TO_EDIT,
  AGGREGATE_TO_VIEW,
  CLUSTER_ROLE_BINDINGS,
  CLUSTER_ROLES,
  type BindingDeclaration,
  type RoleDeclaration,
} from "./bootstrap-cluster-roles";
import { CONTROLLER_ROLE_PREFIX, CONTROLLER_ROLES } from "./bootstrap-controller-roles";
import { NAMESPACE_ROLE_BINDINGS, NAMESPACE_ROLES } from "./bootstrap-namespace-roles";
import { withAggregatedRules } from "./cluster-role-aggregation";
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type Role, type RoleBinding } from "./rbac-objects";
import { serviceAccount } from "./subject-builder";

export { AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW };
export const BOOTSTRAP_LABEL = { "kubernetes.io/bootstrapping": "rbac-defaults" } as const;
export const AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";

function metadata(name: string, namespace: string | undefined, labels: Record<string, string> = {}) {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: { ...BOOTSTRAP_LABEL, ...labels },
    annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
  };
}

function clusterRole(d: RoleDeclaration): ClusterRole {
  const role: ClusterRole = { apiVersion: `${RBAC_GROUP}/v1`, kind: "ClusterRole", metadata: metadata(d.name, undefined, d.labels), rules: structuredClone(d.rules) };
  if (d.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [d.aggregateFrom]: "true" } }] };
  return role;
}

function binding(kind: "ClusterRoleBinding" | "RoleBinding", d: BindingDeclaration, namespace?: string): RoleBinding {
  const b: RoleBinding = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind,
    metadata: metadata(d.name, namespace),
    roleRef: { apiGroup: RBAC_GROUP, kind: kind === "RoleBinding" ? "Role" : "ClusterRole", name: d.roleName ?? d.name },
  };
  if (d.subjects) b.subjects = structuredClone(d.subjects);
  return b;
}

const byName = <T extends { metadata: { name: string } }>(a: T, b: T) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/**
 * The default ClusterRoles (kube's and the controllers'), sorted by name. `admin`, `edit` and `view` carry
 * their aggregationRule and, already written in, the rules the aggregation controller gives them (pass
 * `{ aggregated: false }` for kube's pre-controller form with `rules: null`).
 */
export function bootstrapClusterRoles(options: { aggregated?: boolean } = {}): ClusterRole[] {
  const roles = [...CLUSTER_ROLES, ...CONTROLLER_ROLES].map(clusterRole).sort(byName);
  return options.aggregated === false ? roles : withAggregatedRules(roles);
}

/** The default ClusterRoleBindings, one per controller role plus kube's own, sorted by name. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  const controllers: BindingDeclaration[] = CONTROLLER_ROLES.map((r) => ({
    name: r.name,
    subjects: [serviceAccount("kube-system", r.name.slice(CONTROLLER_ROLE_PREFIX.length))],
  }));
  return [...CLUSTER_ROLE_BINDINGS, ...controllers].map((d) => binding("ClusterRoleBinding", d)).sort(byName);
}

/** The default Roles of kube-system and kube-public, in kube's order. */
export function bootstrapNamespaceRoles(): Role[] {
  return Object.entries(NAMESPACE_ROLES).flatMap(([namespace, roles]) =>
    roles.map((d): Role => ({ apiVersion: `${RBAC_GROUP}/v1`, kind: "Role", metadata: metadata(d.name, namespace, d.labels), rules: structuredClone(d.rules) })),
  );
}

/** The default RoleBindings of kube-system and kube-public, in kube's order. */
export function bootstrapNamespaceRoleBindings(): RoleBinding[] {
  return Object.entries(NAMESPACE_ROLE_BINDINGS).flatMap(([namespace, bindings]) => bindings.map((d) => binding("RoleBinding", d, namespace)));
}

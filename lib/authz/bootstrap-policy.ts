// The default ClusterRoles and ClusterRoleBindings kube-apiserver 1.32 reconciles at start
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), limited to the user-facing roles and the system
// roles every client relies on. Rules are listed as kube stores them (each list sorted). Rules behind
// feature gates that are off by default in 1.32 (DynamicResourceAllocation) are left out.
import { withAggregatedRules } from "./cluster-role-aggregation";
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding } from "./rbac-objects";
import type { PolicyRule } from "./rule-matching";

export const BOOTSTRAP_LABEL = { "kubernetes.io/bootstrapping": "rbac-defaults" } as const;
export const AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";
export const AGGREGATE_TO_ADMIN = "rbac.authorization.k8s.io/aggregate-to-admin";
export const AGGREGATE_TO_EDIT = "rbac.authorization.k8s.io/aggregate-to-edit";
export const AGGREGATE_TO_VIEW = "rbac.authorization.k8s.io/aggregate-to-view";

const READ = ["get", "list", "watch"];
const WRITE = ["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

function rule(verbs: string[], apiGroups: string[], resources: string[]): PolicyRule {
  return { apiGroups, resources, verbs };
}
function urls(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { nonResourceURLs, verbs };
}

function clusterRole(
  name: string,
  rules: PolicyRule[] | null,
  extra: { labels?: Record<string, string>; aggregateFrom?: string } = {},
): ClusterRole {
  const role: ClusterRole = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRole",
    metadata: {
      name,
      labels: { ...BOOTSTRAP_LABEL, ...(extra.labels ?? {}) },
      annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
    },
    rules,
  };
  if (extra.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: "true" } }] };
  return role;
}

function definitions(): ClusterRole[] {
  return [
    clusterRole("admin", null, { aggregateFrom: AGGREGATE_TO_ADMIN }),
    clusterRole("cluster-admin", [rule(["*"], ["*"], ["*"]), urls(["*"], ["*"])]),
    clusterRole("edit", null, { aggregateFrom: AGGREGATE_TO_EDIT, labels: { [AGGREGATE_TO_ADMIN]: "true" } }),
    clusterRole(
      "system:aggregate-to-admin",
      [
        rule(["create"], ["authorization.k8s.io"], ["localsubjectaccessreviews"]),
        rule(READ_WRITE, [RBAC_GROUP], ["rolebindings", "roles"]),
      ],
      { labels: { [AGGREGATE_TO_ADMIN]: "true" } },
    ),
    clusterRole(
      "system:aggregate-to-edit",
      [
        rule(READ, [""], ["pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"]),
        rule(["impersonate"], [""], ["serviceaccounts"]),
        rule(WRITE, [""], ["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"]),
        rule(["create"], [""], ["pods/eviction"]),
        rule(WRITE, [""], [
          "configmaps",
          "persistentvolumeclaims",
          "replicationcontrollers",
          "replicationcontrollers/scale",
          "secrets",
          "serviceaccounts",
          "services",
          "services/proxy",
        ]),
        rule(["create"], [""], ["serviceaccounts/token"]),
        rule(WRITE, ["", "events.k8s.io"], ["events"]),
        rule(WRITE, ["apps"], [
          "daemonsets",
          "deployments",
          "deployments/rollback",
          "deployments/scale",
          "replicasets",
          "replicasets/scale",
          "statefulsets",
          "statefulsets/scale",
        ]),
        rule(WRITE, ["autoscaling"], ["horizontalpodautoscalers"]),
        rule(WRITE, ["batch"], ["cronjobs", "jobs"]),
        rule(WRITE, ["extensions"], [
          "daemonsets",
          "deployments",
          "deployments/rollback",
          "deployments/scale",
          "ingresses",
          "networkpolicies",
          "replicasets",
          "replicasets/scale",
          "replicationcontrollers/scale",
        ]),
        rule(WRITE, ["policy"], ["poddisruptionbudgets"]),
        rule(WRITE, ["networking.k8s.io"], ["ingresses", "networkpolicies"]),
        rule(READ_WRITE, ["coordination.k8s.io"], ["leases"]),
      ],
      { labels: { [AGGREGATE_TO_EDIT]: "true" } },
    ),
    clusterRole(
      "system:aggregate-to-view",
      [
        rule(READ, [""], [
          "configmaps",
          "endpoints",
          "persistentvolumeclaims",
          "persistentvolumeclaims/status",
          "pods",
          "replicationcontrollers",
          "replicationcontrollers/scale",
          "serviceaccounts",
          "services",
          "services/status",
        ]),
        rule(READ, [""], [
          "bindings",
          "limitranges",
          "namespaces/status",
          "pods/log",
          "pods/status",
          "replicationcontrollers/status",
          "resourcequotas",
          "resourcequotas/status",
        ]),
        rule(READ, [""], ["namespaces"]),
        rule(READ, ["", "events.k8s.io"], ["events"]),
        rule(READ, ["discovery.k8s.io"], ["endpointslices"]),
        rule(READ, ["apps"], [
          "controllerrevisions",
          "daemonsets",
          "daemonsets/status",
          "deployments",
          "deployments/scale",
          "deployments/status",
          "replicasets",
          "replicasets/scale",
          "replicasets/status",
          "statefulsets",
          "statefulsets/scale",
          "statefulsets/status",
        ]),
        rule(READ, ["autoscaling"], ["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
        rule(READ, ["batch"], ["cronjobs", "cronjobs/status", "jobs", "jobs/status"]),
        rule(READ, ["extensions"], [
          "daemonsets",
          "daemonsets/status",
          "deployments",
          "deployments/scale",
          "deployments/status",
          "ingresses",
          "ingresses/status",
          "networkpolicies",
          "replicasets",
          "replicasets/scale",
          "replicasets/status",
          "replicationcontrollers/scale",
        ]),
        rule(READ, ["policy"], ["poddisruptionbudgets", "poddisruptionbudgets/status"]),
        rule(READ, ["networking.k8s.io"], ["ingresses", "ingresses/status", "networkpolicies"]),
      ],
      { labels: { [AGGREGATE_TO_VIEW]: "true" } },
    ),
    clusterRole("system:auth-delegator", [
      rule(["create"], ["authentication.k8s.io"], ["tokenreviews"]),
      rule(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
    ]),
    clusterRole("system:basic-user", [
      rule(["create"], ["authorization.k8s.io"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
      rule(["create"], ["authentication.k8s.io"], ["selfsubjectreviews"]),
    ]),
    clusterRole("system:discovery", [
      urls(["get"], ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"]),
    ]),
    clusterRole("system:monitoring", [
      urls(["get"], ["/healthz", "/healthz/*", "/livez", "/livez/*", "/metrics", "/metrics/slis", "/readyz", "/readyz/*"]),
      rule(["get"], [""], ["nodes/metrics"]),
    ]),
    clusterRole("system:public-info-viewer", [urls(["get"], ["/healthz", "/livez", "/readyz", "/version", "/version/"])]),
    clusterRole("system:service-account-issuer-discovery", [
      urls(["get"], ["/.well-known/openid-configuration", "/.well-known/openid-configuration/", "/openid/v1/jwks", "/openid/v1/jwks/"]),
    ]),
    clusterRole("view", null, { aggregateFrom: AGGREGATE_TO_VIEW, labels: { [AGGREGATE_TO_EDIT]: "true" } }),
  ];
}

/**
 * The default ClusterRoles, sorted by name. `admin`, `edit` and `view` carry their aggregationRule and,
 * already written in, the rules the aggregation controller gives them (pass `{ aggregated: false }` for
 * kube's pre-controller form with `rules: null`).
 */
export function bootstrapClusterRoles(options: { aggregated?: boolean } = {}): ClusterRole[] {
  const roles = definitions();
  return options.aggregated === false ? roles : withAggregatedRules(roles);
}

function clusterBinding(name: string, subjects: { kind: "User" | "Group"; name: string }[]): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRoleBinding",
    metadata: {
      name,
      labels: { ...BOOTSTRAP_LABEL },
      annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
    },
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name },
    subjects: subjects.map((s) => ({ apiGroup: RBAC_GROUP, kind: s.kind, name: s.name })),
  };
}

/** The default ClusterRoleBindings (each named after the ClusterRole it binds), sorted by name. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterBinding("cluster-admin", [{ kind: "Group", name: "system:masters" }]),
    clusterBinding("system:basic-user", [{ kind: "Group", name: "system:authenticated" }]),
    clusterBinding("system:discovery", [{ kind: "Group", name: "system:authenticated" }]),
    clusterBinding("system:monitoring", [{ kind: "Group", name: "system:monitoring" }]),
    clusterBinding("system:public-info-viewer", [
      { kind: "Group", name: "system:authenticated" },
      { kind: "Group", name: "system:unauthenticated" },
    ]),
    clusterBinding("system:service-account-issuer-discovery", [{ kind: "Group", name: "system:serviceaccounts" }]),
  ];
}

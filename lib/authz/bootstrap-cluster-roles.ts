// kube-apiserver 1.32's ClusterRoles() (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go) with the
// feature gates at their 1.32 defaults: the resource.k8s.io rules (DynamicResourceAllocation) and the
// ClusterTrustBundle rules of system:node are off, so they are not here. Rules keep kube's order.
import { CORE, eventsRule, READ, READ_WRITE, rule, urls, WRITE } from "./policy-rule-builder";
import { RBAC_GROUP, type Subject } from "./rbac-objects";
import type { PolicyRule } from "./rule-matching";
import { group, serviceAccount, user } from "./subject-builder";

export const AGGREGATE_TO_ADMIN = "rbac.authorization.k8s.io/aggregate-to-admin";
export const AGGREGATE_TO_EDIT = "rbac.authorization.k8s.io/aggregate-to-edit";
export const AGGREGATE_TO_VIEW = "rbac.authorization.k8s.io/aggregate-to-view";

/** A bootstrap role as data: bootstrap-policy.ts turns it into the stored object. */
export interface RoleDeclaration {
  name: string;
  /** null for a role whose rules the aggregation controller fills in. */
  rules: PolicyRule[] | null;
  labels?: Record<string, string>;
  /** The label an aggregated role selects (`<label>: "true"`). */
  aggregateFrom?: string;
}

const CERTIFICATES = "certificates.k8s.io";
const STORAGE = "storage.k8s.io";
const COORDINATION = "coordination.k8s.io";

/** The approver ClusterRole of one of kube's built-in signers. */
function signerApprover(role: string, signer: string): RoleDeclaration {
  return { name: `system:certificates.k8s.io:${role}`, rules: [rule(["approve"], [CERTIFICATES], ["signers"], [signer])] };
}

export const CLUSTER_ROLES: readonly RoleDeclaration[] = [
  { name: "admin", rules: null, aggregateFrom: AGGREGATE_TO_ADMIN },
  { name: "cluster-admin", rules: [rule(["*"], ["*"], ["*"]), urls(["*"], ["*"])] },
  { name: "edit", rules: null, aggregateFrom: AGGREGATE_TO_EDIT, labels: { [AGGREGATE_TO_ADMIN]: "true" } },
  {
    name: "system:aggregate-to-admin",
    labels: { [AGGREGATE_TO_ADMIN]: "true" },
    rules: [
      rule(["create"], ["authorization.k8s.io"], ["localsubjectaccessreviews"]),
      rule(READ_WRITE, [RBAC_GROUP], ["rolebindings", "roles"]),
    ],
  },
  {
    name: "system:aggregate-to-edit",
    labels: { [AGGREGATE_TO_EDIT]: "true" },
    rules: [
      rule(READ, [CORE], ["pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"]),
      rule(["impersonate"], [CORE], ["serviceaccounts"]),
      rule(WRITE, [CORE], ["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"]),
      rule(["create"], [CORE], ["pods/eviction"]),
      rule(WRITE, [CORE], [
        "configmaps", "persistentvolumeclaims", "replicationcontrollers", "replicationcontrollers/scale", "secrets",
        "serviceaccounts", "services", "services/proxy",
      ]),
      rule(["create"], [CORE], ["serviceaccounts/token"]),
      rule(WRITE, [CORE, "events.k8s.io"], ["events"]),
      rule(WRITE, ["apps"], [
        "daemonsets", "deployments", "deployments/rollback", "deployments/scale", "replicasets", "replicasets/scale",
        "statefulsets", "statefulsets/scale",
      ]),
      rule(WRITE, ["autoscaling"], ["horizontalpodautoscalers"]),
      rule(WRITE, ["batch"], ["cronjobs", "jobs"]),
      rule(WRITE, ["extensions"], [
        "daemonsets", "deployments", "deployments/rollback", "deployments/scale", "ingresses", "networkpolicies",
        "replicasets", "replicasets/scale", "replicationcontrollers/scale",
      ]),
      rule(WRITE, ["policy"], ["poddisruptionbudgets"]),
      rule(WRITE, ["networking.k8s.io"], ["ingresses", "networkpolicies"]),
      rule(READ_WRITE, [COORDINATION], ["leases"]),
    ],
  },
  {
    name: "system:aggregate-to-view",
    labels: { [AGGREGATE_TO_VIEW]: "true" },
    rules: [
      rule(READ, [CORE], [
        "configmaps", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status", "pods",
        "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services", "services/status",
      ]),
      rule(READ, [CORE], [
        "bindings", "limitranges", "namespaces/status", "pods/log", "pods/status", "replicationcontrollers/status",
        "resourcequotas", "resourcequotas/status",
      ]),
      rule(READ, [CORE], ["namespaces"]),
      rule(READ, [CORE, "events.k8s.io"], ["events"]),
      rule(READ, ["discovery.k8s.io"], ["endpointslices"]),
      rule(READ, ["apps"], [
        "controllerrevisions", "daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status",
        "replicasets", "replicasets/scale", "replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status",
      ]),
      rule(READ, ["autoscaling"], ["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
      rule(READ, ["batch"], ["cronjobs", "cronjobs/status", "jobs", "jobs/status"]),
      rule(READ, ["extensions"], [
        "daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status", "ingresses",
        "ingresses/status", "networkpolicies", "replicasets", "replicasets/scale", "replicasets/status",
        "replicationcontrollers/scale",
      ]),
      rule(READ, ["policy"], ["poddisruptionbudgets", "poddisruptionbudgets/status"]),
      rule(READ, ["networking.k8s.io"], ["ingresses", "ingresses/status", "networkpolicies"]),
    ],
  },
  {
    name: "system:auth-delegator",
    rules: [
      rule(["create"], ["authentication.k8s.io"], ["tokenreviews"]),
      rule(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
    ],
  },
  {
    name: "system:basic-user",
    rules: [
      rule(["create"], ["authorization.k8s.io"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
      rule(["create"], ["authentication.k8s.io"], ["selfsubjectreviews"]),
    ],
  },
  {
    name: "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
    rules: [rule(["create"], [CERTIFICATES], ["certificatesigningrequests/nodeclient"])],
  },
  {
    name: "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
    rules: [rule(["create"], [CERTIFICATES], ["certificatesigningrequests/selfnodeclient"])],
  },
  signerApprover("kube-apiserver-client-approver", "kubernetes.io/kube-apiserver-client"),
  signerApprover("kube-apiserver-client-kubelet-approver", "kubernetes.io/kube-apiserver-client-kubelet"),
  signerApprover("kubelet-serving-approver", "kubernetes.io/kubelet-serving"),
  signerApprover("legacy-unknown-approver", "kubernetes.io/legacy-unknown"),
  {
    name: "system:discovery",
    rules: [
      urls(["get"], ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"]),
    ],
  },
  {
    name: "system:heapster",
    rules: [
      rule(READ, [CORE], ["events", "namespaces", "nodes", "pods"]),
      rule(READ, ["extensions"], ["deployments"]),
    ],
  },
  { name: "system:kube-aggregator", rules: [rule(READ, [CORE], ["endpoints", "services"])] },
  {
    name: "system:kube-controller-manager",
    rules: [
      eventsRule(),
      // its leader election lock; other leases are created only by name
      rule(["create"], [COORDINATION], ["leases"]),
      rule(["get", "update"], [COORDINATION], ["leases"], ["kube-controller-manager"]),
      // the service account tokens of each controller's own identity
      rule(["create"], [CORE], ["secrets", "serviceaccounts"]),
      rule(["delete"], [CORE], ["secrets"]),
      rule(["get"], [CORE], ["configmaps", "namespaces", "secrets", "serviceaccounts"]),
      rule(["update"], [CORE], ["secrets", "serviceaccounts"]),
      rule(["create"], ["authentication.k8s.io"], ["tokenreviews"]),
      rule(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
      // the shared informers
      rule(["list", "watch"], ["*"], ["*"]),
      rule(["create"], [CORE], ["serviceaccounts/token"]),
    ],
  },
  { name: "system:kube-dns", rules: [rule(["list", "watch"], [CORE], ["endpoints", "services"])] },
  {
    name: "system:kube-scheduler",
    rules: [
      eventsRule(),
      rule(["create"], [COORDINATION], ["leases"]),
      rule(["get", "update"], [COORDINATION], ["leases"], ["kube-scheduler"]),
      rule(READ, [CORE], ["nodes"]),
      rule(["get", "list", "watch", "delete"], [CORE], ["pods"]),
      rule(["create"], [CORE], ["bindings", "pods/binding"]),
      rule(["patch", "update"], [CORE], ["pods/status"]),
      rule(READ, [CORE], ["replicationcontrollers", "services"]),
      rule(READ, ["apps", "extensions"], ["replicasets"]),
      rule(READ, ["apps"], ["statefulsets"]),
      rule(READ, ["policy"], ["poddisruptionbudgets"]),
      rule(READ, [CORE], ["persistentvolumeclaims", "persistentvolumes"]),
      // delegated authentication and authorization
      rule(["create"], ["authentication.k8s.io"], ["tokenreviews"]),
      rule(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
      rule(READ, [STORAGE], ["csinodes"]),
      rule(READ, [CORE], ["namespaces"]),
      rule(READ, [STORAGE], ["csidrivers"]),
      rule(READ, [STORAGE], ["csistoragecapacities"]),
    ],
  },
  {
    name: "system:kubelet-api-admin",
    rules: [
      rule(READ, [CORE], ["nodes"]),
      rule(["proxy"], [CORE], ["nodes"]),
      rule(["*"], [CORE], ["nodes/log", "nodes/metrics", "nodes/proxy", "nodes/stats"]),
    ],
  },
  {
    name: "system:monitoring",
    rules: [
      urls(["get"], ["/healthz", "/healthz/*", "/livez", "/livez/*", "/metrics", "/metrics/slis", "/readyz", "/readyz/*"]),
      rule(["get"], [CORE], ["nodes/metrics"]),
    ],
  },
  {
    name: "system:node",
    rules: [
      // checks of API access, non-mutating
      rule(["create"], ["authentication.k8s.io"], ["tokenreviews"]),
      rule(["create"], ["authorization.k8s.io"], ["localsubjectaccessreviews", "subjectaccessreviews"]),
      rule(READ, [CORE], ["services"]),
      rule(["create", "get", "list", "watch"], [CORE], ["nodes"]),
      rule(["update", "patch"], [CORE], ["nodes/status"]),
      rule(["update", "patch"], [CORE], ["nodes"]),
      rule(["create", "update", "patch"], [CORE], ["events"]),
      rule(READ, [CORE], ["pods"]),
      // mirror pods
      rule(["create", "delete"], [CORE], ["pods"]),
      rule(["update", "patch"], [CORE], ["pods/status"]),
      rule(["create"], [CORE], ["pods/eviction"]),
      rule(READ, [CORE], ["configmaps", "secrets"]),
      rule(["get"], [CORE], ["persistentvolumeclaims", "persistentvolumes"]),
      rule(["get"], [CORE], ["endpoints"]),
      rule(["create", "get", "list", "watch"], [CERTIFICATES], ["certificatesigningrequests"]),
      rule(["get", "create", "update", "patch", "delete"], [COORDINATION], ["leases"]),
      rule(["get"], [STORAGE], ["volumeattachments"]),
      rule(["create"], [CORE], ["serviceaccounts/token"]),
      rule(["get", "update", "patch"], [CORE], ["persistentvolumeclaims/status"]),
      rule(READ, [STORAGE], ["csidrivers"]),
      rule(["create", "delete", "get", "patch", "update"], [STORAGE], ["csinodes"]),
      rule(READ, ["node.k8s.io"], ["runtimeclasses"]),
    ],
  },
  { name: "system:node-bootstrapper", rules: [rule(["create", "get", "list", "watch"], [CERTIFICATES], ["certificatesigningrequests"])] },
  {
    name: "system:node-problem-detector",
    rules: [
      rule(["get"], [CORE], ["nodes"]),
      rule(["patch"], [CORE], ["nodes/status"]),
      eventsRule(),
    ],
  },
  {
    name: "system:node-proxier",
    rules: [
      rule(["list", "watch"], [CORE], ["endpoints", "services"]),
      rule(READ, [CORE], ["nodes"]),
      eventsRule(),
      rule(["list", "watch"], ["discovery.k8s.io"], ["endpointslices"]),
    ],
  },
  {
    name: "system:persistent-volume-provisioner",
    rules: [
      rule(["get", "list", "watch", "create", "delete"], [CORE], ["persistentvolumes"]),
      // update is needed to bind a claim to the volume it provisioned
      rule(["get", "list", "watch", "update"], [CORE], ["persistentvolumeclaims"]),
      rule(READ, [STORAGE], ["storageclasses"]),
      // the recycler watches its pod's events
      rule(["watch"], [CORE], ["events"]),
      eventsRule(),
    ],
  },
  { name: "system:public-info-viewer", rules: [urls(["get"], ["/healthz", "/livez", "/readyz", "/version", "/version/"])] },
  {
    name: "system:service-account-issuer-discovery",
    rules: [urls(["get"], ["/.well-known/openid-configuration", "/.well-known/openid-configuration/", "/openid/v1/jwks", "/openid/v1/jwks/"])],
  },
  {
    name: "system:volume-scheduler",
    rules: [
      rule(["get", "list", "watch", "update", "patch"], [CORE], ["persistentvolumes"]),
      rule(READ, [STORAGE], ["storageclasses"]),
      rule(["get", "list", "watch", "update", "patch"], [CORE], ["persistentvolumeclaims"]),
    ],
  },
  { name: "view", rules: null, aggregateFrom: AGGREGATE_TO_VIEW, labels: { [AGGREGATE_TO_EDIT]: "true" } },
];

/** A bootstrap binding as data, bound to the role of the same name unless `roleName` says otherwise. */
export interface BindingDeclaration {
  name: string;
  roleName?: string;
  /** null when kube's binding has no subjects at all. */
  subjects: Subject[] | null;
}

/**
 * kube's ClusterRoleBindings(), each named after the ClusterRole it binds. system:node binds nobody: the
 * Node authorizer grants kubelets their access, and the binding is kept only so upgrades do not recreate it.
 */
export const CLUSTER_ROLE_BINDINGS: readonly BindingDeclaration[] = [
  { name: "cluster-admin", subjects: [group("system:masters")] },
  { name: "system:basic-user", subjects: [group("system:authenticated")] },
  { name: "system:discovery", subjects: [group("system:authenticated")] },
  { name: "system:kube-controller-manager", subjects: [user("system:kube-controller-manager")] },
  { name: "system:kube-dns", subjects: [serviceAccount("kube-system", "kube-dns")] },
  { name: "system:kube-scheduler", subjects: [user("system:kube-scheduler")] },
  { name: "system:monitoring", subjects: [group("system:monitoring")] },
  { name: "system:node", subjects: null },
  { name: "system:node-proxier", subjects: [user("system:kube-proxy")] },
  { name: "system:public-info-viewer", subjects: [group("system:authenticated"), group("system:unauthenticated")] },
  { name: "system:service-account-issuer-discovery", subjects: [group("system:serviceaccounts")] },
  { name: "system:volume-scheduler", subjects: [user("system:kube-scheduler")] },
];

// kube-apiserver 1.32's controller roles (bootstrappolicy/controller_policy.go): one ClusterRole
// `system:controller:<name>` for each kube-controller-manager loop that runs under its own service account,
// bound to `kube-system/<name>`. Controllers behind feature gates that are off by default in 1.32 are not
// here: resource-claim-controller (DynamicResourceAllocation), service-cidrs-controller
// (MultiCIDRServiceAllocator), volumeattributesclass-protection-controller (VolumeAttributesClass),
// kube-apiserver-serving-clustertrustbundle-publisher (ClusterTrustBundle), storage-version-garbage-collector
// (StorageVersionAPI), storage-version-migrator-controller (StorageVersionMigrator) and
// selinux-warning-controller (SELinuxChangePolicy). Rules keep kube's order.
import type { RoleDeclaration } from "./bootstrap-cluster-roles";
import { CORE, eventsRule, READ, rule } from "./policy-rule-builder";
import { RBAC_GROUP } from "./rbac-objects";

export const CONTROLLER_ROLE_PREFIX = "system:controller:";

const APPS = "apps";
const BATCH = "batch";
const EXTENSIONS = "extensions";
const STORAGE = "storage.k8s.io";
const CERTIFICATES = "certificates.k8s.io";

const controller = (name: string, rules: RoleDeclaration["rules"]): RoleDeclaration => ({ name: CONTROLLER_ROLE_PREFIX + name, rules });

export const CONTROLLER_ROLES: readonly RoleDeclaration[] = [
  controller("attachdetach-controller", [
    rule(["list", "watch"], [CORE], ["persistentvolumes", "persistentvolumeclaims"]),
    rule(READ, [CORE], ["nodes"]),
    rule(["patch", "update"], [CORE], ["nodes/status"]),
    rule(["list", "watch"], [CORE], ["pods"]),
    eventsRule(),
    rule(["get", "create", "delete", "list", "watch"], [STORAGE], ["volumeattachments"]),
    rule(READ, [STORAGE], ["csidrivers"]),
    rule(READ, [STORAGE], ["csinodes"]),
  ]),
  controller("clusterrole-aggregation-controller", [
    // it must be able to write any rules into an aggregated role
    rule(["escalate", "get", "list", "watch", "update", "patch"], [RBAC_GROUP], ["clusterroles"]),
  ]),
  controller("cronjob-controller", [
    rule(["get", "list", "watch", "update"], [BATCH], ["cronjobs"]),
    rule(["get", "list", "watch", "create", "update", "delete", "patch"], [BATCH], ["jobs"]),
    rule(["update"], [BATCH], ["cronjobs/status"]),
    rule(["update"], [BATCH], ["cronjobs/finalizers"]),
    rule(["list", "watch", "delete"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("daemon-set-controller", [
    rule(READ, [EXTENSIONS, APPS], ["daemonsets"]),
    rule(["update"], [EXTENSIONS, APPS], ["daemonsets/status"]),
    rule(["update"], [EXTENSIONS, APPS], ["daemonsets/finalizers"]),
    rule(["list", "watch"], [CORE], ["nodes"]),
    rule(["list", "watch", "create", "delete", "patch"], [CORE], ["pods"]),
    rule(["create"], [CORE], ["pods/binding"]),
    rule(["get", "list", "watch", "create", "delete", "update", "patch"], [APPS], ["controllerrevisions"]),
    eventsRule(),
  ]),
  controller("deployment-controller", [
    rule(["get", "list", "watch", "update"], [EXTENSIONS, APPS], ["deployments"]),
    rule(["update"], [EXTENSIONS, APPS], ["deployments/status"]),
    rule(["update"], [EXTENSIONS, APPS], ["deployments/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "patch", "delete"], [APPS, EXTENSIONS], ["replicasets"]),
    // update stays until kubernetes/kubernetes#36897 is resolved, as in kube
    rule(["get", "list", "watch", "update"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("disruption-controller", [
    rule(READ, [EXTENSIONS, APPS], ["deployments"]),
    rule(READ, [APPS, EXTENSIONS], ["replicasets"]),
    rule(READ, [CORE], ["replicationcontrollers"]),
    rule(READ, ["policy"], ["poddisruptionbudgets"]),
    rule(READ, [APPS], ["statefulsets"]),
    rule(["update"], ["policy"], ["poddisruptionbudgets/status"]),
    rule(["patch", "update"], [CORE], ["pods/status"]),
    rule(["get"], ["*"], ["*/scale"]),
    eventsRule(),
  ]),
  controller("endpoint-controller", [
    rule(READ, [CORE], ["services", "pods"]),
    rule(["get", "list", "watch", "create", "update", "delete"], [CORE], ["endpoints"]),
    rule(["create"], [CORE], ["endpoints/restricted"]),
    eventsRule(),
  ]),
  controller("endpointslice-controller", [
    rule(READ, [CORE], ["services", "pods", "nodes"]),
    // finalizers, so that its slices may set blockOwnerDeletion on their owning service
    rule(["update"], [CORE], ["services/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "delete"], ["discovery.k8s.io"], ["endpointslices"]),
    eventsRule(),
  ]),
  controller("endpointslicemirroring-controller", [
    rule(READ, [CORE], ["services", "endpoints"]),
    rule(["update"], [CORE], ["services/finalizers"]),
    rule(["update"], [CORE], ["endpoints/finalizers"]),
    rule(["get", "list", "watch", "create", "update", "delete"], ["discovery.k8s.io"], ["endpointslices"]),
    eventsRule(),
  ]),
  controller("expand-controller", [
    rule(["get", "list", "watch", "update", "patch"], [CORE], ["persistentvolumes"]),
    rule(["update", "patch"], [CORE], ["persistentvolumeclaims/status"]),
    rule(READ, [CORE], ["persistentvolumeclaims"]),
    eventsRule(),
    // the in-tree portworx volume plugin
    rule(["get"], [CORE], ["services"]),
  ]),
  controller("ephemeral-volume-controller", [
    rule(READ, [CORE], ["pods"]),
    rule(["update"], [CORE], ["pods/finalizers"]),
    rule(["get", "list", "watch", "create"], [CORE], ["persistentvolumeclaims"]),
    eventsRule(),
  ]),
  controller("generic-garbage-collector", [
    rule(["get", "list", "watch", "patch", "update", "delete"], ["*"], ["*"]),
    eventsRule(),
  ]),
  controller("horizontal-pod-autoscaler", [
    rule(READ, ["autoscaling"], ["horizontalpodautoscalers"]),
    rule(["update"], ["autoscaling"], ["horizontalpodautoscalers/status"]),
    rule(["get", "update"], ["*"], ["*/scale"]),
    rule(["list", "watch"], [CORE], ["pods"]),
    // resource, custom and external metrics
    rule(["list", "watch"], ["metrics.k8s.io"], ["pods"]),
    rule(READ, ["custom.metrics.k8s.io"], ["*"]),
    rule(READ, ["external.metrics.k8s.io"], ["*"]),
    eventsRule(),
  ]),
  controller("job-controller", [
    rule(["get", "list", "watch", "update", "patch"], [BATCH], ["jobs"]),
    rule(["update"], [BATCH], ["jobs/status"]),
    rule(["update"], [BATCH], ["jobs/finalizers"]),
    rule(["list", "watch", "create", "delete", "patch"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("namespace-controller", [
    rule(["get", "list", "watch", "delete"], [CORE], ["namespaces"]),
    rule(["update"], [CORE], ["namespaces/finalize", "namespaces/status"]),
    rule(["get", "list", "watch", "delete", "deletecollection"], ["*"], ["*"]),
  ]),
  controller("node-controller", [
    rule(["get", "list", "watch", "update", "delete", "patch"], [CORE], ["nodes"]),
    rule(["patch", "update"], [CORE], ["nodes/status"]),
    // pod eviction marks then deletes
    rule(["patch", "update"], [CORE], ["pods/status"]),
    rule(["list", "watch", "get", "delete"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("persistent-volume-binder", [
    rule(["get", "list", "watch", "update", "create", "delete"], [CORE], ["persistentvolumes"]),
    rule(["update"], [CORE], ["persistentvolumes/status"]),
    rule(["get", "list", "watch", "update"], [CORE], ["persistentvolumeclaims"]),
    rule(["update"], [CORE], ["persistentvolumeclaims/status"]),
    rule(["list", "watch", "get", "create", "delete"], [CORE], ["pods"]),
    rule(READ, [STORAGE], ["storageclasses"]),
    rule(["list", "watch"], [CORE], ["nodes"]),
    eventsRule(),
    // the recycler watches its pod
    rule(["watch"], [CORE], ["events"]),
    // the in-tree portworx volume plugin
    rule(["get"], [CORE], ["services"]),
  ]),
  controller("pod-garbage-collector", [
    rule(["list", "watch", "delete"], [CORE], ["pods"]),
    rule(READ, [CORE], ["nodes"]),
    rule(["patch"], [CORE], ["pods/status"]),
  ]),
  controller("replicaset-controller", [
    rule(["get", "list", "watch", "update"], [APPS, EXTENSIONS], ["replicasets"]),
    rule(["update"], [APPS, EXTENSIONS], ["replicasets/status"]),
    rule(["update"], [APPS, EXTENSIONS], ["replicasets/finalizers"]),
    rule(["list", "watch", "patch", "create", "delete"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("replication-controller", [
    // get and update too, or 1.0 controllers break against newer servers
    rule(["get", "list", "watch", "update"], [CORE], ["replicationcontrollers"]),
    rule(["update"], [CORE], ["replicationcontrollers/status"]),
    rule(["update"], [CORE], ["replicationcontrollers/finalizers"]),
    rule(["list", "watch", "patch", "create", "delete"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("resourcequota-controller", [
    // quota may count anything, so it must see everything
    rule(["list", "watch"], ["*"], ["*"]),
    rule(["update"], [CORE], ["resourcequotas/status"]),
    eventsRule(),
  ]),
  controller("route-controller", [
    rule(["list", "watch"], [CORE], ["nodes"]),
    rule(["patch"], [CORE], ["nodes/status"]),
    eventsRule(),
  ]),
  controller("service-account-controller", [
    rule(["create"], [CORE], ["serviceaccounts"]),
    eventsRule(),
  ]),
  controller("service-controller", [
    rule(READ, [CORE], ["services"]),
    rule(["patch", "update"], [CORE], ["services/status"]),
    rule(["list", "watch"], [CORE], ["nodes"]),
    eventsRule(),
  ]),
  controller("statefulset-controller", [
    rule(["list", "watch"], [CORE], ["pods"]),
    rule(READ, [APPS], ["statefulsets"]),
    rule(["update"], [APPS], ["statefulsets/status"]),
    rule(["update"], [APPS], ["statefulsets/finalizers"]),
    rule(["get", "create", "delete", "update", "patch"], [CORE], ["pods"]),
    rule(["get", "create", "delete", "update", "patch", "list", "watch"], [APPS], ["controllerrevisions"]),
    rule(["get", "create", "list", "watch"], [CORE], ["persistentvolumeclaims"]),
    rule(["update", "delete"], [CORE], ["persistentvolumeclaims"]),
    rule(["update"], [CORE], ["pods/finalizers"]),
    eventsRule(),
  ]),
  controller("ttl-controller", [
    rule(["update", "patch", "list", "watch"], [CORE], ["nodes"]),
    eventsRule(),
  ]),
  controller("certificate-controller", [
    rule(["get", "list", "watch", "delete"], [CERTIFICATES], ["certificatesigningrequests"]),
    rule(["update"], [CERTIFICATES], ["certificatesigningrequests/status", "certificatesigningrequests/approval"]),
    rule(["approve"], [CERTIFICATES], ["signers"], ["kubernetes.io/kube-apiserver-client-kubelet"]),
    rule(["sign"], [CERTIFICATES], ["signers"], [
      "kubernetes.io/legacy-unknown",
      "kubernetes.io/kube-apiserver-client",
      "kubernetes.io/kube-apiserver-client-kubelet",
      "kubernetes.io/kubelet-serving",
    ]),
    rule(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
    eventsRule(),
  ]),
  controller("pvc-protection-controller", [
    rule(["get", "list", "watch", "update"], [CORE], ["persistentvolumeclaims"]),
    rule(["list", "watch", "get"], [CORE], ["pods"]),
    eventsRule(),
  ]),
  controller("pv-protection-controller", [
    rule(["get", "list", "watch", "update"], [CORE], ["persistentvolumes"]),
    eventsRule(),
  ]),
  controller("ttl-after-finished-controller", [
    rule(["get", "list", "watch", "delete"], [BATCH], ["jobs"]),
    eventsRule(),
  ]),
  controller("root-ca-cert-publisher", [
    rule(["create", "update"], [CORE], ["configmaps"]),
    eventsRule(),
  ]),
  controller("validatingadmissionpolicy-status-controller", [
    rule(READ, ["admissionregistration.k8s.io"], ["validatingadmissionpolicies"]),
    rule(["get", "patch", "update"], ["admissionregistration.k8s.io"], ["validatingadmissionpolicies/status"]),
    eventsRule(),
  ]),
  controller("legacy-service-account-token-cleaner", [
    rule(["get"], [CORE], ["configmaps"], ["kube-apiserver-legacy-service-account-token-tracking"]),
    rule(["patch", "delete"], [CORE], ["secrets"]),
  ]),
];

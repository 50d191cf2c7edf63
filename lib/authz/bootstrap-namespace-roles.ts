// kube-apiserver 1.32's namespaced bootstrap policy (bootstrappolicy/namespace_policy.go): the Roles and
// RoleBindings it keeps in kube-system and kube-public. The configmaps rules of the leader-locking roles
// are still there in 1.32 (kube dropped them in 1.35); the leasecandidates rules came with coordinated
// leader election in 1.31. Rules keep kube's order.
import type { BindingDeclaration, RoleDeclaration } from "./bootstrap-cluster-roles";
import { CONTROLLER_ROLE_PREFIX } from "./bootstrap-controller-roles";
import { CORE, eventsRule, READ, rule } from "./policy-rule-builder";
import { serviceAccount, user } from "./subject-builder";

const KUBE_SYSTEM = "kube-system";
const KUBE_PUBLIC = "kube-public";
const LOCK_VERBS = ["get", "watch", "list", "create", "update"];

function leaderLocking(component: string): RoleDeclaration {
  return {
    name: `system::leader-locking-${component}`,
    rules: [
      rule(["watch"], [CORE], ["configmaps"]),
      rule(["get", "update"], [CORE], ["configmaps"], [component]),
      rule(LOCK_VERBS, ["coordination.k8s.io"], ["leases"]),
      rule(LOCK_VERBS, ["coordination.k8s.io"], ["leasecandidates"]),
    ],
  };
}

/** Roles by namespace, in kube's order. */
export const NAMESPACE_ROLES: Readonly<Record<string, readonly RoleDeclaration[]>> = {
  [KUBE_SYSTEM]: [
    {
      // what an extension API server reads to learn the cluster's client CA and request-header settings
      name: "extension-apiserver-authentication-reader",
      rules: [rule(READ, [CORE], ["configmaps"], ["extension-apiserver-authentication"])],
    },
    { name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, rules: [rule(READ, [CORE], ["secrets"])] },
    // deprecated since 1.10 and still created
    { name: `${CONTROLLER_ROLE_PREFIX}cloud-provider`, rules: [rule(["create", "get", "list", "watch"], [CORE], ["configmaps"])] },
    { name: `${CONTROLLER_ROLE_PREFIX}token-cleaner`, rules: [rule(["get", "list", "watch", "delete"], [CORE], ["secrets"]), eventsRule()] },
    leaderLocking("kube-controller-manager"),
    leaderLocking("kube-scheduler"),
  ],
  [KUBE_PUBLIC]: [
    {
      // the bootstrap signer signs the cluster-info ConfigMap
      name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
      rules: [rule(READ, [CORE], ["configmaps"]), rule(["update"], [CORE], ["configmaps"], ["cluster-info"]), eventsRule()],
    },
  ],
};

/** RoleBindings by namespace, in kube's order; each binds the Role of its name unless `roleName` says otherwise. */
export const NAMESPACE_ROLE_BINDINGS: Readonly<Record<string, readonly BindingDeclaration[]>> = {
  [KUBE_SYSTEM]: [
    {
      name: "system::extension-apiserver-authentication-reader",
      roleName: "extension-apiserver-authentication-reader",
      subjects: [user("system:kube-controller-manager"), user("system:kube-scheduler")],
    },
    {
      name: "system::leader-locking-kube-controller-manager",
      subjects: [
        user("system:kube-controller-manager"),
        serviceAccount(KUBE_SYSTEM, "kube-controller-manager"),
        serviceAccount(KUBE_SYSTEM, "leader-election-controller"),
      ],
    },
    {
      name: "system::leader-locking-kube-scheduler",
      subjects: [user("system:kube-scheduler"), serviceAccount(KUBE_SYSTEM, "kube-scheduler")],
    },
    { name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, subjects: [serviceAccount(KUBE_SYSTEM, "bootstrap-signer")] },
    { name: `${CONTROLLER_ROLE_PREFIX}cloud-provider`, subjects: [serviceAccount(KUBE_SYSTEM, "cloud-provider")] },
    { name: `${CONTROLLER_ROLE_PREFIX}token-cleaner`, subjects: [serviceAccount(KUBE_SYSTEM, "token-cleaner")] },
  ],
  [KUBE_PUBLIC]: [
    { name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, subjects: [serviceAccount(KUBE_SYSTEM, "bootstrap-signer")] },
  ],
};

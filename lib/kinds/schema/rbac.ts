// The shared shapes of rbac.authorization.k8s.io/v1: PolicyRule, AggregationRule, Subject and RoleRef. Every list
// in this group is `+listType=atomic` with no patch strategy, so a strategic merge patch replaces it whole.
import { labelSelector } from "./label-selector";
import { rbacType } from "./names";
import type { ApiGroupNaming } from "./resource";
import { arr, describe, obj, str } from "./schema";

export const RBAC_GROUP = "rbac.authorization.k8s.io";

export const rbacApi: ApiGroupNaming = { group: RBAC_GROUP, typeName: rbacType };

export const policyRule = obj(
  {
    apiGroups: arr(str(), { description: "API groups of the resources; \"\" is the core group and \"*\" any group." }),
    nonResourceURLs: arr(str(), {
      description: "Paths outside the resource API (e.g. /healthz, /logs/*); a trailing * matches any suffix. Only for cluster roles bound cluster-wide, and never together with resources.",
    }),
    resourceNames: arr(str(), { description: "Names the rule is limited to; empty allows every name." }),
    resources: arr(str(), { description: "Resources the rule covers; \"*\" is every resource and \"*/sub\" a subresource of any." }),
    verbs: arr(str(), { description: "Verbs allowed on the resources or URLs (get, list, watch, create, update, patch, delete, ...); \"*\" is every verb." }),
  },
  {
    name: rbacType("PolicyRule"),
    description: "One permission: verbs on resources of API groups, or verbs on non-resource URLs. Says nothing of who holds it.",
    required: ["verbs"],
  },
);

export const policyRules = (owner: string) =>
  arr(policyRule, { description: `The permissions this ${owner} grants.` });

export const aggregationRule = obj(
  {
    clusterRoleSelectors: arr(labelSelector, {
      description: "Cluster roles whose rules are combined into this one; a role matching any selector contributes.",
    }),
  },
  { name: rbacType("AggregationRule"), description: "Where an aggregated cluster role takes its rules from." },
);

export const subject = obj(
  {
    apiGroup: str({ description: "API group of the subject: \"\" for ServiceAccount (the default), rbac.authorization.k8s.io for User and Group (the default)." }),
    kind: str({ description: "What the subject is: User, Group or ServiceAccount." }),
    name: str({ description: "Name of the user, group or service account." }),
    namespace: str({ description: "Namespace of a service account; must be empty for users and groups." }),
  },
  {
    name: rbacType("Subject"),
    description: "Who a binding grants its role to: a user or group name, or a service account.",
    required: ["kind", "name"],
  },
);

export const subjects = arr(subject, { description: "Who the role is granted to." });

export const roleRef = obj(
  {
    apiGroup: str({ description: "Group of the role: rbac.authorization.k8s.io (the default)." }),
    kind: str({ description: "Kind of the role." }),
    name: str({ description: "Name of the role." }),
  },
  { name: rbacType("RoleRef"), description: "The role a binding grants.", required: ["apiGroup", "kind", "name"] },
);

export const roleRefOf = (allowed: string) => describe(roleRef, `The role granted: ${allowed}. Cannot be changed once set.`);

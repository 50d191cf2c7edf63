// ClusterRole (rbac.authorization.k8s.io/v1): cluster-wide policy rules, optionally aggregated from other roles.
import { aggregationRule, rbacApi, policyRules } from "./rbac";
import { resource } from "./resource";
import { describe } from "./schema";

export const clusterRoleSchema = resource(
  "ClusterRole",
  {
    aggregationRule: describe(aggregationRule, "When set, the rules are filled in from the cluster roles it selects and direct edits of rules are overwritten."),
    rules: policyRules("cluster role"),
  },
  {
    description: "A cluster-wide set of permissions, granted by cluster role bindings everywhere or by role bindings within one namespace.",
    api: rbacApi,
  },
);

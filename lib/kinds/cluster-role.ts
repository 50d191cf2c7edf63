import { createdAtColumn, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { clusterRoleSchema } from "./schema/cluster-role";
import { RBAC_GROUP, RBAC_STORAGE, validateAggregationRule, validatePolicyRules, type AggregationRule, type PolicyRule } from "./shared/rbac";
import type { KubeObject } from "./types";

export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export const clusterRole = defineKind<ClusterRole>({
  kind: "ClusterRole",
  ...RBAC_STORAGE,
  schema: clusterRoleSchema,
  plural: "clusterroles",
  singular: "clusterrole",
  namespaced: false,

  columns: [nameColumn, createdAtColumn],

  template: {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRole",
    metadata: { name: "secret-reader" },
    rules: [{ apiGroups: [""], resources: ["secrets"], verbs: ["get", "list", "watch"] }],
  },

  // kube relaxes selector label values on update only for roles stored before the check existed; every role
  // here was created under the strict check, so create and update validate alike.
  validate: (r) => [...validatePolicyRules(r.rules, false), ...validateAggregationRule(r.aggregationRule)],
});

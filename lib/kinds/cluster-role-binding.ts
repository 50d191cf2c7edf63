import { defineKind } from "./define-kind";
import { bindingColumns, type RoleBinding } from "./role-binding";
import { clusterRoleBindingSchema } from "./schema/cluster-role-binding";
import { defaultBinding, RBAC_GROUP, validateBinding, validateRoleRefUnchanged } from "./shared/rbac";

/** Same fields as a RoleBinding; only a ClusterRole may be referenced and service accounts must name their namespace. */
export type ClusterRoleBinding = RoleBinding;

export const clusterRoleBinding = defineKind<ClusterRoleBinding>({
  kind: "ClusterRoleBinding",
  group: RBAC_GROUP,
  schema: clusterRoleBindingSchema,
  plural: "clusterrolebindings",
  singular: "clusterrolebinding",
  shortNames: [],
  categories: [],
  namespaced: false,
  nameRule: "path-segment",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: bindingColumns(
    "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    "clusterRoleBinding",
  ),

  template: {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRoleBinding",
    metadata: { name: "read-secrets-global" },
    subjects: [{ kind: "Group", apiGroup: RBAC_GROUP, name: "managers" }],
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name: "secret-reader" },
  },

  applyDefaults: defaultBinding,
  validate: (b) => validateBinding(b, false, ["ClusterRole"]),
  validateUpdate: validateRoleRefUnchanged,
});

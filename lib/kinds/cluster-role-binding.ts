import { defineKind } from "./define-kind";
import { bindingColumns, type RoleBinding } from "./role-binding";
import { clusterRoleBindingSchema } from "./schema/cluster-role-binding";
import { defaultBinding, RBAC_GROUP, RBAC_STORAGE, validateBinding, validateRoleRefUnchanged } from "./shared/rbac";

/** Same fields as a RoleBinding; only a ClusterRole may be referenced and service accounts must name their namespace. */
export type ClusterRoleBinding = RoleBinding;

export const clusterRoleBinding = defineKind<ClusterRoleBinding>({
  kind: "ClusterRoleBinding",
  ...RBAC_STORAGE,
  schema: clusterRoleBindingSchema,
  plural: "clusterrolebindings",
  singular: "clusterrolebinding",
  namespaced: false,

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

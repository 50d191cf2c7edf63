import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { roleBindingSchema } from "./schema/role-binding";
import { defaultBinding, RBAC_GROUP, RBAC_STORAGE, subjectColumns, validateBinding, validateRoleRefUnchanged, type RoleRef, type Subject } from "./shared/rbac";
import type { Column, KubeObject } from "./types";

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

/**
 * kube-apiserver's binding printer: `Name, Role, Age`, and with -o wide the users, groups and service accounts
 * (`namespace/name`). The Role column is `<roleRef.kind>/<roleRef.name>`.
 */
export function bindingColumns(roleRefDescription: string, owner: string): Column[] {
  return [
    nameColumn,
    column<RoleBinding>({ name: "Role", description: roleRefDescription, cell: (b) => `${b.roleRef?.kind ?? ""}/${b.roleRef?.name ?? ""}` }),
    ageColumn,
    column<RoleBinding>({ name: "Users", priority: 1, description: `Users in the ${owner}`, cell: (b) => subjectColumns(b.subjects).users }),
    column<RoleBinding>({ name: "Groups", priority: 1, description: `Groups in the ${owner}`, cell: (b) => subjectColumns(b.subjects).groups }),
    column<RoleBinding>({ name: "ServiceAccounts", priority: 1, description: `ServiceAccounts in the ${owner}`, cell: (b) => subjectColumns(b.subjects).serviceAccounts }),
  ];
}

export const roleBinding = defineKind<RoleBinding>({
  kind: "RoleBinding",
  ...RBAC_STORAGE,
  schema: roleBindingSchema,
  plural: "rolebindings",
  singular: "rolebinding",
  namespaced: true,

  columns: bindingColumns(
    "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    "roleBinding",
  ),

  template: {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "RoleBinding",
    metadata: { name: "read-pods" },
    subjects: [{ kind: "User", apiGroup: RBAC_GROUP, name: "jane" }],
    roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: "pod-reader" },
  },

  applyDefaults: defaultBinding,
  validate: (b) => validateBinding(b, true, ["Role", "ClusterRole"]),
  validateUpdate: validateRoleRefUnchanged,
});

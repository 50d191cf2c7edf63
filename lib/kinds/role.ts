import { createdAtColumn, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { roleSchema } from "./schema/role";
import { RBAC_GROUP, RBAC_STORAGE, validatePolicyRules, type PolicyRule } from "./shared/rbac";
import type { KubeObject } from "./types";

export interface Role extends KubeObject {
  rules?: PolicyRule[];
}

// kube-apiserver has no printer for roles: the default table convertor's `Name, Created At`. Names are only
// path segments (ValidateRBACName), so `system:controller:x` is a valid role name.
export const role = defineKind<Role>({
  kind: "Role",
  ...RBAC_STORAGE,
  schema: roleSchema,
  plural: "roles",
  singular: "role",
  namespaced: true,

  columns: [nameColumn, createdAtColumn],

  template: {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "Role",
    metadata: { name: "pod-reader" },
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] }],
  },

  validate: (r) => validatePolicyRules(r.rules, true),
});

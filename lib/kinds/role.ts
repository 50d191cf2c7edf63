import { createdAtColumn, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { roleSchema } from "./schema/role";
import { RBAC_GROUP, validatePolicyRules, type PolicyRule } from "./shared/rbac";
import type { KubeObject } from "./types";

export interface Role extends KubeObject {
  rules?: PolicyRule[];
}

// kube-apiserver has no printer for roles: the default table convertor's `Name, Created At`. Names are only
// path segments (ValidateRBACName), so `system:controller:x` is a valid role name.
export const role = defineKind<Role>({
  kind: "Role",
  group: RBAC_GROUP,
  schema: roleSchema,
  plural: "roles",
  singular: "role",
  shortNames: [],
  categories: [],
  namespaced: true,
  nameRule: "path-segment",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [nameColumn, createdAtColumn],

  template: {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "Role",
    metadata: { name: "pod-reader" },
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] }],
  },

  validate: (r) => validatePolicyRules(r.rules, true),
});

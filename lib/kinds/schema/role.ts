// Role (rbac.authorization.k8s.io/v1): a namespaced set of policy rules.
import { rbacApi, policyRules } from "./rbac";
import { resource } from "./resource";

export const roleSchema = resource(
  "Role",
  { rules: policyRules("role") },
  { description: "A namespaced set of permissions, granted to subjects by role bindings in the same namespace.", api: rbacApi },
);

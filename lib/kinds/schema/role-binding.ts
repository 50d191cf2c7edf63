// RoleBinding (rbac.authorization.k8s.io/v1): grants a Role or ClusterRole within one namespace.
import { rbacApi, roleRefOf, subjects } from "./rbac";
import { resource } from "./resource";

export const roleBindingSchema = resource(
  "RoleBinding",
  {
    roleRef: roleRefOf("a Role in this namespace or a ClusterRole"),
    subjects,
  },
  {
    description: "Grants a role's permissions to subjects, within the binding's namespace only.",
    required: ["roleRef"],
    api: rbacApi,
  },
);

// ClusterRoleBinding (rbac.authorization.k8s.io/v1): grants a ClusterRole in every namespace.
import { rbacApi, roleRefOf, subjects } from "./rbac";
import { resource } from "./resource";

export const clusterRoleBindingSchema = resource(
  "ClusterRoleBinding",
  {
    roleRef: roleRefOf("a ClusterRole"),
    subjects,
  },
  {
    description: "Grants a cluster role's permissions to subjects across the whole cluster.",
    required: ["roleRef"],
    api: rbacApi,
  },
);

// What an authorizer decides about (kube's authorizer.Attributes): a resource request or a non-resource
// request, made by a user. Built by lib/api from the request path; read by lib/authz.
import type { UserInfo } from "../auth/user-info";

export interface ResourceAttributes {
  type: "resource";
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, or a special verb (impersonate, bind, escalate, use). */
  verb: string;
  /** "" for the core group. */
  apiGroup: string;
  /** Lower-case plural, e.g. "pods". */
  resource: string;
  /** e.g. "status", "token", "finalize"; "" when none. */
  subresource: string;
  /** "" for cluster-scoped requests and for all-namespaces lists/watches. */
  namespace: string;
  /** "" when the request names no object. */
  name: string;
}

export interface NonResourceAttributes {
  type: "nonResource";
  user: UserInfo;
  /** Lower-case HTTP method mapped as kube does: get, post, put, patch, delete, head. */
  verb: string;
  /** The request path, e.g. "/healthz", "/api", "/apis/rbac.authorization.k8s.io". */
  path: string;
}

export type Attributes = ResourceAttributes | NonResourceAttributes;

export interface Decision {
  allowed: boolean;
  /** Why it was allowed (e.g. `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`), or "" . */
  reason: string;
}

export interface Authorizer {
  authorize(attrs: Attributes): Decision;
  /** The namespaces whose RoleBindings give `user` some resource rule (RBAC's answer to "where may I look?"). */
  namespacesWithRules?(user: UserInfo): string[];
}

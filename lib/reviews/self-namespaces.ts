// The caller's namespaces (GET /apis/access.cluster-core.dev/v1/selfnamespaces, lib/request/access-path.ts):
// where RoleBindings give them some resource rule, from the authorizer's index. Read-only, never stored.
import type { UserInfo } from "../auth/user-info";
import { ACCESS_API_VERSION } from "../request/access-path";

export interface NamespacesSource {
  namespacesWithRules?(user: UserInfo): string[];
}

export interface SelfNamespaces {
  kind: "SelfNamespaces";
  apiVersion: typeof ACCESS_API_VERSION;
  /** The user the answer is about, as authenticated (or impersonated). */
  user: { username: string };
  /** Sorted by name. Cluster-wide rules are not namespaces: a user who has them may list across namespaces. */
  namespaces: string[];
}

export function selfNamespaces(source: NamespacesSource, user: UserInfo): SelfNamespaces {
  return { kind: "SelfNamespaces", apiVersion: ACCESS_API_VERSION, user: { username: user.username }, namespaces: source.namespacesWithRules?.(user) ?? [] };
}

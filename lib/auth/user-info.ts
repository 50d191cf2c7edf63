// Who a request acts as, as kube-apiserver's authenticators produce it (user.Info). Every authenticator in
// lib/auth returns one; lib/authz, lib/audit and admission read it.

export interface UserInfo {
  /** `admin`, a token-file user, or `system:serviceaccount:<namespace>:<name>`. */
  username: string;
  uid?: string;
  /** Always includes `system:authenticated` for an authenticated user. */
  groups: string[];
  /** kube's user.Info extra, e.g. `authentication.kubernetes.io/credential-id`. */
  extra?: Record<string, string[]>;
}

export const AUTHENTICATED_GROUP = "system:authenticated";
export const MASTERS_GROUP = "system:masters";

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** The resource a ServiceAccount's user is authorized against when impersonated. */
export const SERVICE_ACCOUNTS_RESOURCE = "serviceaccounts";

/** The namespace and name in a ServiceAccount's username (`system:serviceaccount:<ns>:<name>`); undefined for other users. */
export function serviceAccountName(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const [namespace = "", name = ""] = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":", 2);
  return { namespace, name };
}

/** The groups kube puts every ServiceAccount's user in (serviceaccount.MakeGroupNames). */
export function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`];
}

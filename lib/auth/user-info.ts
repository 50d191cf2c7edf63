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

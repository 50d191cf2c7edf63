// The identity provider the console e2e tests sign in through: who its accounts are and how the server
// under test is told about it. start-server.sh runs oidc-test-provider-server.ts beside the server.
import type { ProviderAccount } from "../api/oidc-issuers";

export const OIDC_PROVIDER_NAME = "Test SSO";
export const OIDC_CLIENT_ID = "cluster-core-console";
/** Short, so a test can outlive one ID token and see the session refresh it. */
export const OIDC_ID_TOKEN_TTL_SECONDS = 20;

export const OIDC_ACCOUNTS = {
  ada: { sub: "ada-sub", email: "ada@example.com", email_verified: true, name: "Ada", groups: ["team-a"] },
  // email_verified false: the API (OIDC_USERNAME_CLAIM=email) refuses her tokens, as kube does.
  mallory: { sub: "mallory-sub", email: "mallory@example.com", email_verified: false, name: "Mallory", groups: ["team-a"] },
} satisfies Record<string, ProviderAccount>;

/** The server's settings for this provider (kube-apiserver's --oidc-* flags, and the console's client). */
export function serverSettings(issuer: string, caFile: string): Record<string, string> {
  return {
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID,
    OIDC_CA_FILE: caFile,
    OIDC_USERNAME_CLAIM: "email",
    OIDC_GROUPS_CLAIM: "groups",
    OIDC_GROUPS_PREFIX: "oidc:",
    CONSOLE_OIDC_NAME: OIDC_PROVIDER_NAME,
    CONSOLE_OIDC_SCOPES: "openid email profile groups offline_access",
  };
}

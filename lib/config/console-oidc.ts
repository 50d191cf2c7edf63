// The console's "Sign in with <provider>" settings: an OpenID Connect client of the organization's identity
// provider (authorization code flow with PKCE). Each setting falls back to the API's OIDC flag it mirrors, so
// one issuer and client serve kubectl and the console alike. Pure: reads only the env it is given.
import type { Env } from "./server-config";

export interface ConsoleOidcConfig {
  /** The issuer URL (CONSOLE_OIDC_ISSUER_URL, default OIDC_ISSUER_URL): https, no query or fragment. */
  issuer: string;
  /** The console's client ID (CONSOLE_OIDC_CLIENT_ID, default OIDC_CLIENT_ID). */
  clientId: string;
  /** CONSOLE_OIDC_CLIENT_SECRET; absent: a public client, PKCE only. */
  clientSecret?: string;
  /** The sign-in button's name (CONSOLE_OIDC_NAME, default the issuer's host). */
  name: string;
  /** Scopes asked for (CONSOLE_OIDC_SCOPES, space- or comma-separated; always with `openid`). */
  scopes: string[];
  /** CA bundle file that issued the provider's HTTPS certificate (OIDC_CA_FILE), absolute or as given. */
  caFile?: string;
}

export const DEFAULT_CONSOLE_OIDC_SCOPES = ["openid", "profile", "email", "offline_access"];

const value = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** The console's OIDC client settings, or undefined when no issuer is configured for it. */
export function loadConsoleOidcConfig(env: Env): ConsoleOidcConfig | undefined {
  const issuerName = value(env, "CONSOLE_OIDC_ISSUER_URL") ? "CONSOLE_OIDC_ISSUER_URL" : "OIDC_ISSUER_URL";
  const issuer = value(env, issuerName);
  if (!issuer) return undefined;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`${issuerName}: not a URL`);
  }
  if (url.protocol !== "https:") throw new Error(`${issuerName}: must use https (got ${url.protocol.replace(/:$/, "")})`);
  if (url.search || url.hash) throw new Error(`${issuerName}: must not have a query or fragment`);
  const clientIdName = value(env, "CONSOLE_OIDC_CLIENT_ID") ? "CONSOLE_OIDC_CLIENT_ID" : "OIDC_CLIENT_ID";
  const clientId = value(env, clientIdName);
  if (!clientId) throw new Error(`CONSOLE_OIDC_CLIENT_ID (or OIDC_CLIENT_ID): required with ${issuerName}`);
  const scopes = (value(env, "CONSOLE_OIDC_SCOPES") ?? DEFAULT_CONSOLE_OIDC_SCOPES.join(" ")).split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes("openid")) scopes.unshift("openid");
  return {
    issuer,
    clientId,
    clientSecret: value(env, "CONSOLE_OIDC_CLIENT_SECRET"),
    name: value(env, "CONSOLE_OIDC_NAME") ?? url.host,
    scopes: [...new Set(scopes)],
    caFile: value(env, "OIDC_CA_FILE"),
  };
}

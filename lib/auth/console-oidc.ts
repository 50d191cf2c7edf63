// The console's "Sign in with <provider>": next-auth's OAuth provider for the organization's OpenID Connect
// issuer (authorization code flow with PKCE; a public client unless a secret is given), and what keeps the
// session's ID token fresh. The ID token is the console's bearer towards the API, exactly as kubectl's would
// be, so the API's own OIDC authenticator (and RBAC behind it) decides what the person sees. It lives only in
// the encrypted session cookie; the browser is told when to ask for a refresh, never the token.
import { decodeJwt } from "jose";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { requestJson } from "./oidc-client-http";

export const OIDC_PROVIDER_ID = "oidc";

export interface ConsoleOidc {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** The button's name: "Sign in with <name>". */
  name: string;
  scopes: string[];
  /** PEM CA bundle for the provider's HTTPS (OIDC_CA_FILE's contents). */
  ca?: string;
}

/** What the session keeps of an OIDC sign-in (inside the encrypted cookie). */
export interface OidcTokens {
  /** The ID token: the bearer the console sends to the API. */
  bearer: string;
  refreshToken?: string;
  /** When the ID token expires (seconds since the epoch). */
  bearerExpiresAt: number;
  /** When to refresh it (seconds since the epoch): a quarter of its life before it ends, at most five minutes. */
  refreshAt: number;
}

const wellKnown = (issuer: string) => `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;

export function oidcProvider(c: ConsoleOidc): OAuthConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER_ID,
    name: c.name,
    type: "oauth",
    wellKnown: wellKnown(c.issuer),
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    client: c.clientSecret ? undefined : { token_endpoint_auth_method: "none" },
    authorization: { params: { scope: c.scopes.join(" ") } },
    checks: ["pkce", "state"],
    idToken: true,
    httpOptions: { timeout: 10_000, ...(c.ca ? { ca: c.ca } : {}) },
    profile: (p) => ({
      id: String(p.sub ?? ""),
      name: String(p.preferred_username ?? p.email ?? p.name ?? p.sub ?? ""),
      email: typeof p.email === "string" ? p.email : undefined,
    }),
  };
}

/** When an ID token valid until `exp` should be refreshed, seen at `now` (both in seconds). */
export function refreshTime(exp: number, now: number): number {
  const left = Math.max(0, exp - now);
  return exp - Math.min(300, Math.max(5, Math.floor(left / 4)));
}

/** The session's tokens for an ID token (and the refresh token that came with it), or undefined if it has no `exp`. */
export function oidcTokens(idToken: string, refreshToken: string | undefined, now = Math.floor(Date.now() / 1000)): OidcTokens | undefined {
  let exp: unknown;
  try {
    exp = decodeJwt(idToken).exp;
  } catch {
    return undefined;
  }
  if (typeof exp !== "number") return undefined;
  return { bearer: idToken, refreshToken, bearerExpiresAt: exp, refreshAt: refreshTime(exp, now) };
}

interface Discovery {
  token_endpoint?: string;
  end_session_endpoint?: string;
}

const discoveries = new Map<string, { at: number; doc: Promise<Discovery> }>();
const DISCOVERY_TTL_MS = 10 * 60_000;

/** The provider's discovery document, cached for ten minutes (a failure is not cached). */
export function discover(c: ConsoleOidc): Promise<Discovery> {
  const hit = discoveries.get(c.issuer);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.doc;
  const doc = requestJson(wellKnown(c.issuer), { ca: c.ca }).then(({ status, body }) => {
    if (status !== 200 || !body || typeof body !== "object") throw new Error(`${wellKnown(c.issuer)}: answered ${status}`);
    return body as Discovery;
  });
  discoveries.set(c.issuer, { at: Date.now(), doc });
  doc.catch(() => discoveries.delete(c.issuer));
  return doc;
}

/**
 * New tokens for `refreshToken` from the provider's token endpoint (the refresh_token grant), or an Error
 * naming the provider's error code (never a token). A provider that rotates refresh tokens returns a new one.
 */
export async function refreshOidcTokens(c: ConsoleOidc, refreshToken: string): Promise<OidcTokens> {
  const { token_endpoint } = await discover(c);
  if (!token_endpoint) throw new Error("the provider's discovery document names no token_endpoint");
  const form: Record<string, string> = { grant_type: "refresh_token", refresh_token: refreshToken, client_id: c.clientId };
  const headers: Record<string, string> = {};
  if (c.clientSecret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString("base64")}`;
  const { status, body } = await requestJson(token_endpoint, { ca: c.ca, form, headers });
  const answer = (body ?? {}) as { id_token?: unknown; refresh_token?: unknown; error?: unknown };
  if (status !== 200) throw new Error(`the provider refused the refresh (${status}${typeof answer.error === "string" ? ` ${answer.error}` : ""})`);
  if (typeof answer.id_token !== "string") throw new Error("the provider's refresh answer has no id_token");
  const tokens = oidcTokens(answer.id_token, typeof answer.refresh_token === "string" ? answer.refresh_token : refreshToken);
  if (!tokens) throw new Error("the provider's new ID token has no exp");
  return tokens;
}

/**
 * Where sign-out sends the browser to end the provider's session too (OpenID Connect RP-Initiated Logout),
 * coming back to `returnTo`; undefined when the provider offers no end_session_endpoint. It names the client,
 * not the ID token: the browser never holds the token.
 */
export async function endSessionUrl(c: ConsoleOidc, returnTo: string): Promise<string | undefined> {
  try {
    const { end_session_endpoint } = await discover(c);
    if (!end_session_endpoint) return undefined;
    const url = new URL(end_session_endpoint);
    url.searchParams.set("client_id", c.clientId);
    url.searchParams.set("post_logout_redirect_uri", returnTo);
    return url.toString();
  } catch {
    return undefined;
  }
}

// next-auth (v4) configuration for the console's sign-in: the user pastes a bearer token, which the server's
// own authenticator checks (admin token, token file, ServiceAccount JWTs: whatever the API accepts) and
// which is then kept only inside the encrypted session JWT (an httpOnly cookie). The API pipeline reads it
// back with bearerFromSessionCookie (session.ts); the browser never sees the token again, only the user name.
// The authenticator is the caller's (lib/server/sign-in.ts binds the runtime's): authentication knows no
// process runtime. With an OpenID Connect provider configured, people may also sign in through it
// (console-oidc.ts): the session then holds their ID token as its bearer, refreshed before it expires.
import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { type ConsoleOidc, endSessionUrl, OIDC_PROVIDER_ID, oidcProvider, oidcTokens, refreshOidcTokens } from "./console-oidc";
import type { UserInfo } from "./user-info";

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

// Far above any real token (ServiceAccount JWTs are ~1 KiB) and small enough for the session cookie.
const MAX_TOKEN_LENGTH = 8 * 1024;

/** The API's own authenticator, as the sign-in calls it. */
export type SignInAuthenticator = (token: string) => Promise<UserInfo | undefined>;

/**
 * Who `token` authenticates as through the API's own authenticator, or undefined when the API would not
 * accept it. Never throws: a malformed token or an authenticator failure is a refused sign-in (401), not 500.
 */
export async function acceptsToken(token: string, authenticate: SignInAuthenticator): Promise<UserInfo | undefined> {
  if (!token || token.length > MAX_TOKEN_LENGTH || /[\s\u0000-\u001f\u007f]/.test(token)) return undefined;
  try {
    const user = await authenticate(token);
    return user && user.username ? user : undefined;
  } catch {
    return undefined;
  }
}

/** What the browser learns of an OIDC session: when to ask for a refresh, and where sign-out goes. */
export interface OidcSessionView {
  /** Seconds until the session's ID token should be refreshed (POST /api/auth/session); 0: now. */
  refreshInSeconds: number;
  /** Whether the session still holds a token the API accepts (false once a refresh failed). */
  active: boolean;
  /** The provider's end-session URL, coming back to the sign-in page. */
  signOutUrl?: string;
}

export interface SignInSettings {
  /** The organization's OpenID Connect provider, when the console offers "Sign in with <name>". */
  oidc?: ConsoleOidc;
  /** The console's own origin (https://host:port), for the provider's post-logout redirect. */
  consoleUrl?: () => string | undefined;
  /** Where a refresh failure is told (never with a token). */
  onRefreshError?: (message: string) => void;
}

/** An OIDC session's token after a refresh grant; without its bearer when the provider or the API refuses. */
async function refreshed(token: JWT, oidc: ConsoleOidc, authenticate: SignInAuthenticator, onError?: (m: string) => void): Promise<JWT> {
  const now = Math.floor(Date.now() / 1000);
  if (typeof token.refreshAt !== "number" || now < token.refreshAt || typeof token.bearer !== "string") return token;
  const rest = { ...token };
  delete rest.bearer;
  if (typeof token.refreshToken !== "string") return now < Number(token.bearerExpiresAt) ? token : rest;
  try {
    const tokens = await refreshOidcTokens(oidc, token.refreshToken);
    if (!(await acceptsToken(tokens.bearer, authenticate))) throw new Error("the API does not accept the refreshed ID token");
    return { ...token, ...tokens };
  } catch (err) {
    onError?.(err instanceof Error ? err.message : String(err));
    return rest;
  }
}

export const signInOptions = (authenticate: SignInAuthenticator, settings: SignInSettings = {}): NextAuthOptions => ({
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/signin", error: "/signin" },
  providers: [
    ...(settings.oidc ? [oidcProvider(settings.oidc)] : []),
    CredentialsProvider({
      id: "token",
      name: "Bearer token",
      credentials: { token: { label: "Bearer token", type: "password" } },
      async authorize(credentials) {
        const raw = credentials?.token;
        const token = typeof raw === "string" ? raw.trim() : "";
        const user = await acceptsToken(token, authenticate);
        if (!user) return null;
        return { id: user.uid || user.username, name: user.username, bearer: token } as { id: string; name: string; bearer: string };
      },
    }),
  ],
  callbacks: {
    // An OIDC sign-in stands only if the API itself accepts the ID token (issuer, audience, claims, rules).
    async signIn({ account }) {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      return typeof account.id_token === "string" && (await acceptsToken(account.id_token, authenticate)) ? true : "/signin?error=NotAccepted";
    },
    async jwt({ token, user, account, trigger }) {
      const bearer = (user as { bearer?: string } | undefined)?.bearer;
      if (bearer) token.bearer = bearer;
      if (account?.provider === OIDC_PROVIDER_ID && typeof account.id_token === "string") {
        const tokens = oidcTokens(account.id_token, typeof account.refresh_token === "string" ? account.refresh_token : undefined);
        if (!tokens) throw new Error("the provider's ID token has no exp");
        const who = await acceptsToken(tokens.bearer, authenticate);
        return { ...token, ...tokens, provider: OIDC_PROVIDER_ID, name: who?.username ?? token.name };
      }
      // Only the browser's POST to /api/auth/session ("update") refreshes: that answer rewrites the cookie,
      // while a server page's read of the session could not (and a rotated refresh token would be lost).
      if (trigger === "update" && token.provider === OIDC_PROVIDER_ID && settings.oidc) return refreshed(token, settings.oidc, authenticate, settings.onRefreshError);
      return token;
    },
    // The session object is what /api/auth/session hands the browser: user name (and for OIDC, when to
    // refresh and where sign-out goes), never the bearer.
    async session({ session, token }) {
      const view = { expires: session.expires, user: { name: typeof token.name === "string" ? token.name : "" } };
      if (token.provider !== OIDC_PROVIDER_ID || !settings.oidc) return view;
      const returnTo = settings.consoleUrl?.();
      const oidc: OidcSessionView = {
        refreshInSeconds: Math.max(0, Number(token.refreshAt) - Math.floor(Date.now() / 1000)),
        active: typeof token.bearer === "string",
        signOutUrl: returnTo ? await endSessionUrl(settings.oidc, `${returnTo.replace(/\/+$/, "")}/signin`) : undefined,
      };
      return { ...view, oidc };
    },
  },
});

// next-auth (v4) configuration for the console's sign-in: the user pastes a bearer token, which the server's
// own authenticator checks (admin token, token file, ServiceAccount JWTs: whatever the API accepts) and
// which is then kept only inside the encrypted session JWT (an httpOnly cookie). The API pipeline reads it
// back with bearerFromSessionCookie (session.ts); the browser never sees the token again, only the user name.
// The authenticator is the caller's (lib/server/sign-in.ts binds the runtime's): authentication knows no
// process runtime.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
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

export const signInOptions = (authenticate: SignInAuthenticator): NextAuthOptions => ({
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/signin" },
  providers: [
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
    async jwt({ token, user }) {
      const bearer = (user as { bearer?: string } | undefined)?.bearer;
      if (bearer) token.bearer = bearer;
      return token;
    },
    // The session object is what /api/auth/session hands the browser: user name only, never the bearer.
    async session({ session, token }) {
      return { expires: session.expires, user: { name: typeof token.name === "string" ? token.name : "" } };
    },
  },
});

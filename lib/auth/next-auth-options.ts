// next-auth (v4) configuration for the console's sign-in: the user pastes a bearer token, which is checked
// here and then kept only inside the encrypted session JWT (an httpOnly cookie). The API pipeline reads it
// back with bearerFromSessionCookie (session.ts); the browser never sees the token again.
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether `token` is one the API accepts. Today that is the admin token server.ts puts in the environment;
 * comparing SHA-256 digests keeps the timing independent of length and content.
 */
export function acceptsToken(token: string): boolean {
  const admin = process.env.CLUSTER_ADMIN_TOKEN;
  if (!admin || !token) return false;
  return timingSafeEqual(digest(token), digest(admin));
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      id: "token",
      name: "Bearer token",
      credentials: { token: { label: "Bearer token", type: "password" } },
      async authorize(credentials) {
        const token = credentials?.token?.trim() ?? "";
        if (!acceptsToken(token)) return null;
        return { id: "admin", name: "admin", bearer: token } as { id: string; name: string; bearer: string };
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
      return { expires: session.expires, user: { name: token.name ?? "admin" } };
    },
  },
};

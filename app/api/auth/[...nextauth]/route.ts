// next-auth's endpoints (/api/auth/csrf, /callback/token, /callback/oidc, /session, /signout): sign-in with a
// bearer token or through the organization's OpenID Connect provider.
// Requests next-auth would answer with a 500 (a GET of the callback, a body that is not JSON, a bad
// callbackUrl) are refused first with a 4xx Status (lib/auth/sign-in-guard.ts).
import NextAuth from "next-auth";
import { guardSignIn } from "@/lib/auth/sign-in-guard";
import { authOptions } from "@/lib/server/sign-in";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The OAuth providers (the organization's OIDC sign-in) call back by GET; no other provider does.
const oauthProviders = authOptions.providers.filter((p) => p.type === "oauth").map((p) => p.id);
const handler = guardSignIn(NextAuth(authOptions), oauthProviders);
export { handler as GET, handler as POST };

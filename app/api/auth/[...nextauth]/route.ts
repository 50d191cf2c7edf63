// next-auth's endpoints (/api/auth/csrf, /callback/token, /session, /signout): sign-in with a bearer token.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/server/sign-in";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };

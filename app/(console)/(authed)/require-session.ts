// Console pages render only for a signed-in user; anyone else goes to sign-in and comes back to the same
// URL afterwards. Each page passes its own path because a layout cannot see the URL in the app router.
import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/server/sign-in";

type SearchParams = Record<string, string | string[] | undefined>;

export async function requireSession(path: string, searchParams?: SearchParams): Promise<Session> {
  const session = await getServerSession(authOptions);
  if (session) return session;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(searchParams ?? {})) {
    for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) query.append(k, value);
  }
  const back = path + (query.size ? `?${query}` : "");
  redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
}

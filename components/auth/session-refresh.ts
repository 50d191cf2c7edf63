"use client";
// Keeps an OIDC session's ID token fresh: the session tells the browser when (never the token), and at that
// time the browser POSTs /api/auth/session, whose answer rewrites the session cookie with refreshed tokens.
// A token-form session has nothing to refresh and schedules nothing.
import { getCsrfToken, getSession } from "next-auth/react";
import { useEffect } from "react";

/** What /api/auth/session tells of an OIDC session (lib/auth/next-auth-options.ts's OidcSessionView). */
interface OidcSessionView {
  refreshInSeconds: number;
  active: boolean;
  signOutUrl?: string;
}
type SessionWithOidc = { oidc?: OidcSessionView } | null;

/** Asks the server to refresh the session's ID token now; whether the session still authenticates afterwards. */
export async function refreshSession(): Promise<boolean> {
  const csrfToken = await getCsrfToken();
  if (!csrfToken) return false;
  const res = await fetch("/api/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data: {} }),
  });
  if (!res.ok) return false;
  const session = (await res.json().catch(() => null)) as SessionWithOidc;
  return !!session?.oidc?.active;
}

/** Where sign-out should send the browser afterwards: the provider's end-session page, or the sign-in page. */
export async function signOutDestination(): Promise<string> {
  const session = (await getSession()) as SessionWithOidc;
  return session?.oidc?.signOutUrl ?? "/signin";
}

/** Schedules each refresh when the session says it is due (a no-op for sessions without OIDC). */
export function useSessionRefresh(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const schedule = async () => {
      const session = (await getSession().catch(() => null)) as SessionWithOidc;
      const view = session?.oidc;
      if (stopped || !view?.active) return;
      timer = setTimeout(
        async () => {
          await refreshSession().catch(() => false);
          if (!stopped) void schedule();
        },
        Math.max(1, view.refreshInSeconds) * 1000,
      );
    };
    void schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
}

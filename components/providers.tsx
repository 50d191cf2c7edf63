"use client";
// Client-wide state: the React Query cache every list lives in, and what happens when the session stops
// authenticating (sign out, then sign in again and come back here).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useEffect, useState, type ReactNode } from "react";
import { setUnauthorizedHandler } from "@/lib/client/api-client";
import { refreshSession, useSessionRefresh } from "./auth/session-refresh";

// A 401 on an OIDC session first tries one refresh and reloads the page with it; once per this long at most.
const REFRESH_RETRY_KEY = "cluster-core.refresh-retry";
const REFRESH_RETRY_MS = 60_000;

declare global {
  interface Window {
    /** The page's cache, reachable from devtools (and the e2e tests) as a curious user would dump it. */
    __clusterCoreQueryClient?: QueryClient;
  }
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
  useEffect(() => {
    window.__clusterCoreQueryClient = client;
  }, [client]);
  useSessionRefresh();
  useEffect(() => {
    let signingOut = false;
    setUnauthorizedHandler(async () => {
      if (signingOut || location.pathname === "/signin") return;
      signingOut = true;
      const last = Number(sessionStorage.getItem(REFRESH_RETRY_KEY) ?? 0);
      if (Date.now() - last > REFRESH_RETRY_MS) {
        sessionStorage.setItem(REFRESH_RETRY_KEY, String(Date.now()));
        if (await refreshSession().catch(() => false)) {
          location.reload();
          return;
        }
      }
      const back = location.pathname + location.search;
      void signOut({ callbackUrl: `/signin?callbackUrl=${encodeURIComponent(back)}&expired=1` });
    });
  }, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

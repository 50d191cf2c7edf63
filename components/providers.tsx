"use client";
// Client-wide state: the React Query cache every list lives in, and what happens when the session stops
// authenticating (sign out, then sign in again and come back here).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useEffect, useState, type ReactNode } from "react";
import { setUnauthorizedHandler } from "@/lib/client/api-client";

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
  useEffect(() => {
    let signingOut = false;
    setUnauthorizedHandler(() => {
      if (signingOut || location.pathname === "/signin") return;
      signingOut = true;
      const back = location.pathname + location.search;
      void signOut({ callbackUrl: `/signin?callbackUrl=${encodeURIComponent(back)}&expired=1` });
    });
  }, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

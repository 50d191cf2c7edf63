"use client";
// False on the server and while React hydrates the server's HTML, true in every later render (and at once in
// a component first mounted in the browser, e.g. after a client-side navigation).
//
// Why the data hooks need it: React hydrates the shell's Suspense boundaries (sidebar, namespace switcher,
// breadcrumbs, palette) in later passes than the page. The page's effects have started its fetches by then,
// so a boundary hydrating late can find lists, namespaces or access reviews in the shared React Query cache
// that the server's render did not have, render other text (React #418) and be thrown away and re-rendered.
// A hook that returns "nothing known yet" while this is false renders exactly as the server did; React
// re-renders it with the cache's data right after hydration.
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

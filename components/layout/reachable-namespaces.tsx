"use client";
// Where a user who may not list namespaces can look: the namespaces their roles reach (the switcher's
// checked list: the server's RBAC index, plus those used or typed, each confirmed by a rules review), offered
// as links where a view shows "(no access)", and, once a browser session, the first of them opened in place
// of an all-namespaces view that shows them nothing.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { listHref, namespaceHref } from "@/lib/client/console-routes";
import { useNamespaces } from "@/lib/client/use-namespaces";
import type { AnyKind } from "@/lib/kinds";

const LANDED_KEY = "cc-landed-in-namespace";

/** The namespaces to offer: only when the user may not list namespaces (a list is the switcher's job then). */
function useReachable(current: string | undefined): string[] {
  const { namespaces, source } = useNamespaces(true, current || undefined);
  return source === "checked" ? namespaces.filter((n) => n !== current) : [];
}

/** Links to the same view (a kind's list, or the namespace's live view) in each namespace the user's roles reach. */
export function ReachableNamespaces({ kind, current, center }: { kind?: AnyKind; current?: string; center?: boolean }) {
  const reachable = useReachable(current);
  if (reachable.length === 0) return null;
  const href = (ns: string) => (kind?.namespaced ? listHref(kind, ns) : kind?.kind === "Namespace" ? `/namespaces/${encodeURIComponent(ns)}?tab=overview` : namespaceHref(ns));
  return (
    <nav aria-label="Namespaces your roles reach" className="mt-3" data-testid="reachable-namespaces">
      <p className="font-medium">{current ? "Namespaces your roles reach:" : "Your roles reach these namespaces:"}</p>
      <ul className={`mt-1 flex flex-wrap gap-2 ${center ? "justify-center" : ""}`}>
        {reachable.map((ns) => (
          <li key={ns}>
            <Link href={href(ns)} className="inline-block rounded-md border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-blue-300">
              {ns}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * When an all-namespaces view shows the user nothing (`nothingHere`), opens `hrefFor` of the first namespace
 * their roles reach instead: once a browser session, so choosing "All namespaces" later shows the offer above.
 */
export function useLandInReachableNamespace(nothingHere: boolean, hrefFor: (namespace: string) => string): void {
  const router = useRouter();
  const [first] = useReachable(undefined);
  useEffect(() => {
    if (!nothingHere || !first) return;
    try {
      if (sessionStorage.getItem(LANDED_KEY)) return;
      sessionStorage.setItem(LANDED_KEY, first);
    } catch {
      return;
    }
    router.replace(hrefFor(first));
    // hrefFor is a fresh function each render; the target only changes with `first`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nothingHere, first, router]);
}

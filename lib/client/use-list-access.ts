"use client";
// May the user list each kind here? Namespaced kinds in a namespace are decided from that namespace's rules
// review (one request for all of them); cluster-wide lists and cluster-scoped kinds from one
// SelfSubjectAccessReview each (the same cache entries the action buttons use). Used to mark sidebar
// entries the user cannot list (never hidden) and to fetch only lists the user may read.
import { useQueries, useQuery } from "@tanstack/react-query";
import type { AnyKind } from "../kinds";
import { useConsoleKinds } from "./use-console-kinds";
import { accessAttributes, decideFromRules, deniedReason } from "./access-rules";
import { queryKeys } from "./query-keys";
import { accessReview } from "./review-requests";
import { rulesQuery, type Access } from "./use-access";
import { useHydrated } from "./use-hydrated";

const STALE_MS = 30_000;
const noRetry = (count: number, error: unknown) => count < 1 && ![401, 403, 404].includes((error as { code?: number }).code ?? 0);

export function clusterListQuery(kind: AnyKind) {
  return {
    queryKey: queryKeys.access("list", kind.group ?? "", kind.plural),
    queryFn: ({ signal }: { signal?: AbortSignal }) => accessReview(accessAttributes(kind, "list"), signal),
    staleTime: STALE_MS,
    retry: noRetry,
  };
}

/** `check(kind)`: may the user list `kind` in `namespace` ("" = all namespaces)? Unknown and loading count as allowed. */
export function useListAccess(namespace: string, options: { enabled?: boolean; kinds?: readonly AnyKind[] } = {}): (kind: AnyKind) => Access {
  const allKinds = useConsoleKinds();
  const list = options.kinds ?? allKinds;
  const enabled = options.enabled !== false;
  const rules = useQuery({ ...rulesQuery(namespace), enabled: enabled && !!namespace });
  const clusterKinds = list.filter((k) => !k.namespaced || !namespace);
  const reviews = useQueries({ queries: clusterKinds.map((k) => ({ ...clusterListQuery(k), enabled })) });
  // On the server and while hydrating, as the server rendered it: loading (the page may have fetched reviews since).
  const hydrated = useHydrated();
  return (kind: AnyKind): Access => {
    if (!hydrated) return { decision: "loading", allowed: true };
    if (kind.namespaced && namespace) {
      if (rules.isError) return { decision: "unknown", allowed: true };
      if (!rules.data) return { decision: "loading", allowed: true };
      const decision = decideFromRules(rules.data, accessAttributes(kind, "list"));
      return decision === "denied" ? { decision, allowed: false, reason: deniedReason(kind, "list", namespace) } : { decision, allowed: true };
    }
    const query = reviews[clusterKinds.indexOf(kind)];
    if (!query || query.isError) return { decision: "unknown", allowed: true };
    if (!query.data) return { decision: "loading", allowed: true };
    return query.data.allowed ? { decision: "allowed", allowed: true } : { decision: "denied", allowed: false, reason: deniedReason(kind, "list", undefined) };
  };
}

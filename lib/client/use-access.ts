"use client";
// Permission checks for the console's actions. Namespaced requests are decided from one
// SelfSubjectRulesReview per namespace (cached, shared by every button in that namespace); cluster-scoped
// requests, which a rules review cannot answer (it needs a namespace), from one SelfSubjectAccessReview per
// verb and resource. While a review is loading, or when it cannot decide, actions stay available: the
// server still refuses what is not allowed, and the view shows its message.
import { useQueries, useQuery } from "@tanstack/react-query";
import type { AnyKind } from "../kinds";
import { accessAttributes, authorizationNamespace, decideFromRules, deniedReason, type AccessDecision, type Verb } from "./access-rules";
import { accessReview, rulesReview, whoAmI, type WhoAmI } from "./review-requests";
import { queryKeys } from "./query-keys";
import { useHydrated } from "./use-hydrated";

const PERMISSION_STALE_MS = 30_000;

export interface Access {
  decision: AccessDecision | "loading";
  /** False only when the rules say no. */
  allowed: boolean;
  /** Why not, for a tooltip; set when `allowed` is false. */
  reason?: string;
}

export interface AccessTarget {
  namespace?: string;
  name?: string;
}

const noRetryOnAuth = (count: number, error: unknown) => count < 1 && ![401, 403, 404].includes((error as { code?: number }).code ?? 0);

export function rulesQuery(namespace: string) {
  return {
    queryKey: queryKeys.rules(namespace),
    queryFn: ({ signal }: { signal?: AbortSignal }) => rulesReview(namespace, signal),
    staleTime: PERMISSION_STALE_MS,
    retry: noRetryOnAuth,
  };
}

/** Who the session acts as (SelfSubjectReview). */
export function useWhoAmI(): { user: WhoAmI | undefined; error: Error | null } {
  const query = useQuery({ queryKey: queryKeys.whoAmI(), queryFn: ({ signal }) => whoAmI(signal), staleTime: 5 * 60_000, retry: noRetryOnAuth });
  return { user: query.data, error: query.error as Error | null };
}

/**
 * A checker for `verbs` on `kind` for each target (objects, or one namespace for create). Call it with any
 * of the targets and verbs given here; other combinations answer "unknown" (allowed).
 */
export function useAccessChecker(kind: AnyKind | undefined, targets: readonly AccessTarget[], verbs: readonly Verb[]): (verb: Verb, target: AccessTarget) => Access {
  const namespaces = new Set<string>();
  let cluster = false;
  if (kind) {
    for (const t of targets) {
      const ns = authorizationNamespace(kind, t.namespace, t.name);
      if (ns) namespaces.add(ns);
      else cluster = true;
    }
  }
  const nsList = [...namespaces].sort();
  const rules = useQueries({ queries: nsList.map((ns) => rulesQuery(ns)) });
  const clusterVerbs = cluster && kind ? [...verbs] : [];
  const reviews = useQueries({
    queries: clusterVerbs.map((verb) => ({
      queryKey: queryKeys.access(verb, kind?.group ?? "", kind?.plural ?? ""),
      queryFn: ({ signal }: { signal?: AbortSignal }) => accessReview(accessAttributes(kind!, verb), signal),
      staleTime: PERMISSION_STALE_MS,
      retry: noRetryOnAuth,
    })),
  });
  // On the server and while hydrating, as the server rendered it (the cache may hold reviews the page fetched since).
  const hydrated = useHydrated();

  return (verb: Verb, target: AccessTarget): Access => {
    if (!kind) return { decision: "unknown", allowed: true };
    if (!hydrated) return { decision: "loading", allowed: true };
    const ns = authorizationNamespace(kind, target.namespace, target.name);
    if (ns) {
      const query = rules[nsList.indexOf(ns)];
      if (!query) return { decision: "unknown", allowed: true };
      if (query.isError) return { decision: "unknown", allowed: true };
      if (!query.data) return { decision: "loading", allowed: true };
      const decision = decideFromRules(query.data, accessAttributes(kind, verb, target.name));
      return decision === "denied" ? { decision, allowed: false, reason: deniedReason(kind, verb, ns) } : { decision, allowed: true };
    }
    const query = reviews[clusterVerbs.indexOf(verb)];
    if (!query || query.isError) return { decision: "unknown", allowed: true };
    if (!query.data) return { decision: "loading", allowed: true };
    return query.data.allowed ? { decision: "allowed", allowed: true } : { decision: "denied", allowed: false, reason: deniedReason(kind, verb, undefined) };
  };
}

/** One check: may the user `verb` this kind at `target`? */
export function useAccess(kind: AnyKind | undefined, verb: Verb, target: AccessTarget): Access {
  const check = useAccessChecker(kind, [target], [verb]);
  return check(verb, target);
}

"use client";
// The namespaces the namespace switcher offers, in this order:
// (a) GET /api/v1/namespaces, when the user may list them;
// (b) on 403 (a user bound only inside namespaces cannot list them, nor RoleBindings cluster-wide, so the
//     server cannot tell the console "your namespaces"): the namespaces this browser used or typed, plus
//     `default`, each kept only if its SelfSubjectRulesReview lets the user read something there;
// (c) on 404/405 (a server without the Namespace API): namespaces named by cluster-wide lists of the
//     namespaced kinds.
// Namespaces of lists already in the cache are added in every case.
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { kinds } from "../kinds";
import { grantsAccessInNamespace } from "./access-rules";
import { apiRequest } from "./api-client";
import { ApiError } from "./api-error";
import { readKnownNamespaces } from "./known-namespaces";
import type { ListBody, ListState } from "./list-state";
import { queryKeys } from "./query-keys";
import { collectionPath } from "./resource-path";
import { rulesQuery } from "./use-access";

export type NamespaceSource = "list" | "checked" | "derived";

export interface NamespaceChoices {
  namespaces: string[];
  /** How they were found: listed, checked one by one (no list permission), or derived from object lists. */
  source: NamespaceSource | undefined;
  isLoading: boolean;
  error: Error | null;
}

const DEFAULT_NAMESPACE = "default";

type Listed = { names: string[]; source: Exclude<NamespaceSource, "checked"> } | { names: []; source: "forbidden" };

async function listNamespaces(): Promise<Listed> {
  try {
    const body = await apiRequest<ListBody>("/api/v1/namespaces");
    const names = (body.items ?? []).map((i) => i.metadata?.name).filter((n): n is string => !!n);
    return { names: [...new Set(names)].sort(), source: "list" };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 403) return { names: [], source: "forbidden" };
    if (e.code !== 404 && e.code !== 405) throw e;
  }
  const names = new Set<string>();
  const lists = await Promise.allSettled(kinds.filter((k) => k.namespaced).map((k) => apiRequest<ListBody>(collectionPath(k))));
  for (const list of lists) {
    if (list.status !== "fulfilled") continue;
    for (const item of list.value.items ?? []) if (item.metadata?.namespace) names.add(item.metadata.namespace);
  }
  return { names: [...names].sort(), source: "derived" };
}

async function checkedNamespaces(client: QueryClient, candidates: readonly string[]): Promise<string[]> {
  const unique = [...new Set([...candidates, DEFAULT_NAMESPACE])];
  // The same cache entries the action buttons read, so each namespace is reviewed once.
  const reviews = await Promise.allSettled(unique.map((ns) => client.fetchQuery(rulesQuery(ns))));
  return unique.filter((_, i) => {
    const r = reviews[i];
    return r.status === "fulfilled" && grantsAccessInNamespace(r.value);
  }).sort();
}

export function useNamespaces(enabled: boolean, current?: string): NamespaceChoices {
  const client = useQueryClient();
  const noRetryOnAuth = (count: number, error: unknown) => count < 1 && (error as { code?: number }).code !== 401;
  const listed = useQuery({ queryKey: queryKeys.namespaces(), queryFn: listNamespaces, enabled, staleTime: 30_000, retry: noRetryOnAuth });
  const forbidden = listed.data?.source === "forbidden";
  const candidates = forbidden ? [...new Set([...(current ? [current] : []), ...readKnownNamespaces()])].sort() : [];
  const checked = useQuery({
    queryKey: queryKeys.namespaces(["checked", ...candidates]),
    queryFn: () => checkedNamespaces(client, candidates),
    enabled: enabled && forbidden,
    staleTime: 30_000,
    retry: noRetryOnAuth,
  });
  const names = new Set(forbidden ? (checked.data ?? []) : (listed.data?.names ?? []));
  // Lists already cached (live) know namespaces that appeared since the last fetch.
  for (const [, state] of client.getQueriesData<ListState>({ queryKey: [...queryKeys.all, "list"] })) {
    if (!state?.items) continue;
    if (state.items.size > 20_000) continue;
    for (const obj of state.items.values()) if (obj.metadata?.namespace) names.add(obj.metadata.namespace);
  }
  return {
    namespaces: [...names].sort(),
    source: listed.data === undefined ? undefined : listed.data.source === "forbidden" ? "checked" : listed.data.source,
    isLoading: listed.isLoading || (forbidden && checked.isLoading),
    error: (listed.error ?? checked.error) as Error | null,
  };
}

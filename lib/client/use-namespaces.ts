"use client";
// The namespaces that hold objects, for the namespace switcher. There is no Namespace kind, so they are
// derived: from the API's namespace list if it serves one, otherwise from cluster-wide lists of the
// namespaced kinds (fetched only when the switcher asks, and cached), plus any list already in the cache.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { kinds } from "../kinds";
import { apiRequest } from "./api-client";
import { ApiError } from "./api-error";
import type { ListBody, ListState } from "./list-state";
import { queryKeys } from "./query-keys";
import { collectionPath } from "./resource-path";

async function fetchNamespaces(): Promise<string[]> {
  const names = new Set<string>();
  try {
    const body = await apiRequest<ListBody>("/api/v1/namespaces");
    for (const item of body.items ?? []) if (item.metadata?.name) names.add(item.metadata.name);
    return [...names].sort();
  } catch (e) {
    if (!(e instanceof ApiError) || (e.code !== 404 && e.code !== 405)) throw e;
  }
  const lists = await Promise.allSettled(kinds.filter((k) => k.namespaced).map((k) => apiRequest<ListBody>(collectionPath(k))));
  for (const list of lists) {
    if (list.status !== "fulfilled") continue;
    for (const item of list.value.items ?? []) if (item.metadata?.namespace) names.add(item.metadata.namespace);
  }
  return [...names].sort();
}

export function useNamespaces(enabled: boolean): { namespaces: string[]; isLoading: boolean; error: Error | null } {
  const client = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.namespaces(), queryFn: fetchNamespaces, enabled, staleTime: 30_000 });
  const names = new Set(query.data ?? []);
  // Lists already cached (live) know namespaces that appeared since the last fetch.
  for (const [, state] of client.getQueriesData<ListState>({ queryKey: [...queryKeys.all, "list"] })) {
    if (!state?.items) continue;
    if (state.items.size > 20_000) continue;
    for (const obj of state.items.values()) if (obj.metadata?.namespace) names.add(obj.metadata.namespace);
  }
  return { namespaces: [...names].sort(), isLoading: query.isLoading, error: query.error };
}

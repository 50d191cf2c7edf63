"use client";
// The namespaces the namespace switcher offers, in this order:
// (a) GET /api/v1/namespaces, when the user may list them;
// (b) on 403 (a user bound only inside namespaces cannot list them, nor RoleBindings cluster-wide): the
//     namespaces the server's RBAC index says the user's RoleBindings reach (GET .../selfnamespaces, this
//     server's answer to what kube has no API for), those this browser used or typed, and `default`, each
//     kept only if its SelfSubjectRulesReview lets the user read something there;
// (c) on 404/405 (a server without the Namespace API): namespaces named by cluster-wide lists of the
//     namespaced kinds.
// Namespaces of lists already in the cache are added in every case. When the user may list them, the list is
// kept live by a (background) watch shared with the Namespaces page: created ones appear and deleted ones go
// as it happens, and those being deleted are reported as terminating.
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { kindByPlural, kinds } from "../kinds";
import { grantsAccessInNamespace } from "./access-rules";
import { apiRequest } from "./api-client";
import { ApiError } from "./api-error";
import { readKnownNamespaces } from "./known-namespaces";
import type { ListBody, ListState } from "./list-state";
import { queryKeys } from "./query-keys";
import { collectionPath } from "./resource-path";
import { selfNamespaces } from "./review-requests";
import { rulesQuery } from "./use-access";
import { useHydrated } from "./use-hydrated";
import { useResourceList } from "./use-resource-list";

export type NamespaceSource = "list" | "checked" | "derived";

export interface NamespaceChoices {
  namespaces: string[];
  /** How they were found: listed, checked one by one (no list permission), or derived from object lists. */
  source: NamespaceSource | undefined;
  isLoading: boolean;
  error: Error | null;
  /** Namespaces being deleted (deletionTimestamp set), from the live list. */
  terminating: ReadonlySet<string>;
}

const namespaceKind = kindByPlural("namespaces");

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
  const hydrated = useHydrated();
  const noRetryOnAuth = (count: number, error: unknown) => count < 1 && (error as { code?: number }).code !== 401;
  const listed = useQuery({ queryKey: queryKeys.namespaces(), queryFn: listNamespaces, enabled, staleTime: 30_000, retry: noRetryOnAuth });
  const forbidden = listed.data?.source === "forbidden";
  const reached = useQuery({
    queryKey: queryKeys.namespaces(["reached"]),
    queryFn: ({ signal }) => selfNamespaces(signal),
    enabled: enabled && forbidden,
    staleTime: 30_000,
    retry: noRetryOnAuth,
  });
  const candidates = forbidden ? [...new Set([...(reached.data ?? []), ...(current ? [current] : []), ...readKnownNamespaces()])].sort() : [];
  const checked = useQuery({
    queryKey: queryKeys.namespaces(["checked", ...candidates]),
    queryFn: () => checkedNamespaces(client, candidates),
    // The server's answer first (if it fails, the namespaces used or typed are still checked).
    enabled: enabled && forbidden && !reached.isLoading,
    staleTime: 30_000,
    retry: noRetryOnAuth,
  });
  const live = useResourceList(namespaceKind, {}, { enabled: enabled && listed.data?.source === "list", background: true });
  // On the server and while hydrating, nothing is known yet: the cache may already hold lists the page fetched
  // (the overview's cluster-wide lists name every namespace), which the server's render did not have.
  if (!hydrated) return { namespaces: [], source: undefined, isLoading: enabled, error: null, terminating: new Set() };
  const terminating = new Set<string>();
  let listedNames = listed.data?.names ?? [];
  if (live.data) {
    listedNames = [];
    for (const ns of live.data.items.values()) {
      const name = ns.metadata?.name;
      if (!name) continue;
      listedNames.push(name);
      if (ns.metadata?.deletionTimestamp) terminating.add(name);
    }
  }
  const names = new Set(forbidden ? (checked.data ?? []) : listedNames);
  // Lists already cached (live) know namespaces that appeared since the last fetch.
  // Every namespaced object lives in an existing namespace, so a live list of namespaces needs no help.
  for (const [, state] of live.data ? [] : client.getQueriesData<ListState>({ queryKey: [...queryKeys.all, "list"] })) {
    if (!state?.items) continue;
    if (state.items.size > 20_000) continue;
    for (const obj of state.items.values()) if (obj.metadata?.namespace) names.add(obj.metadata.namespace);
  }
  return {
    namespaces: [...names].sort(),
    source: listed.data === undefined ? undefined : listed.data.source === "forbidden" ? "checked" : listed.data.source,
    isLoading: listed.isLoading || (forbidden && (reached.isLoading || checked.isLoading)),
    error: (listed.error ?? checked.error) as Error | null,
    terminating,
  };
}

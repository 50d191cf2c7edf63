"use client";
// What the palette searches: every live list in the React Query cache (the watch caches of the views
// opened so far, current to the last event), plus one fetched list per kind not loaded yet: cluster-wide
// where the user may list it cluster-wide, else in each namespace the switcher knows whose rules allow
// listing it. Nothing the user may not list is fetched; those kinds are reported instead.
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { decideFromRules, accessAttributes } from "@/lib/client/access-rules";
import { apiRequest } from "@/lib/client/api-client";
import { maskedList } from "@/lib/client/secret-mask";
import type { ListBody, ListState } from "@/lib/client/list-state";
import { stripObject } from "@/lib/client/list-state";
import type { SearchSource } from "@/lib/client/palette-search";
import { queryKeys } from "@/lib/client/query-keys";
import { collectionPath } from "@/lib/client/resource-path";
import { rulesQuery } from "@/lib/client/use-access";
import { useListAccess } from "@/lib/client/use-list-access";
import { useNamespaces } from "@/lib/client/use-namespaces";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { consoleKind } from "@/lib/client/console-kinds";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { kindSegment } from "@/lib/client/custom-kinds";

const FETCH_STALE_MS = 60_000;

interface LiveList {
  kind: AnyKind;
  namespace: string;
  state: ListState;
}

function liveLists(client: ReturnType<typeof useQueryClient>): LiveList[] {
  const out: LiveList[] = [];
  for (const [key, state] of client.getQueriesData<ListState>({ queryKey: [...queryKeys.all, "list"] })) {
    // Only whole lists: a label or field selector (an object page's single-object watch) is a part.
    const [, , plural, namespace, labelSelector, fieldSelector] = key as string[];
    const kind = consoleKind(plural);
    if (!kind || !state?.items || labelSelector || fieldSelector) continue;
    out.push({ kind, namespace: namespace ?? "", state });
  }
  return out;
}

export function useSearchSources(open: boolean): { sources: SearchSource[]; fetching: boolean; notListed: AnyKind[] } {
  const client = useQueryClient();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!open) return;
    let scheduled = false;
    return client.getQueryCache().subscribe(() => {
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        setVersion((v) => v + 1);
      }, 200);
    });
  }, [client, open]);

  const kinds = useConsoleKinds();
  const canListAll = useListAccess("", { enabled: open });
  const denied = open ? kinds.filter((k) => !canListAll(k).allowed) : [];
  const deniedNamespaced = denied.filter((k) => k.namespaced);
  const { namespaces } = useNamespaces(open && deniedNamespaced.length > 0);
  const rules = useQueries({ queries: (deniedNamespaced.length ? namespaces : []).map((ns) => ({ ...rulesQuery(ns), enabled: open })) });

  // eslint-disable-next-line react-hooks/exhaustive-deps
  const live = useMemo(() => (open ? liveLists(client) : []), [client, open, version]);
  const liveScopes = new Set(live.map((l) => `${kindSegment(l.kind)}/${l.namespace}`));

  const wanted: { kind: AnyKind; namespace: string }[] = [];
  const notListed: AnyKind[] = [];
  if (open) {
    for (const kind of kinds) {
      const access = canListAll(kind);
      if (access.decision === "loading") continue;
      if (access.allowed) {
        if (!liveScopes.has(`${kindSegment(kind)}/`)) wanted.push({ kind, namespace: "" });
        continue;
      }
      let any = false;
      if (kind.namespaced) {
        namespaces.forEach((ns, i) => {
          const status = rules[i]?.data;
          if (!status || decideFromRules(status, accessAttributes(kind, "list")) === "denied") return;
          any = true;
          if (!liveScopes.has(`${kindSegment(kind)}/${ns}`)) wanted.push({ kind, namespace: ns });
        });
      }
      if (!any) notListed.push(kind);
    }
  }

  const fetched = useQueries({
    queries: wanted.map(({ kind, namespace }) => ({
      queryKey: queryKeys.searchList(kindSegment(kind), namespace),
      queryFn: async ({ signal }: { signal?: AbortSignal }) => {
        const body = maskedList(kind, await apiRequest<ListBody>(collectionPath(kind, namespace || undefined), { signal }));
        return (body.items ?? []).map(stripObject);
      },
      staleTime: FETCH_STALE_MS,
      gcTime: 5 * 60_000,
      retry: false,
      enabled: open,
    })),
  });

  const fetchedKey = fetched.map((f) => f.dataUpdatedAt).join(",");
  const sources = useMemo(() => {
    const out: SearchSource[] = [];
    // A Map's values() can be walked once; each search walks again.
    for (const l of live) out.push({ kind: l.kind, objects: { [Symbol.iterator]: () => l.state.items.values() } });
    wanted.forEach(({ kind }, i) => {
      const data = fetched[i]?.data as KubeObject[] | undefined;
      if (data) out.push({ kind, objects: data });
    });
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live, fetchedKey, wanted.length]);
  return { sources, fetching: fetched.some((f) => f.isFetching), notListed };
}

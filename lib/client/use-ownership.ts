"use client";
// Every kind the user can list, live, in the scope where an object's dependents can live: the object's
// namespace for a namespaced owner (only namespaced kinds), the whole cluster for a cluster-scoped one. The
// lists are shared with any other view of the same lists, and their watches run in the background (they give
// way to the page's own watches when the browser has few connections). Kinds that could not be listed are
// reported, so a view can say "not all dependents could be listed" instead of "none".
import { useMemo, useRef } from "react";
import { kinds, type AnyKind } from "../kinds";
import { ownershipGraph, type Located, type OwnershipGraph } from "./dependents";
import { useResourceList, type ResourceListResult } from "./use-resource-list";

export interface UnlistedKind {
  kind: AnyKind;
  /** The HTTP status (403 when the user's roles do not allow it), 0 when the server could not be reached. */
  code: number;
  message: string;
}

export interface OwnershipLists {
  graph: OwnershipGraph;
  /** Whether `kind` (by its `kind` name) was listed in the whole scope. */
  listed: (kind: string) => boolean;
  /** Kinds still loading. */
  loading: AnyKind[];
  /** Kinds that could not be listed. */
  unlisted: UnlistedKind[];
}

/** Where dependents of an object of `kind` in `namespace` can be: its namespace, or (undefined) anywhere. */
export function dependentScope(kind: AnyKind, namespace: string | undefined): string | undefined {
  return kind.namespaced ? namespace : undefined;
}

const inScope = (kind: AnyKind, namespace: string | undefined) => namespace === undefined || kind.namespaced;

/** `namespace` undefined: every kind, cluster-wide. */
export function useOwnershipLists(namespace: string | undefined, enabled = true): OwnershipLists {
  const results: ResourceListResult[] = [];
  // `kinds` is fixed, so the hooks are called in the same order on every render.
  for (const kind of kinds) {
    // eslint-disable-next-line react-hooks/rules-of-hooks
    results.push(useResourceList(kind, { namespace }, { enabled: enabled && inScope(kind, namespace), background: true }));
  }
  const datas = results.map((r) => r.data);
  const previous = useRef<{ datas: unknown[]; graph: OwnershipGraph } | undefined>(undefined);
  let graph: OwnershipGraph;
  if (previous.current && previous.current.datas.length === datas.length && previous.current.datas.every((d, i) => d === datas[i])) {
    graph = previous.current.graph;
  } else {
    graph = ownershipGraph(located(datas));
    previous.current = { datas, graph };
  }
  const loading: AnyKind[] = [];
  const unlisted: UnlistedKind[] = [];
  const listedKinds = new Set<string>();
  kinds.forEach((kind, i) => {
    if (!enabled || !inScope(kind, namespace)) return;
    const r = results[i];
    if (r.data) listedKinds.add(kind.kind);
    else if (r.error) unlisted.push({ kind, code: (r.error as { code?: number }).code ?? 0, message: r.error.message });
    else loading.push(kind);
  });
  const listedKey = [...listedKinds].join(",");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const listed = useMemo(() => (kind: string) => listedKinds.has(kind), [listedKey]);
  return { graph, listed, loading, unlisted };

  function located(lists: typeof datas): Located[] {
    const out: Located[] = [];
    kinds.forEach((kind, i) => {
      for (const obj of lists[i]?.items.values() ?? []) out.push({ kind: kind.kind, namespaced: kind.namespaced, obj });
    });
    return out;
  }
}

// URLs of our REST API for a kind, built from its declaration (group, plural, namespaced), so no view
// spells a path by hand. Same paths kubectl uses.
import { groupVersionPath, type AnyKind } from "../kinds";

export interface ListScope {
  /** Namespace to list in; undefined (or any value for a cluster-scoped kind) lists cluster-wide. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** Collection path: `<group version>/namespaces/<ns>/<plural>` or `<group version>/<plural>` (`/api/v1`, `/apis/<group>/v1`). */
export function collectionPath(kind: AnyKind, namespace?: string): string {
  const base = groupVersionPath(kind);
  return kind.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${kind.plural}` : `${base}/${kind.plural}`;
}

export function objectPath(kind: AnyKind, namespace: string | undefined, name: string): string {
  return `${collectionPath(kind, kind.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
}

export function listUrl(kind: AnyKind, scope: ListScope): string {
  return collectionPath(kind, scope.namespace) + query({ labelSelector: scope.labelSelector, fieldSelector: scope.fieldSelector });
}

export function watchUrl(kind: AnyKind, scope: ListScope, resourceVersion: string): string {
  return (
    collectionPath(kind, scope.namespace) +
    query({
      watch: "true",
      resourceVersion,
      allowWatchBookmarks: "true",
      labelSelector: scope.labelSelector,
      fieldSelector: scope.fieldSelector,
    })
  );
}

export function withDryRun(path: string, dryRun: boolean | undefined): string {
  if (!dryRun) return path;
  return path + (path.includes("?") ? "&" : "?") + "dryRun=All";
}

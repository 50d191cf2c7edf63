// The console's calls to the history API (lib/history): an object's revisions, a kind's deleted objects, a
// namespace's recent changes; restore (PUT with the current resourceVersion: a change made meanwhile is a
// 409) and re-create (POST of the last revision without what the server owns).
import { apiRequest } from "@/lib/client/api-client";
import { collectionPath, objectPath } from "@/lib/client/resource-path";
import { CONSOLE_FIELD_MANAGER } from "@/lib/client/object-writes";
import type { HistoryRevision } from "@/lib/history/history-api";
import type { AnyKind, KubeObject } from "@/lib/kinds";

export const HISTORY_API = "/apis/history.cluster-core.dev/v1";

/** One revision as the history API answers it, its object typed for the console. */
export type Revision = Omit<HistoryRevision, "object"> & { object: KubeObject };

export interface RevisionList {
  items: Revision[];
}

const manager = `fieldManager=${encodeURIComponent(CONSOLE_FIELD_MANAGER)}`;

export function fetchObjectHistory(kind: AnyKind, namespace: string | undefined, name: string, limit = 100): Promise<RevisionList> {
  return apiRequest<RevisionList>(`${objectPath(kind, namespace, name)}/history?limit=${limit}`);
}

const resourceName = (kind: AnyKind) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);

export function fetchDeleted(kind: AnyKind, namespace: string | undefined): Promise<RevisionList> {
  const scope = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : "";
  return apiRequest<RevisionList>(`${HISTORY_API}${scope}/deleted/${resourceName(kind)}`);
}

export function fetchChanges(namespace: string, sinceSeconds: number): Promise<RevisionList> {
  return apiRequest<RevisionList>(`${HISTORY_API}/namespaces/${encodeURIComponent(namespace)}/changes?sinceSeconds=${sinceSeconds}`);
}

/** What an object revision looks like written back: without the fields the server owns or sets on write. */
export function writableCopy(obj: KubeObject, keepStatus = true): KubeObject {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, deletionTimestamp: _dt,
    deletionGracePeriodSeconds: _dg, generation: _g, selfLink: _sl, ...metadata } = obj.metadata ?? {};
  const { status, ...rest } = obj as KubeObject & { status?: unknown };
  return { ...rest, ...(keepStatus && status !== undefined ? { status } : {}), metadata } as KubeObject;
}

/** The revision's content as an update of the current object: a PUT that holds only if it is still at `currentResourceVersion`. */
export function restoreRevision(kind: AnyKind, revision: KubeObject, currentResourceVersion: string): Promise<KubeObject> {
  const body = writableCopy(revision);
  body.metadata = { ...body.metadata, resourceVersion: currentResourceVersion };
  return apiRequest<KubeObject>(`${objectPath(kind, revision.metadata.namespace, revision.metadata.name ?? "")}?${manager}`, { method: "PUT", body });
}

/** A deleted object made again from its last revision (no uid, resourceVersion, creationTimestamp, status, managedFields). */
export function recreateObject(kind: AnyKind, last: KubeObject): Promise<KubeObject> {
  return apiRequest<KubeObject>(`${collectionPath(kind, kind.namespaced ? last.metadata.namespace : undefined)}?${manager}`, {
    method: "POST", body: writableCopy(last, false),
  });
}

/** The console's page of a kind's deleted objects. */
export function deletedHref(kind: AnyKind, namespace?: string): string {
  return `/history/deleted/${kind.plural}${kind.namespaced && namespace ? `?namespace=${encodeURIComponent(namespace)}` : ""}`;
}

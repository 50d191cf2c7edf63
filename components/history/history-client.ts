// The console's calls to the history API (lib/history): an object's revisions, a kind's deleted objects, a
// namespace's recent changes; restore (PUT with the current resourceVersion: a change made meanwhile is a
// 409) and re-create (POST of the last revision without what the server owns). A Secret's revisions come
// back masked (lib/client/secret-mask.ts), so no diff, replay or feed holds its values (each value is shown
// by its length and a per-page fingerprint, so a diff still shows which values changed); restoring or
// re-creating one reads its revision again, as stored, just to write it.
import { apiRequest } from "@/lib/client/api-client";
import { collectionPath, objectPath } from "@/lib/client/resource-path";
import { CONSOLE_FIELD_MANAGER } from "@/lib/client/object-writes";
import { isSecretKind, maskSecret } from "@/lib/client/secret-mask";
import type { HistoryRevision } from "@/lib/history/history-api";
import type { AnyKind, KubeObject } from "@/lib/kinds";

export const HISTORY_API = "/apis/history.cluster-core.dev/v1";

/** One revision as the history API answers it, its object typed for the console. */
export type Revision = Omit<HistoryRevision, "object"> & { object: KubeObject };

export interface RevisionList {
  items: Revision[];
}

const manager = `fieldManager=${encodeURIComponent(CONSOLE_FIELD_MANAGER)}`;

/** The revisions with each Secret's masked; `isSecret` tells them apart (a namespace's changes mix kinds). */
function masked(list: RevisionList, isSecret: (r: Revision) => boolean): RevisionList {
  return { ...list, items: (list.items ?? []).map((r) => (isSecret(r) ? { ...r, object: maskSecret(r.object, "fingerprint") } : r)) };
}

const objectHistoryPath = (kind: AnyKind, namespace: string | undefined, name: string, limit: number) => `${objectPath(kind, namespace, name)}/history?limit=${limit}`;

export async function fetchObjectHistory(kind: AnyKind, namespace: string | undefined, name: string, limit = 100): Promise<RevisionList> {
  return masked(await apiRequest<RevisionList>(objectHistoryPath(kind, namespace, name, limit)), () => isSecretKind(kind));
}

const resourceName = (kind: AnyKind) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);

function deletedPath(kind: AnyKind, namespace: string | undefined): string {
  const scope = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : "";
  return `${HISTORY_API}${scope}/deleted/${resourceName(kind)}`;
}

export async function fetchDeleted(kind: AnyKind, namespace: string | undefined): Promise<RevisionList> {
  return masked(await apiRequest<RevisionList>(deletedPath(kind, namespace)), () => isSecretKind(kind));
}

export async function fetchChanges(namespace: string, sinceSeconds: number): Promise<RevisionList> {
  const list = await apiRequest<RevisionList>(`${HISTORY_API}/namespaces/${encodeURIComponent(namespace)}/changes?sinceSeconds=${sinceSeconds}`);
  return masked(list, (r) => r.resource === "secrets" && !r.group);
}

/** A revision as stored: a Secret's is read again (the one held is masked), found by its resourceVersion. */
async function asStored(kind: AnyKind, revision: Revision, path: string): Promise<KubeObject> {
  if (!isSecretKind(kind)) return revision.object;
  const { items } = await apiRequest<RevisionList>(path);
  const stored = (items ?? []).find((r) => r.resourceVersion === revision.resourceVersion);
  if (!stored) throw new Error(`Revision ${revision.resourceVersion} of this Secret is no longer in its history`);
  return stored.object;
}

/** What an object revision looks like written back: without the fields the server owns or sets on write. */
export function writableCopy(obj: KubeObject, keepStatus = true): KubeObject {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, deletionTimestamp: _dt,
    deletionGracePeriodSeconds: _dg, generation: _g, selfLink: _sl, ...metadata } = obj.metadata ?? {};
  const { status, ...rest } = obj as KubeObject & { status?: unknown };
  return { ...rest, ...(keepStatus && status !== undefined ? { status } : {}), metadata } as KubeObject;
}

/** The revision's content as an update of the current object: a PUT that holds only if it is still at `currentResourceVersion`. */
export async function restoreRevision(kind: AnyKind, revision: Revision, currentResourceVersion: string): Promise<KubeObject> {
  const { namespace, name } = revision.object.metadata;
  const body = writableCopy(await asStored(kind, revision, objectHistoryPath(kind, namespace, name ?? "", 100)));
  body.metadata = { ...body.metadata, resourceVersion: currentResourceVersion };
  return apiRequest<KubeObject>(`${objectPath(kind, namespace, name ?? "")}?${manager}`, { method: "PUT", body });
}

/** A deleted object made again from its last revision (no uid, resourceVersion, creationTimestamp, status, managedFields). */
export async function recreateObject(kind: AnyKind, revision: Revision): Promise<KubeObject> {
  const last = await asStored(kind, revision, deletedPath(kind, revision.object.metadata.namespace));
  return apiRequest<KubeObject>(`${collectionPath(kind, kind.namespaced ? last.metadata.namespace : undefined)}?${manager}`, {
    method: "POST", body: writableCopy(last, false),
  });
}

/** The console's page of a kind's deleted objects. */
export function deletedHref(kind: AnyKind, namespace?: string): string {
  return `/history/deleted/${kind.plural}${kind.namespaced && namespace ? `?namespace=${encodeURIComponent(namespace)}` : ""}`;
}

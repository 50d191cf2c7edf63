// Serves the object history (read-only JSON) once the request is authorized (see history-request.ts):
// an object's revisions, a kind's deleted objects, a namespace's recent changes. Every entry carries its
// resourceVersion, time, event type, who made it (the request's authenticated user as the write recorded
// it; none for the server's own writes) and the object as it was after the write.
import type { UserInfo } from "../auth/user-info";
import type { Authorizer } from "../authz/attributes";
import { errors } from "../status";
import type { RequestInfo } from "../request/request-info";
import { groupResource, kindByPlural, kindByStorageResource, storageResourceOf } from "../kinds";
import type { AnyKind } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { HistoryEntry } from "../storage";
import { HISTORY_API_VERSION, listableKinds, type HistoryRequest } from "./history-request";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
export const DEFAULT_CHANGES_SECONDS = 3600;

/** One revision as the API answers it. */
export interface HistoryRevision {
  resourceVersion: string;
  /** RFC 3339 with milliseconds. */
  time: string;
  type: "ADDED" | "MODIFIED" | "DELETED";
  /** The user who made the write; absent for the server's own writes. */
  user?: { username: string; groups: string[] };
  /** Where the object lives (a namespace's changes mix kinds): the plural, its group ("" core). */
  resource?: string;
  group?: string;
  object: unknown;
}

function integer(q: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw errors.badRequest(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/**
 * The kind whose objects are stored under `plural` in `group`: a declared kind, or the storage version of a custom
 * kind (stored as `<plural>.<group>`).
 */
function kindOfResource(plural: string, group: string): AnyKind | undefined {
  const declared = kindByPlural(plural);
  if (declared && (declared.group ?? "") === group) return declared;
  const added = group ? kindByStorageResource(`${plural}.${group}`) : undefined;
  return added && (added.group ?? "") === group && added.plural === plural ? added : undefined;
}

function revision(e: HistoryEntry, withResource = false): HistoryRevision {
  const kind = withResource ? kindByStorageResource(e.key.resource) : undefined;
  return {
    resourceVersion: String(e.rev),
    time: new Date(e.createdAt).toISOString(),
    type: e.type,
    ...(e.user ? { user: { username: e.user.username, groups: e.user.groups ?? [] } } : {}),
    ...(withResource ? { resource: kind?.plural ?? e.key.resource, group: kind?.group ?? "" } : {}),
    object: JSON.parse(e.json),
  };
}

/**
 * The JSON answer of an authorized history request. `object`: what the object path of an object's history
 * addresses, as the pipeline parsed it (once, with the rest of the request).
 */
export async function historyAnswer(
  registry: Registry, authorizer: Authorizer, user: UserInfo, req: HistoryRequest, q: URLSearchParams, object?: RequestInfo,
): Promise<unknown> {
  const log = registry.store.history;
  const rev = String(registry.store.objects.rev);
  switch (req.type) {
    case "object": {
      const info = object;
      if (info?.type !== "resource" || info.name === undefined || info.subresource || info.watchPath) throw errors.routeNotFound();
      const kind = info.kind.servedFrom ?? info.kind;
      const limit = integer(q, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
      const before = q.get("before") ? integer(q, "before", 0, 1, Number.MAX_SAFE_INTEGER) : undefined;
      const key = { resource: storageResourceOf(kind), namespace: kind.namespaced ? info.namespace ?? "" : "", name: info.name };
      const entries = await log.history(key, limit, before);
      if (entries.length === 0 && before === undefined) throw errors.notFound(groupResource(kind), info.name);
      return {
        kind: "ObjectHistory", apiVersion: HISTORY_API_VERSION, metadata: { resourceVersion: rev },
        resource: kind.plural, group: kind.group ?? "", ...(kind.namespaced ? { namespace: key.namespace } : {}), name: info.name,
        items: entries.map((e) => revision(e)),
      };
    }
    case "deleted": {
      const kind = kindOfResource(req.resource, req.group);
      if (!kind) throw errors.routeNotFound();
      if (!kind.namespaced && req.namespace !== undefined) throw errors.routeNotFound();
      const limit = integer(q, "limit", 500, 1, MAX_LIMIT);
      const entries = await log.deletedObjects(storageResourceOf(kind), kind.namespaced ? req.namespace : "", limit);
      return {
        kind: "DeletedObjectList", apiVersion: HISTORY_API_VERSION, metadata: { resourceVersion: rev },
        resource: kind.plural, group: kind.group ?? "", items: entries.map((e) => revision(e)),
      };
    }
    case "changes": {
      const seconds = integer(q, "sinceSeconds", DEFAULT_CHANGES_SECONDS, 1, 366 * 86_400);
      const limit = integer(q, "limit", 500, 1, MAX_LIMIT);
      const resources = listableKinds(authorizer, user, req.namespace).map((k) => storageResourceOf(k));
      const entries = await log.changes(req.namespace, resources, Date.now() - seconds * 1000, limit);
      return {
        kind: "ChangeList", apiVersion: HISTORY_API_VERSION, metadata: { resourceVersion: rev },
        namespace: req.namespace, sinceSeconds: seconds, items: entries.map((e) => revision(e, true)),
      };
    }
  }
}

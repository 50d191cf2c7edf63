// The operations of every kind, generated from the kind list (names, scope, status subresource), in
// kube-apiserver's shape: operationIds like `patchCoreV1NamespacedPod`, `x-kubernetes-action` and
// `x-kubernetes-group-version-kind` on each operation, query parameters declared on the operation itself (kubectl
// looks for `fieldValidation` among a PATCH operation's own parameters to switch to server-side validation).
import type { AnyKind } from "../kinds/types";
import { coreType, metaType } from "../kinds/schema/names";

export type Method = "get" | "post" | "put" | "patch" | "delete";
type Action = "get" | "list" | "watch" | "watchlist" | "post" | "put" | "patch" | "delete" | "deletecollection";

export interface QueryParameter {
  name: string;
  type: "string" | "integer" | "boolean";
  description: string;
}

export interface Operation {
  method: Method;
  operationId: string;
  description: string;
  action: Action;
  kind: string;
  query: QueryParameter[];
  /** Request body component: the object, a patch, DeleteOptions. */
  body?: { component: string; patch?: boolean; required: boolean };
  responses: { code: number; description: string; component: string }[];
  /** Produces the watch stream media types too. */
  stream?: boolean;
}

export interface PathItem {
  path: string;
  pathParameters: ("name" | "namespace")[];
  operations: Operation[];
}

const q = (name: string, type: QueryParameter["type"], description: string): QueryParameter => ({ name, type, description });

export const PRETTY = q("pretty", "string", "If 'true', the output is pretty printed (indented JSON).");

const P = {
  allowWatchBookmarks: q("allowWatchBookmarks", "boolean", "Asks for BOOKMARK events carrying only a newer resourceVersion; the server may or may not send them."),
  continue: q("continue", "string", "Token from a previous paginated list; returns the next page of the same query. An expired token answers 410 Expired."),
  dryRun: q("dryRun", "string", "All: run every stage of the request but persist nothing. No other value is allowed."),
  exact: q("exact", "boolean", "Deprecated: with export, keep cluster-specific fields such as the namespace."),
  export: q("export", "boolean", "Deprecated: strip the fields a user cannot set."),
  fieldManager: q("fieldManager", "string", "Name of the actor making the change (at most 128 printable characters); defaults to the client's user agent."),
  fieldSelector: q("fieldSelector", "string", "Restricts the objects returned by their fields, e.g. metadata.name=x,status.phase!=Running. Defaults to everything."),
  fieldValidation: q(
    "fieldValidation",
    "string",
    "How to treat fields the server does not know and duplicate fields: Ignore (drop them silently), Warn (drop them, one Warning header each; the default) or Strict (fail with 400 BadRequest).",
  ),
  force: q("force", "boolean", "Server-side apply only: take ownership of conflicting fields."),
  gracePeriodSeconds: q("gracePeriodSeconds", "integer", "Seconds before the object is deleted; 0 deletes at once; unset uses the kind's default."),
  includeUninitialized: q("includeUninitialized", "boolean", "Deprecated: include objects that are not yet initialized."),
  labelSelector: q("labelSelector", "string", "Restricts the objects returned by their labels, e.g. app=web,tier!=db. Defaults to everything."),
  limit: q("limit", "integer", "Most items to return; the list then carries a continue token when more exist. The server may return fewer."),
  orphanDependents: q("orphanDependents", "boolean", "Deprecated (use propagationPolicy): true orphans the dependents, false garbage-collects them."),
  propagationPolicy: q("propagationPolicy", "string", "Garbage collection of dependents: Orphan, Background or Foreground."),
  resourceVersion: q("resourceVersion", "string", "For list: unset for the latest, 0 for any cached state, N for at least as fresh as N. For watch: changes after N."),
  resourceVersionMatch: q("resourceVersionMatch", "string", "How resourceVersion applies to a list: NotOlderThan or Exact."),
  sendInitialEvents: q("sendInitialEvents", "boolean", "With watch: start the stream with synthetic ADDED events for the current state, then a BOOKMARK."),
  timeoutSeconds: q("timeoutSeconds", "integer", "Limit on the duration of the list or watch call."),
  watch: q("watch", "boolean", "Stream ADDED, MODIFIED and DELETED notifications instead of a list; start from resourceVersion."),
};

const LIST_QUERY = [
  P.allowWatchBookmarks, P.continue, P.fieldSelector, P.includeUninitialized, P.labelSelector, P.limit,
  P.resourceVersion, P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds, P.watch,
];
const WRITE_QUERY = [P.dryRun, P.fieldManager, P.fieldValidation];
const PATCH_QUERY = [...WRITE_QUERY, P.force];
const DELETE_QUERY = [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy];
const DELETE_COLLECTION_QUERY = [
  P.continue, P.dryRun, P.fieldSelector, P.gracePeriodSeconds, P.includeUninitialized, P.labelSelector, P.limit,
  P.orphanDependents, P.propagationPolicy, P.resourceVersion, P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds,
];
const READ_QUERY = [P.exact, P.export];

export const STATUS = metaType("Status");
export const DELETE_OPTIONS = metaType("DeleteOptions");
export const WATCH_EVENT = metaType("WatchEvent");
export const PATCH = metaType("Patch");

const ok = (component: string) => ({ code: 200, description: "OK", component });
const created = (component: string) => ({ code: 201, description: "Created", component });
const accepted = (component: string) => ({ code: 202, description: "Accepted", component });

/** The paths and operations of one kind. */
export function kindPaths(kind: AnyKind): PathItem[] {
  const K = kind.kind;
  const obj = coreType(K);
  const list = coreType(`${K}List`);
  const ns = kind.namespaced ? "Namespaced" : "";
  const base = kind.namespaced ? `/api/v1/namespaces/{namespace}/${kind.plural}` : `/api/v1/${kind.plural}`;
  const scopeParams: ("namespace")[] = kind.namespaced ? ["namespace"] : [];
  const a = /^[AEIOU]/.test(K) ? "an" : "a";
  const deleted = kind.deleteReturns === "status" ? STATUS : obj;
  const collectionDeleted = kind.deleteCollectionReturns === "status" ? STATUS : list;
  const op = (o: Omit<Operation, "kind">): Operation => ({ ...o, kind: K });

  const items: PathItem[] = [
    {
      path: base,
      pathParameters: scopeParams,
      operations: [
        op({ method: "get", operationId: `listCoreV1${ns}${K}`, action: "list", description: `list or watch objects of kind ${K}`, query: LIST_QUERY, responses: [ok(list)], stream: true }),
        op({
          method: "post", operationId: `createCoreV1${ns}${K}`, action: "post", description: `create ${a} ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj), accepted(obj)],
        }),
        op({
          method: "delete", operationId: `deleteCoreV1Collection${ns}${K}`, action: "deletecollection", description: `delete collection of ${K}`,
          query: DELETE_COLLECTION_QUERY, body: { component: DELETE_OPTIONS, required: false }, responses: [ok(collectionDeleted)],
        }),
      ],
    },
    {
      path: `${base}/{name}`,
      pathParameters: [...scopeParams, "name"],
      operations: [
        op({ method: "get", operationId: `readCoreV1${ns}${K}`, action: "get", description: `read the specified ${K}`, query: READ_QUERY, responses: [ok(obj)] }),
        op({
          method: "put", operationId: `replaceCoreV1${ns}${K}`, action: "put", description: `replace the specified ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj)],
        }),
        op({
          method: "delete", operationId: `deleteCoreV1${ns}${K}`, action: "delete", description: `delete ${a} ${K}`, query: DELETE_QUERY,
          body: { component: DELETE_OPTIONS, required: false }, responses: [ok(deleted), accepted(deleted)],
        }),
        op({
          method: "patch", operationId: `patchCoreV1${ns}${K}`, action: "patch", description: `partially update the specified ${K}`, query: PATCH_QUERY,
          body: { component: PATCH, patch: true, required: true }, responses: [ok(obj), created(obj)],
        }),
      ],
    },
  ];

  if (kind.hasStatus) {
    items.push({
      path: `${base}/{name}/status`,
      pathParameters: [...scopeParams, "name"],
      operations: [
        op({ method: "get", operationId: `readCoreV1${ns}${K}Status`, action: "get", description: `read status of the specified ${K}`, query: [], responses: [ok(obj)] }),
        op({
          method: "put", operationId: `replaceCoreV1${ns}${K}Status`, action: "put", description: `replace status of the specified ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj)],
        }),
        op({
          method: "patch", operationId: `patchCoreV1${ns}${K}Status`, action: "patch", description: `partially update status of the specified ${K}`, query: PATCH_QUERY,
          body: { component: PATCH, patch: true, required: true }, responses: [ok(obj), created(obj)],
        }),
      ],
    });
  }

  if (kind.namespaced) {
    items.push({
      path: `/api/v1/${kind.plural}`,
      pathParameters: [],
      operations: [
        op({ method: "get", operationId: `listCoreV1${K}ForAllNamespaces`, action: "list", description: `list or watch objects of kind ${K}`, query: LIST_QUERY, responses: [ok(list)], stream: true }),
        // Cluster Core also creates on the unscoped path, in the namespace the body names (or default).
        op({
          method: "post", operationId: `createCoreV1${K}ForAllNamespaces`, action: "post", description: `create ${a} ${K} in the namespace its metadata names`,
          query: WRITE_QUERY, body: { component: obj, required: true }, responses: [ok(obj), created(obj), accepted(obj)],
        }),
      ],
    });
    items.push(
      watchItem(`/api/v1/watch/namespaces/{namespace}/${kind.plural}`, ["namespace"], `watchCoreV1Namespaced${K}List`, "watchlist", `watch individual changes to a list of ${K}`, K),
      watchItem(`/api/v1/watch/namespaces/{namespace}/${kind.plural}/{name}`, ["namespace", "name"], `watchCoreV1Namespaced${K}`, "watch", `watch changes to an object of kind ${K}`, K),
      watchItem(`/api/v1/watch/${kind.plural}`, [], `watchCoreV1${K}ListForAllNamespaces`, "watchlist", `watch individual changes to a list of ${K}`, K),
    );
  } else {
    items.push(
      watchItem(`/api/v1/watch/${kind.plural}`, [], `watchCoreV1${K}List`, "watchlist", `watch individual changes to a list of ${K}`, K),
      watchItem(`/api/v1/watch/${kind.plural}/{name}`, ["name"], `watchCoreV1${K}`, "watch", `watch changes to an object of kind ${K}`, K),
    );
  }
  return items;
}

function watchItem(path: string, pathParameters: PathItem["pathParameters"], operationId: string, action: Action, description: string, kind: string): PathItem {
  return {
    path,
    pathParameters,
    operations: [{ method: "get", operationId, action, description, kind, query: LIST_QUERY, responses: [ok(WATCH_EVENT)], stream: true }],
  };
}

export const PATH_PARAMETER_DESCRIPTIONS = {
  name: (kind: string) => `name of the ${kind}`,
  namespace: () => "object name and auth scope, such as for teams and projects",
};

/** Media types an operation answers with (no protobuf: Cluster Core does not offer it). */
export const produces = (o: Operation) => ["application/json", "application/yaml", ...(o.stream ? ["application/json;stream=watch"] : [])];

/** Media types an operation accepts. */
export const consumes = (o: Operation) =>
  o.body?.patch ? ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json"] : ["*/*"];

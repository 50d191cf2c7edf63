// The operations of every kind, generated from the kind list (names, scope, status subresource), in
// kube-apiserver's shape: operationIds like `patchCoreV1NamespacedPod`, `x-kubernetes-action` and
// `x-kubernetes-group-version-kind` on each operation, query parameters declared on the operation itself (kubectl
// looks for `fieldValidation` among a PATCH operation's own parameters to switch to server-side validation).
import { groupVersionPath } from "../kinds";
import { ACTION_SUBRESOURCES, type ReviewResource } from "../kinds/reviews";
import type { AnyKind } from "../kinds/types";
import { coreType, metaType } from "../kinds/schema/names";
import { customComponentName } from "./custom-kind-schemas";

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
  /** API group of the kind ("" for core). */
  group: string;
  /** Version of the kind (default v1). */
  version?: string;
  kind: string;
  /** The group version whose tag the operation carries when it is not the kind's (`serviceaccounts/token`: core). */
  tagGroup?: string;
  query: QueryParameter[];
  /** Request body component: the object, a patch, DeleteOptions. */
  body?: { component: string; patch?: boolean; required: boolean };
  responses: { code: number; description: string; component: string }[];
  /** Produces the watch stream media types too. */
  stream?: boolean;
  /** A custom kind's operation: kube's custom resource media types (no strategic merge patch). */
  custom?: boolean;
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
export const SCALE = "io.k8s.api.autoscaling.v1.Scale";

const ok = (component: string) => ({ code: 200, description: "OK", component });
const created = (component: string) => ({ code: 201, description: "Created", component });
const accepted = (component: string) => ({ code: 202, description: "Accepted", component });

/**
 * kube's operationId infix of a group version: `CoreV1`, `RbacAuthorizationV1` (the group without `.k8s.io`,
 * camel-cased at dots and dashes).
 */
export function operationGroup(group: string, version = "v1"): string {
  const v = version.charAt(0).toUpperCase() + version.slice(1);
  if (!group) return `Core${v}`;
  const words = group.replace(/\.k8s\.io$/, "").split(/[.-]/);
  return `${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")}${v}`;
}

/** kube's tag of a group version's operations: `core_v1`, `rbacAuthorization_v1`, `exampleCom_v1beta1`. */
export function operationTag(group: string, version = "v1"): string {
  const id = operationGroup(group, version).slice(0, -version.length);
  return `${id.charAt(0).toLowerCase()}${id.slice(1)}_${version}`;
}

/** Component name of a kind's schema (its declared name; core/v1's spelling for a kind without a schema). */
export function kindComponent(kind: AnyKind): string {
  if (kind.openapi) return customComponentName(kind.group ?? "", kind.version ?? "v1", kind.kind);
  const s = kind.schema;
  return s?.type === "object" && s.name ? s.name : coreType(kind.kind);
}

/** What a built-in kind's REST paths and a custom kind's (kube's two builders) differ in; restPaths builds both. */
interface RestShape {
  op: (o: Omit<Operation, "kind" | "group" | "version" | "custom">) => Operation;
  /** operationId pieces: the group's id, "Namespaced" or "", the kind, its article. */
  id: string;
  ns: string;
  K: string;
  a: string;
  base: string;
  scopeParams: ("namespace")[];
  /** Components: the object, its list, what a DELETE and a deletecollection answer. */
  obj: string;
  list: string;
  deleted: string;
  collectionDeleted: string;
  listDescription: string;
  stream?: true;
  deleteCollection: boolean;
  readQuery: QueryParameter[];
  statusReadQuery: QueryParameter[];
  hasStatus: boolean;
}

/** The collection (list, create, deletecollection), the named object (read, replace, delete, patch) and `/status`. */
function restPaths(s: RestShape): PathItem[] {
  const { op, id, ns, K, a, base, scopeParams, obj, list } = s;
  const items: PathItem[] = [
    {
      path: base,
      pathParameters: scopeParams,
      operations: [
        op({ method: "get", operationId: `list${id}${ns}${K}`, action: "list", description: s.listDescription, query: LIST_QUERY, responses: [ok(list)], ...(s.stream ? { stream: true } : {}) }),
        op({
          method: "post", operationId: `create${id}${ns}${K}`, action: "post", description: `create ${a} ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj), accepted(obj)],
        }),
        ...(s.deleteCollection ? [op({
          method: "delete", operationId: `delete${id}Collection${ns}${K}`, action: "deletecollection", description: `delete collection of ${K}`,
          query: DELETE_COLLECTION_QUERY, body: { component: DELETE_OPTIONS, required: false }, responses: [ok(s.collectionDeleted)],
        })] : []),
      ],
    },
    {
      path: `${base}/{name}`,
      pathParameters: [...scopeParams, "name"],
      operations: [
        op({ method: "get", operationId: `read${id}${ns}${K}`, action: "get", description: `read the specified ${K}`, query: s.readQuery, responses: [ok(obj)] }),
        op({
          method: "put", operationId: `replace${id}${ns}${K}`, action: "put", description: `replace the specified ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj)],
        }),
        op({
          method: "delete", operationId: `delete${id}${ns}${K}`, action: "delete", description: `delete ${a} ${K}`, query: DELETE_QUERY,
          body: { component: DELETE_OPTIONS, required: false }, responses: [ok(s.deleted), accepted(s.deleted)],
        }),
        op({
          method: "patch", operationId: `patch${id}${ns}${K}`, action: "patch", description: `partially update the specified ${K}`, query: PATCH_QUERY,
          body: { component: PATCH, patch: true, required: true }, responses: [ok(obj), created(obj)],
        }),
      ],
    },
  ];
  if (s.hasStatus) {
    items.push({
      path: `${base}/{name}/status`,
      pathParameters: [...scopeParams, "name"],
      operations: [
        op({ method: "get", operationId: `read${id}${ns}${K}Status`, action: "get", description: `read status of the specified ${K}`, query: s.statusReadQuery, responses: [ok(obj)] }),
        op({
          method: "put", operationId: `replace${id}${ns}${K}Status`, action: "put", description: `replace status of the specified ${K}`, query: WRITE_QUERY,
          body: { component: obj, required: true }, responses: [ok(obj), created(obj)],
        }),
        op({
          method: "patch", operationId: `patch${id}${ns}${K}Status`, action: "patch", description: `partially update status of the specified ${K}`, query: PATCH_QUERY,
          body: { component: PATCH, patch: true, required: true }, responses: [ok(obj), created(obj)],
        }),
      ],
    });
  }
  return items;
}

/** The paths and operations of one kind. */
export function kindPaths(kind: AnyKind): PathItem[] {
  const K = kind.kind;
  const G = kind.group ?? "";
  const gv = groupVersionPath(kind);
  const id = operationGroup(G);
  const obj = kindComponent(kind);
  const list = `${obj}List`;
  const ns = kind.namespaced ? "Namespaced" : "";
  const base = kind.namespaced ? `${gv}/namespaces/{namespace}/${kind.plural}` : `${gv}/${kind.plural}`;
  const scopeParams: ("namespace")[] = kind.namespaced ? ["namespace"] : [];
  const a = /^[AEIOU]/.test(K) ? "an" : "a";
  const deleted = kind.deleteReturns === "status" ? STATUS : obj;
  const collectionDeleted = kind.deleteCollectionReturns === "status" ? STATUS : list;
  const op = (o: Omit<Operation, "kind" | "group">): Operation => ({ ...o, group: G, kind: K });
  const watchItem = (path: string, pathParameters: PathItem["pathParameters"], operationId: string, action: Action, description: string): PathItem => ({
    path,
    pathParameters,
    operations: [op({ method: "get", operationId, action, description, query: LIST_QUERY, responses: [ok(WATCH_EVENT)], stream: true })],
  });

  const items: PathItem[] = restPaths({
    op, id, ns, K, a, base, scopeParams, obj, list, deleted, collectionDeleted,
    listDescription: `list or watch objects of kind ${K}`, stream: true, deleteCollection: kind.deleteCollection !== false,
    readQuery: READ_QUERY, statusReadQuery: [], hasStatus: kind.hasStatus,
  });

  if (kind.namespaced) {
    items.push({
      path: `${gv}/${kind.plural}`,
      pathParameters: [],
      operations: [
        op({ method: "get", operationId: `list${id}${K}ForAllNamespaces`, action: "list", description: `list or watch objects of kind ${K}`, query: LIST_QUERY, responses: [ok(list)], stream: true }),
        // Cluster Core also creates on the unscoped path, in the namespace the body names (or default).
        op({
          method: "post", operationId: `create${id}${K}ForAllNamespaces`, action: "post", description: `create ${a} ${K} in the namespace its metadata names`,
          query: WRITE_QUERY, body: { component: obj, required: true }, responses: [ok(obj), created(obj), accepted(obj)],
        }),
      ],
    });
    items.push(
      watchItem(`${gv}/watch/namespaces/{namespace}/${kind.plural}`, ["namespace"], `watch${id}Namespaced${K}List`, "watchlist", `watch individual changes to a list of ${K}`),
      watchItem(`${gv}/watch/namespaces/{namespace}/${kind.plural}/{name}`, ["namespace", "name"], `watch${id}Namespaced${K}`, "watch", `watch changes to an object of kind ${K}`),
      watchItem(`${gv}/watch/${kind.plural}`, [], `watch${id}${K}ListForAllNamespaces`, "watchlist", `watch individual changes to a list of ${K}`),
    );
  } else {
    items.push(
      watchItem(`${gv}/watch/${kind.plural}`, [], `watch${id}${K}List`, "watchlist", `watch individual changes to a list of ${K}`),
      watchItem(`${gv}/watch/${kind.plural}/{name}`, ["name"], `watch${id}${K}`, "watch", `watch changes to an object of kind ${K}`),
    );
  }
  return items;
}

/**
 * The operations of a custom kind's version, as kube's CRD builder declares them: list (and list in all namespaces
 * for a namespaced kind), create, deletecollection, read, replace, delete, patch, and read/replace/patch of
 * `/status` when the version has that subresource. No watch paths (kube publishes none for custom kinds), patch
 * media types without strategic merge patch, DELETE answering a Status.
 */
export function customKindPaths(kind: AnyKind): PathItem[] {
  const K = kind.kind;
  const G = kind.group ?? "";
  const V = kind.version ?? "v1";
  const id = operationGroup(G, V);
  const obj = kindComponent(kind);
  const list = customComponentName(G, V, kind.openapi?.listKind ?? `${K}List`);
  const ns = kind.namespaced ? "Namespaced" : "";
  const gv = `/apis/${G}/${V}`;
  const base = kind.namespaced ? `${gv}/namespaces/{namespace}/${kind.plural}` : `${gv}/${kind.plural}`;
  const scopeParams: ("namespace")[] = kind.namespaced ? ["namespace"] : [];
  const a = article(K);
  const op = (o: Omit<Operation, "kind" | "group" | "version" | "custom">): Operation => ({ ...o, group: G, version: V, kind: K, custom: true });
  const items: PathItem[] = [];
  if (kind.namespaced) {
    items.push({
      path: `${gv}/${kind.plural}`,
      pathParameters: [],
      operations: [op({ method: "get", operationId: `list${id}${K}ForAllNamespaces`, action: "list", description: `list objects of kind ${K}`, query: LIST_QUERY, responses: [ok(list)] })],
    });
  }
  items.push(...restPaths({
    op, id, ns, K, a, base, scopeParams, obj, list, deleted: STATUS, collectionDeleted: STATUS,
    listDescription: `list objects of kind ${K}`, deleteCollection: true,
    readQuery: [P.resourceVersion], statusReadQuery: [P.resourceVersion], hasStatus: kind.hasStatus,
  }));
  if (kind.openapi?.scale) {
    items.push({
      path: `${base}/{name}/scale`,
      pathParameters: [...scopeParams, "name"],
      operations: [
        op({ method: "get", operationId: `read${id}${ns}${K}Scale`, action: "get", description: `read scale of the specified ${K}`, query: [P.resourceVersion], responses: [ok(SCALE)] }),
        op({
          method: "put", operationId: `replace${id}${ns}${K}Scale`, action: "put", description: `replace scale of the specified ${K}`, query: WRITE_QUERY,
          body: { component: SCALE, required: true }, responses: [ok(SCALE), created(SCALE)],
        }),
        op({
          method: "patch", operationId: `patch${id}${ns}${K}Scale`, action: "patch", description: `partially update scale of the specified ${K}`, query: PATCH_QUERY,
          body: { component: PATCH, patch: true, required: true }, responses: [ok(SCALE), created(SCALE)],
        }),
      ],
    });
  }
  return items;
}

/**
 * The create-only subresources a kind names (`serviceaccounts/{name}/token` → authentication.k8s.io/v1
 * TokenRequest, `createCoreV1NamespacedServiceAccountToken`), tagged with the kind's group version.
 */
export function actionPaths(kind: AnyKind): PathItem[] {
  const G = kind.group ?? "";
  const id = operationGroup(G);
  const ns = kind.namespaced ? "Namespaced" : "";
  const base = kind.namespaced ? `${groupVersionPath(kind)}/namespaces/{namespace}/${kind.plural}` : `${groupVersionPath(kind)}/${kind.plural}`;
  return (kind.actionSubresources ?? []).flatMap((name): PathItem[] => {
    const made = ACTION_SUBRESOURCES[name];
    if (!made?.schema.name) return [];
    const sub = name.charAt(0).toUpperCase() + name.slice(1);
    const component = made.schema.name;
    return [{
      path: `${base}/{name}/${name}`,
      pathParameters: [...(kind.namespaced ? ["namespace" as const] : []), "name"],
      operations: [{
        method: "post", operationId: `create${id}${ns}${kind.kind}${sub}`, action: "post", description: `create ${name} of ${article(kind.kind)} ${kind.kind}`,
        group: made.group, kind: made.kind, tagGroup: G, query: WRITE_QUERY,
        body: { component, required: true }, responses: [ok(component), created(component), accepted(component)],
      }],
    }];
  });
}

/** The one operation of a review: `POST /apis/<group>/v1/[namespaces/{namespace}/]<plural>`. */
export function reviewPaths(review: ReviewResource): PathItem[] {
  const id = operationGroup(review.group);
  const gv = `/apis/${review.group}/v1`;
  const component = review.schema.name ?? review.kind;
  return [{
    path: review.namespaced ? `${gv}/namespaces/{namespace}/${review.plural}` : `${gv}/${review.plural}`,
    pathParameters: review.namespaced ? ["namespace"] : [],
    operations: [{
      method: "post", operationId: `create${id}${review.namespaced ? "Namespaced" : ""}${review.kind}`, action: "post",
      description: `create ${article(review.kind)} ${review.kind}`, group: review.group, kind: review.kind, query: WRITE_QUERY,
      body: { component, required: true }, responses: [ok(component), created(component), accepted(component)],
    }],
  }];
}

const article = (kind: string) => (/^[AEIOU]/.test(kind) ? "an" : "a");

export const PATH_PARAMETER_DESCRIPTIONS = {
  name: (kind: string) => `name of the ${kind}`,
  namespace: () => "object name and auth scope, such as for teams and projects",
};

/** Media types an operation answers with (no protobuf: Cluster Core does not offer it). */
export const produces = (o: Operation) => ["application/json", "application/yaml", ...(o.stream && !o.custom ? ["application/json;stream=watch"] : [])];

/** Media types an operation accepts. */
export const consumes = (o: Operation) => {
  // Custom kinds have no strategic merge patch (kube answers 415): kubectl picks its patch type from this list.
  if (o.custom) return o.body?.patch ? ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"] : ["application/json", "application/yaml"];
  return o.body?.patch ? ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"] : ["*/*"];
};

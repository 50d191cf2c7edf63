// What a request asks to do, in authorization terms, read from the path alone as kube-apiserver's
// RequestInfoFactory does: it runs before routing, so a path that names nothing real is still authorized as
// what it would be (an unauthorized caller gets 403, never a 404 that reveals what exists).
import type { UserInfo } from "../auth/user-info";
import type { Attributes } from "../authz/attributes";
import { HISTORY_GROUP, type HistoryRequest } from "../request/history-path";
import type { RequestInfo } from "../request/request-info";
import { decodePath } from "../request/url-escapes";

const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

function listVerb(q: URLSearchParams): "list" | "watch" {
  const w = q.get("watch");
  return w !== null && w !== "0" && w.toLowerCase() !== "false" ? "watch" : "list";
}

function methodVerb(method: string): string {
  switch (method) {
    case "POST": return "create";
    case "GET": case "HEAD": return "get";
    case "PUT": return "update";
    case "PATCH": return "patch";
    case "DELETE": return "delete";
    default: return "";
  }
}

function nameFromFieldSelector(q: URLSearchParams): string {
  const fs = q.get("fieldSelector");
  if (!fs) return "";
  for (const term of fs.split(",")) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1];
  }
  return "";
}

export function requestAttributes(user: UserInfo, method: string, path: string, q: URLSearchParams): Attributes {
  const nonResource: Attributes = { type: "nonResource", user, verb: method.toLowerCase(), path };
  // Split after decoding, as kube's RequestInfoFactory splits Go's URL.Path.
  const decoded = decodePath(path);
  if (decoded === undefined) return nonResource;
  let parts = decoded.split("/").filter((s) => s !== "");
  if (parts.length < 3 || (parts[0] !== "api" && parts[0] !== "apis")) return nonResource;
  let apiGroup = "";
  parts = parts.slice(1);
  if (path.startsWith("/apis/")) {
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0];
    parts = parts.slice(1);
  }
  parts = parts.slice(1); // the version
  let verb: string;
  if (parts[0] === "watch" || parts[0] === "proxy") {
    if (parts.length < 2) return nonResource;
    verb = parts[0];
    parts = parts.slice(1);
  } else {
    verb = methodVerb(method);
  }
  let namespace = "";
  if (parts[0] === "namespaces" && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
  }
  const [resource = "", nameInPath = "", subresource = ""] = parts;
  return resourceAttributes(user, verb, apiGroup, namespace, resource, nameInPath, subresource, q);
}

/** The attributes of a resource path once split: a collection's get is a list or watch, its delete a deletecollection. */
function resourceAttributes(user: UserInfo, verb: string, apiGroup: string, namespace: string, resource: string, nameInPath: string, subresource: string, q: URLSearchParams): Attributes {
  let name = nameInPath;
  if (!name && verb === "get") {
    verb = listVerb(q);
    name = nameFromFieldSelector(q);
  } else if (!name && verb === "watch") {
    name = nameFromFieldSelector(q);
  }
  if (!nameInPath && verb === "delete") verb = "deletecollection";
  return { type: "resource", user, verb, apiGroup, resource, subresource, namespace, name };
}

/**
 * `requestAttributes` for a path parseRequestPath parsed (`route`), read from the route instead of the path
 * again: the same answer (request-attributes.test.ts holds them side by side). Where kube's RequestInfo reads
 * a path differently from the route (a Namespace's own path names its namespace; an empty namespace segment),
 * the path is read as kube reads it.
 */
export function routeAttributes(user: UserInfo, method: string, path: string, route: RequestInfo, q: URLSearchParams): Attributes {
  switch (route.type) {
    case "resource": {
      const { kind, namespace } = route;
      if (namespace === "" || (kind.plural === "namespaces" && !kind.group)) return requestAttributes(user, method, path, q);
      const verb = route.watchPath ? "watch" : methodVerb(method);
      return resourceAttributes(user, verb, kind.group ?? "", namespace ?? "", kind.plural, route.name ?? "", route.subresource ?? "", q);
    }
    case "review":
      return resourceAttributes(user, methodVerb(method), route.review.group, route.namespace ?? "", route.review.plural, "", "", q);
    default:
      // Discovery, health, version, openapi, metrics, the issuer's documents: none is under /api/v1/<x> or /apis/<g>/<v>/<x>.
      return { type: "nonResource", user, verb: method.toLowerCase(), path };
  }
}

/**
 * The caller's namespaces (lib/request/access-path.ts) are authorized as a SelfSubjectRulesReview: the same
 * question, "what may I do", asked of every namespace at once (system:basic-user grants it to everyone).
 */
export function selfNamespacesAttributes(user: UserInfo): Attributes {
  return { type: "resource", user, verb: "create", apiGroup: "authorization.k8s.io", resource: "selfsubjectrulesreviews", subresource: "", namespace: "", name: "" };
}

/** What a history request is authorized (and audited) as: get on the object, list of the kind, or list of `changes`. */
export function historyAttributes(user: UserInfo, req: HistoryRequest, q: URLSearchParams): Attributes {
  switch (req.type) {
    case "object": return requestAttributes(user, "GET", req.objectPath, q);
    case "deleted":
      return { type: "resource", user, verb: "list", apiGroup: req.group, resource: req.resource, subresource: "", namespace: req.namespace ?? "", name: "" };
    case "changes":
      return { type: "resource", user, verb: "list", apiGroup: HISTORY_GROUP, resource: "changes", subresource: "", namespace: req.namespace, name: "" };
  }
}

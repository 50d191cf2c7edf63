// Which history a request asks for, read from the path alone (before authentication is checked against
// anything that exists, as lib/api's request attributes are), and what it is authorized as:
//   GET <object path>/history                                    an object's revisions      get on the object
//   GET /apis/history.cluster-core.dev/v1/namespaces/<ns>/deleted/<resource>   deleted objects    list in <ns>
//   GET /apis/history.cluster-core.dev/v1/deleted/<resource>     deleted objects, every namespace or
//                                                                cluster-scoped kinds           list (cluster)
//   GET /apis/history.cluster-core.dev/v1/namespaces/<ns>/changes   a namespace's recent writes, of the kinds
//                                                                the user may list there
// `<resource>` is a plural (`configmaps`) or a group-resource (`roles.rbac.authorization.k8s.io`). The group
// is not advertised in discovery, so kube clients never see it; `/history` is not a subresource kube knows,
// so nothing a kube client sends reaches this by accident.
import type { UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer, Decision, ResourceAttributes } from "../authz/attributes";
import { kindByPlural, kinds } from "../kinds";
import { requestAttributes } from "../api/request-attributes";

export const HISTORY_GROUP = "history.cluster-core.dev";
export const HISTORY_API_VERSION = `${HISTORY_GROUP}/v1`;

export type HistoryRequest =
  | { type: "object"; objectPath: string }
  | { type: "deleted"; resource: string; group: string; namespace?: string }
  | { type: "changes"; namespace: string };

const decode = (s: string): string | undefined => {
  try { return decodeURIComponent(s); } catch { return undefined; }
};

/** The resource and group of `plural` or `plural.group` (the kind's group when the plural alone is given). */
function splitResource(text: string): { resource: string; group: string } {
  const dot = text.indexOf(".");
  if (dot >= 0) return { resource: text.slice(0, dot), group: text.slice(dot + 1) };
  return { resource: text, group: kindByPlural(text)?.group ?? "" };
}

/** The history request a GET path makes, or undefined when it is not one (it is routed as usual). */
export function historyRequest(method: string, path: string): HistoryRequest | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const prefix = `/apis/${HISTORY_API_VERSION}/`;
  if (p.startsWith(prefix)) {
    const parts = p.slice(prefix.length).split("/").map(decode);
    if (parts.some((x) => x === undefined || x === "")) return undefined;
    const [a, b, c, d, ...rest] = parts as string[];
    if (rest.length) return undefined;
    if (a === "deleted" && b && c === undefined) return { type: "deleted", ...splitResource(b) };
    if (a === "namespaces" && b && c === "deleted" && d) return { type: "deleted", ...splitResource(d), namespace: b };
    if (a === "namespaces" && b && c === "changes" && d === undefined) return { type: "changes", namespace: b };
    return undefined;
  }
  if (!p.endsWith("/history")) return undefined;
  const objectPath = p.slice(0, -"/history".length);
  // An object path names one: /api/v1/[namespaces/<ns>/]<plural>/<name>, /apis/<group>/v1/... ; a collection
  // path followed by "history" is the object named "history" and routed as usual.
  const parts = objectPath.split("/").filter(Boolean);
  const tail = parts[0] === "api" ? parts.slice(2) : parts[0] === "apis" ? parts.slice(3) : undefined;
  if (!tail || tail[0] === "watch") return undefined;
  const rest = tail[0] === "namespaces" && tail.length >= 4 ? tail.slice(2) : tail;
  if (rest.length !== 2) return undefined;
  return { type: "object", objectPath };
}

/** What the request is authorized as (and audited as): get on the object, list of the kind, or list of `changes`. */
export function historyAttributes(user: UserInfo, req: HistoryRequest, q: URLSearchParams): Attributes {
  switch (req.type) {
    case "object": return requestAttributes(user, "GET", req.objectPath, q);
    case "deleted":
      return { type: "resource", user, verb: "list", apiGroup: req.group, resource: req.resource, subresource: "", namespace: req.namespace ?? "", name: "" };
    case "changes":
      return { type: "resource", user, verb: "list", apiGroup: HISTORY_GROUP, resource: "changes", subresource: "", namespace: req.namespace, name: "" };
  }
}

/** The namespaced kinds `user` may list in `namespace` (what a namespace's change history shows). */
export function listableKinds(authorizer: Authorizer, user: UserInfo, namespace: string) {
  return kinds.filter((k) => k.namespaced && authorizer.authorize({
    type: "resource", user, verb: "list", apiGroup: k.group ?? "", resource: k.plural, subresource: "", namespace, name: "",
  }).allowed);
}

/** The decision: as the attributes say, except a namespace's changes, allowed when some kind is listable there. */
export function authorizeHistory(authorizer: Authorizer, req: HistoryRequest, attrs: Attributes): Decision {
  if (req.type !== "changes") return authorizer.authorize(attrs);
  const user = (attrs as ResourceAttributes).user;
  return listableKinds(authorizer, user, req.namespace).length
    ? { allowed: true, reason: "may list some kinds in the namespace" }
    : { allowed: false, reason: "" };
}

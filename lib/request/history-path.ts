// Which history a path asks for, read from the path alone (before authentication is checked against anything
// that exists, as the rest of the request info is), so that the pipeline routes it from the same single parse:
//   GET <object path>/history                                    an object's revisions
//   GET /apis/history.cluster-core.dev/v1/namespaces/<ns>/deleted/<resource>   deleted objects in <ns>
//   GET /apis/history.cluster-core.dev/v1/deleted/<resource>     deleted objects, every namespace or
//                                                                cluster-scoped kinds
//   GET /apis/history.cluster-core.dev/v1/namespaces/<ns>/changes   a namespace's recent writes
// `<resource>` is a plural (`configmaps`) or a group-resource (`roles.rbac.authorization.k8s.io`). The group
// is not advertised in discovery, so kube clients never see it; `/history` is not a subresource kube knows,
// so nothing a kube client sends reaches this by accident.
import { kindByPlural } from "../kinds";
import { decodePath } from "./url-escapes";

export const HISTORY_GROUP = "history.cluster-core.dev";
export const HISTORY_API_VERSION = `${HISTORY_GROUP}/v1`;
const HISTORY_PREFIX = `/apis/${HISTORY_API_VERSION}/`;

export type HistoryRequest =
  | { type: "object"; objectPath: string }
  | { type: "deleted"; resource: string; group: string; namespace?: string }
  | { type: "changes"; namespace: string };

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
  if (p.startsWith(HISTORY_PREFIX)) {
    const parts = p.slice(HISTORY_PREFIX.length).split("/").map(decodePath);
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

// Turns a request into what it addresses (kube-apiserver's RequestInfo): the API group, resource, namespace,
// name, subresource and the kube verb, or a non-resource path. Authorization and audit read the same answer.
import { kindServedAt, servedVersions } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { errors } from "../status";
import { isReviewGroup, reviewResource, type ReviewResource } from "./review-resources";
import { decodePath } from "./url-escapes";

/** kube's request verbs for resource requests. */
export type ResourceVerb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

export interface ResourceRequest {
  type: "resource";
  kind: AnyKind;
  /** undefined on an all-namespaces (or cluster-scoped) path. */
  namespace?: string;
  name?: string;
  /** "status", a kind's update subresource ("finalize") or action subresource ("token"). */
  subresource?: string;
  /** A `/api/v1/watch/...` path. */
  watchPath: boolean;
  /** POST /api/v1/<plural> of a namespaced kind (spec operation 1). */
  unscoped: boolean;
}

/** A create-only review (TokenReview, SelfSubjectAccessReview, ...): answered, never stored. */
export interface ReviewRequest {
  type: "review";
  review: ReviewResource;
  namespace?: string;
}

export type RequestInfo =
  | ResourceRequest
  | ReviewRequest
  | { type: "api" | "apis" | "version" | "openapi-v2" | "openapi-v3" | "openapi-v3-doc" | "oidc-configuration" | "oidc-jwks"; path: string }
  /** `/apis/<group>` (APIGroup) and `/api/v1`, `/apis/<group>/v1` (APIResourceList). */
  | { type: "group"; group: string }
  | { type: "resource-list"; groupVersion: string }
  | { type: "health"; endpoint: "healthz" | "livez" | "readyz"; check?: string }
  | { type: "metrics" };

export const OIDC_CONFIGURATION_PATH = "/.well-known/openid-configuration";
export const OIDC_JWKS_PATH = "/openid/v1/jwks";

/** Paths the API answers (everything else belongs to the console). */
export function isApiPath(path: string): boolean {
  if (path === "/api" || path === "/apis" || path === "/version") return true;
  if (path.startsWith("/api/auth/") || path === "/api/auth") return false;
  if (path === OIDC_CONFIGURATION_PATH || path === OIDC_JWKS_PATH) return true;
  return /^\/(api|apis|version|openapi|healthz|livez|readyz|metrics)(\/|$)/.test(path);
}

/** Paths answered without credentials (the spec's rule: health and version only). */
export function isOpenPath(path: string): boolean {
  // Every request asks: only /version, /healthz, /livez and /readyz (and below) are read further.
  const c = path.charCodeAt(1);
  if (c !== 0x76 && c !== 0x68 && c !== 0x6c && c !== 0x72) return false;
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return p === "/version" || /^\/(healthz|livez|readyz)(\/[^/]+)?$/.test(p);
}

/** Groups served under /apis: the kinds' groups and the review groups. */
function knownGroup(group: string, hasKind: (g: string) => boolean): boolean {
  return hasKind(group) || reviewResource(group, undefined) !== undefined;
}

/**
 * `path` as sent (escaped). It is decoded first and split after, as kube's RequestInfoFactory splits Go's
 * URL.Path: an escaped `/` separates segments, and a name keeps bytes that are not UTF-8 (url-escapes.ts).
 */
export function parseRequestPath(path: string, hasGroup: (group: string) => boolean = () => false): RequestInfo {
  const decoded = decodePath(path);
  if (decoded === undefined) throw errors.badRequest(`invalid URL escape in path ${path}`);
  const p = decoded.length > 1 && decoded.endsWith("/") ? decoded.slice(0, -1) : decoded;
  if (p === "/api") return { type: "api", path: p };
  if (p === "/metrics") return { type: "metrics" };
  if (p === "/apis") return { type: "apis", path: p };
  if (p === "/version") return { type: "version", path: p };
  if (p === "/openapi/v2") return { type: "openapi-v2", path: p };
  if (p === "/openapi/v3") return { type: "openapi-v3", path: p };
  if (p === OIDC_CONFIGURATION_PATH) return { type: "oidc-configuration", path: p };
  if (p === OIDC_JWKS_PATH) return { type: "oidc-jwks", path: p };
  if (p.startsWith("/openapi/v3/")) return { type: "openapi-v3-doc", path: p.slice("/openapi/v3/".length) };
  const health = p.startsWith("/api") ? null : /^\/(healthz|livez|readyz)(?:\/([^/]+))?$/.exec(p);
  if (health) return { type: "health", endpoint: health[1] as "healthz", check: health[2] };
  if (p === "/api/v1") return { type: "resource-list", groupVersion: "v1" };

  let group: string;
  let version = "v1";
  let parts: string[];
  // Segments are read by index (no copies): [watch/][namespaces/<ns>/]<plural>[/<name>[/<subresource>]] from `at`.
  let at = 0;
  if (p.startsWith("/api/v1/")) {
    group = "";
    parts = segments(p, "/api/v1/".length);
  } else if (p.startsWith("/apis/")) {
    parts = segments(p, "/apis/".length);
    const g = parts[0];
    const v = parts[1] as string | undefined;
    if (!knownGroup(g, hasGroup)) throw errors.routeNotFound();
    if (v === undefined) return { type: "group", group: g };
    // v1 for the declared groups and the reviews; a custom kind's group serves its CRD's served versions.
    if (v !== "v1" && !servedVersions(g).includes(v)) throw errors.routeNotFound();
    if (parts.length === 2) return { type: "resource-list", groupVersion: `${g}/${v}` };
    group = g;
    version = v;
    at = 2;
  } else {
    throw errors.routeNotFound();
  }

  const watchPath = parts[at] === "watch";
  if (watchPath) at++;
  let namespace: string | undefined;
  if (parts[at] === "namespaces" && parts.length - at >= 3) {
    namespace = parts[at + 1];
    at += 2;
  }
  const plural = parts[at];
  const name = parts[at + 1] as string | undefined;
  const subresource = parts[at + 2] as string | undefined;
  const more = parts.length > at + 3;
  if (!plural) throw errors.routeNotFound();
  const review = isReviewGroup(group) ? reviewResource(group, plural) : undefined;
  if (review) {
    if (watchPath || name !== undefined || (review.namespaced !== (namespace !== undefined))) throw errors.routeNotFound();
    return { type: "review", review, namespace };
  }
  const kind = kindServedAt(group, plural, version);
  if (!kind || more) throw errors.routeNotFound();
  if (subresource !== undefined && !hasSubresource(kind, subresource)) throw errors.routeNotFound();
  if (subresource && watchPath) throw errors.routeNotFound();
  if (!kind.namespaced && namespace !== undefined) throw errors.routeNotFound();
  if (kind.namespaced && namespace === undefined && name !== undefined) throw errors.routeNotFound();
  if (name === "") throw errors.routeNotFound();
  return {
    type: "resource", kind, namespace, name, subresource, watchPath,
    unscoped: kind.namespaced && namespace === undefined,
  };
}

/** `p.slice(from).split("/")`, without the intermediate string (every request's path is split). */
function segments(p: string, from: number): string[] {
  const out: string[] = [];
  for (let start = from; ;) {
    const slash = p.indexOf("/", start);
    if (slash < 0) {
      out.push(p.slice(start));
      return out;
    }
    out.push(p.slice(start, slash));
    start = slash + 1;
  }
}

function hasSubresource(kind: AnyKind, sub: string): boolean {
  if (sub === "status") return kind.hasStatus;
  if (sub === "scale" && kind.scale) return true;
  return !!kind.updateSubresources?.[sub] || !!kind.actionSubresources?.includes(sub);
}

/** The `watch` query parameter asks for a watch (anything but absent, "0" or "false"). */
export function watchFlag(q: URLSearchParams): boolean {
  const v = q.get("watch");
  return v !== null && v !== "0" && v.toLowerCase() !== "false";
}

/** kube's verb for a resource request (RequestInfoFactory): list vs get, watch, deletecollection. */
export function resourceVerb(info: ResourceRequest, method: string, q: URLSearchParams): ResourceVerb | undefined {
  switch (method) {
    case "GET": case "HEAD":
      if (info.watchPath) return "watch";
      if (info.name === undefined) return watchFlag(q) ? "watch" : "list";
      return "get";
    case "POST": return "create";
    case "PUT": return "update";
    case "PATCH": return "patch";
    case "DELETE": return info.name === undefined ? "deletecollection" : "delete";
    default: return undefined;
  }
}

/** A list or watch narrowed to one object by `fieldSelector=metadata.name=x` is authorized for that name (kube 1.32). */
export function selectedName(info: ResourceRequest, verb: string, q: URLSearchParams): string {
  if (info.name !== undefined) return info.name;
  if (verb !== "list" && verb !== "watch") return "";
  const fs = q.get("fieldSelector");
  if (!fs) return "";
  const terms = fs.split(",");
  for (const t of terms) {
    const m = /^metadata\.name==?(.*)$/.exec(t.trim());
    if (m) return m[1];
  }
  return "";
}

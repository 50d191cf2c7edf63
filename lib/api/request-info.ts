// Turns a request path into what it addresses (kube-apiserver's RequestInfo): the resource, namespace,
// name and subresource, and whether it is a watch path.
import { kindByPlural } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { errors } from "./errors";

export interface ResourceRequest {
  type: "resource";
  kind: AnyKind;
  /** undefined on an all-namespaces (or cluster-scoped) path. */
  namespace?: string;
  name?: string;
  subresource?: "status";
  /** A `/api/v1/watch/...` path. */
  watchPath: boolean;
  /** POST /api/v1/<plural> of a namespaced kind (spec operation 1). */
  unscoped: boolean;
}

export type RequestInfo =
  | ResourceRequest
  | { type: "api" | "apis" | "api-v1" | "version" | "openapi-v2" | "openapi-v3" | "openapi-v3-doc"; path: string }
  | { type: "health"; endpoint: "healthz" | "livez" | "readyz"; check?: string }
  | { type: "namespace"; name?: string }
  | { type: "metrics" };

const decode = (s: string) => {
  try { return decodeURIComponent(s); } catch { throw errors.badRequest(`invalid path segment: ${s}`); }
};

/** Paths the API answers (everything else belongs to the console). */
export function isApiPath(path: string): boolean {
  if (path === "/api" || path === "/apis" || path === "/version") return true;
  if (path.startsWith("/api/auth/") || path === "/api/auth") return false;
  return /^\/(api|apis|version|openapi|healthz|livez|readyz|metrics)(\/|$)/.test(path);
}

export function parseRequestPath(path: string): RequestInfo {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (p === "/api") return { type: "api", path: p };
  if (p === "/metrics") return { type: "metrics" };
  if (p === "/apis") return { type: "apis", path: p };
  if (p === "/version") return { type: "version", path: p };
  if (p === "/openapi/v2") return { type: "openapi-v2", path: p };
  if (p === "/openapi/v3") return { type: "openapi-v3", path: p };
  if (p.startsWith("/openapi/v3/")) return { type: "openapi-v3-doc", path: p.slice("/openapi/v3/".length) };
  const health = /^\/(healthz|livez|readyz)(?:\/([^/]+))?$/.exec(p);
  if (health) return { type: "health", endpoint: health[1] as "healthz", check: health[2] };
  if (p === "/api/v1") return { type: "api-v1", path: p };
  if (!p.startsWith("/api/v1/")) throw errors.routeNotFound();

  let parts = p.slice("/api/v1/".length).split("/").map(decode);
  // Namespaces exist implicitly (objects need none created first); they are readable, not stored.
  if (parts[0] === "namespaces" && parts.length <= 2) return { type: "namespace", name: parts[1] || undefined };
  let watchPath = false;
  if (parts[0] === "watch") { watchPath = true; parts = parts.slice(1); }
  let namespace: string | undefined;
  if (parts[0] === "namespaces" && parts.length >= 3) {
    namespace = parts[1];
    parts = parts.slice(2);
  }
  const [plural, name, subresource, ...rest] = parts;
  const kind = plural ? kindByPlural(plural) : undefined;
  if (!kind || rest.length || (subresource !== undefined && subresource !== "status")) throw errors.routeNotFound();
  if (subresource && (!kind.hasStatus || watchPath)) throw errors.routeNotFound();
  if (!kind.namespaced && namespace !== undefined) throw errors.routeNotFound();
  if (kind.namespaced && namespace === undefined && name !== undefined) throw errors.routeNotFound();
  if (name === "") throw errors.routeNotFound();
  return {
    type: "resource", kind, namespace, name, subresource: subresource as "status" | undefined, watchPath,
    unscoped: kind.namespaced && namespace === undefined,
  };
}

// The non-resource paths: health checks, /version, /metrics, discovery, the OpenAPI documents and the
// service-account issuer's OIDC discovery.
import { CONTENT_TYPE as METRICS_CONTENT_TYPE } from "../../metrics/text-format";
import type { RequestInfo } from "../../request/request-info";
import { errors } from "../../status";
import type { RequestContext } from "../context";
import { jsonResponse, BASE_HEADERS } from "../encode/value";
import type { ApiResponse, ApiRuntime } from "../types";
import { discoveryResponse } from "./aggregated-discovery";
import { apiGroup, apiResourceList, versionInfo } from "./discovery";
import { openapiV2Response } from "./openapi";

export type NonResourceInfo = Exclude<RequestInfo, { type: "resource" | "review" }>;

export function nonResource(ctx: RequestContext, info: NonResourceInfo): ApiResponse {
  const { runtime: rt, request: req, pretty } = ctx;
  switch (info.type) {
    case "health": return health(rt, info.endpoint, info.check, req.query);
    case "version": return jsonResponse(versionInfo, pretty);
    case "metrics": return metrics(rt);
    case "api":
    case "apis":
      return discoveryResponse(info.type, { accept: req.header("accept"), ifNoneMatch: req.header("if-none-match"), pretty, serverAddress: rt.serverAddress });
    case "group": return jsonResponse(apiGroup(info.group) ?? notFound(), pretty);
    case "resource-list": return jsonResponse(apiResourceList(info.groupVersion) ?? notFound(), pretty);
    case "openapi-v2":
      return openapiV2Response(rt.openapi, { accept: req.header("accept"), ifNoneMatch: req.header("if-none-match"), ifModifiedSince: req.header("if-modified-since") }) ?? notFound();
    case "openapi-v3": return openapiV3(rt, "", pretty);
    case "openapi-v3-doc": return openapiV3(rt, info.path, pretty);
    case "oidc-configuration": return oidc(rt, "configuration");
    case "oidc-jwks": return oidc(rt, "jwks");
  }
}

function notFound(): never {
  throw errors.routeNotFound();
}

function health(rt: ApiRuntime, endpoint: string, check: string | undefined, q: URLSearchParams): ApiResponse {
  const checks: [string, boolean][] = [["ping", true], ["log", true], ["storage", rt.isReady()]];
  const selected = check ? checks.filter(([n]) => n === check) : checks;
  if (check && selected.length === 0) return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "404 page not found\n" };
  const excluded = new Set(q.getAll("exclude"));
  const ok = selected.every(([n, good]) => good || excluded.has(n));
  const headers = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", ...BASE_HEADERS };
  if (!q.has("verbose") && ok) return { status: 200, headers, body: "ok" };
  const lines = selected.map(([n, good]) => excluded.has(n) ? `[+]${n} excluded: ok` : good ? `[+]${n} ok` : `[-]${n} failed: reason withheld`);
  lines.push(`${endpoint} check ${ok ? "passed" : "failed"}`);
  return { status: ok ? 200 : 500, headers, body: `${lines.join("\n")}\n` };
}

/** Prometheus text exposition (lib/metrics): kube-apiserver's metric names, the store's, the process's. */
function metrics(rt: ApiRuntime): ApiResponse {
  if (!rt.metrics) throw errors.routeNotFound();
  return { status: 200, headers: { ...BASE_HEADERS, "content-type": METRICS_CONTENT_TYPE }, body: rt.metrics.expose() };
}

function openapiV3(rt: ApiRuntime, path: string, pretty: boolean): ApiResponse {
  const doc = rt.openapi?.("v3", path);
  if (!doc) throw errors.routeNotFound();
  return jsonResponse(doc, pretty);
}

function oidc(rt: ApiRuntime, which: "configuration" | "jwks"): ApiResponse {
  if (!rt.oidc) throw errors.routeNotFound();
  const contentType = which === "jwks" ? "application/jwk-set+json" : "application/json";
  const body = JSON.stringify(which === "jwks" ? rt.oidc.jwks() : rt.oidc.configuration());
  return { status: 200, headers: { "content-type": contentType, "cache-control": "public, max-age=3600" }, body };
}

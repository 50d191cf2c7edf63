import { describe, expect, test } from "vitest";
import { servedGroups } from "../../kinds";
import { ServerMetrics } from "../../metrics/server-metrics";
import { parseRequestPath } from "../../request/request-info";
import { apiRequest, context, testRuntime } from "../test-support";
import type { ApiRequest, ApiResponse } from "../types";
import { recordRequest, withMetrics } from "./metrics";

const groups = new Set(servedGroups());

function request(method: string, url: string, headers: Record<string, string> = {}): ApiRequest {
  const u = new URL(url, "https://127.0.0.1");
  return {
    method, path: u.pathname, query: u.searchParams,
    header: (n) => headers[n], headerValues: (n) => (headers[n] ? [headers[n]] : []), headerNamesWith: (p) => Object.keys(headers).filter((n) => n.startsWith(p)),
    body: async () => Buffer.alloc(0),
  };
}

const answer = (status: number): ApiResponse => ({ status, headers: {}, body: "" });

/** Routes and records one request as the pipeline does; returns the request_total labels it counted. */
function record(m: ServerMetrics, method: string, url: string, status = 200, headers: Record<string, string> = {}): Record<string, string>[] {
  const req = request(method, url, headers);
  recordRequest(m, req, parseRequestPath(req.path, (g) => groups.has(g)), answer(status), performance.now());
  return counted(m);
}

function counted(m: ServerMetrics): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const names = ["verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component", "code"];
  for (const line of m.expose().split("\n")) {
    const match = /^apiserver_request_total\{(.*)\} (\d+)$/.exec(line);
    if (!match) continue;
    const values = [...match[1].matchAll(/([a-z_]+)="([^"]*)"/g)];
    expect(values.map((v) => v[1])).toEqual(names);
    out.push(Object.fromEntries(values.map((v) => [v[1], v[2]])));
  }
  return out;
}

const core = { dry_run: "", group: "", version: "v1", subresource: "", component: "apiserver" };

describe("request labels as kube-apiserver reports them", () => {
  test.each([
    ["GET", "/api/v1/namespaces/d/configmaps/x", {}, { ...core, verb: "GET", resource: "configmaps", scope: "resource" }],
    ["GET", "/api/v1/namespaces/d/configmaps", {}, { ...core, verb: "LIST", resource: "configmaps", scope: "namespace" }],
    ["GET", "/api/v1/configmaps", {}, { ...core, verb: "LIST", resource: "configmaps", scope: "cluster" }],
    ["GET", "/api/v1/namespaces", {}, { ...core, verb: "LIST", resource: "namespaces", scope: "cluster" }],
    ["POST", "/api/v1/namespaces/d/configmaps", {}, { ...core, verb: "POST", resource: "configmaps", scope: "resource" }],
    ["PUT", "/api/v1/namespaces/d/pods/p/status", {}, { ...core, verb: "PUT", resource: "pods", subresource: "status", scope: "resource" }],
    ["PATCH", "/api/v1/namespaces/d/configmaps/x", { "content-type": "application/merge-patch+json" }, { ...core, verb: "PATCH", resource: "configmaps", scope: "resource" }],
    ["PATCH", "/api/v1/namespaces/d/configmaps/x?fieldManager=kubectl", { "content-type": "application/apply-patch+yaml" }, { ...core, verb: "APPLY", resource: "configmaps", scope: "resource" }],
    ["DELETE", "/api/v1/namespaces/d/configmaps/x", {}, { ...core, verb: "DELETE", resource: "configmaps", scope: "resource" }],
    // kube 1.32 reports a collection DELETE by its method too; the scope tells them apart.
    ["DELETE", "/api/v1/namespaces/d/configmaps", {}, { ...core, verb: "DELETE", resource: "configmaps", scope: "namespace" }],
    ["POST", "/api/v1/namespaces/d/configmaps?dryRun=All", {}, { ...core, dry_run: "All", verb: "POST", resource: "configmaps", scope: "resource" }],
    ["POST", "/api/v1/namespaces/d/configmaps?dryRun=All&dryRun=All", {}, { ...core, dry_run: "All", verb: "POST", resource: "configmaps", scope: "resource" }],
    ["POST", "/api/v1/namespaces/d/configmaps?dryRun=Everything", {}, { ...core, dry_run: "invalid", verb: "POST", resource: "configmaps", scope: "resource" }],
    ["GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/d/roles/r", {}, { ...core, group: "rbac.authorization.k8s.io", verb: "GET", resource: "roles", scope: "resource" }],
    ["POST", "/api/v1/namespaces/d/serviceaccounts/sa/token", {}, { ...core, verb: "POST", resource: "serviceaccounts", subresource: "token", scope: "resource" }],
    ["POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {}, { ...core, group: "authorization.k8s.io", verb: "POST", resource: "selfsubjectaccessreviews", scope: "resource" }],
    ["GET", "/readyz", {}, { verb: "GET", dry_run: "", group: "", version: "", resource: "", subresource: "/readyz", scope: "", component: "" }],
  ])("%s %s", (method, url, headers, want) => {
    const m = new ServerMetrics();
    expect(record(m, method, url, 200, headers)).toEqual([{ ...want, code: "200" }]);
  });

  test("codes are counted apart; non-resource paths other than the health roots are not counted", () => {
    const m = new ServerMetrics();
    record(m, "GET", "/api/v1/namespaces/d/configmaps/x", 200);
    record(m, "GET", "/api/v1/namespaces/d/configmaps/x", 404);
    record(m, "GET", "/api/v1/namespaces/d/configmaps/x", 404);
    for (const p of ["/version", "/apis", "/api/v1", "/openapi/v2", "/metrics", "/healthz/ping"]) record(m, "GET", p);
    expect(m.requests.value(["GET", "", "", "v1", "configmaps", "", "resource", "apiserver", "404"])).toBe(2);
    expect(counted(m).map((c) => c.code)).toEqual(["200", "404"]);
  });

  test("a request that never reached routing (401, 403, unknown path) is not counted", () => {
    const m = new ServerMetrics();
    recordRequest(m, request("GET", "/api/v1/namespaces/d/configmaps"), undefined, answer(401), performance.now());
    expect(counted(m)).toEqual([]);
    expect(m.requestDuration.snapshot(["LIST", "", "", "v1", "configmaps", "", "namespace", "apiserver"])).toBeUndefined();
  });

  test("the duration histogram gets every counted request with kube's labels (no code)", () => {
    const m = new ServerMetrics();
    record(m, "GET", "/api/v1/namespaces/d/configmaps");
    record(m, "GET", "/api/v1/namespaces/d/configmaps", 500);
    const h = m.requestDuration.snapshot(["LIST", "", "", "v1", "configmaps", "", "namespace", "apiserver"])!;
    expect(h.count).toBe(2);
    expect(h.buckets.at(-1)).toBe(2);
  });
});

describe("watches", () => {
  test("a watch is long-running while open, counted and timed when it ends; its events are counted by kind", () => {
    const m = new ServerMetrics();
    const req = request("GET", "/api/v1/namespaces/d/configmaps?watch=true");
    const info = parseRequestPath(req.path, (g) => groups.has(g));
    let cacheSink: { send(b: Buffer): boolean; close(): void } | undefined;
    let stopped = false;
    const inner: ApiResponse = { status: 200, headers: {}, stream: { timeoutMs: 1000, start(s) { cacheSink = s; return () => { stopped = true; }; } } };
    const res = recordRequest(m, req, info, inner, performance.now());
    expect(res.stream).not.toBe(inner.stream);
    const long = ["WATCH", "", "v1", "configmaps", "", "namespace", "apiserver"];
    const written: Buffer[] = [];
    let room = 2;
    const stop = res.stream!.start({ send: (b) => { written.push(b); return --room > 0; }, close: () => {} });
    expect(m.longRunning.value(long)).toBe(1);
    expect(counted(m)).toEqual([]);
    expect(cacheSink!.send(Buffer.alloc(100))).toBe(true);
    // The adapter refuses more (backlog too large): the watcher is cut off and counted once.
    expect(cacheSink!.send(Buffer.alloc(3000))).toBe(false);
    expect(written.length).toBe(2);
    expect(m.watchEvents.value(["", "v1", "ConfigMap"])).toBe(2);
    expect(m.watchEventSizes.snapshot(["", "v1", "ConfigMap"])!.buckets.slice(0, 3)).toEqual([1, 1, 2]);
    expect(m.terminatedWatchers.value(["configmaps"])).toBe(1);
    stop();
    stop();
    expect(stopped).toBe(true);
    expect(m.longRunning.value(long)).toBe(0);
    expect(counted(m)).toEqual([{ ...core, verb: "WATCH", resource: "configmaps", scope: "namespace", code: "200" }]);
    expect(m.requestDuration.snapshot(["WATCH", "", "", "v1", "configmaps", "", "namespace", "apiserver"])!.count).toBe(1);
  });

  test("the /watch/ path is a WATCH too; group-qualified resource names for other groups", () => {
    const m = new ServerMetrics();
    const req = request("GET", "/apis/rbac.authorization.k8s.io/v1/watch/namespaces/d/roles");
    const res = recordRequest(m, req, parseRequestPath(req.path, (g) => groups.has(g)), { status: 200, headers: {}, stream: { timeoutMs: 1000, start: (s) => { s.send(Buffer.from("x")); return () => {}; } } }, performance.now());
    const stop = res.stream!.start({ send: () => false, close: () => {} });
    expect(m.terminatedWatchers.value(["roles.rbac.authorization.k8s.io"])).toBe(1);
    expect(m.watchEvents.value(["rbac.authorization.k8s.io", "v1", "Role"])).toBe(1);
    stop();
    expect(counted(m)[0]).toMatchObject({ verb: "WATCH", group: "rbac.authorization.k8s.io", resource: "roles", scope: "namespace" });
  });

  test("a watcher the adapter closes for taking no bytes (every send accepted) is counted once; a normal end is not", () => {
    const m = new ServerMetrics();
    const req = request("GET", "/api/v1/namespaces/d/configmaps?watch=true");
    const info = parseRequestPath(req.path, (g) => groups.has(g));
    const stream = { timeoutMs: 1000, start: (s: { send(b: Buffer): boolean }) => { s.send(Buffer.from("x")); return () => {}; } };
    const stalled = recordRequest(m, req, info, { status: 200, headers: {}, stream }, performance.now()).stream!.start({ send: () => true, close: () => {} });
    stalled("cut");
    stalled("cut");
    expect(m.terminatedWatchers.value(["configmaps"])).toBe(1);
    recordRequest(m, req, info, { status: 200, headers: {}, stream }, performance.now()).stream!.start({ send: () => true, close: () => {} })();
    expect(m.terminatedWatchers.value(["configmaps"])).toBe(1);
  });
});

describe("the filter", () => {
  test("counts what the router reached, with the code answered, and nothing refused before routing", async () => {
    const m = new ServerMetrics();
    const rt = testRuntime(() => true, { metrics: m });
    const handler = withMetrics(async (ctx) => {
      if (ctx.request.header("authorization")) ctx.routed = parseRequestPath(ctx.request.path, (g) => groups.has(g));
      return answer(ctx.routed ? 404 : 401);
    }, rt);
    await handler(context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps/a", { authorization: "Bearer x" })));
    await handler(context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps/a")));
    expect(counted(m)).toEqual([{ ...core, verb: "GET", resource: "configmaps", scope: "resource", code: "404" }]);
    expect(withMetrics(handler, testRuntime())).toBe(handler);
  });

  test("counts every request of a route under its own labels, codes and kinds apart, and passes a synchronous answer through", () => {
    const m = new ServerMetrics();
    const rt = testRuntime(() => true, { metrics: m });
    const handler = withMetrics((ctx) => {
      ctx.routed = parseRequestPath(ctx.request.path, (g) => groups.has(g));
      return answer(Number(ctx.request.header("x-code") ?? 200));
    }, rt);
    const serve = (url: string, code = 200, method = "GET") => handler(context(rt, apiRequest(method, url, { "x-code": String(code) })));
    const res = serve("/api/v1/namespaces/d/configmaps/a");
    expect(res).not.toBeInstanceOf(Promise);
    serve("/api/v1/namespaces/d/configmaps/b");
    serve("/api/v1/namespaces/e/configmaps/c", 404);
    serve("/api/v1/namespaces/d/configmaps");
    serve("/api/v1/namespaces/d/configmaps/a?dryRun=All", 200, "DELETE");
    serve("/api/v1/namespaces/d/secrets/a");
    serve("/apis/rbac.authorization.k8s.io/v1/namespaces/d/roles/r", 403);
    const get = ["GET", "", "", "v1", "configmaps", "", "resource", "apiserver"];
    expect(m.requests.value([...get, "200"])).toBe(2);
    expect(m.requests.value([...get, "404"])).toBe(1);
    expect(m.requestDuration.snapshot(get)?.count).toBe(3);
    expect(m.requests.value(["LIST", "", "", "v1", "configmaps", "", "namespace", "apiserver", "200"])).toBe(1);
    expect(m.requests.value(["DELETE", "All", "", "v1", "configmaps", "", "resource", "apiserver", "200"])).toBe(1);
    expect(m.requests.value(["GET", "", "", "v1", "secrets", "", "resource", "apiserver", "200"])).toBe(1);
    expect(m.requests.value(["GET", "", "rbac.authorization.k8s.io", "v1", "roles", "", "resource", "apiserver", "403"])).toBe(1);
    expect(counted(m)).toHaveLength(6);
  });
});

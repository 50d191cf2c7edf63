// /metrics as kube-apiserver serves it: the Prometheus text format (read here by a strict parser, so one
// malformed line fails), kube's metric names and labels for the requests kubectl and a watch make, the store
// and process figures, and kube's authorization (non-resource URL /metrics, verb get: system:monitoring may,
// others get kube's 403, no token gets 401).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseExposition, sampleValue, samplesMatching, type ParsedFamily } from "../../lib/metrics/text-parser";
import { openWatch, startSharedServers } from "./cluster";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";

const MONITOR = "monitor-token-0123456789";
const NOBODY = "nobody-token-0123456789";
let server: Server;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-metrics-"));
  const tokens = path.join(tmp, "tokens.csv");
  writeFileSync(tokens, `${MONITOR},prometheus,uid-prometheus,"system:monitoring"\n${NOBODY},nobody,uid-nobody\n`);
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens } });
  await createNamespaces(server, "metrics", "stall");
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** POSTs a ConfigMap of ~1 MB (its ~1 MB answer comes back on the same keep-alive connection). */
function createBig(name: string, value: string) {
  return server.request("POST", "/api/v1/namespaces/stall/configmaps", { body: { metadata: { name }, data: { v: value } } });
}

async function scrape(token?: string): Promise<Map<string, ParsedFamily>> {
  const res = await server.request("GET", "/metrics", token ? { token } : {});
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseExposition(res.text);
}

/** kube's request labels for a core/v1 resource. */
const core = (verb: string, resource: string, scope: string, extra: Record<string, string> = {}) => ({
  verb, dry_run: "", group: "", version: "v1", resource, subresource: "", scope, component: "apiserver", ...extra,
});

const count = (f: Map<string, ParsedFamily>, labels: Record<string, string>) => sampleValue(f, "apiserver_request_total", labels) ?? 0;

describe("/metrics", () => {
  test("kubectl's requests, a 404 and a watch are counted with kube's names and labels", async () => {
    const before = await scrape();
    await server.kubectl(["create", "configmap", "one", "-n", "metrics", "--from-literal=a=b"]);
    await server.kubectl(["get", "configmap", "one", "-n", "metrics"]);
    await server.kubectl(["get", "configmaps", "-n", "metrics"]);
    const missing = await server.kubectl(["get", "configmap", "missing", "-n", "metrics"], { allowFail: true });
    expect(missing.stderr).toContain('configmaps "missing" not found');
    await server.kubectl(["create", "configmap", "dry", "-n", "metrics", "--dry-run=server"]);
    expect((await server.request("DELETE", "/api/v1/namespaces/metrics/configmaps?labelSelector=nothing%3Dmatches")).status).toBe(200);

    const list = await server.request("GET", "/api/v1/namespaces/metrics/configmaps");
    const watch = await openWatch(server, `/api/v1/namespaces/metrics/configmaps?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    await server.kubectl(["create", "configmap", "two", "-n", "metrics", "--from-literal=c=d"]);
    await watch.waitForEvent((e) => e.type === "ADDED" && e.object.metadata.name === "two");

    const open = await scrape();
    const diff = (labels: Record<string, string>) => count(open, labels) - count(before, labels);
    expect(diff({ ...core("POST", "configmaps", "resource"), code: "201" })).toBe(2);
    expect(diff({ ...core("POST", "configmaps", "resource", { dry_run: "All" }), code: "201" })).toBe(1);
    expect(diff({ ...core("GET", "configmaps", "resource"), code: "200" })).toBe(1);
    expect(diff({ ...core("GET", "configmaps", "resource"), code: "404" })).toBe(1);
    expect(diff({ ...core("LIST", "configmaps", "namespace"), code: "200" })).toBe(2);
    expect(diff({ ...core("DELETE", "configmaps", "namespace"), code: "200" })).toBe(1);
    // Open, the watch is long-running and not yet counted (kube counts a watch when it ends).
    const longRunning = { verb: "WATCH", group: "", version: "v1", resource: "configmaps", subresource: "", scope: "namespace", component: "apiserver" };
    expect(sampleValue(open, "apiserver_longrunning_requests", longRunning)).toBe(1);
    expect(diff({ ...core("WATCH", "configmaps", "namespace"), code: "200" })).toBe(0);
    const events = (f: Map<string, ParsedFamily>) => sampleValue(f, "apiserver_watch_events_total", { group: "", version: "v1", kind: "ConfigMap" }) ?? 0;
    expect(events(open) - events(before)).toBeGreaterThanOrEqual(1);
    expect(sampleValue(open, "apiserver_watch_events_sizes_count", { group: "", version: "v1", kind: "ConfigMap" })).toBe(events(open));
    // The duration histogram has every counted request, under kube's buckets.
    const get = core("GET", "configmaps", "resource");
    expect(sampleValue(open, "apiserver_request_duration_seconds_count", get)).toBe(count(open, { ...get, code: "200" }) + count(open, { ...get, code: "404" }));
    expect(sampleValue(open, "apiserver_request_duration_seconds_bucket", { ...get, le: "60" })).toBe(sampleValue(open, "apiserver_request_duration_seconds_count", get));

    watch.close();
    const closed = await waitFor("the watch counted once it ended", async () => {
      const f = await scrape();
      return count(f, { ...core("WATCH", "configmaps", "namespace"), code: "200" }) - count(before, { ...core("WATCH", "configmaps", "namespace"), code: "200" }) === 1 ? f : undefined;
    });
    expect(sampleValue(closed, "apiserver_longrunning_requests", longRunning)).toBe(0);
    expect(sampleValue(closed, "apiserver_request_duration_seconds_count", core("WATCH", "configmaps", "namespace"))).toBeGreaterThanOrEqual(1);
  });

  test("store and process figures, every family typed and described", async () => {
    const f = await scrape();
    expect(sampleValue(f, "apiserver_storage_objects", { resource: "namespaces" })).toBeGreaterThanOrEqual(6);
    expect(sampleValue(f, "apiserver_storage_objects", { resource: "clusterroles.rbac.authorization.k8s.io" })).toBeGreaterThan(5);
    expect(sampleValue(f, "cluster_core_storage_commit_duration_seconds_count")).toBeGreaterThan(0);
    expect(sampleValue(f, "cluster_core_storage_writes_total")).toBeGreaterThan(0);
    expect(f.get("cluster_core_storage_tail_lag_seconds")?.type).toBe("histogram");
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_start_time_seconds", "process_open_fds", "process_max_fds"]) {
      expect(sampleValue(f, name), name).toBeGreaterThan(0);
    }
    expect(f.get("process_cpu_seconds_total")!.type).toBe("counter");
    for (const family of f.values()) {
      expect(family.help, family.name).toBeTruthy();
      expect(family.type, family.name).not.toBe("untyped");
    }
    // kubectl reads it too (kube's `kubectl get --raw /metrics`).
    const raw = await server.kubectl(["get", "--raw", "/metrics"]);
    expect(parseExposition(raw.stdout).has("apiserver_request_total")).toBe(true);
  });

  test("a watcher that stops reading is cut off and counted as terminated", async () => {
    const before = await scrape();
    const list = await server.request("GET", "/api/v1/namespaces/stall/configmaps");
    // A client that never reads its watch: its backlog grows in the server until the server drops it.
    const stalled = await new Promise<{ destroy(): void }>((resolve, reject) => {
      const req = https.request({
        host: "127.0.0.1", port: server.port, ca: server.ca, method: "GET",
        path: `/api/v1/namespaces/stall/configmaps?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
        headers: { Authorization: `Bearer ${server.token}` },
      }, (res) => {
        res.pause();
        // The cut reaches the response too (ECONNRESET, "aborted"): expected here.
        res.on("error", () => {});
        resolve({ destroy: () => req.destroy() });
      });
      req.on("error", () => { /* the server resets it */ });
      req.once("error", reject);
      req.end();
    });
    const value = "x".repeat(900_000);
    const terminated = (f: Map<string, ParsedFamily>) => sampleValue(f, "apiserver_terminated_watchers_total", { resource: "configmaps" }) ?? 0;
    let after = before;
    for (let i = 0; i < 120 && terminated(after) === terminated(before); i++) {
      const res = await createBig(`big-${i}`, value);
      expect(res.status).toBe(201);
      if (i % 4 === 3) after = await scrape();
    }
    expect(terminated(after) - terminated(before)).toBe(1);
    // The server dropped it and freed its watcher.
    expect(sampleValue(after, "cluster_core_watchers")).toBe(sampleValue(before, "cluster_core_watchers"));
    stalled.destroy();
    // Its event count kept growing until the cut, all under ConfigMap.
    expect(samplesMatching(after, "apiserver_watch_events_total", { kind: "ConfigMap" }).length).toBe(1);
  });

  test("a second process on the same store reports how late other processes' writes reach it", async () => {
    const [a, b] = await startSharedServers(2);
    const lagCount = async (s: Server) => {
      const res = await s.request("GET", "/metrics");
      return sampleValue(parseExposition(res.text), "cluster_core_storage_tail_lag_seconds_count") ?? 0;
    };
    const before = await lagCount(b);
    const made = await a.request("POST", "/api/v1/namespaces/default/configmaps", { body: { metadata: { name: "from-a" } } });
    expect(made.status).toBe(201);
    // A consistent read on b waits until b has applied a's write, tailed from the shared log.
    expect((await b.request("GET", "/api/v1/namespaces/default/configmaps/from-a")).status).toBe(200);
    expect(await lagCount(b)).toBeGreaterThan(before);
    const f = parseExposition((await b.request("GET", "/metrics")).text);
    expect(sampleValue(f, "cluster_core_storage_tail_lag_seconds_sum")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(f, "cluster_core_storage_tail_lag_seconds_sum")).toBeLessThan(60);
  });

  test("authorized like kube's: system:monitoring may, others get kube's 403, no token gets 401", async () => {
    const f = await scrape(MONITOR);
    expect(f.has("apiserver_request_total")).toBe(true);
    const denied = await server.request("GET", "/metrics", { token: NOBODY });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ kind: "Status", reason: "Forbidden", message: 'forbidden: User "nobody" cannot get path "/metrics"' });
    const anonymous = await server.request("GET", "/metrics", { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ kind: "Status", reason: "Unauthorized" });
    // /metrics is not an open path: a ServiceAccount without a binding is refused as well.
    await server.kubectl(["create", "serviceaccount", "scraper", "-n", "metrics"]);
    const sa = (await server.kubectl(["create", "token", "scraper", "-n", "metrics"])).stdout.trim();
    expect((await server.request("GET", "/metrics", { token: sa })).status).toBe(403);
    await server.kubectl(["create", "clusterrolebinding", "scraper-monitoring", "--clusterrole=system:monitoring", "--serviceaccount=metrics:scraper"]);
    await waitFor("the binding to take effect", async () => ((await server.request("GET", "/metrics", { token: sa })).status === 200 ? true : undefined));
  });
});

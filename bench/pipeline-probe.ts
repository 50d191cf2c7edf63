// Not part of the bench: a CPU cost probe of the request pipeline alone (no sockets): boots a runtime on a
// scratch data directory, stores ConfigMaps, then runs GETs through handleApi in a loop and prints the
// microseconds per request for the admin, a ServiceAccount allowed by RBAC, and with a --cpu-prof profile.
//   node --import tsx bench/pipeline-probe.ts            one Role and RoleBinding (the reader's)
//   RBAC=1 ...                                          with the get-rbac fixture (bench/rbac-fixture.ts: 1,000
//                                                       Roles and RoleBindings over five namespaces) stored too
//   The admin's and the ServiceAccount's GETs alternate in chunks of CHUNK (500) within each round.
//   ONLY=sa|admin, ROUNDS=n, PER_ROUND=n, OUT=file.json (the rounds and the medians as JSON, with the load average)
//   Each token's requests come over one keep-alive connection (its socket, ApiRequest.connection), as a client's
//   do; NEW_CONNECTIONS=1 gives every request a connection of its own (nothing remembered per connection).
//   PROFILE=file.cpuprofile  a CPU profile of the measured loops only (not the seeding); read it with bench/cpu-profile.ts
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
const dir = mkdtempSync(path.join(os.tmpdir(), "pipe-"));
process.env.DATA_DIR = dir;
process.env.CLUSTER_CORE_CONSOLE = "off";
const { getRuntime } = await import("../lib/server/runtime");
const { handleApi } = await import("../lib/api/chain");
const { toApiRequest } = await import("../lib/api/node-adapter");
const { kindByPlural } = await import("../lib/kinds");
const rt = await getRuntime();
const cm = kindByPlural("configmaps")!;
const N = 1000;
for (let i = 0; i < N; i++) await rt.registry.create(cm, "default", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}`, labels: { app: "bench" } }, data: { v: "x".repeat(1024) } } as never, { dryRun: false, fieldValidation: "Strict" } as never);
const withFixture = !!process.env.RBAC;
if (withFixture) {
  // The get-rbac scenario's objects, with "default" as the bench namespace (the reader lives there).
  const { rbacFixture } = await import("./rbac-fixture");
  const fixture = rbacFixture("default");
  for (const ns of fixture.namespaces.filter((n) => n !== "default")) await rt.registry.create(kindByPlural("namespaces")!, undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } } as never, { dryRun: false, fieldValidation: "Strict" } as never);
  for (const o of fixture.objects) await rt.registry.create(kindByPlural(o.plural)!, o.namespace, o.body as never, { dryRun: false, fieldValidation: "Strict" } as never);
} else {
  const sa = kindByPlural("serviceaccounts")!;
  await rt.registry.create(sa, "default", { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "reader" } } as never, { dryRun: false, fieldValidation: "Strict" } as never);
  const role = kindByPlural("roles")!, rb = kindByPlural("rolebindings")!;
  await rt.registry.create(role, "default", { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "r" }, rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }] } as never, { dryRun: false, fieldValidation: "Strict" } as never);
  await rt.registry.create(rb, "default", { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "r" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" }, subjects: [{ kind: "ServiceAccount", name: "reader", namespace: "default" }] } as never, { dryRun: false, fieldValidation: "Strict" } as never);
}
/** A request's headers as node:http gives them (flat strings, made once per token: the probe times the server, not itself). */
const headerSets = new Map<string, { headers: Record<string, string>; raw: string[]; distinct: Record<string, string[]>; socket: { remoteAddress: string } }>();
const newConnections = !!process.env.NEW_CONNECTIONS;
const admin = readFileSync(path.join(dir, "admin-token"), "utf8").trim();
const tokenAnswer = await handleApi(rt, toApiRequest(fake("POST", "/api/v1/namespaces/default/serviceaccounts/reader/token", admin, JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} }))));
const saToken = JSON.parse(String(tokenAnswer.body)).status.token as string;

function headersFor(token: string, body: string) {
  // Keyed by the token string itself (its hash is computed once) and the body length.
  const k = body.length ? `${token}\u0000${body.length}` : token;
  let set = headerSets.get(k);
  if (!set) {
    const headers: Record<string, string> = { host: "127.0.0.1:6443", authorization: Buffer.from(`Bearer ${token}`).toString("latin1"), accept: "application/json", "user-agent": "autocannon", ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}) };
    set = { headers, raw: Object.entries(headers).flat(), distinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])), socket: { remoteAddress: "127.0.0.1" } };
    headerSets.set(k, set);
  }
  return set;
}

function fake(method: string, url: string, token: string, body = "") {
  const { headers, raw, distinct, socket: shared } = headersFor(token, body);
  const socket = newConnections ? { remoteAddress: "127.0.0.1" } : shared;
  const listeners: Record<string, ((x?: unknown) => void)[]> = {};
  const req = {
    url, method, headers, rawHeaders: raw, httpVersionMajor: 1, socket,
    headersDistinct: distinct,
    on(ev: string, l: (x?: unknown) => void) { (listeners[ev] ??= []).push(l); if (ev === "end") queueMicrotask(() => { for (const d of listeners.data ?? []) d(Buffer.from(body)); l(); }); return req; },
  };
  return req as never;
}

/** CPU microseconds (user + system: time other processes take does not count) spent on `n` GETs. */
async function loopCpu(token: string, n: number, from = 0): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = from; i < from + n; i++) {
    const req = fake("GET", `/api/v1/namespaces/default/configmaps/cm-${i % N}`, token);
    const apiReq = toApiRequest(req);
    // The node adapter names the request's socket as its connection; set here too for an adapter that does not.
    apiReq.connection ??= (req as { socket: object }).socket;
    const res = await handleApi(rt, apiReq);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${String(res.body)}`);
  }
  const c = process.cpuUsage(c0);
  return c.user + c.system;
}

/**
 * CPU microseconds per GET for each token, `n` GETs each, taken in chunks of CHUNK (default 500) alternating
 * A B B A A B ...: whatever else runs on the machine meanwhile weighs on both alike, minute by minute.
 */
async function interleaved(tokens: string[], n: number): Promise<number[]> {
  const chunk = Number(process.env.CHUNK ?? 500);
  const spent = tokens.map(() => 0);
  for (let done = 0, k = 0; done < n; done += chunk, k++) {
    const size = Math.min(chunk, n - done);
    const order = k % 2 ? [...tokens.keys()].reverse() : [...tokens.keys()];
    for (const t of order) spent[t] += await loopCpu(tokens[t], size, done);
  }
  return spent.map((us) => us / n);
}
const rounds = Number(process.env.ROUNDS ?? 5);
const perRound = Number(process.env.PER_ROUND ?? 20000);
const loadBefore = os.loadavg();
const { Session } = await import("node:inspector/promises");
const profiler = process.env.PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.setSamplingInterval", { interval: 100 });
  await profiler.post("Profiler.start");
}
const results: { admin: number; serviceaccount: number }[] = [];
for (let r = 0; r < rounds; r++) {
  const only = process.env.ONLY;
  const [a, sv] = only === "sa" ? [NaN, (await interleaved([saToken], perRound))[0]]
    : only === "admin" ? [(await interleaved([admin], perRound))[0], NaN]
    : await interleaved([admin, saToken], perRound);
  const s = sv;
  results.push({ admin: a, serviceaccount: s });
  console.log(`round ${r}: admin ${a.toFixed(1)} CPU us/GET, serviceaccount ${s.toFixed(1)} CPU us/GET`);
}
if (profiler) {
  const { profile } = await profiler.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
const median = (xs: number[]) => { const v = [...xs].sort((x, y) => x - y); return v[Math.floor(v.length / 2)]; };
const med = { admin: median(results.map((x) => x.admin)), serviceaccount: median(results.map((x) => x.serviceaccount)) };
// Other processes on the cores only ever add to a round's CPU time (shared caches, hyperthread siblings): the
// cheapest round is the estimate least disturbed by them.
const min = { admin: Math.min(...results.map((x) => x.admin)), serviceaccount: Math.min(...results.map((x) => x.serviceaccount)) };
// CPU per request: the SA's cost over the admin's is the inverse of its throughput ratio on a CPU-bound server.
console.log(`median: admin ${med.admin.toFixed(1)}, serviceaccount ${med.serviceaccount.toFixed(1)} CPU us/GET; admin/serviceaccount ${(med.admin / med.serviceaccount).toFixed(2)}`);
console.log(`min:    admin ${min.admin.toFixed(1)}, serviceaccount ${min.serviceaccount.toFixed(1)} CPU us/GET; admin/serviceaccount ${(min.admin / min.serviceaccount).toFixed(2)}`);
if (process.env.OUT) {
  const { execSync } = await import("node:child_process");
  const { writeFileSync } = await import("node:fs");
  let sha = "";
  try { sha = execSync("git rev-parse HEAD", { encoding: "utf8" }).trim(); } catch { /* not a checkout */ }
  writeFileSync(process.env.OUT, JSON.stringify({
    probe: "bench/pipeline-probe.ts", what: "CPU microseconds (user + system) per GET of one ConfigMap through handleApi, no sockets",
    fixture: withFixture ? "bench/rbac-fixture.ts: 1,000 Roles + 1,000 RoleBindings over 5 namespaces, the reader SA's Role and RoleBinding" : "the reader SA's Role and RoleBinding only",
    gitSha: sha, node: process.version, nproc: os.cpus().length, loadavgBefore: loadBefore, loadavgAfter: os.loadavg(),
    requestsPerRound: perRound, rounds: results, median: med, min, adminOverServiceAccount: { median: med.admin / med.serviceaccount, min: min.admin / min.serviceaccount },
  }, null, 2) + "\n");
}
if (process.env.WRITES) {
  const byKey = new Map<string, number>();
  for (const e of (rt.store.objects as unknown as { events: { key: { resource: string; namespace: string; name: string } }[] }).events) { const k = `${e.key.resource}/${e.key.namespace}/${e.key.name}`; byKey.set(k, (byKey.get(k) ?? 0) + 1); }
  console.log([...byKey].sort((a, b) => b[1] - a[1]).slice(0, 5));
}
await rt.close();
process.exit(0);

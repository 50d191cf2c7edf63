// Not part of the bench: a CPU cost probe of the request pipeline alone (no sockets): boots a runtime on a
// scratch data directory, stores ConfigMaps, then runs GETs through handleApi in a loop and prints the
// microseconds per request for the admin, a ServiceAccount allowed by RBAC, and with a --cpu-prof profile.
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
const sa = kindByPlural("serviceaccounts")!;
await rt.registry.create(sa, "default", { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "reader" } } as never, { dryRun: false, fieldValidation: "Strict" } as never);
const role = kindByPlural("roles")!, rb = kindByPlural("rolebindings")!;
await rt.registry.create(role, "default", { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "r" }, rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }] } as never, { dryRun: false, fieldValidation: "Strict" } as never);
await rt.registry.create(rb, "default", { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "r" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" }, subjects: [{ kind: "ServiceAccount", name: "reader", namespace: "default" }] } as never, { dryRun: false, fieldValidation: "Strict" } as never);
const admin = readFileSync(path.join(dir, "admin-token"), "utf8").trim();
const tokenAnswer = await handleApi(rt, toApiRequest(fake("POST", "/api/v1/namespaces/default/serviceaccounts/reader/token", admin, JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} }))));
const saToken = JSON.parse(String(tokenAnswer.body)).status.token as string;

function fake(method: string, url: string, token: string, body = "") {
  const headers: Record<string, string> = { host: "127.0.0.1:6443", authorization: `Bearer ${token}`, accept: "application/json", "user-agent": "autocannon", ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}) };
  const raw = Object.entries(headers).flat();
  const listeners: Record<string, ((x?: unknown) => void)[]> = {};
  const req = {
    url, method, headers, rawHeaders: raw, httpVersionMajor: 1, socket: { remoteAddress: "127.0.0.1" },
    headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    on(ev: string, l: (x?: unknown) => void) { (listeners[ev] ??= []).push(l); if (ev === "end") queueMicrotask(() => { for (const d of listeners.data ?? []) d(Buffer.from(body)); l(); }); return req; },
  };
  return req as never;
}

/** CPU microseconds per GET (user + system: contention from other processes does not count). */
async function loop(token: string, n: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await handleApi(rt, toApiRequest(fake("GET", `/api/v1/namespaces/default/configmaps/cm-${i % N}`, token)));
    if (res.status !== 200) throw new Error(`status ${res.status}: ${String(res.body)}`);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
const rounds = Number(process.env.ROUNDS ?? 5);
for (let r = 0; r < rounds; r++) {
  const only = process.env.ONLY;
  const a = only === "sa" ? NaN : await loop(admin, 20000), s = only === "admin" ? NaN : await loop(saToken, 20000);
  console.log(`round ${r}: admin ${a.toFixed(1)} CPU us/GET, serviceaccount ${s.toFixed(1)} CPU us/GET`);
}
if (process.env.WRITES) {
  const byKey = new Map<string, number>();
  for (const e of (rt.store.objects as unknown as { events: { key: { resource: string; namespace: string; name: string } }[] }).events) { const k = `${e.key.resource}/${e.key.namespace}/${e.key.name}`; byKey.set(k, (byKey.get(k) ?? 0) + 1); }
  console.log([...byKey].sort((a, b) => b[1] - a[1]).slice(0, 5));
}
await rt.close();
process.exit(0);

// Memory per object and start-up time at scale (issue 23 items 2 and 6), a benchmark, never a test.
//
//   node --import tsx bench/memory-startup.ts seed <dir> pods 150000        # seed a data directory in-process
//   node --import tsx bench/memory-startup.ts seed <dir> configmaps 1000000
//   node --import tsx bench/memory-startup.ts measure <dir> [--tree DIR] [--runs N] [--out FILE] [--cpu-prof DIR] [--window SECONDS] [--source 1] [--node-flags "..."]
//
// `seed` creates the objects through lib/registry's Registry.create over lib/storage on the data directory
// (the server's write path minus HTTP and admission, as bench/run.ts seeds), with the Namespaces first.
// `measure` copies the seeded directory for each run (then `sync`, so the copy's writeback is not the start's),
// starts the production server on the copy as `npm start` runs it, console off, from `--tree` (default: this
// working tree): the compiled server (`node --expose-gc --import <probe.ts compiled> .server/server.mjs`) where
// the tree has scripts/build-server.mjs (built first, outside the timing), else (an older tree, or `--source 1`)
// `node --expose-gc --import tsx --import ./bench/probe.ts server.ts`; and reports the time from spawn to the first 200 of /readyz (and the
// server's CPU seconds by then, read from /proc: steadier on a shared machine), then
// (after two forced GCs) the process's heap and RSS per stored object against the objects' JSON bytes
// (SUM(LENGTH(object)) of the CurrentObject table) and the machine's load average. `--window` sets the
// server's COMPACTION_WINDOW_SECONDS: a window longer than the seeding's age keeps the seeded writes in the
// watch history (a restart soon after the writes); with the default 300 s they leave it at the first trim.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { freePort, installCleanup, sleep, startChild, stopChild, type Child } from "./common";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A pod as a Deployment's ReplicaSet would create it (less the owner reference), about 2.8 KB of JSON once stored. */
function podBody(i: number) {
  const ns = `ns-${i % 50}`;
  const app = `app-${i % 500}`;
  return {
    namespace: ns,
    body: {
      apiVersion: "v1", kind: "Pod",
      metadata: {
        name: `${app}-${(i * 2654435761 >>> 0).toString(36)}-${i.toString(36)}`,
        labels: { app, "pod-template-hash": `${(i % 500).toString(16)}7f9c5d`, tier: i % 3 ? "backend" : "frontend", release: "stable" },
        annotations: { "kubectl.kubernetes.io/restartedAt": "2026-11-28T05:00:00Z", "prometheus.io/scrape": "true", "prometheus.io/port": "9090" },
        // No ownerReferences: this server has no ReplicaSets, and references to a kind it does not serve would
        // have the garbage collector report each pod at every start.
      },
      spec: {
        nodeName: `node-${i % 1000}`,
        serviceAccountName: "default",
        terminationGracePeriodSeconds: 30,
        containers: [{
          name: "server",
          image: `registry.example.com/team/${app}:v1.${i % 20}.3`,
          args: ["--port=8080", "--metrics-port=9090", "--log-level=info", "--config=/etc/app/config.yaml"],
          ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }, { name: "metrics", containerPort: 9090, protocol: "TCP" }],
          env: [
            { name: "POD_NAME", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } } },
            { name: "POD_NAMESPACE", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } } },
            { name: "GOMAXPROCS", value: "2" },
            { name: "DATABASE_HOST", value: "postgres.database.svc.cluster.local" },
          ],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "512Mi" } },
          volumeMounts: [{ name: "config", mountPath: "/etc/app", readOnly: true }, { name: "cache", mountPath: "/var/cache/app" }],
          livenessProbe: { httpGet: { path: "/healthz", port: 8080, scheme: "HTTP" }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
          readinessProbe: { httpGet: { path: "/readyz", port: 8080, scheme: "HTTP" }, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
          imagePullPolicy: "IfNotPresent",
        }, {
          name: "sidecar",
          image: "registry.example.com/infra/log-shipper:v2.4.1",
          args: ["--input=/var/log/app", "--output=collector.logging.svc:24224"],
          resources: { requests: { cpu: "10m", memory: "32Mi" }, limits: { memory: "64Mi" } },
          volumeMounts: [{ name: "cache", mountPath: "/var/log/app", readOnly: true }],
        }],
        volumes: [{ name: "config", configMap: { name: `${app}-config`, defaultMode: 420 } }, { name: "cache", emptyDir: {} }],
        tolerations: [
          { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
          { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
        ],
      },
    },
  };
}

/** A small ConfigMap (a few hundred bytes of JSON once stored). */
function configMapBody(i: number) {
  return {
    namespace: `ns-${i % 100}`,
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}`, labels: { app: `app-${i % 1000}` } }, data: { key: `value-${i}`, mode: i % 2 ? "a" : "b" } },
  };
}

async function seed(dir: string, kind: string, count: number): Promise<void> {
  const t0 = Date.now();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { openStore } = await import("../lib/storage/index.ts");
  const { Registry } = await import("../lib/registry/registry.ts");
  const { kinds, kindByPlural } = await import("../lib/kinds/index.ts");
  const store = await openStore({ databaseUrl: `file:${path.join(dir, "cluster-core.db")}`, compactionWindowSeconds: 3600, synchronous: "NORMAL" });
  const registry = new Registry(store, kinds);
  const opts = { dryRun: false, fieldValidation: "Warn" as const };
  const make = kind === "pods" ? podBody : configMapBody;
  const k = kindByPlural(kind);
  if (!k) throw new Error(`no kind ${kind}`);
  const namespaces = new Set<string>();
  for (let i = 0; i < Math.min(count, 1000); i++) namespaces.add(make(i).namespace);
  for (const ns of namespaces) await registry.create(kindByPlural("namespaces")!, undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, opts);
  let next = 0;
  let last = Date.now();
  const worker = async () => {
    while (next < count) {
      const o = make(next++);
      await registry.create(k, o.namespace, o.body, opts);
      if (Date.now() - last > 10_000) { last = Date.now(); console.log(`  ${next} of ${count} (${Math.round(next / ((last - t0) / 1000))}/s)`); }
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
  registry.close();
  await store.close();
  console.log(`seeded ${count} ${kind} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function get(url: string, ca: Buffer, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = "";
      res.on("data", (c) => { body += c; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

interface ProbeStats { rss: number; peakRss: number; heapUsed: number; external: number; arrayBuffers: number }

function probe(child: Child, cmd?: string): Promise<ProbeStats> {
  return new Promise((resolve) => {
    const id = Math.random();
    const on = (msg: { probe?: number; stats?: ProbeStats }) => {
      if (msg?.probe !== id) return;
      child.proc.off("message", on);
      resolve(msg.stats!);
    };
    child.proc.on("message", on);
    child.proc.send({ probe: id, cmd });
  });
}

/**
 * The process's CPU (user + system) so far, from /proc (Linux; undefined elsewhere): steadier than the wall
 * time to ready on a shared machine, where the start waits for cores as much as it computes.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(((Number(fields[11]) + Number(fields[12])) / 100).toFixed(2)); // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

interface ServerToRun {
  /** The compiled server's path, when the tree builds one; else server.ts runs through tsx. */
  compiled?: string;
  /** bench/probe.ts compiled to JavaScript (a TypeScript loader would be one for the whole process). */
  probe: string;
  /** More node flags (`--node-flags "--max-semi-space-size=32 ..."`), to try V8 settings. */
  nodeFlags: string[];
}

/** Builds the tree's compiled server when it has scripts/build-server.mjs (and `source` is not asked), and the probe. */
async function serverToRun(tree: string, source: boolean, nodeFlags: string[]): Promise<ServerToRun> {
  const { build } = await import("esbuild");
  const probe = path.join(os.tmpdir(), `memory-startup-probe-${process.pid}.mjs`);
  await build({ entryPoints: [path.join(ROOT, "bench/probe.ts")], outfile: probe, platform: "node", format: "esm", logLevel: "warning" });
  const script = path.join(tree, "scripts/build-server.mjs");
  if (source || !existsSync(script)) return { probe, nodeFlags };
  const { buildServer } = await import(script) as { buildServer: (o: { root: string }) => Promise<string> };
  return { probe, nodeFlags, compiled: await buildServer({ root: tree }) };
}

async function measureOnce(seeded: string, tree: string, server: ServerToRun, cpuProf?: string, windowSeconds?: string) {
  const dir = path.join(os.tmpdir(), `memory-startup-run-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(seeded, dir, { recursive: true });
  const db = new Database(path.join(dir, "cluster-core.db"), { readonly: true });
  const { n, bytes } = db.prepare(`SELECT COUNT(*) AS n, SUM(LENGTH("object")) AS bytes FROM "CurrentObject"`).get() as { n: number; bytes: number };
  const { logRows } = db.prepare(`SELECT COUNT(*) AS logRows FROM "LogEntry"`).get() as { logRows: number };
  db.close();
  // The copy's writeback is not the server's: without this the first commit's fsync waited for the copied
  // database to reach the disk (about a second of the wall time seen in a profile).
  execFileSync("sync");
  const port = await freePort();
  const prof = [...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${cpuProf}`] : []), ...server.nodeFlags];
  // As `npm start` runs it: the compiled server where the tree has one (scripts/build-server.mjs), else server.ts through tsx.
  const args = server.compiled
    ? ["--expose-gc", ...prof, "--import", server.probe, server.compiled]
    : ["--expose-gc", ...prof, "--import", "tsx", "--import", path.join(ROOT, "bench/probe.ts"), "server.ts"];
  const t0 = performance.now();
  const child = startChild("ours", process.execPath, args, {
    cwd: tree, ipc: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, CLUSTER_CORE_CONSOLE: "off", NODE_ENV: "production", ...(windowSeconds ? { COMPACTION_WINDOW_SECONDS: windowSeconds } : {}) },
  });
  let ready = 0;
  let cpu: number | undefined;
  let ca: Buffer | undefined;
  for (;;) {
    if (child.proc.exitCode !== null) throw new Error(`server exited: ${child.output().slice(-2000)}`);
    try {
      ca ??= readFileSync(path.join(dir, "pki", "ca.crt"));
      if ((await get(`https://127.0.0.1:${port}/readyz`, ca)).status === 200) { ready = performance.now() - t0; cpu = cpuSeconds(child.proc.pid); break; }
    } catch { /* not listening yet */ }
    await sleep(20);
  }
  const afterReady = await probe(child);
  await sleep(2000);
  const gcd = await probe(child, "gc");
  const token = readFileSync(path.join(dir, "admin-token"), "utf8").trim();
  const metrics = (await get(`https://127.0.0.1:${port}/metrics`, ca!, token)).body;
  const historyEvents = Number(/^cluster_core_history_events\S*\s+(\d+)/m.exec(metrics)?.[1] ?? NaN);
  await stopChild(child);
  rmSync(dir, { recursive: true, force: true });
  const per = (x: number) => Math.round(x / n);
  return {
    objects: n, jsonBytes: bytes, jsonBytesPerObject: per(bytes), logRows, historyEvents,
    readySeconds: Number((ready / 1000).toFixed(2)), cpuSecondsToReady: cpu,
    rssAtReady: afterReady.rss, peakRssToReady: afterReady.peakRss,
    afterGc: { heapUsed: gcd.heapUsed, rss: gcd.rss, external: gcd.external },
    heapPerObject: per(gcd.heapUsed), heapPerJson: Number((gcd.heapUsed / bytes).toFixed(2)),
    rssPerObject: per(gcd.rss), rssPerJson: Number((gcd.rss / bytes).toFixed(2)),
  };
}

async function measure(seeded: string, flags: Record<string, string>): Promise<void> {
  const tree = path.resolve(flags.tree ?? ROOT);
  const runs = Number(flags.runs ?? 2);
  const server = await serverToRun(tree, flags.source === "1", (flags["node-flags"] ?? "").split(" ").filter(Boolean));
  const results = [];
  for (let r = 0; r < runs; r++) {
    const load = os.loadavg();
    const res = await measureOnce(seeded, tree, server, flags["cpu-prof"], flags.window);
    results.push({ ...res, loadAverage: load.map((x) => Number(x.toFixed(2))) });
    console.log(JSON.stringify(results[results.length - 1]));
  }
  let sha = "";
  try { sha = execFileSync("git", ["-C", tree, "rev-parse", "HEAD"], { encoding: "utf8" }).trim(); } catch { /* not a checkout */ }
  const out = { when: new Date().toISOString(), tree, gitSha: sha, server: server.compiled ? "compiled (scripts/build-server.mjs)" : "server.ts through tsx", nodeFlags: server.nodeFlags, seeded, compactionWindowSeconds: flags.window ?? "default (300)", node: process.version, cpus: os.cpus().length, runs: results };
  if (flags.out) writeFileSync(flags.out, JSON.stringify(out, null, 2) + "\n");
}

installCleanup();
const [cmd, dir, ...rest] = process.argv.slice(2);
if (cmd === "seed") await seed(path.resolve(dir), rest[0] ?? "pods", Number(rest[1] ?? 150_000));
else if (cmd === "measure") {
  const flags: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) flags[rest[i].replace(/^--/, "")] = rest[i + 1];
  await measure(path.resolve(dir), flags);
} else {
  console.error("usage: memory-startup.ts seed <dir> <pods|configmaps> <count> | measure <dir> [--tree DIR] [--runs N] [--out FILE] [--cpu-prof DIR] [--window SECONDS] [--source 1] [--node-flags FLAGS]");
  process.exit(2);
}
process.exit(0);

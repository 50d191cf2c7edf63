// `npm run bench`: the benchmark of performance.md §8 / issue 3 (never a test). Every scenario runs our
// server and its reference(s) interleaved in this one invocation (ours, ref, ours, ref, ...), reports every
// run, the medians and the ratio ours/ref against the targets, and writes bench/results/<timestamp>.json.
//
// Environment:
//   BENCH_QUICK=1            ~1.5 minute smoke run: 1 round, 3 s runs, W=1000 only, no plain-HTTP row
//   BENCH_SCENARIOS=a,b      any of create,get,get-h2,get-rbac,get-audit,get-metrics,list,list-pages,watch,watch-<W>,watch-http,watch-http-<W>,replicas,
//                            get-protobuf,list-protobuf,watch-protobuf,watch-protobuf-<W>,cr-get,cr-create
//   BENCH_ROUNDS=n           measured rounds per target (default 3; quick 1)
//   BENCH_DURATION=s         seconds per load run and per watch event phase (default 10; quick 3)
//   BENCH_WATCHERS=a,b,c     watcher counts for `watch` (default 100,1000,5000; quick 1000)
//   BENCH_WATCH_RATE=r       events/s for every W (default 20 at W<=100, 10 at W<=1000, 2 above)
//   BENCH_MAX_LOAD=x         first wait (up to BENCH_MAX_LOAD_WAIT s, default 600) for the 1-min load average < x
//   BENCH_SEED=api           seed the 10,000 objects through the HTTPS API instead of in-process (slow)
//   BENCH_SNAPSHOT=0         run the working tree in place (default: a copy taken at the start of the run)
//   BENCH_CPU_PROF=1         start our server with --cpu-prof (profiles go to a temp folder, path printed)
//   BENCH_SOURCE=1           run our server from source through tsx (profiles then name our files) instead of
//                            the compiled .server/server.mjs that npm start runs
//   BENCH_KEEP_TMP=1         keep the scratch folders (data dirs, fixtures)
//   BENCH_OUT=path           write the JSON there instead of bench/results/<timestamp>.json
//   BENCH_PG_URL=url         replicas: use this PostgreSQL server (default: a throw-away cluster from Debian's postgresql)
//   BENCH_REPLICA_WATCHERS=n replicas: watchers per latency run (default 10)
//   BENCH_REPLICA_RATE=r     replicas: writes per second in the latency runs (default 100)
import autocannon, { type RequestSpec, type Result } from "autocannon";
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import {
  fmt, killAllChildren, median, probe, procMemory, raiseOpenFileLimit, round, sleep, startChild, stopChild, table, type Child, type ProbeStats,
} from "./common";
import { benchPostgres } from "./postgres";
import { collectionPath, RBAC_FILLER_COUNT, rbacFixture, READER_SA, type SeedObject } from "./rbac-fixture";
import { benchContext, cleanEnv, filesBytes, machineCpu, pkgVersion, procCpuSeconds, ROOT } from "./servers";
import type { WatchClientConfig, WatchClientResult } from "./watch-client";

const env = process.env;
const QUICK = env.BENCH_QUICK === "1";
const ROUNDS = Number(env.BENCH_ROUNDS ?? (QUICK ? 1 : 3));
const DURATION = Number(env.BENCH_DURATION ?? (QUICK ? 3 : 10));
const WARMUP = QUICK ? 1 : 3;
const WATCHERS = (env.BENCH_WATCHERS ?? (QUICK ? "1000" : "100,1000,5000")).split(",").map(Number).filter((n) => n > 0);
const ALL_SCENARIOS = ["create", "get", "get-h2", "get-rbac", "get-audit", "get-metrics", "get-flowcontrol", "list", "list-pages", "watch", "watch-http", "replicas", "get-protobuf", "list-protobuf", "watch-protobuf", "cr-get", "cr-create"];
const PROTOBUF = "application/vnd.kubernetes.protobuf";
/** Quick mode leaves out the plain-HTTP comparison row unless asked for. */
const DEFAULT_SCENARIOS = QUICK ? ALL_SCENARIOS.filter((s) => s !== "watch-http") : ALL_SCENARIOS;
const SCENARIOS = (env.BENCH_SCENARIOS ?? DEFAULT_SCENARIOS.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
const CPU_PROF = env.BENCH_CPU_PROF === "1";
const KEEP_TMP = env.BENCH_KEEP_TMP === "1";

const SEED_COUNT = 10_000;
const SEED_NS = "bench";
const PAGE = 500;
const FILLER = "x".repeat(1024); // the 1 KiB ConfigMap fixture of §8.1 rule 4
/** Events per second for W watchers: about 10,000 deliveries/s at W >= 1,000 (§7.5 used 20/s at W=100). */
const watchRate = (w: number) => Number(env.BENCH_WATCH_RATE ?? (w <= 100 ? 20 : w <= 1000 ? 10 : 2));

/**
 * The scratch folder and the server code under test (bench/servers.ts): by default a copy of the working tree
 * taken when the run starts (tracked and untracked files, lib/generated, not node_modules/.next/.git), so edits
 * made while the benchmark runs cannot mix versions or break a later scenario. BENCH_SNAPSHOT=0 runs the
 * working tree in place.
 */
const ctx = benchContext({ name: "bench", snapshot: env.BENCH_SNAPSHOT !== "0", keepTmp: KEEP_TMP });
const { scratch, serverModule } = ctx;
const profDir = CPU_PROF ? mkdtempSync(path.join(os.tmpdir(), "cluster-core-bench-prof-")) : undefined;
/** Node flags of our servers: --cpu-prof with BENCH_CPU_PROF=1. */
const OUR_NODE_ARGS = profDir ? ["--cpu-prof", "--cpu-prof-dir", profDir] : [];

const log = (...a: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

// --- servers ------------------------------------------------------------------------------------------

type ServerKind = "ours" | "bare-http" | "bare-h2" | "raw-sqlite-insert" | "fanout";

interface Target {
  kind: ServerKind;
  /** Name of this target in runs and medians when one server is measured with several credentials or settings. */
  label?: string;
  child: Child;
  url: string;
  caFile: string;
  /** Header value sent to every target (refs ignore it; same request bytes). */
  auth: string;
  /** Accept header of its requests (default application/json): `ours-protobuf` is `ours` asking for protobuf. */
  accept?: string;
  /** More request headers (autocannon targets): `ours-padded` is the admin sending as many bytes as the SA. */
  extraHeaders?: Record<string, string>;
  dataDir?: string;
  dbFiles: string[];
}

const targetName = (t: Target) => t.label ?? t.kind;

let ourToken = "";
const FAKE_TOKEN = "x".repeat(43);

/** Our server (bench/servers.ts: production mode, console off, the probe preload) as a load target. */
async function startOurs(opts: { plain?: boolean; gc?: boolean; dataDir?: string; label?: string; env?: Record<string, string> } = {}): Promise<Target> {
  const s = await ctx.startOurs({ dataDir: opts.dataDir, gc: opts.gc, plain: opts.plain, env: opts.env, nodeArgs: OUR_NODE_ARGS, timeoutMs: 120_000 });
  ourToken = s.token;
  return {
    kind: "ours", label: opts.label, child: s.child, url: s.url, caFile: s.caFile,
    auth: `Bearer ${ourToken}`, dataDir: s.dataDir, dbFiles: ["cluster-core.db", "cluster-core.db-wal"].map((f) => path.join(s.dataDir, f)),
  };
}

/** A reference server of bench/refs as a load target; the SQLite ones on a scratch database at synchronous=FULL. */
async function startRef(kind: Exclude<ServerKind, "ours">, opts: { plain?: boolean; gc?: boolean; env?: Record<string, string> } = {}): Promise<Target> {
  const dbPath = ctx.freshPath(kind, ".db");
  const s = await ctx.startRef(kind, { gc: opts.gc, plain: opts.plain, timeoutMs: 60_000, env: { DB_PATH: dbPath, SYNCHRONOUS: "FULL", ...opts.env } });
  return {
    kind, child: s.child, url: s.url, caFile: s.caFile,
    auth: ourToken ? `Bearer ${ourToken}` : `Bearer ${FAKE_TOKEN}`, dbFiles: [dbPath, `${dbPath}-wal`],
  };
}

const dbBytes = (t: Target) => filesBytes(t.dbFiles);

// --- request/response load (autocannon, programmatic, no pipelining) --------------------------------------

interface LoadRun {
  /** The target's label (e.g. `ours-sa`), else its kind. */
  target: string;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  bytesPerResponse: number;
  /** Server side, from bench/probe.ts: event-loop delay during the run, RSS before/peak/after. */
  eldP99Ms: number;
  eldMaxMs: number;
  rssBeforeMiB: number;
  peakRssGrowthMiB: number;
  rssAfterMiB: number;
  /**
   * The server process's CPU time (user + system, /proc) per completed request during the run: unlike req/s,
   * it hardly moves when other processes take the cores, so on a busy box it is the figure to compare.
   */
  cpuUsPerRequest: number | null;
  extra?: Record<string, unknown>;
}

interface LoadSpec {
  connections: number;
  requests: (t: Target) => RequestSpec[];
  method?: string;
  headers?: Record<string, string>;
  /** Per-run extra figures (walk checks, DB growth). */
  before?: (t: Target) => void;
  after?: (t: Target, r: Result) => Record<string, unknown>;
}

function runAutocannon(t: Target, spec: LoadSpec, seconds: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({
      url: t.url, connections: spec.connections, duration: seconds, pipelining: 1, timeout: 30,
      headers: { authorization: t.auth, accept: t.accept ?? "application/json", ...t.extraHeaders, ...spec.headers },
      requests: spec.requests(t),
    }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function measureLoad(t: Target, spec: LoadSpec, seconds: number, roundNo: number): Promise<LoadRun> {
  spec.before?.(t);
  const mem0 = procMemory(t.child.pid);
  await probe(t.child, "reset");
  const cpu0 = cpuSeconds([t.child.pid!]).get(t.child.pid!);
  const r = await runAutocannon(t, spec, seconds);
  const cpu1 = cpuSeconds([t.child.pid!]).get(t.child.pid!);
  const s: ProbeStats = await probe(t.child, "stats");
  const mem1 = procMemory(t.child.pid);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const MiB = (b: number) => round(b / 1048576, 1)!;
  return {
    target: targetName(t), round: roundNo,
    rps: round(completed / r.duration, 1)!,
    p50: r.latency.p50, p99: r.latency.p99, meanMs: round(r.latency.mean)!,
    requests: completed, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, statusCodes,
    bytesPerResponse: completed ? Math.round(r.throughput.total / completed) : 0,
    eldP99Ms: s.eldP99, eldMaxMs: s.eldMax,
    rssBeforeMiB: MiB(mem0.rss), peakRssGrowthMiB: MiB(Math.max(0, s.peakRss - mem0.rss)), rssAfterMiB: MiB(mem1.rss),
    cpuUsPerRequest: cpuPerRequest(cpu0, cpu1, completed),
    extra: spec.after?.(t, r),
  };
}

// --- results ------------------------------------------------------------------------------------------

interface TargetCheck {
  name: string;
  /** e.g. ">= 0.3" */
  goal: string;
  value: number | boolean | null;
  met: boolean | null;
  source: string;
  /** The key in `ratios` this target checks, when it is a ratio. */
  ratioKey?: string;
}

interface ScenarioResult {
  scenario: string;
  title: string;
  params: Record<string, unknown>;
  runs: unknown[];
  medians: Record<string, Record<string, number | null>>;
  ratios: Record<string, number | null>;
  targets: TargetCheck[];
  notes?: string[];
  error?: string;
}

const results: ScenarioResult[] = [];
/** The runs of the GET group (get-protobuf reads its ours / ours-protobuf pairs from them). */
let lastGetRuns: LoadRun[] = [];

const cpuPerRequest = (before: number | undefined, after: number | undefined, requests: number): number | null =>
  before === undefined || after === undefined || !requests ? null : round(((after - before) * 1e6) / requests, 1);

function loadMedians(runs: LoadRun[], kinds: string[]): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const k of kinds) {
    const rs = runs.filter((r) => r.target === k);
    out[k] = {
      rps: round(median(rs.map((r) => r.rps)), 1), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)),
      eldP99Ms: median(rs.map((r) => r.eldP99Ms)), peakRssGrowthMiB: median(rs.map((r) => r.peakRssGrowthMiB)),
      bytesPerResponse: median(rs.map((r) => r.bytesPerResponse)),
      cpuUsPerRequest: median(rs.flatMap((r) => (r.cpuUsPerRequest === null || r.cpuUsPerRequest === undefined ? [] : [r.cpuUsPerRequest]))),
      non2xxTotal: rs.reduce((a, r) => a + r.non2xx, 0), errorsTotal: rs.reduce((a, r) => a + r.errors + r.timeouts, 0),
    };
  }
  return out;
}

/** ours / ref; null when either side is missing or not positive (e.g. an RSS delta lost in GC noise). */
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || a <= 0 || b <= 0 ? null : round(a / b, 3));
const atLeast = (name: string, value: number | null, goal: number, source: string, ratioKey?: string): TargetCheck =>
  ({ name, goal: `>= ${goal}`, value, met: value === null ? null : value >= goal, source, ratioKey });
const atMost = (name: string, value: number | null, goal: number, source: string, ratioKey?: string): TargetCheck =>
  ({ name, goal: `<= ${goal}`, value, met: value === null ? null : value <= goal, source, ratioKey });

/**
 * The order of round `r` (1-based): `targets` rotated left by r - 1, so no target is always measured first
 * (the first run of a round was seen penalised: 1,813 vs 6,706 req/s on the same process).
 */
function roundOrder<T>(targets: T[], r: number): T[] {
  const k = (r - 1) % targets.length;
  return [...targets.slice(k), ...targets.slice(0, k)];
}

/**
 * ours, ref(s), ours, ref(s), ...: one discarded warm-up run per target, then ROUNDS measured runs each, every
 * round in roundOrder (the targets rotated by one each round).
 */
async function interleavedLoad(targets: Target[], spec: LoadSpec): Promise<LoadRun[]> {
  for (const t of targets) {
    log(`  warm-up ${targetName(t)} (${WARMUP}s)`);
    await runAutocannon(t, spec, WARMUP);
  }
  const runs: LoadRun[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (const t of roundOrder(targets, r)) {
      const run = await measureLoad(t, spec, DURATION, r);
      log(`  round ${r} ${targetName(t).padEnd(17)} ${String(run.rps).padStart(9)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  non2xx ${run.non2xx}  errors ${run.errors + run.timeouts}`);
      runs.push(run);
    }
  }
  return runs;
}

// --- HTTP/2 load (h2load, nghttp2-client) ------------------------------------------------------------------

const H2LOAD = "h2load";
const H2_CONNECTIONS = 10;
const H2_STREAMS = 10;

function h2loadAvailable(): boolean {
  try { execFileSync(H2LOAD, ["--version"], { stdio: "ignore" }); return true; } catch { return false; }
}

/** One h2load run of `seconds` over the URIs in `uriFile`; per-request latencies from its --log-file. */
async function measureH2(t: Target, uriFile: string, seconds: number, roundNo: number): Promise<LoadRun> {
  const logFile = path.join(scratch, `h2load-${targetName(t)}-${roundNo}.log`);
  const mem0 = procMemory(t.child.pid);
  await probe(t.child, "reset");
  const cpu0 = cpuSeconds([t.child.pid!]).get(t.child.pid!);
  const out = await new Promise<string>((resolve, reject) => {
    execFile(H2LOAD, ["-D", String(seconds), "-c", String(H2_CONNECTIONS), "-m", String(H2_STREAMS), "-H", `authorization: ${t.auth}`,
      "-H", `accept: ${t.accept ?? "application/json"}`, "--log-file", logFile, "-i", uriFile],
    { maxBuffer: 16 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  const cpu1 = cpuSeconds([t.child.pid!]).get(t.child.pid!);
  const s: ProbeStats = await probe(t.child, "stats");
  const mem1 = procMemory(t.child.pid);
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const done = num(/(\d+) done/), succeeded = num(/(\d+) succeeded/), errored = num(/(\d+) errored/) + num(/(\d+) failed/), timeouts = num(/(\d+) timeout/);
  const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(out);
  const statusCodes: Record<string, number> = codes ? { "2xx": Number(codes[1]), "3xx": Number(codes[2]), "4xx": Number(codes[3]), "5xx": Number(codes[4]) } : {};
  const dataBytes = num(/traffic: .*?(\d+) bytes data/) || num(/(\d+) bytes data/);
  // --log-file lines: <start time us> \t <status> \t <duration us>
  const lat = readFileSync(logFile, "utf8").split("\n").filter(Boolean).map((l) => Number(l.split("\t")[2]) / 1000).sort((a, b) => a - b);
  rmSync(logFile, { force: true });
  const pct = (p: number) => (lat.length ? lat[Math.min(lat.length - 1, Math.ceil(lat.length * p) - 1)] : 0);
  const MiB = (b: number) => round(b / 1048576, 1)!;
  if (!Number.isFinite(done)) throw new Error(`h2load output not understood:\n${out}`);
  return {
    target: targetName(t), round: roundNo, rps: round(succeeded / seconds, 1)!,
    p50: round(pct(0.5), 2)!, p99: round(pct(0.99), 2)!, meanMs: round(lat.reduce((a, b) => a + b, 0) / (lat.length || 1))!,
    requests: done, non2xx: codes ? Number(codes[2]) + Number(codes[3]) + Number(codes[4]) : done, errors: errored, timeouts, statusCodes,
    bytesPerResponse: done && Number.isFinite(dataBytes) ? Math.round(dataBytes / done) : 0,
    eldP99Ms: s.eldP99, eldMaxMs: s.eldMax,
    rssBeforeMiB: MiB(mem0.rss), peakRssGrowthMiB: MiB(Math.max(0, s.peakRss - mem0.rss)), rssAfterMiB: MiB(mem1.rss),
    cpuUsPerRequest: cpuPerRequest(cpu0, cpu1, done),
    extra: { client: `h2load -c ${H2_CONNECTIONS} -m ${H2_STREAMS}`, h2loadSummary: /finished in .*/.exec(out)?.[0] },
  };
}

/**
 * get-h2: the `get` requests over HTTP/2 (as kubectl and client-go speak it) with h2load, against our server
 * (the same process as `get`) and a bare node:http2 server serving the same bytes, interleaved.
 */
async function scenarioGetH2(ours: Target, fixture: string, seedNote: string): Promise<void> {
  if (!h2loadAvailable()) throw new Error("get-h2 needs h2load: apt-get install -y nghttp2-client (Debian), then rerun");
  const bare = await startRef("bare-h2", { env: { FIXTURE: fixture } });
  try {
    const targets = [ours, bare];
    // h2load cycles through the URIs it is given: 2,000 random names of the 10,000 (the autocannon runs draw per request).
    const uriFile = (t: Target) => {
      const f = path.join(scratch, `h2-uris-${targetName(t)}.txt`);
      writeFileSync(f, Array.from({ length: 2000 }, () => `${t.url}/api/v1/namespaces/${SEED_NS}/configmaps/${seedName(Math.floor(Math.random() * SEED_COUNT))}`).join("\n") + "\n");
      return f;
    };
    const files = new Map(targets.map((t) => [t, uriFile(t)]));
    log(`get-h2: GET one of ${SEED_COUNT} ConfigMaps by name over HTTP/2, h2load -c ${H2_CONNECTIONS} -m ${H2_STREAMS}; ${targets.map(targetName).join(", ")}`);
    for (const t of targets) { log(`  warm-up ${targetName(t)} (${WARMUP}s)`); await measureH2(t, files.get(t)!, WARMUP, 0); }
    const runs: LoadRun[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const t of roundOrder(targets, r)) {
        const run = await measureH2(t, files.get(t)!, DURATION, r);
        log(`  round ${r} ${targetName(t).padEnd(17)} ${String(run.rps).padStart(9)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  non2xx ${run.non2xx}  errors ${run.errors + run.timeouts}`);
        runs.push(run);
      }
    }
    const medians = loadMedians(runs, ["ours", "bare-h2"]);
    const r = ratio(medians.ours.rps, medians["bare-h2"].rps);
    const clean = runs.every((x) => x.non2xx === 0 && x.errors === 0 && x.timeouts === 0);
    results.push({
      scenario: "get-h2", title: `get by name over HTTP/2 (h2load -c ${H2_CONNECTIONS} -m ${H2_STREAMS})`,
      params: { connections: H2_CONNECTIONS, streamsPerConnection: H2_STREAMS, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT, client: execFileSync(H2LOAD, ["--version"]).toString().trim() },
      runs, medians, ratios: { "vs bare-h2": r },
      targets: [
        atLeast("get throughput over HTTP/2 vs bare node:http2", r, 0.8, "issue 23", "vs bare-h2"),
        { name: "no errors / non-2xx (h2)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
      ],
      notes: [seedNote, "bare-h2 (refs/bare-h2.ts) = node:http2.createSecureServer, HTTP/2 only, the compatibility API, a Map lookup of the same stored JSON; ours = the admin GET on the server of the `get` scenario. h2load cycles through 2,000 random names."],
    });
  } finally {
    await stopChild(bare.child);
  }
}

// --- seeding --------------------------------------------------------------------------------------------

function httpsJson(t: Target, method: string, p: string, body: unknown, agent: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(t.url);
    const data = body === undefined ? undefined : JSON.stringify(body);
    const opts: https.RequestOptions = {
      host: u.hostname, port: u.port, method, path: p, agent,
      headers: { authorization: t.auth, accept: "application/json", ...(data ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(data)) } : {}) },
    };
    const req = u.protocol === "https:" ? https.request({ ...opts, ca: readFileSync(t.caFile) }) : http.request(opts);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(data);
  });
}

const seedName = (i: number) => `cm-${String(i).padStart(5, "0")}`;

const seedBody = (i: number) => ({
  apiVersion: "v1", kind: "ConfigMap", metadata: { name: seedName(i), labels: { app: "bench", shard: String(i % 100) } }, data: { v: FILLER },
});

/**
 * What the read scenarios need stored: the Namespace objects first (namespaces are real objects: nothing can
 * be created in a missing one through the API), the 10,000 ConfigMaps, and with `rbac` the get-rbac fixture
 * (bench/rbac-fixture.ts: 1,000 Roles and RoleBindings over five namespaces, the reader ServiceAccount and
 * its binding).
 */
function seedPlan(rbac: boolean): { namespaces: string[]; objects: SeedObject[] } {
  const fixture = rbac ? rbacFixture(SEED_NS) : { namespaces: [SEED_NS], objects: [] };
  const cms = Array.from({ length: SEED_COUNT }, (_, i): SeedObject => ({ plural: "configmaps", namespace: SEED_NS, body: seedBody(i) }));
  return { namespaces: fixture.namespaces, objects: [...cms, ...fixture.objects] };
}

/**
 * BENCH_SEED=store (default): everything is created before our server starts, in this process, through
 * lib/registry's Registry.create over lib/storage's store on the server's data directory: the server's own write
 * path (defaults, validation, metadata, revision log + current state, group commit) minus HTTP and admission,
 * so the stored objects are exactly what the API would store. Seeding through the API (BENCH_SEED=api) takes
 * about a minute on this box because the server commits one write per transaction (see bench/README.md).
 */
async function seedStore(dataDir: string, rbac: boolean): Promise<number> {
  const t0 = Date.now();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { openStore } = await serverModule<typeof import("../lib/storage")>("lib/storage/index.ts");
  const { Registry } = await serverModule<typeof import("../lib/registry/registry")>("lib/registry/registry.ts");
  const { kinds, kindByPlural } = await serverModule<typeof import("../lib/kinds")>("lib/kinds/index.ts");
  const store = await openStore({ databaseUrl: `file:${path.join(dataDir, "cluster-core.db")}`, compactionWindowSeconds: 300 });
  const registry = new Registry(store, kinds);
  const opts = { dryRun: false, fieldValidation: "Warn" as const };
  const plan = seedPlan(rbac);
  // The server would also create these at start (lib/bootstrap/namespaces.ts); made here so the store holds
  // what an API-seeded one would.
  for (const ns of plan.namespaces) await registry.create(kindByPlural("namespaces")!, undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, opts);
  let next = 0;
  const worker = async () => {
    while (next < plan.objects.length) {
      const o = plan.objects[next++];
      await registry.create(kindByPlural(o.plural)!, o.namespace, o.body, opts);
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
  registry.close();
  await store.close();
  return (Date.now() - t0) / 1000;
}

async function postOk(t: Target, p: string, body: unknown, agent: http.Agent, ok: number[] = [201]): Promise<string> {
  const r = await httpsJson(t, "POST", p, body, agent);
  if (!ok.includes(r.status)) throw new Error(`POST ${p}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.text;
}

async function seedApi(t: Target, rbac: boolean): Promise<number> {
  const t0 = Date.now();
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(t.caFile) });
  const plan = seedPlan(rbac);
  for (const ns of plan.namespaces) await postOk(t, "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, agent);
  let next = 0;
  const worker = async () => {
    while (next < plan.objects.length) {
      const o = plan.objects[next++];
      await postOk(t, collectionPath(o), o.body, agent);
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  agent.destroy();
  return (Date.now() - t0) / 1000;
}

/** A TokenRequest for the reader ServiceAccount, made by the admin: the token `kubectl create token` would get. */
async function readerToken(t: Target): Promise<string> {
  const agent = new https.Agent({ keepAlive: false, ca: readFileSync(t.caFile) });
  try {
    const text = await postOk(t, `/api/v1/namespaces/${SEED_NS}/serviceaccounts/${READER_SA}/token`,
      { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } }, agent);
    const token = (JSON.parse(text) as { status?: { token?: string } }).status?.token;
    if (!token) throw new Error("TokenRequest: the answer has no status.token");
    return token;
  } finally {
    agent.destroy();
  }
}

/**
 * Proof that the reader goes through RBAC rather than a shortcut: it may get a ConfigMap in its namespace
 * (its RoleBinding) but not list Secrets there, nor get a ConfigMap in another namespace.
 */
async function rbacChecks(t: Target): Promise<Record<string, number>> {
  const agent = new https.Agent({ keepAlive: false, ca: readFileSync(t.caFile) });
  try {
    const status = async (p: string) => (await httpsJson(t, "GET", p, undefined, agent)).status;
    return {
      [`get configmap ${SEED_NS}/${seedName(0)}`]: await status(`/api/v1/namespaces/${SEED_NS}/configmaps/${seedName(0)}`),
      [`list secrets in ${SEED_NS}`]: await status(`/api/v1/namespaces/${SEED_NS}/secrets`),
      [`list configmaps in ${SEED_NS}`]: await status(`/api/v1/namespaces/${SEED_NS}/configmaps`),
      ["get configmap team-a/x"]: await status("/api/v1/namespaces/team-a/configmaps/x"),
    };
  } finally {
    agent.destroy();
  }
}

/** The seeded objects as our server serves them (one JSON per line, for bare-http) and the list RV. */
async function fixtureFrom(t: Target): Promise<{ fixture: string; listRv: string }> {
  const agent = new https.Agent({ keepAlive: false, ca: readFileSync(t.caFile) });
  const list = await httpsJson(t, "GET", `/api/v1/namespaces/${SEED_NS}/configmaps`, undefined, agent);
  agent.destroy();
  const parsed = JSON.parse(list.text) as { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
  // The root-ca-cert-publisher adds kube-root-ca.crt to every namespace, as kube's does.
  const seeded = parsed.items.filter((o) => o.metadata.name !== "kube-root-ca.crt").length;
  if (seeded !== SEED_COUNT) throw new Error(`seed: list has ${seeded} seeded items`);
  const fixture = path.join(scratch, "fixture.ndjson");
  writeFileSync(fixture, parsed.items.map((o) => JSON.stringify(o)).join("\n") + "\n");
  return { fixture, listRv: parsed.metadata.resourceVersion };
}

// --- custom resources (cr-get, cr-create: issue 25 item 11) ------------------------------------------------

const CR_GROUP = "bench.example.com";
const CR_PLURAL = "benchitems";
/** Custom resources stored for cr-get (as many as the ConfigMaps; 1,000 in a quick run). */
const CR_COUNT = QUICK ? 1000 : SEED_COUNT;
/**
 * A CRD whose objects have a ConfigMap's shape (a top-level `data` map of strings), so a custom resource and a
 * ConfigMap of the same data are the same size but for apiVersion and kind.
 */
const BENCH_CRD = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: `${CR_PLURAL}.${CR_GROUP}` },
  spec: {
    group: CR_GROUP, scope: "Namespaced", names: { plural: CR_PLURAL, singular: "benchitem", kind: "BenchItem", listKind: "BenchItemList" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { data: { type: "object", additionalProperties: { type: "string" } } } } },
    }],
  },
};
const crPath = (ns: string, name?: string) => `/apis/${CR_GROUP}/v1/namespaces/${ns}/${CR_PLURAL}${name ? `/${name}` : ""}`;
const crName = (i: number) => `cr-${String(i).padStart(5, "0")}`;
/** A custom resource with the seeded ConfigMaps' labels and 1 KiB of data. */
const crBody = (name: string, labels?: Record<string, string>) => ({ apiVersion: `${CR_GROUP}/v1`, kind: "BenchItem", metadata: { name, ...(labels ? { labels } : {}) }, data: { v: FILLER } });

/**
 * Registers the bench CRD through the API and waits until it is Established and its custom resources are
 * served in `ns` (GET of the collection answers 200).
 */
async function registerBenchCrd(t: Target, ns: string): Promise<void> {
  const agent = new https.Agent({ keepAlive: true, ca: readFileSync(t.caFile) });
  try {
    await postOk(t, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", BENCH_CRD, agent);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const crd = await httpsJson(t, "GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${BENCH_CRD.metadata.name}`, undefined, agent);
      const conditions = (JSON.parse(crd.text) as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? [];
      const established = conditions.some((c) => c.type === "Established" && c.status === "True");
      if (established && (await httpsJson(t, "GET", crPath(ns), undefined, agent)).status === 200) return;
      if (Date.now() > deadline) throw new Error(`CRD ${BENCH_CRD.metadata.name} not Established and served within 60 s: ${crd.status} ${crd.text.slice(0, 300)}`);
      await sleep(200);
    }
  } finally {
    agent.destroy();
  }
}

/** `count` custom resources in `ns` through the API (16 in flight). */
async function seedCustomResources(t: Target, ns: string, count: number): Promise<number> {
  const t0 = Date.now();
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16, ca: readFileSync(t.caFile) });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await postOk(t, crPath(ns), crBody(crName(i), { app: "bench", shard: String(i % 100) }), agent);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  agent.destroy();
  return (Date.now() - t0) / 1000;
}

// --- scenarios: create, get, list, list-pages -----------------------------------------------------------

async function scenarioCreate(which: string[]): Promise<void> {
  const C = 10;
  const create = which.includes("create");
  const crCreate = which.includes("cr-create");
  log(`${which.join("+")}: POST ConfigMaps${crCreate ? " and custom resources" : ""} (1 KiB data), unique names, C=${C}, ${DURATION}s x ${ROUNDS} rounds`);
  const ours = await startOurs();
  const raw = create ? await startRef("raw-sqlite-insert") : undefined;
  const bare = create ? await startRef("bare-http") : undefined;
  try {
    const agent = new https.Agent({ keepAlive: false, ca: readFileSync(ours.caFile) });
    await postOk(ours, "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "create" } }, agent);
    agent.destroy();
    // cr-create: the same server also creates custom resources of the bench CRD (registered through the API).
    const oursCr: Target | undefined = crCreate ? { ...ours, label: "ours-cr" } : undefined;
    if (crCreate) await registerBenchCrd(ours, "create");
    let seq = 0;
    const tag = Date.now().toString(36);
    const bytes0 = new Map<Target, number>();
    const spec: LoadSpec = {
      connections: C,
      headers: { "content-type": "application/json" },
      requests: (t) => [t === oursCr
        ? { method: "POST", path: crPath("create"), setupRequest: (req) => ({ ...req, body: JSON.stringify(crBody(`c-${tag}-${seq++}`)) }) }
        : {
          method: "POST", path: `/api/v1/namespaces/create/configmaps`,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `c-${tag}-${seq++}` }, data: { v: FILLER } }) }),
        }],
      before: (t) => bytes0.set(t, dbBytes(t)),
      after: (t, r) => {
        const grew = dbBytes(t) - (bytes0.get(t) ?? 0);
        return t.kind === "bare-http" ? {} : { dbBytesPerCreate: r["2xx"] ? Math.round(grew / r["2xx"]) : null };
      },
    };
    const targets = [ours, oursCr, raw, bare].filter((t): t is Target => !!t);
    const runs = await interleavedLoad(targets, spec);
    const medians = loadMedians(runs, targets.map(targetName));
    const cleanOf = (label: string) => runs.filter((x) => x.target === label).every((r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0);
    const params = { connections: C, durationS: DURATION, rounds: ROUNDS, warmupS: WARMUP, object: "ConfigMap, 1 KiB data", durability: "WAL, synchronous=FULL (ours and R-SQL-W)", interleaved: targets.map(targetName) };
    const pick = (keep: string[]) => ({ runs: runs.filter((x) => keep.includes(x.target)), medians: Object.fromEntries(keep.map((k) => [k, medians[k]])) });
    if (create) {
      const vsRaw = ratio(medians.ours.rps, medians["raw-sqlite-insert"].rps);
      const clean = cleanOf("ours") && cleanOf("raw-sqlite-insert") && cleanOf("bare-http");
      results.push({
        scenario: "create", title: `create (POST, C=${C})`, params, ...pick(["ours", "raw-sqlite-insert", "bare-http"]),
        ratios: { "vs raw-sqlite-insert": vsRaw, "vs bare-http POST": ratio(medians.ours.rps, medians["bare-http"].rps) },
        targets: [
          atLeast("create throughput vs raw better-sqlite3 inserts (same durability)", vsRaw, 0.25, "issue 3", "vs raw-sqlite-insert"),
          { name: "no errors / non-2xx", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
        ],
        notes: ["raw-sqlite-insert commits one transaction (one fsync) per request; ours group-commits up to 64 writes per transaction.", "bare-http POST (parse + stringify, no storage) is the HTTP+JSON ceiling, informational."],
      });
    }
    if (crCreate) {
      const r = ratio(medians["ours-cr"].rps, medians.ours.rps);
      const clean = cleanOf("ours-cr") && cleanOf("ours");
      results.push({
        scenario: "cr-create", title: `create a custom resource vs a ConfigMap, same server (POST, C=${C})`,
        params: { ...params, object: "ConfigMap or BenchItem (bench CRD, same shape), 1 KiB data", crd: BENCH_CRD.metadata.name },
        ...pick(["ours", "ours-cr"]),
        ratios: { "ours-cr vs ours": r },
        targets: [
          atLeast("custom resource create vs ConfigMap create (same server)", r, 0.8, "issue 25 item 11", "ours-cr vs ours"),
          { name: "no errors / non-2xx (custom resources)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
        ],
        notes: [`ours-cr = the same server and token POSTing ${BENCH_CRD.metadata.name} objects (a top-level data map, as a ConfigMap's; the CRD registered through the API and Established first) instead of ConfigMaps; interleaved.`],
      });
    }
  } finally {
    await Promise.all([ours, raw, bare].filter((t): t is Target => !!t).map((t) => stopChild(t.child)));
  }
}

/** Bytes of every file in a directory (the audit log and its rotated backups). */
function dirBytes(dir: string): number {
  try { return readdirSync(dir).reduce((a, f) => a + statSync(path.join(dir, f)).size, 0); } catch { return 0; }
}

async function scenariosRead(which: string[]): Promise<void> {
  const viaApi = env.BENCH_SEED === "api";
  const gets = ["get", "get-rbac", "get-audit", "get-metrics", "get-flowcontrol", "get-protobuf", "cr-get"].filter((s) => which.includes(s));
  const crGet = which.includes("cr-get");
  const rbac = which.includes("get-rbac");
  const audit = which.includes("get-audit");
  const metricsOff = which.includes("get-metrics");
  const flowOff = which.includes("get-flowcontrol");
  log(`seeding ${SEED_COUNT} ConfigMaps into namespace ${SEED_NS}${rbac ? " and the get-rbac fixture (1,000 Roles + 1,000 RoleBindings)" : ""} ${viaApi ? "through our HTTPS API" : "through lib/registry + lib/storage, before the server starts"}`);
  const dataDir = ctx.freshPath("ours");
  const storeSeconds = viaApi ? 0 : await seedStore(dataDir, rbac);
  // get-audit: a second server on the same data with the audit log on; in-process seeding copies the data
  // directory before either server has started (nothing else in it yet: keys and tokens are made at start).
  const auditDataDir = ctx.freshPath("ours");
  const auditDir = ctx.freshPath("audit");
  if (audit && !viaApi) cpSync(dataDir, auditDataDir, { recursive: true });
  // get-metrics: likewise, a server with CLUSTER_CORE_METRICS=off (no request instrumentation) to compare with.
  const noMetricsDataDir = ctx.freshPath("ours");
  if (metricsOff && !viaApi) cpSync(dataDir, noMetricsDataDir, { recursive: true });
  // get-flowcontrol: likewise, a server with CLUSTER_CORE_FLOW_CONTROL=off (no seats, queues or deadlines).
  const noFlowDataDir = ctx.freshPath("ours");
  if (flowOff && !viaApi) cpSync(dataDir, noFlowDataDir, { recursive: true });
  const ours = await startOurs({ dataDir });
  let bare: Target | undefined;
  let oursAudit: Target | undefined;
  let oursNoMetrics: Target | undefined;
  let oursNoFlow: Target | undefined;
  try {
    const seconds = viaApi ? await seedApi(ours, rbac) : storeSeconds;
    const seeded = await fixtureFrom(ours);
    log(`  seeded in ${seconds.toFixed(1)} s (list RV ${seeded.listRv})`);
    bare = await startRef("bare-http", { env: { FIXTURE: seeded.fixture, LIST_RV: seeded.listRv } });
    const seedNote = `fixture: ${SEED_COUNT} ConfigMaps with 1 KiB data in one namespace, created ${viaApi ? "through our API" : "with Registry.create in-process (the server's write path minus HTTP)"} in ${seconds.toFixed(1)} s; bare-http serves the identical stored JSON`;

    if (gets.length) {
      const C = 10;
      // One interleaved group for every GET variant: admin (ours), ServiceAccount (ours-sa, same server),
      // admin with the audit log on (ours-audit, second server), bare-http; so every ratio comes from one run.
      const targets: Target[] = [ours];
      let checks: Record<string, number> = {};
      if (rbac) {
        const token = await readerToken(ours);
        const sa: Target = { ...ours, label: "ours-sa", auth: `Bearer ${token}` };
        checks = await rbacChecks(sa);
        log(`  reader ServiceAccount through RBAC: ${Object.entries(checks).map(([k, v]) => `${k} -> ${v}`).join(", ")}`);
        targets.push(sa);
        // The admin with a header as long as the SA's token: what the SA's larger request costs (TLS, parsing, the
        // header's string) apart from authentication and RBAC.
        const padding = Math.max(1, sa.auth.length - ours.auth.length - "x-bench-padding: ".length - 2);
        targets.push({ ...ours, label: "ours-padded", extraHeaders: { "x-bench-padding": "p".repeat(padding) } });
      }
      if (audit) {
        const a = await startOurs({ dataDir: auditDataDir, label: "ours-audit", env: { AUDIT_LOG_PATH: path.join(auditDir, "audit.log") } });
        oursAudit = a;
        if (viaApi) await seedApi(a, rbac);
        targets.push(a);
      }
      if (metricsOff) {
        const n = await startOurs({ dataDir: noMetricsDataDir, label: "ours-nometrics", env: { CLUSTER_CORE_METRICS: "off" } });
        oursNoMetrics = n;
        if (viaApi) await seedApi(n, rbac);
        targets.push(n);
      }
      if (flowOff) {
        const n = await startOurs({ dataDir: noFlowDataDir, label: "ours-noflowcontrol", env: { CLUSTER_CORE_FLOW_CONTROL: "off" } });
        oursNoFlow = n;
        if (viaApi) await seedApi(n, rbac);
        targets.push(n);
      }
      const oursPb: Target = { ...ours, label: "ours-protobuf", accept: PROTOBUF };
      if (which.includes("get-protobuf")) targets.push(oursPb);
      // cr-get: the same server and token GETting custom resources of the bench CRD (registered and filled
      // through the API here) instead of ConfigMaps.
      const oursCr: Target = { ...ours, label: "ours-cr" };
      let crSeconds = 0;
      if (crGet) {
        await registerBenchCrd(ours, SEED_NS);
        crSeconds = await seedCustomResources(ours, SEED_NS, CR_COUNT);
        log(`  ${CR_COUNT} custom resources (${BENCH_CRD.metadata.name}) created through the API in ${crSeconds.toFixed(1)} s`);
        targets.push(oursCr);
      }
      targets.push(bare);
      log(`get: GET one of ${SEED_COUNT} ConfigMaps${crGet ? ` (ours-cr: ${CR_COUNT} custom resources)` : ""} by name (random), C=${C}; ${targets.map(targetName).join(", ")}`);
      const auditBytes0 = { v: 0 };
      const spec: LoadSpec = {
        connections: C,
        requests: (t) => [t === oursCr
          ? { method: "GET", setupRequest: (req) => ({ ...req, path: crPath(SEED_NS, crName(Math.floor(Math.random() * CR_COUNT))) }) }
          : { method: "GET", setupRequest: (req) => ({ ...req, path: `/api/v1/namespaces/${SEED_NS}/configmaps/${seedName(Math.floor(Math.random() * SEED_COUNT))}` }) }],
        before: (t) => { if (t === oursAudit) auditBytes0.v = dirBytes(auditDir); },
        after: (t, r) => {
          if (t !== oursAudit) return {};
          const n = Object.values(r.statusCodeStats ?? {}).reduce((a, v) => a + v.count, 0);
          return { auditBytesPerRequest: n ? Math.round((dirBytes(auditDir) - auditBytes0.v) / n) : null };
        },
      };
      const runs = await interleavedLoad(targets, spec);
      lastGetRuns = runs;
      const labels = targets.map(targetName);
      const medians = loadMedians(runs, labels);
      const cleanOf = (label: string) => runs.filter((x) => x.target === label).every((x) => x.non2xx === 0 && x.errors === 0 && x.timeouts === 0);
      const pick = (keep: string[]) => ({ runs: runs.filter((x) => keep.includes(x.target)), medians: Object.fromEntries(keep.map((k) => [k, medians[k]])) });
      const params = { connections: C, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT, interleaved: labels };

      if (which.includes("get")) {
        const r = ratio(medians.ours.rps, medians["bare-http"].rps);
        const clean = cleanOf("ours") && cleanOf("bare-http");
        results.push({
          scenario: "get", title: `get by name (C=${C})`, params, ...pick(["ours", "bare-http"]), ratios: { "vs bare-http": r },
          targets: [
            atLeast("get throughput vs bare node:https", r, 0.8, "issue 23 item 1 (issue 3 asked 0.3)", "vs bare-http"),
            { name: "no errors / non-2xx", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
          ],
          notes: [seedNote, "ours = the admin token (user admin in system:masters, which authorization lets through without RBAC)."],
        });
      }

      if (rbac) {
        const r = ratio(medians["ours-sa"].rps, medians.ours.rps);
        // The same server's CPU per request, admin over SA: what the SA's throughput is to the admin's on a
        // CPU-bound server, and far less moved by the other processes of a shared box between two 10 s windows
        // than the req/s of those windows (seen swinging 0.6-1.3 on this box).
        const byCpu = ratio(medians.ours.cpuUsPerRequest, medians["ours-sa"].cpuUsPerRequest);
        const padded = ratio(medians["ours-padded"].cpuUsPerRequest, medians["ours-sa"].cpuUsPerRequest);
        const viaRbac = checks[`get configmap ${SEED_NS}/${seedName(0)}`] === 200 && Object.entries(checks).filter(([k]) => k !== `get configmap ${SEED_NS}/${seedName(0)}`).every(([, v]) => v === 403);
        const clean = cleanOf("ours-sa") && cleanOf("ours");
        results.push({
          scenario: "get-rbac", title: `get by name as a RoleBinding-bound ServiceAccount vs admin (C=${C})`,
          params: { ...params, roles: RBAC_FILLER_COUNT + 1, roleBindings: RBAC_FILLER_COUNT + 1, rbacNamespaces: rbacFixture(SEED_NS).namespaces, subject: `system:serviceaccount:${SEED_NS}:${READER_SA}`, rbacChecks: checks },
          ...pick(["ours", "ours-sa", "ours-padded", "bare-http"]),
          ratios: { "ours-sa vs ours": r, "ours-sa vs ours by CPU per request": byCpu, "ours-sa vs ours-padded by CPU per request": padded, "ours-sa vs bare-http": ratio(medians["ours-sa"].rps, medians["bare-http"].rps) },
          targets: [
            atLeast("get as ServiceAccount (RBAC, 1,000 Roles + RoleBindings) vs admin, by server CPU per request", byCpu, 0.9, "issue 8, issue 23 item 1", "ours-sa vs ours by CPU per request"),
            atLeast("get as ServiceAccount vs admin, req/s (informational: windows 10 s apart on a shared box)", r, 0.9, "issue 8 (informational)", "ours-sa vs ours"),
            atLeast("get as ServiceAccount vs the admin sending as many header bytes, by CPU per request (informational: RBAC and identity alone)", padded, 0.9, "issue 23 item 1 (informational)", "ours-sa vs ours-padded by CPU per request"),
            { name: "reader allowed by its RoleBinding only (200 / 403s)", goal: "true", value: viaRbac, met: viaRbac, source: "issue 8" },
            { name: "no errors / non-2xx (SA)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
          ],
          notes: [
            seedNote,
            "ours = admin token (system:masters: allowed before RBAC); ours-sa = a TokenRequest token of ServiceAccount bench/reader on the same server, allowed by RoleBinding bench/reader; same requests, interleaved.",
            "ours-padded = the admin with an x-bench-padding header making its request as long as the SA's (whose JWT is ~700 bytes against the admin's short token): the SA's cost over it is authentication and RBAC alone; over ours, also its larger request (TLS, parsing, the header's string).",
            "RBAC fixture (bench/rbac-fixture.ts): 1,000 Roles and 1,000 RoleBindings round-robin over 5 namespaces (users, groups, ServiceAccounts; 20 bindings in bench to group system:serviceaccounts:bench, which the reader's lookup reaches and rejects), plus the reader's Role and RoleBinding.",
          ],
        });
      }

      if (audit) {
        const r = ratio(medians["ours-audit"].rps, medians.ours.rps);
        const perReq = median(runs.filter((x) => x.target === "ours-audit").map((x) => Number(x.extra?.auditBytesPerRequest ?? NaN)));
        const written = perReq !== null && perReq > 0;
        results.push({
          scenario: "get-audit", title: `get by name, admin, audit log on vs off (C=${C})`,
          params: { ...params, auditLog: "AUDIT_LOG_PATH on a file in the scratch folder (defaults: 100 MB rotation, 10 backups)" },
          ...pick(["ours", "ours-audit", "bare-http"]),
          ratios: { "ours-audit vs ours": r },
          targets: [
            atLeast("get with the audit log vs without (informational)", r, 0.8, "issue 8 (informational)", "ours-audit vs ours"),
            { name: "audit log written (bytes per request > 0)", goal: "true", value: written, met: written, source: "issue 8" },
            { name: "no errors / non-2xx (audit)", goal: "0", value: cleanOf("ours-audit"), met: cleanOf("ours-audit"), source: "plan §8.1 rule 3" },
          ],
          notes: [
            seedNote,
            `ours-audit = a second server on a copy of the same data with AUDIT_LOG_PATH set; median audit bytes per request ${perReq ?? "-"}. Both servers run during the whole group (the idle one costs little).`,
          ],
        });
      }

      if (crGet) {
        const r = ratio(medians["ours-cr"].rps, medians.ours.rps);
        const clean = cleanOf("ours-cr") && cleanOf("ours");
        results.push({
          scenario: "cr-get", title: `get a custom resource vs a ConfigMap by name, same server (C=${C})`,
          params: { ...params, customResources: CR_COUNT, crd: BENCH_CRD.metadata.name },
          ...pick(["ours", "ours-cr", "bare-http"]),
          ratios: { "ours-cr vs ours": r },
          targets: [
            atLeast("custom resource get vs ConfigMap get (same server)", r, 0.8, "issue 25 item 11", "ours-cr vs ours"),
            { name: "no errors / non-2xx (custom resources)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
          ],
          notes: [
            seedNote,
            `ours-cr = the same server and admin token GETting one of ${CR_COUNT} ${BENCH_CRD.metadata.name} objects (random), each a ConfigMap's shape and size (top-level data, 1 KiB, the same labels), created through the API in ${crSeconds.toFixed(1)} s after the CRD was registered through the API and Established; interleaved with the ConfigMap GETs (ours).`,
          ],
        });
      }

      if (metricsOff) {
        const r = ratio(medians.ours.rps, medians["ours-nometrics"].rps);
        results.push({
          scenario: "get-metrics", title: `get by name, admin, metrics on vs off (C=${C})`,
          params: { ...params, metrics: "ours: default (request metrics on); ours-nometrics: CLUSTER_CORE_METRICS=off" },
          ...pick(["ours", "ours-nometrics", "bare-http"]),
          ratios: { "ours vs ours-nometrics": r },
          targets: [
            atLeast("get with request metrics vs without (informational)", r, 0.95, "issue 12 (informational)", "ours vs ours-nometrics"),
            { name: "no errors / non-2xx (no metrics)", goal: "0", value: cleanOf("ours-nometrics"), met: cleanOf("ours-nometrics"), source: "plan §8.1 rule 3" },
          ],
          notes: [
            seedNote,
            "ours-nometrics = a second server on a copy of the same data with CLUSTER_CORE_METRICS=off (no apiserver_request_* recording, no /metrics). Both servers run during the whole group.",
          ],
        });
      }
    }

    if (gets.length && flowOff) {
      const runs = lastGetRuns;
      const medians = loadMedians(runs, ["ours", "ours-noflowcontrol"]);
      const r = ratio(medians.ours.rps, medians["ours-noflowcontrol"].rps);
      const clean = runs.filter((x) => x.target === "ours-noflowcontrol").every((x) => x.non2xx === 0 && x.errors === 0 && x.timeouts === 0);
      results.push({
        scenario: "get-flowcontrol", title: "get by name, admin, flow control on vs off (C=10)",
        params: { flowControl: "ours: default (seats 400/200, fair queues, 60 s deadline); ours-noflowcontrol: CLUSTER_CORE_FLOW_CONTROL=off" },
        runs: runs.filter((x) => x.target === "ours" || x.target === "ours-noflowcontrol"),
        medians: { ours: medians.ours, "ours-noflowcontrol": medians["ours-noflowcontrol"] },
        ratios: { "ours vs ours-noflowcontrol": r },
        targets: [
          atLeast("get with flow control vs without (informational)", r, 0.95, "issue 13 (informational)", "ours vs ours-noflowcontrol"),
          { name: "no errors / non-2xx (no flow control)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
        ],
        notes: ["ours-noflowcontrol = a second server on a copy of the same data with CLUSTER_CORE_FLOW_CONTROL=off. Both servers run during the whole group."],
      });
    }

    if (which.includes("get-h2")) await scenarioGetH2(ours, seeded.fixture, seedNote);

    const protobufNote = "ours-protobuf = the same server and requests with Accept: application/vnd.kubernetes.protobuf (what client-go's typed clients and informers send); interleaved with the JSON ones.";
    if (which.includes("get-protobuf")) {
      const check = await protobufCheck(ours);
      const runs = lastGetRuns;
      const medians = loadMedians(runs, ["ours", "ours-protobuf"]);
      const r = ratio(medians["ours-protobuf"].rps, medians.ours.rps);
      const clean = runs.filter((x) => x.target === "ours-protobuf").every((x) => x.non2xx === 0 && x.errors === 0 && x.timeouts === 0);
      results.push({
        scenario: "get-protobuf", title: "get by name, protobuf vs JSON (C=10)",
        params: { connections: 10, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT, protobufCheck: check },
        runs: runs.filter((x) => x.target === "ours" || x.target === "ours-protobuf"), medians,
        ratios: { "ours-protobuf vs ours": r },
        targets: [
          atLeast("protobuf GET throughput vs JSON GET", r, 1, "issue 11", "ours-protobuf vs ours"),
          { name: "protobuf answers (k8s\\0 bodies, every item)", goal: "true", value: check.ok, met: check.ok, source: "issue 11" },
          { name: "no errors / non-2xx (protobuf)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
        ],
        notes: [seedNote, protobufNote],
      });
    }

    if (which.includes("list-protobuf")) {
      const C = 2;
      log(`list-protobuf: whole namespace (${SEED_COUNT} objects), protobuf vs JSON on the same server, C=${C}`);
      const check = await protobufCheck(ours);
      const spec: LoadSpec = { connections: C, requests: () => [{ method: "GET", path: `/api/v1/namespaces/${SEED_NS}/configmaps` }] };
      const runs = await interleavedLoad([ours, { ...ours, label: "ours-protobuf", accept: PROTOBUF }], spec);
      const medians = loadMedians(runs, ["ours", "ours-protobuf"]);
      const r = ratio(medians["ours-protobuf"].rps, medians.ours.rps);
      results.push({
        scenario: "list-protobuf", title: `list ${SEED_COUNT} whole, protobuf vs JSON (C=${C})`,
        params: { connections: C, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT, protobufCheck: check },
        runs, medians, ratios: { "ours-protobuf vs ours": r },
        targets: [
          atLeast("protobuf list throughput vs JSON list", r, 1, "issue 11", "ours-protobuf vs ours"),
          { name: "protobuf answers (k8s\\0 bodies, every item)", goal: "true", value: check.ok, met: check.ok, source: "issue 11" },
        ],
        notes: [seedNote, protobufNote, "JSON lists splice the stored serialisations; protobuf lists copy each object's kept encoding (made once per stored object)."],
      });
    }

    if (which.includes("list")) {
      const C = 2;
      log(`list: whole namespace (${SEED_COUNT} objects) in one response, C=${C}`);
      const spec: LoadSpec = { connections: C, requests: () => [{ method: "GET", path: `/api/v1/namespaces/${SEED_NS}/configmaps` }] };
      const runs = await interleavedLoad([ours, bare], spec);
      const medians = loadMedians(runs, ["ours", "bare-http"]);
      const r = ratio(medians.ours.rps, medians["bare-http"].rps);
      results.push({
        scenario: "list", title: `list ${SEED_COUNT} whole (C=${C})`, params: { connections: C, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT },
        runs, medians, ratios: { "vs bare-http": r },
        targets: [atLeast("list throughput vs bare node:https splice", r, 0.5, "plan §8.3 S3a (proposed)", "vs bare-http")],
        notes: [seedNote, "bare-http builds the List per request by splicing the stored JSON strings from memory (a stricter ceiling than §8.2 R-SQL-L, which reads SQLite)."],
      });
    }

    if (which.includes("list-pages")) {
      const C = 10;
      const pages = Math.ceil(SEED_COUNT / PAGE);
      log(`list-pages: walk all ${pages} pages of limit=${PAGE} with continue, C=${C}`);
      let walks = 0, broken = 0, rvMismatch = 0;
      const base = `/api/v1/namespaces/${SEED_NS}/configmaps?limit=${PAGE}`;
      const spec: LoadSpec = {
        connections: C,
        // One entry per page: autocannon keeps `context` per connection through one pass over the entries.
        requests: () => Array.from({ length: pages }, (_, i): RequestSpec => ({
          method: "GET",
          setupRequest: (req, ctx) => {
            if (i === 0) return { ...req, path: base };
            if (typeof ctx.cont !== "string") return null; // broken walk: start over
            return { ...req, path: `${base}&continue=${encodeURIComponent(ctx.cont)}` };
          },
          onResponse: (status, body, ctx) => {
            const head = body.slice(0, 800);
            const cont = /"continue":"([^"]+)"/.exec(head)?.[1];
            const rv = /"resourceVersion":"(\d+)"/.exec(head)?.[1];
            if (i === 0) ctx.rv = rv; else if (rv !== ctx.rv) rvMismatch++;
            if (status !== 200 || (i < pages - 1 && !cont) || (i === pages - 1 && cont)) broken++;
            ctx.cont = cont;
            if (i === pages - 1) walks++;
          },
        })),
        before: () => { walks = 0; broken = 0; rvMismatch = 0; },
        after: () => ({ walks, brokenPages: broken, rvMismatches: rvMismatch }),
      };
      const runs = await interleavedLoad([ours, bare], spec);
      for (const run of runs) if (run.extra) run.extra.walkMsApprox = round(run.meanMs * pages, 1);
      const medians = loadMedians(runs, ["ours", "bare-http"]);
      const r = ratio(medians.ours.rps, medians["bare-http"].rps);
      const consistent = runs.filter((x) => x.target === "ours").every((x) => x.extra?.brokenPages === 0 && x.extra?.rvMismatches === 0 && x.non2xx === 0);
      results.push({
        scenario: "list-pages", title: `list in pages of ${PAGE} (C=${C})`, params: { connections: C, durationS: DURATION, rounds: ROUNDS, objects: SEED_COUNT, limit: PAGE, pagesPerWalk: pages },
        runs, medians, ratios: { "vs bare-http": r },
        targets: [
          atLeast("pages/s vs bare node:https splice", r, 0.5, "plan §8.3 S3b (proposed)", "vs bare-http"),
          { name: "every walk complete, one RV per walk", goal: "true", value: consistent, met: consistent, source: "plan §8.3 S3b" },
        ],
        notes: [seedNote, "rps = pages per second; walks per second = rps / pages per walk."],
      });
    }
  } finally {
    await Promise.all([ours, bare, oursAudit, oursNoMetrics, oursNoFlow].filter((t): t is Target => !!t).map((t) => stopChild(t.child)));
  }
}

// --- watch fan-out -------------------------------------------------------------------------------------

interface WatchRun {
  target: ServerKind;
  round: number;
  client: WatchClientResult;
  rssBeforeMiB: number;
  rssIdleMiB: number;
  /** (RSS with W idle watchers - RSS before) / W, after a forced GC on the server (bench/probe.ts). */
  rssPerWatcherKiB: number | null;
  heapPerWatcherKiB: number | null;
  eldP99Ms: number;
  eldMaxMs: number;
  fdLimit: { server: number; client: number };
}

function clientMessage(c: Child, phase: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const on = (m: unknown) => {
      const msg = m as Record<string, unknown>;
      if (msg?.phase === phase) { done(); resolve(msg); }
      else if (msg?.phase === "error") { done(); reject(new Error(`watch client: ${String(msg.message)}`)); }
    };
    const onExit = (code: number | null) => { done(); reject(new Error(`watch client exited (${code}) waiting for ${phase}: ${c.output().slice(-1500)}`)); };
    const timer = setTimeout(() => { done(); reject(new Error(`watch client: no ${phase} within ${timeoutMs} ms`)); }, timeoutMs);
    const done = () => { clearTimeout(timer); c.proc.off("message", on); c.proc.off("exit", onExit); };
    c.proc.on("message", on);
    c.proc.on("exit", onExit);
  });
}

/** Two forced GCs a second apart, then a second for V8 to hand freed pages back, so RSS readings are comparable. */
async function settle(c: Child): Promise<void> {
  await probe(c, "gc");
  await sleep(1000);
  await probe(c, "gc");
  await sleep(1000);
}

async function watchRun(kind: "ours" | "fanout", W: number, roundNo: number, plain: boolean, protobuf = false): Promise<WatchRun> {
  const t = kind === "ours" ? await startOurs({ plain, gc: true }) : await startRef("fanout", { plain, gc: true });
  let client: Child | undefined;
  try {
    const rate = watchRate(W);
    const events = Math.max(5, Math.round(rate * DURATION));
    const need = W + 256;
    const serverFd = await raiseOpenFileLimit(t.child.pid, need);
    const cfg: WatchClientConfig = {
      baseUrl: t.url, caFile: plain ? undefined : t.caFile, token: kind === "ours" ? ourToken : FAKE_TOKEN, createNamespaces: kind === "ours",
      watchers: W, events, rate, namespace: `watch-${W}-r${roundNo}`, primeWatchers: 20, primeEvents: 50,
      deliveryTimeoutMs: 15_000, fillerBytes: 1024, protobuf,
    };
    client = startChild("watch-client", process.execPath, ["--import", "tsx", "bench/watch-client.ts", JSON.stringify(cfg)], { cwd: ROOT, ipc: true, env: cleanEnv() });
    const clientFd = await raiseOpenFileLimit(client.pid, need);
    if (serverFd < need || clientFd < need) throw new Error(`open-file limit too low for ${W} watchers (server ${serverFd}, client ${clientFd}, need ${need}); lower BENCH_WATCHERS`);
    await clientMessage(client, "ready", 120_000);
    await settle(t.child);
    const mem0 = procMemory(t.child.pid);
    const heap0 = await probe(t.child, "stats");
    client.proc.send({ cmd: "open" });
    await clientMessage(client, "opened", 300_000);
    await sleep(1500);
    await settle(t.child);
    const mem1 = procMemory(t.child.pid);
    const heap1 = await probe(t.child, "stats");
    await probe(t.child, "reset");
    client.proc.send({ cmd: "write" });
    const done = await clientMessage(client, "done", 300_000);
    const s = await probe(t.child, "stats");
    const result = done.result as WatchClientResult;
    const KiB = (b: number) => round(b / W / 1024, 1);
    return {
      target: kind, round: roundNo, client: result,
      rssBeforeMiB: round(mem0.rss / 1048576, 1)!, rssIdleMiB: round(mem1.rss / 1048576, 1)!,
      rssPerWatcherKiB: KiB(mem1.rss - mem0.rss), heapPerWatcherKiB: KiB(heap1.heapUsed + heap1.external - heap0.heapUsed - heap0.external),
      eldP99Ms: s.eldP99, eldMaxMs: s.eldMax, fdLimit: { server: serverFd, client: clientFd },
    };
  } finally {
    if (client) await stopChild(client, 5000);
    await stopChild(t.child);
  }
}

/**
 * watch-protobuf-<W>: the same fan-out on our server, JSON watchers vs protobuf watchers (each run a fresh
 * server, alternating), compared on delivery latency.
 */
async function scenarioWatchProtobuf(W: number): Promise<void> {
  const rate = watchRate(W);
  const events = Math.max(5, Math.round(rate * DURATION));
  const name = `watch-protobuf-${W}`;
  log(`${name}: ${W} watchers, ${events} events at ${rate}/s, JSON vs protobuf watch streams`);
  const runs: (WatchRun & { variant: string })[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (const variant of ["ours", "ours-protobuf"] as const) {
      const run = { ...(await watchRun("ours", W, r, false, variant === "ours-protobuf")), variant };
      const c = run.client;
      log(`  round ${r} ${variant.padEnd(13)} delivered ${c.delivered}/${c.expected} complete=${c.complete} p50 ${c.latencyMs.p50} p99 ${c.latencyMs.p99} ms  RSS/watcher ${run.rssPerWatcherKiB} KiB  ELD p99 ${run.eldP99Ms} ms`);
      runs.push(run);
    }
  }
  const pick = (k: string, f: (r: WatchRun) => number | null) => median(runs.filter((r) => r.variant === k).map(f).filter((x): x is number => x !== null));
  const medians: Record<string, Record<string, number | null>> = {};
  for (const k of ["ours", "ours-protobuf"]) {
    medians[k] = {
      p50: pick(k, (r) => r.client.latencyMs.p50), p99: pick(k, (r) => r.client.latencyMs.p99), max: pick(k, (r) => r.client.latencyMs.max),
      rssPerWatcherKiB: pick(k, (r) => r.rssPerWatcherKiB), eldP99Ms: pick(k, (r) => r.eldP99Ms), writeP99Ms: pick(k, (r) => r.client.writes.p99Ms),
    };
  }
  const complete = runs.filter((r) => r.variant === "ours-protobuf").every((r) => r.client.complete && r.client.sameOrder);
  const p99 = ratio(medians["ours-protobuf"].p99, medians.ours.p99);
  results.push({
    scenario: name, title: `watch fan-out W=${W}, protobuf vs JSON`,
    params: { watchers: W, events, ratePerSec: rate, deliveriesPerSec: W * rate, rounds: ROUNDS, transport: "https" },
    runs, medians,
    ratios: { "protobuf p99 vs JSON p99": p99, "protobuf p50 vs JSON p50": ratio(medians["ours-protobuf"].p50, medians.ours.p50) },
    targets: [
      { name: "every protobuf watcher got every event, in RV order", goal: "true", value: complete, met: complete, source: "issue 11" },
      atMost("protobuf delivery p99 vs JSON delivery p99", p99, 1, "issue 11", "protobuf p99 vs JSON p99"),
    ],
    notes: [
      `${events} events of a 1 KiB ConfigMap at ${rate}/s; latency = write sent -> event decoded, in the client process.`,
      "The JSON client parses each line with JSON.parse; the protobuf client reads the frame and decodes only the fields it checks (type, resourceVersion, data.run, data.seq).",
      "Every run starts a fresh server; both variants share one encoding per event among their watchers.",
    ],
  });
}

/**
 * One protobuf GET and one protobuf list of the seeded namespace, decoded with the server's own declarations:
 * the runs measure real protobuf answers, every item included.
 */
async function protobufCheck(t: Target): Promise<{ ok: boolean; getBytes: number; listBytes: number; listItems: number }> {
  const { decodeMessage } = await serverModule<typeof import("../lib/codec/protobuf/decode")>("lib/codec/protobuf/decode.ts");
  const { Reader } = await serverModule<typeof import("../lib/codec/protobuf/wire")>("lib/codec/protobuf/wire.ts");
  const fetchPb = (p: string) => new Promise<{ type: string; body: Buffer }>((resolve, reject) => {
    const u = new URL(t.url);
    const req = https.request({ host: u.hostname, port: u.port, path: p, ca: readFileSync(t.caFile), agent: false, headers: { authorization: t.auth, accept: PROTOBUF } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ type: String(res.headers["content-type"]), body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
  const raw = (body: Buffer): Uint8Array => {
    const r = new Reader(body, 4);
    while (!r.done) { const k = r.key("Unknown"); if (k.no === 2) return r.bytes(); r.skip(k.wire); }
    return new Uint8Array();
  };
  const one = await fetchPb(`/api/v1/namespaces/${SEED_NS}/configmaps/${seedName(0)}`);
  const list = await fetchPb(`/api/v1/namespaces/${SEED_NS}/configmaps`);
  const magic = (b: Buffer) => b.subarray(0, 4).equals(Buffer.from([0x6b, 0x38, 0x73, 0x00]));
  const item = magic(one.body) ? decodeMessage("ConfigMap", raw(one.body)) : {};
  const items = magic(list.body) ? ((decodeMessage("ConfigMapList", raw(list.body)).items as unknown[] | undefined) ?? []) : [];
  const ok = one.type === PROTOBUF && list.type === PROTOBUF && (item.metadata as { name?: string } | undefined)?.name === seedName(0) && items.length >= SEED_COUNT;
  log(`  protobuf check: GET ${one.body.length} bytes, list ${list.body.length} bytes with ${items.length} items: ${ok ? "ok" : "NOT OK"}`);
  return { ok, getBytes: one.body.length, listBytes: list.body.length, listItems: items.length };
}

async function scenarioWatch(W: number, plain: boolean): Promise<void> {
  const rate = watchRate(W);
  const events = Math.max(5, Math.round(rate * DURATION));
  const name = plain ? `watch-http-${W}` : `watch-${W}`;
  log(`${name}: ${W} watchers, ${events} events at ${rate}/s (${W * rate} deliveries/s)${plain ? " [PLAIN HTTP comparison]" : ""}`);
  const runs: WatchRun[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (const kind of ["ours", "fanout"] as const) {
      const run = await watchRun(kind, W, r, plain);
      const c = run.client;
      log(`  round ${r} ${kind.padEnd(7)} delivered ${c.delivered}/${c.expected} complete=${c.complete} p50 ${c.latencyMs.p50} p99 ${c.latencyMs.p99} ms  RSS/watcher ${run.rssPerWatcherKiB} KiB  open ${c.openMs} ms  writes p99 ${c.writes.p99Ms} ms`);
      runs.push(run);
    }
  }
  const pick = (k: string, f: (r: WatchRun) => number | null) => median(runs.filter((r) => r.target === k).map(f).filter((x): x is number => x !== null));
  const medians: Record<string, Record<string, number | null>> = {};
  for (const k of ["ours", "fanout"]) {
    medians[k] = {
      p50: pick(k, (r) => r.client.latencyMs.p50), p99: pick(k, (r) => r.client.latencyMs.p99), max: pick(k, (r) => r.client.latencyMs.max),
      rssPerWatcherKiB: pick(k, (r) => r.rssPerWatcherKiB), heapPerWatcherKiB: pick(k, (r) => r.heapPerWatcherKiB),
      eldP99Ms: pick(k, (r) => r.eldP99Ms), writeP99Ms: pick(k, (r) => r.client.writes.p99Ms), openMs: pick(k, (r) => r.client.openMs),
      deliveredFraction: pick(k, (r) => r.client.delivered / r.client.expected),
    };
  }
  const p99Ratio = ratio(medians.ours.p99, medians.fanout.p99);
  const memRatio = ratio(medians.ours.rssPerWatcherKiB, medians.fanout.rssPerWatcherKiB);
  const openRatio = ratio(medians.ours.openMs, medians.fanout.openMs);
  const oursComplete = runs.filter((r) => r.target === "ours").every((r) => r.client.complete && r.client.sameOrder);
  const refComplete = runs.filter((r) => r.target === "fanout").every((r) => r.client.complete && r.client.sameOrder);
  const targets: TargetCheck[] = plain ? [] : [
    { name: "every watcher got every event, in RV order", goal: "true", value: oursComplete, met: oursComplete, source: "issue 3" },
    atMost("delivery p99 vs fan-out reference", p99Ratio, 1.25, "issue 23", "p99 vs fanout"),
    atMost("time to open the W watches vs fan-out reference", openRatio, 2, "issue 23", "open vs fanout"),
  ];
  const notes = [
    `${events} events of a 1 KiB ConfigMap at ${rate}/s, open loop; latency = write sent -> event line parsed, in the client process.`,
    "Every run starts fresh server processes (--expose-gc, for a forced GC before each RSS reading) and primes them with 20 watchers x 50 events on another namespace.",
  ];
  if (!plain && W >= 1000) targets.push(atMost("server RSS per idle watcher vs fan-out reference (TLS)", memRatio, 1.5, "issue 3", "RSS/watcher vs fanout"));
  else if (!plain) notes.push(`RSS per idle watcher at W=${W} is within GC/allocator noise (performance.md §7.5): reported, not gated.`);
  if (plain) notes.unshift("PLAIN HTTP (INSECURE_HTTP=1 / REF_PLAIN_HTTP=1): comparison row only; the main numbers are over TLS.");
  if (!refComplete) notes.push("the reference itself did not deliver every event in some run (client or machine saturated)");
  results.push({
    scenario: name, title: `watch fan-out W=${W}${plain ? " (plain HTTP)" : ""}`,
    params: { watchers: W, events, ratePerSec: rate, deliveriesPerSec: W * rate, rounds: ROUNDS, transport: plain ? "http" : "https" },
    runs, medians, ratios: { "p99 vs fanout": p99Ratio, "RSS/watcher vs fanout": memRatio, "p50 vs fanout": ratio(medians.ours.p50, medians.fanout.p50), "open vs fanout": openRatio },
    targets, notes,
  });
}

// --- replicas on one PostgreSQL database (issue 12) ---------------------------------------------------

const REPLICA_WATCHERS = Number(env.BENCH_REPLICA_WATCHERS ?? 10);
const REPLICA_RATE = Number(env.BENCH_REPLICA_RATE ?? 100);

/** One replica: our server on the shared database, certificate and admin token (as in production). */
async function startReplica(label: string, shared: Record<string, string>): Promise<Target> {
  const s = await ctx.startOurs({ name: label, env: shared, nodeArgs: OUR_NODE_ARGS, timeoutMs: 120_000 });
  return {
    kind: "ours", label, child: s.child, url: s.url, caFile: shared.TLS_CA_FILE, auth: `Bearer ${shared.CLUSTER_ADMIN_TOKEN}`,
    dataDir: s.dataDir, dbFiles: [],
  };
}

interface ReplicaWatchRun {
  target: "same-replica" | "cross-replica";
  round: number;
  client: WatchClientResult;
  /** Event-loop delay of the watchers' replica during the run. */
  eldP99Ms: number;
}

/** REPLICA_WATCHERS watchers on `watchOn`, REPLICA_RATE writes/s on `writeOn` (the same replica or another). */
async function replicaWatchRun(label: ReplicaWatchRun["target"], watchOn: Target, writeOn: Target, token: string, roundNo: number): Promise<ReplicaWatchRun> {
  const events = Math.max(5, Math.round(REPLICA_RATE * DURATION));
  const cfg: WatchClientConfig = {
    baseUrl: watchOn.url, writeBaseUrl: writeOn.url, caFile: watchOn.caFile, token, createNamespaces: true,
    watchers: REPLICA_WATCHERS, events, rate: REPLICA_RATE, namespace: `${label}-r${roundNo}`, primeWatchers: 5, primeEvents: 50,
    deliveryTimeoutMs: 15_000, fillerBytes: 1024,
  };
  const client = startChild("watch-client", process.execPath, ["--import", "tsx", "bench/watch-client.ts", JSON.stringify(cfg)], { cwd: ROOT, ipc: true, env: cleanEnv() });
  try {
    await clientMessage(client, "ready", 120_000);
    client.proc.send({ cmd: "open" });
    await clientMessage(client, "opened", 120_000);
    await probe(watchOn.child, "reset");
    client.proc.send({ cmd: "write" });
    const done = await clientMessage(client, "done", 300_000);
    const s = await probe(watchOn.child, "stats");
    return { target: label, round: roundNo, client: done.result as WatchClientResult, eldP99Ms: s.eldP99 };
  } finally {
    await stopChild(client, 5000);
  }
}

/** CPU seconds (user + system) each process has used so far (by pid; a process gone is left out). */
function cpuSeconds(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const s = procCpuSeconds(pid);
    if (s !== undefined) out.set(pid, s);
  }
  return out;
}

/**
 * CPU used during a run: each replica, PostgreSQL (all its processes), the load generator (this process:
 * autocannon) in CPU seconds per wall second (1 = one core busy), and how busy the whole machine was.
 */
interface RunCpu { replicas: number[]; postgres: number; loadGenerator: number; machineBusy: number; cpuMsPerCreate?: number }

function cpuMeter(replicaPids: number[], postgresPids: () => number[]): () => RunCpu {
  const t0 = performance.now(), m0 = machineCpu(), self0 = process.cpuUsage();
  const r0 = cpuSeconds(replicaPids), p0 = cpuSeconds(postgresPids());
  return () => {
    const wall = (performance.now() - t0) / 1000, m1 = machineCpu(), self = process.cpuUsage(self0);
    const r1 = cpuSeconds(replicaPids), p1 = cpuSeconds(postgresPids());
    let pgSeconds = 0;
    for (const [pid, s] of p1) pgSeconds += s - (p0.get(pid) ?? 0);
    return {
      replicas: replicaPids.map((pid) => round(((r1.get(pid) ?? 0) - (r0.get(pid) ?? 0)) / wall, 2)!),
      postgres: round(pgSeconds / wall, 2)!,
      loadGenerator: round((self.user + self.system) / 1e6 / wall, 2)!,
      machineBusy: round((m1.busy - m0.busy) / (m1.total - m0.total), 2)!,
    };
  };
}

/** A replica's store counters from its /metrics: write transactions, writes, their total commit seconds, writes tailed from the other. */
interface StoreCounters { batches: number; writes: number; commitSeconds: number; tailed: number }

async function storeCounters(t: Target): Promise<StoreCounters> {
  const agent = new https.Agent({ keepAlive: false });
  try {
    const { text } = await httpsJson(t, "GET", "/metrics", undefined, agent);
    const value = (name: string) => Number(text.match(new RegExp(`^${name}(?:\\{\\})? (\\S+)$`, "m"))?.[1] ?? NaN);
    return {
      batches: value("cluster_core_storage_commit_duration_seconds_count"), writes: value("cluster_core_storage_writes_total"),
      commitSeconds: value("cluster_core_storage_commit_duration_seconds_sum"), tailed: value("cluster_core_storage_tail_lag_seconds_count"),
    };
  } finally {
    agent.destroy();
  }
}

/** Per replica during a run: writes per transaction, mean commit ms (statement sent -> committed, lock wait included), writes tailed from the other. */
interface ReplicaStoreRun { writesPerBatch: number | null; commitMsMean: number | null; tailed: number }

const storeDelta = (a: StoreCounters, b: StoreCounters): ReplicaStoreRun => ({
  writesPerBatch: round((b.writes - a.writes) / (b.batches - a.batches), 2) ?? null,
  commitMsMean: round(((b.commitSeconds - a.commitSeconds) * 1000) / (b.batches - a.batches), 2) ?? null,
  tailed: b.tailed - a.tailed,
});

interface ReplicaCreateRun {
  /** creates-independent: two replicas each on its own database (nothing shared): this machine's ceiling for two. */
  target: "creates-one" | "creates-two" | "creates-independent";
  round: number;
  /** Each replica's store during the run (from /metrics). */
  store: ReplicaStoreRun[];
  /** CPU per process during the run, and (replicas + PostgreSQL + load generator) CPU ms per create. */
  cpu: RunCpu;
  rps: number;
  perReplica: number[];
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** POST ConfigMaps with C=10 on each of `targets` at once (one autocannon per replica, in this process). */
async function replicaCreateRun(label: ReplicaCreateRun["target"], targets: Target[], roundNo: number, seconds: number, postgresPids: () => number[] = () => []): Promise<ReplicaCreateRun> {
  const tag = `${label}-${roundNo}-${Date.now().toString(36)}`;
  let seq = 0;
  const spec: LoadSpec = {
    connections: 10,
    headers: { "content-type": "application/json" },
    requests: () => [{
      method: "POST", path: "/api/v1/namespaces/replicas-create/configmaps",
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `c-${tag}-${seq++}` }, data: { v: FILLER } }) }),
    }],
  };
  const counters0 = await Promise.all(targets.map(storeCounters));
  const meter = cpuMeter(targets.map((t) => t.child.pid), postgresPids);
  const runs = await Promise.all(targets.map((t) => runAutocannon(t, spec, seconds)));
  const cpu = meter();
  const counters1 = await Promise.all(targets.map(storeCounters));
  const store = targets.map((_, i) => storeDelta(counters0[i], counters1[i]));
  const perReplica = runs.map((r) => Object.values(r.statusCodeStats ?? {}).reduce((a, v) => a + v.count, 0) / r.duration);
  const total = perReplica.reduce((a, b) => a + b, 0);
  cpu.cpuMsPerCreate = round((cpu.replicas.reduce((a, b) => a + b, 0) + cpu.postgres + cpu.loadGenerator) * 1000 / total, 2)!;
  return {
    target: label, round: roundNo, cpu, store, rps: round(perReplica.reduce((a, b) => a + b, 0), 1)!, perReplica: perReplica.map((x) => round(x, 1)!),
    p50: median(runs.map((r) => r.latency.p50))!, p99: Math.max(...runs.map((r) => r.latency.p99)),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0), errors: runs.reduce((a, r) => a + r.errors + r.timeouts, 0),
  };
}

async function scenarioReplicas(): Promise<void> {
  log(`replicas: two replicas on one PostgreSQL database; ${REPLICA_WATCHERS} watchers, ${REPLICA_RATE} writes/s for ${DURATION}s, same vs cross replica; creates C=10 on one vs two replicas vs two independent ones (the ceiling); ${ROUNDS} round(s)`);
  const pg = await benchPostgres();
  const replicas: Target[] = [];
  try {
    const tls = await ctx.refTls();
    const token = `bench-replicas-${Date.now().toString(36)}-admin-token`;
    const shared = {
      DATABASE_URL: await pg.database("bench_replicas"), CLUSTER_ADMIN_TOKEN: token,
      TLS_CERT_FILE: tls.cert, TLS_KEY_FILE: tls.key, TLS_CA_FILE: tls.ca,
    };
    replicas.push(await startReplica("replica-a", shared));
    replicas.push(await startReplica("replica-b", shared));
    // The ceiling: two more replicas, each alone on a database of its own (no lock, no tailing, nothing shared
    // but this machine), idle except in their own runs. What two replicas of one store can reach here.
    replicas.push(await startReplica("independent-c", { ...shared, DATABASE_URL: await pg.database("bench_independent_c") }));
    replicas.push(await startReplica("independent-d", { ...shared, DATABASE_URL: await pg.database("bench_independent_d") }));
    const [a, b, ic, id] = replicas;
    const agent = new https.Agent({ keepAlive: false, ca: readFileSync(tls.ca) });
    for (const t of [a, ic, id]) await postOk(t, "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "replicas-create" } }, agent);
    agent.destroy();

    log(`  warm-up (${WARMUP}s of creates on both replicas, then on both independent ones)`);
    await replicaCreateRun("creates-two", [a, b], 0, WARMUP);
    await replicaCreateRun("creates-independent", [ic, id], 0, WARMUP);
    const watchRuns: ReplicaWatchRun[] = [];
    const createRuns: ReplicaCreateRun[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const [label, watchOn] of [["same-replica", a], ["cross-replica", b]] as const) {
        const run = await replicaWatchRun(label, watchOn, a, token, r);
        const c = run.client;
        log(`  round ${r} ${label.padEnd(13)} delivered ${c.delivered}/${c.expected} complete=${c.complete} p50 ${c.latencyMs.p50} p99 ${c.latencyMs.p99} max ${c.latencyMs.max} ms  writes p99 ${c.writes.p99Ms} ms`);
        watchRuns.push(run);
      }
      for (const [label, targets] of [["creates-one", [a]], ["creates-two", [a, b]], ["creates-independent", [ic, id]]] as const) {
        const run = await replicaCreateRun(label, [...targets], r, DURATION, () => pg.pids());
        log(`  round ${r} ${label.padEnd(13)} ${String(run.rps).padStart(8)} creates/s (${run.perReplica.join(" + ")})  p50 ${run.p50} p99 ${run.p99} ms  non2xx ${run.non2xx} errors ${run.errors}`);
        const u = run.cpu;
        log(`    cpu (cores): replicas ${u.replicas.join(" + ")}, postgres ${u.postgres}, autocannon ${u.loadGenerator}; machine ${Math.round(u.machineBusy * 100)}% busy; ${u.cpuMsPerCreate} cpu ms/create`);
        log(`    store: writes/transaction ${run.store.map((x) => x.writesPerBatch).join(" / ")}, commit ms ${run.store.map((x) => x.commitMsMean).join(" / ")}, tailed ${run.store.map((x) => x.tailed).join(" / ")}`);
        createRuns.push(run);
      }
    }
    const w = (k: string, f: (x: ReplicaWatchRun) => number | null) => median(watchRuns.filter((x) => x.target === k).map(f).filter((x): x is number => x !== null));
    const c = (k: string, f: (x: ReplicaCreateRun) => number) => median(createRuns.filter((x) => x.target === k).map(f));
    const medians: Record<string, Record<string, number | null>> = {};
    for (const k of ["same-replica", "cross-replica"]) {
      medians[k] = {
        p50: w(k, (x) => x.client.latencyMs.p50), p99: w(k, (x) => x.client.latencyMs.p99), max: w(k, (x) => x.client.latencyMs.max),
        writeP99Ms: w(k, (x) => x.client.writes.p99Ms), eldP99Ms: w(k, (x) => x.eldP99Ms),
      };
    }
    for (const k of ["creates-one", "creates-two", "creates-independent"]) {
      medians[k] = {
        rps: round(c(k, (x) => x.rps), 1), p50: c(k, (x) => x.p50), p99: c(k, (x) => x.p99),
        cpuMsPerCreate: c(k, (x) => x.cpu.cpuMsPerCreate ?? 0), machineBusy: c(k, (x) => x.cpu.machineBusy),
        replicaCores: c(k, (x) => x.cpu.replicas.reduce((a, b) => a + b, 0)), postgresCores: c(k, (x) => x.cpu.postgres),
      };
    }
    const crossP99 = medians["cross-replica"].p99;
    const p99Ratio = ratio(crossP99, medians["same-replica"].p99);
    const scale = ratio(medians["creates-two"].rps, medians["creates-one"].rps);
    const ceiling = ratio(medians["creates-independent"].rps, medians["creates-one"].rps);
    const ofCeiling = ratio(medians["creates-two"].rps, medians["creates-independent"].rps);
    const complete = watchRuns.every((x) => x.client.complete && x.client.sameOrder);
    const clean = createRuns.every((x) => x.non2xx === 0 && x.errors === 0);
    results.push({
      scenario: "replicas", title: "two replicas on one PostgreSQL database",
      params: {
        replicas: 2, watchers: REPLICA_WATCHERS, ratePerSec: REPLICA_RATE, events: Math.max(5, Math.round(REPLICA_RATE * DURATION)),
        createConnectionsPerReplica: 10, durationS: DURATION, rounds: ROUNDS, postgres: pg.origin,
      },
      runs: [...watchRuns, ...createRuns], medians,
      ratios: {
        "cross / same-replica p99": p99Ratio, "creates two / one replica": scale,
        "creates two independent / one replica": ceiling, "creates two / two independent": ofCeiling,
      },
      targets: [
        atMost("cross-replica delivery p99 (ms)", crossP99, 100, "issue 12"),
        atMost("cross-replica p99 vs same-replica p99", p99Ratio, 1.5, "issue 12", "cross / same-replica p99"),
        atLeast("creates on two replicas together vs one replica", scale, 1.3, "issue 12", "creates two / one replica"),
        { name: "every watcher got every event, in RV order", goal: "true", value: complete, met: complete, source: "issue 12" },
        { name: "no errors / non-2xx (creates)", goal: "0", value: clean, met: clean, source: "plan §8.1 rule 3" },
      ],
      notes: [
        "Latency = write sent (to replica A) -> event line parsed from a watch on replica A (same-replica) or on replica B (cross-replica), in one client process; 1 KiB ConfigMaps, open loop.",
        "Creates: autocannon C=10 against replica A alone, then C=10 against each of A and B at once (two autocannon instances in the orchestrator process, on the same two cores).",
        "The replicas share the database, one serving certificate (TLS_CERT_FILE/TLS_KEY_FILE with TLS_CA_FILE) and the admin token; each has its own data directory.",
        "Ceiling: C=10 against each of two more replicas at once, each alone on a database of its own (same PostgreSQL server, nothing else shared). 'creates two independent / one replica' is what this machine allows two replicas at best; 'creates two / two independent' is what sharing one store costs.",
      ],
    });
  } finally {
    await Promise.all(replicas.map((t) => stopChild(t.child)));
    pg.stop();
  }
}

// --- environment, output -----------------------------------------------------------------------------

function environment(): Record<string, unknown> {
  return {
    ...ctx.environment(),
    autocannon: pkgVersion("autocannon"),
    durability: "SQLite WAL, synchronous=FULL (ours: lib/storage default; R-SQL-W: same pragmas)",
    transport: "HTTPS (TLS 1.3, EC P-256 certificates from lib/tls) on 127.0.0.1 unless a row says plain HTTP",
    client: "autocannon (programmatic, pipelining 1) in the orchestrator process; bench/watch-client.ts as its own process; all on the same cores",
  };
}

function printSummary(out: { env: Record<string, unknown> }): void {
  const rows: string[][] = [["scenario", "metric", "ours", "ref", "ref name", "ratio", "target", "met"]];
  for (const s of results) {
    if (s.error) { rows.push([s.scenario, "ERROR", s.error.split("\n")[0].slice(0, 80), "", "", "", "", "NO"]); continue; }
    const refName = Object.keys(s.medians).find((k) => k !== "ours") ?? "";
    const ours = s.medians.ours ?? {}, ref = s.medians[refName] ?? {};
    if (s.scenario === "replicas") {
      const m = s.medians, t = (n: string) => s.targets.find((x) => x.name.startsWith(n));
      const lat = t("cross-replica delivery"), rel = t("cross-replica p99 vs"), sc = t("creates on two"), all = t("every watcher");
      rows.push([s.scenario, "delivery p50 ms", fmt(m["cross-replica"]?.p50), fmt(m["same-replica"]?.p50), "same-replica", "", "", ""]);
      rows.push([s.scenario, "delivery p99 ms", fmt(m["cross-replica"]?.p99), fmt(m["same-replica"]?.p99), "same-replica", fmt(s.ratios["cross / same-replica p99"]), `${lat?.goal} ms; ratio ${rel?.goal}`, `${fmt(lat?.met)}; ${fmt(rel?.met)}`]);
      rows.push([s.scenario, "creates/s", fmt(m["creates-two"]?.rps), fmt(m["creates-one"]?.rps), "one replica", fmt(s.ratios["creates two / one replica"]), sc?.goal ?? "", fmt(sc?.met)]);
      rows.push([s.scenario, "creates/s ceiling", fmt(m["creates-independent"]?.rps), fmt(m["creates-one"]?.rps), "one replica", fmt(s.ratios["creates two independent / one replica"]), "", ""]);
      rows.push([s.scenario, "creates/s vs ceiling", fmt(m["creates-two"]?.rps), fmt(m["creates-independent"]?.rps), "independent", fmt(s.ratios["creates two / two independent"]), "", ""]);
      rows.push([s.scenario, "all delivered in order", fmt(all?.value), "", "", "", "true", fmt(all?.met)]);
      continue;
    }
    if (s.scenario.startsWith("watch-protobuf")) {
      const pb = s.medians["ours-protobuf"] ?? {};
      const tp = s.targets.find((x) => x.ratioKey === "protobuf p99 vs JSON p99");
      const tc = s.targets.find((x) => x.name.startsWith("every protobuf watcher"));
      rows.push([s.scenario, "delivery p50 ms protobuf", fmt(pb.p50), fmt(ours.p50), "ours (JSON)", fmt(s.ratios["protobuf p50 vs JSON p50"]), "", ""]);
      rows.push([s.scenario, "delivery p99 ms protobuf", fmt(pb.p99), fmt(ours.p99), "ours (JSON)", fmt(s.ratios["protobuf p99 vs JSON p99"]), tp?.goal ?? "", tp ? fmt(tp.met) : ""]);
      rows.push([s.scenario, "all delivered in order", fmt(tc?.value), "", "", "", "true", tc ? fmt(tc.met) : ""]);
      rows.push([s.scenario, "server ELD p99 ms protobuf", fmt(pb.eldP99Ms), fmt(ours.eldP99Ms), "ours (JSON)", "", "", ""]);
    } else if (s.scenario.startsWith("watch")) {
      const t = (n: string) => s.targets.find((x) => x.name.startsWith(n));
      const tp = t("delivery p99"), tm = t("server RSS"), tc = t("every watcher"), to = t("time to open");
      rows.push([s.scenario, "delivery p50 ms", fmt(ours.p50), fmt(ref.p50), refName, fmt(s.ratios["p50 vs fanout"]), "", ""]);
      rows.push([s.scenario, "delivery p99 ms", fmt(ours.p99), fmt(ref.p99), refName, fmt(s.ratios["p99 vs fanout"]), tp?.goal ?? "", tp ? fmt(tp.met) : ""]);
      rows.push([s.scenario, "open W watches ms", fmt(ours.openMs), fmt(ref.openMs), refName, fmt(s.ratios["open vs fanout"]), to?.goal ?? "", to ? fmt(to.met) : ""]);
      rows.push([s.scenario, "RSS/idle watcher KiB", fmt(ours.rssPerWatcherKiB), fmt(ref.rssPerWatcherKiB), refName, fmt(s.ratios["RSS/watcher vs fanout"]), tm?.goal ?? (s.params.transport === "https" ? "(noise)" : ""), tm ? fmt(tm.met) : ""]);
      rows.push([s.scenario, "all delivered in order", fmt(tc ? tc.value : ours.deliveredFraction === 1), "", "", "", tc ? "true" : "", tc ? fmt(tc.met) : ""]);
      rows.push([s.scenario, "server ELD p99 ms", fmt(ours.eldP99Ms), fmt(ref.eldP99Ms), refName, "", "", ""]);
    } else {
      // Ratio keys: "vs <ref>" (ours / ref) or "<a> vs <b>" (a / b, e.g. "ours-sa vs ours").
      const sides = (rname: string) => {
        const m = /^(?:(\S+) )?vs (\S+?)( POST)?$/.exec(rname);
        return { num: m?.[1] ?? "ours", den: m?.[2] ?? refName, post: !!m?.[3] };
      };
      const unit = s.scenario === "list-pages" ? "pages/s" : s.scenario === "create" || s.scenario === "cr-create" ? "creates/s" : "req/s";
      for (const [rname, rv] of Object.entries(s.ratios)) {
        const { num, den, post } = sides(rname);
        const tt = s.targets.find((x) => x.ratioKey === rname);
        rows.push([s.scenario, num === "ours" ? unit : `${unit} ${num}`, fmt(s.medians[num]?.rps), fmt(s.medians[den]?.rps), den + (post ? " POST" : ""), fmt(rv), tt?.goal ?? "", tt ? fmt(tt.met) : ""]);
      }
      const first = sides(Object.keys(s.ratios)[0] ?? "");
      const a = s.medians[first.num] ?? ours, b = s.medians[first.den] ?? ref;
      const sfx = first.num === "ours" ? "" : ` ${first.num}`;
      rows.push([s.scenario, `p50 / p99 ms${sfx}`, `${fmt(a.p50)} / ${fmt(a.p99)}`, `${fmt(b.p50)} / ${fmt(b.p99)}`, first.den, "", "", ""]);
      rows.push([s.scenario, `server ELD p99 ms${sfx}`, fmt(a.eldP99Ms), fmt(b.eldP99Ms), first.den, "", "", ""]);
      if (a.cpuUsPerRequest != null) {
        // Inverse, so that it reads like the throughput ratio: ref's CPU per request / ours (1 = as cheap as the ref).
        rows.push([s.scenario, `server CPU us/request${sfx}`, fmt(a.cpuUsPerRequest), fmt(b.cpuUsPerRequest), first.den, fmt(ratio(b.cpuUsPerRequest, a.cpuUsPerRequest)), "", ""]);
      }
      for (const t of s.targets.filter((x) => typeof x.value === "boolean")) rows.push([s.scenario, t.name, fmt(t.value), "", "", "", t.goal, fmt(t.met)]);
    }
  }
  console.log(`\nCluster Core benchmark (${QUICK ? "QUICK smoke run, 1 round: not for comparison" : `${ROUNDS} interleaved rounds`}); medians; ratio = ours / ref`);
  console.log(table(rows));
  const e = out.env as { nproc: number; node: string; gitSha: string; loadavgBefore: number[]; loadavgAfter: number[] };
  console.log(`\nnproc ${e.nproc}, node ${e.node}, git ${String(e.gitSha).slice(0, 12)}, loadavg before ${e.loadavgBefore.join(" ")} after ${e.loadavgAfter.join(" ")}`);
}

/** BENCH_MAX_LOAD=x: wait (up to BENCH_MAX_LOAD_WAIT seconds, default 600) for the 1-minute load average to fall below x. */
async function waitForQuiet(): Promise<void> {
  const max = Number(env.BENCH_MAX_LOAD ?? NaN);
  if (!(max > 0)) return;
  const deadline = Date.now() + Number(env.BENCH_MAX_LOAD_WAIT ?? 600) * 1000;
  while (os.loadavg()[0] >= max && Date.now() < deadline) {
    log(`load average ${os.loadavg()[0].toFixed(2)} >= ${max}: waiting`);
    await sleep(15_000);
  }
}

async function main(): Promise<void> {
  await waitForQuiet();
  const unknown = SCENARIOS.filter((s) => !ALL_SCENARIOS.includes(s) && !/^watch(-http|-protobuf)?-\d+$/.test(s));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(", ")}; known: ${ALL_SCENARIOS.join(", ")}, watch-<W>, watch-http-<W>`);
  const started = new Date();
  const loadBefore = os.loadavg().map((x) => round(x)!);
  log(`bench: ${QUICK ? "QUICK" : "full"} run, scenarios ${SCENARIOS.join(",")}, ${ROUNDS} round(s), ${DURATION}s runs; scratch ${scratch}`);
  const guard = async (name: string, fn: () => Promise<void>) => {
    try { await fn(); } catch (err) {
      log(`${name} FAILED: ${String((err as Error)?.stack ?? err)}`);
      results.push({ scenario: name, title: name, params: {}, runs: [], medians: {}, ratios: {}, targets: [], error: String((err as Error)?.message ?? err) });
      await killAllChildren();
    }
  };
  const creates = ["create", "cr-create"].filter((s) => SCENARIOS.includes(s));
  if (creates.length) await guard(creates.join("+"), () => scenarioCreate(creates));
  const reads = ["get", "get-h2", "get-rbac", "get-audit", "get-metrics", "get-flowcontrol", "get-protobuf", "cr-get", "list", "list-pages", "list-protobuf"].filter((s) => SCENARIOS.includes(s));
  if (reads.length) await guard(reads.join("+"), () => scenariosRead(reads));
  const watchList = new Set<number>();
  if (SCENARIOS.includes("watch")) WATCHERS.forEach((w) => watchList.add(w));
  for (const s of SCENARIOS) { const m = /^watch-(\d+)$/.exec(s); if (m) watchList.add(Number(m[1])); }
  for (const W of [...watchList].sort((a, b) => a - b)) await guard(`watch-${W}`, () => scenarioWatch(W, false));
  const httpList = new Set<number>();
  if (SCENARIOS.includes("watch-http")) httpList.add(1000);
  for (const s of SCENARIOS) { const m = /^watch-http-(\d+)$/.exec(s); if (m) httpList.add(Number(m[1])); }
  for (const W of [...httpList].sort((a, b) => a - b)) await guard(`watch-http-${W}`, () => scenarioWatch(W, true));
  const protobufList = new Set<number>();
  if (SCENARIOS.includes("watch-protobuf")) protobufList.add(1000);
  for (const s of SCENARIOS) { const m = /^watch-protobuf-(\d+)$/.exec(s); if (m) protobufList.add(Number(m[1])); }
  for (const W of [...protobufList].sort((a, b) => a - b)) await guard(`watch-protobuf-${W}`, () => scenarioWatchProtobuf(W));
  if (SCENARIOS.includes("replicas")) await guard("replicas", scenarioReplicas);

  const out = {
    benchmark: "cluster-core issue 3 (performance.md §8)", quick: QUICK, startedAt: started.toISOString(), finishedAt: new Date().toISOString(),
    config: { rounds: ROUNDS, durationS: DURATION, warmupS: WARMUP, scenarios: SCENARIOS, watchers: WATCHERS },
    env: { ...environment(), loadavgBefore: loadBefore, loadavgAfter: os.loadavg().map((x) => round(x)!) },
    summary: results.flatMap((s) => s.targets.map((t) => ({ scenario: s.scenario, ...t }))),
    scenarios: results,
    cpuProfiles: profDir ? readdirSync(profDir).map((f) => path.join(profDir, f)) : undefined,
  };
  const file = env.BENCH_OUT ?? path.join(ROOT, "bench", "results", `${started.toISOString().replace(/[:.]/g, "-")}${QUICK ? "-quick" : ""}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(out, null, 2) + "\n");
  renameSync(`${file}.tmp`, file);
  printSummary(out);
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  if (profDir) console.log(`cpu profiles (ours): ${profDir}`);
}

main()
  .catch((err) => { console.error(err); process.exitCode = 1; })
  .finally(async () => { await killAllChildren(); ctx.cleanup(); });

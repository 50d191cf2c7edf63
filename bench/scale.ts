// `npm run bench:scale`: issue 23 item 7, the scale benchmark (never a test). Seeds N realistic pods (default
// 150,000, kube's per-cluster threshold) THROUGH THE HTTPS API into our production server, then measures what
// an operator of a cluster that size meets: memory per object against the objects' JSON, full and paginated
// lists (JSON and protobuf), several full lists at once, a slow reader, restart time and the database size,
// with the ceilings in the same run (a bare node:https server streaming the same list bytes). Optionally the
// same for small ConfigMaps (SCALE_CONFIGMAPS=1000000). Writes bench/results/scale-<timestamp>.json and prints
// a table with every gate of issue 23 met or not. Absolute numbers on this shared 2-core box mean little:
// compare ratios from one run. bench/README.md describes every figure.
//
// Environment:
//   SCALE_PODS=n              pods to seed through the API (default 150000; 0 = none)
//   SCALE_POD_STATUS=0        do not write the kubelet-style status (default: one status patch per pod)
//   SCALE_CONFIGMAPS=n        small ConfigMaps, in a second phase with its own server (default 0)
//   SCALE_CONFIGMAP_SEED=store  seed the ConfigMaps in-process through lib/registry before the server starts
//                             (default api; labelled in the results)
//   SCALE_SEED_CONCURRENCY=c  requests in flight while seeding (default 64)
//   SCALE_ROUNDS=r            interleaved rounds of the list measurements (default 3)
//   SCALE_LISTS=k             concurrent full lists (default 4)
//   SCALE_SLOW_PAUSE_S=s      how long the slow reader stops reading (default 15)
//   SCALE_SLOW_BOUND_MIB=m    the slow reader's gate: server growth while it is stopped (default 64)
//   SCALE_MIN_AVAILABLE_MIB=m stop the run when the machine's MemAvailable falls below this (default 1536)
//   SCALE_MAX_LOAD=x          first wait (up to 600 s) until the 1-minute load average is below x
//   SCALE_SNAPSHOT=0          run the working tree in place (default: a copy taken at the start)
//   SCALE_KEEP_TMP=1          keep the scratch folder
//   SCALE_OUT=path            where the JSON goes (default bench/results/scale-<timestamp>.json)
import { readFileSync, renameSync, writeFileSync, mkdirSync, createWriteStream, statSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { fmt, killAllChildren, median, probe, procMemory, round, sleep, stopChild, table, type Child } from "./common";
import { listMeta, mustWrite, readList, type Endpoint, type ListRead, type SeedCounters } from "./scale-client";
import { CONFIGMAP_LAYOUT, namespaceOf, namespacesFor, POD_LAYOUT, SCALE_LABEL, scaleConfigMap, scalePod, type Layout } from "./scale-objects";
import { benchContext, cpuMeter, cpuSeconds, filesBytes, machineCpu, ROOT, type OurServer, type RefServer } from "./servers";

const env = process.env;
const PODS = Number(env.SCALE_PODS ?? 150_000);
const POD_STATUS = env.SCALE_POD_STATUS !== "0";
const CONFIGMAPS = Number(env.SCALE_CONFIGMAPS ?? 0);
const CM_SEED = env.SCALE_CONFIGMAP_SEED === "store" ? "store" : "api";
const CONCURRENCY = Number(env.SCALE_SEED_CONCURRENCY ?? 64);
const ROUNDS = Number(env.SCALE_ROUNDS ?? 3);
const LISTS = Number(env.SCALE_LISTS ?? 4);
const SLOW_PAUSE_MS = Number(env.SCALE_SLOW_PAUSE_S ?? 15) * 1000;
const SLOW_BOUND_MIB = Number(env.SCALE_SLOW_BOUND_MIB ?? 64);
const MIN_AVAILABLE_MIB = Number(env.SCALE_MIN_AVAILABLE_MIB ?? 1536);
const PAGE = 500;
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const MARKER = Buffer.from(`"${SCALE_LABEL}":"`);
const MiB = 1024 * 1024;
const mib = (b: number) => round(b / MiB, 1)!;
/** Who writes what, as in a cluster: a ReplicaSet controller creates pods, the kubelet reports their status. */
const CONTROLLER_UA = "kube-controller-manager/v1.31.0 (linux/amd64) kubernetes/9f5d2c1/system:serviceaccount:kube-system:replicaset-controller";
const KUBELET_UA = "kubelet/v1.31.0 (linux/amd64) kubernetes/9f5d2c1";

const ctx = benchContext({ name: "scale", snapshot: env.SCALE_SNAPSHOT !== "0", keepTmp: env.SCALE_KEEP_TMP === "1", envPrefixes: ["BENCH_", "SCALE_"] });
const log = (...a: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

// --- gates, results -------------------------------------------------------------------------------------

interface Gate {
  phase: string;
  name: string;
  goal: string;
  value: number | boolean | null;
  met: boolean | null;
  source: string;
}
const gates: Gate[] = [];
const atMost = (phase: string, name: string, value: number | null, goal: number, source: string) =>
  gates.push({ phase, name, goal: `<= ${goal}`, value, met: value === null ? null : value <= goal, source });
const atLeast = (phase: string, name: string, value: number | null, goal: number, source: string) =>
  gates.push({ phase, name, goal: `>= ${goal}`, value, met: value === null ? null : value >= goal, source });
const isTrue = (phase: string, name: string, value: boolean, source: string) => gates.push({ phase, name, goal: "true", value, met: value, source });
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || !(a > 0) || !(b > 0) ? null : round(a / b, 3));

// --- the machine's memory: never let this run push other work into the OOM killer -----------------------

function memAvailableMiB(): number {
  const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"));
  return m ? Number(m[1]) / 1024 : Infinity;
}
let memoryAbort: string | undefined;
const watchdog = setInterval(() => {
  const avail = memAvailableMiB();
  if (avail < MIN_AVAILABLE_MIB && !memoryAbort) {
    memoryAbort = `the machine's MemAvailable fell to ${Math.round(avail)} MiB (< SCALE_MIN_AVAILABLE_MIB ${MIN_AVAILABLE_MIB}): stopped our servers`;
    log(memoryAbort);
    void killAllChildren();
  }
}, 500);
watchdog.unref();
const checkMemory = () => { if (memoryAbort) throw new Error(memoryAbort); };

// --- server readings ------------------------------------------------------------------------------------

interface MemoryReading { rss: number; heapUsed: number; external: number; heapPlusExternal: number }

/** RSS and heap after two forced GCs and a short settle (the server runs with --expose-gc). */
async function settledMemory(child: Child): Promise<MemoryReading> {
  await sleep(2000);
  await probe(child, "gc", 60_000);
  await sleep(500);
  const s = await probe(child, "gc", 60_000);
  const rss = procMemory(child.pid).rss;
  return { rss, heapUsed: s.heapUsed, external: s.external, heapPlusExternal: s.heapUsed + s.external };
}

const endpoint = (s: OurServer | RefServer, token: string): Endpoint => ({ url: s.url, ca: readFileSync(s.caFile), token });

// --- seeding ----------------------------------------------------------------------------------------------

interface SeedResult {
  via: string;
  objects: number;
  namespaces: number;
  seconds: number;
  objectsPerSecond: number;
  writes: number;
  writesPerSecond: number;
  retries: number;
  tooManyRequests: number;
  peakRssMiB: number;
  /** Server CPU per write (ms), the client's CPU, how busy the machine was (0..1): what limited the rate. */
  serverCpuMsPerWrite?: number | null;
  clientCpuS?: number;
  machineBusy?: number;
}

async function createNamespaces(ep: Endpoint, names: string[], counters: SeedCounters): Promise<void> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca: ep.ca });
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < names.length) {
      const name = names[next++];
      await mustWrite(ep, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } }, agent, counters, {}, [201, 409]);
    }
  }));
  agent.destroy();
}

/** Every object created through the API by CONCURRENCY workers; pods then get their status, as from a kubelet. */
async function seedApi(kind: "pods" | "configmaps", server: OurServer, ep: Endpoint, count: number, layout: Layout): Promise<SeedResult> {
  const counters: SeedCounters = { retries: 0, tooMany: 0 };
  const t0 = performance.now();
  await probe(server.child, "reset");
  const cpu = cpuMeter(server.child.pid);
  const namespaces = namespacesFor(layout, count);
  await createNamespaces(ep, namespaces, counters);
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: ep.ca });
  let next = 0, done = 0, writes = 0;
  const progress = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    log(`  seeded ${done}/${count} ${kind} (${Math.round(done / s)}/s, ${Math.round(writes / s)} writes/s, retries ${counters.retries}, server RSS ${mib(procMemory(server.child.pid).rss)} MiB)`);
  }, 15_000);
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        checkMemory();
        const i = next++;
        if (kind === "pods") {
          const p = scalePod(i);
          const name = (p.body.metadata as { name: string }).name;
          await mustWrite(ep, "POST", `/api/v1/namespaces/${p.namespace}/pods`, p.body, agent, counters, { "user-agent": CONTROLLER_UA });
          writes++;
          if (POD_STATUS) {
            await mustWrite(ep, "PATCH", `/api/v1/namespaces/${p.namespace}/pods/${name}/status`, p.status, agent, counters,
              { "content-type": "application/strategic-merge-patch+json", "user-agent": KUBELET_UA });
            writes++;
          }
        } else {
          const c = scaleConfigMap(i);
          await mustWrite(ep, "POST", `/api/v1/namespaces/${c.namespace}/configmaps`, c.body, agent, counters);
          writes++;
        }
        done++;
      }
    }));
  } finally {
    clearInterval(progress);
    agent.destroy();
  }
  const seconds = (performance.now() - t0) / 1000;
  const s = await probe(server.child, "stats");
  const used = cpu();
  return {
    serverCpuMsPerWrite: writes ? round((used.serverCpuS * 1000) / writes, 2) : null, clientCpuS: used.clientCpuS, machineBusy: used.machineBusy,
    via: "HTTPS API (POST, and for pods a strategic-merge status PATCH as a kubelet sends)", objects: count, namespaces: namespaces.length,
    seconds: round(seconds, 1)!, objectsPerSecond: round(count / seconds, 1)!, writes, writesPerSecond: round(writes / seconds, 1)!,
    retries: counters.retries, tooManyRequests: counters.tooMany, peakRssMiB: mib(s.peakRss),
  };
}

/** SCALE_CONFIGMAP_SEED=store: ConfigMaps created in this process through lib/registry over lib/storage, before the server starts. */
async function seedStore(dataDir: string, count: number, layout: Layout): Promise<SeedResult> {
  const t0 = performance.now();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { openStore } = await ctx.serverModule<typeof import("../lib/storage")>("lib/storage/index.ts");
  const { Registry } = await ctx.serverModule<typeof import("../lib/registry/registry")>("lib/registry/registry.ts");
  const { kinds, kindByPlural } = await ctx.serverModule<typeof import("../lib/kinds")>("lib/kinds/index.ts");
  const store = await openStore({ databaseUrl: `file:${path.join(dataDir, "cluster-core.db")}`, compactionWindowSeconds: 300 });
  const registry = new Registry(store, kinds);
  const opts = { dryRun: false, fieldValidation: "Warn" as const };
  const namespaces = namespacesFor(layout, count);
  for (const ns of namespaces) await registry.create(kindByPlural("namespaces")!, undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, opts);
  let next = 0;
  await Promise.all(Array.from({ length: 256 }, async () => {
    while (next < count) {
      const c = scaleConfigMap(next++);
      await registry.create(kindByPlural("configmaps")!, c.namespace, c.body, opts);
    }
  }));
  registry.close();
  await store.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    via: "in-process: lib/registry Registry.create over lib/storage before the server starts (the write path minus HTTP and admission)",
    objects: count, namespaces: namespaces.length, seconds: round(seconds, 1)!, objectsPerSecond: round(count / seconds, 1)!,
    writes: count, writesPerSecond: round(count / seconds, 1)!, retries: 0, tooManyRequests: 0, peakRssMiB: mib(process.memoryUsage.rss()),
  };
}

// --- what the server holds: a walk that also writes the fixture for bare-http ------------------------------

interface Census { items: number; seeded: number; jsonBytes: number; listRv: string; pages: number; fixture: string; consistent: boolean }

/** Walk every page (limit=500), keep each item's JSON as served (one per line), count them and their bytes. */
async function census(ep: Endpoint, resource: string, fixture: string): Promise<Census> {
  const out = createWriteStream(fixture);
  let cont: string | undefined, rv: string | undefined, items = 0, seeded = 0, jsonBytes = 0, pages = 0, consistent = true;
  do {
    const r = await readList(ep, `/api/v1/${resource}?limit=${PAGE}${cont ? `&continue=${encodeURIComponent(cont)}` : ""}`, { keepBody: true });
    if (r.status !== 200) throw new Error(`census: page ${pages + 1} answered ${r.status}: ${r.head.slice(0, 300)}`);
    const page = JSON.parse(r.body!.toString()) as { metadata: { continue?: string; resourceVersion: string }; items: unknown[] };
    if (rv === undefined) rv = page.metadata.resourceVersion; else if (rv !== page.metadata.resourceVersion) consistent = false;
    for (const item of page.items) {
      if ((item as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.[SCALE_LABEL] !== undefined) seeded++;
      const line = JSON.stringify(item);
      jsonBytes += Buffer.byteLength(line);
      if (!out.write(`${line}\n`)) await new Promise<void>((r2) => out.once("drain", () => r2()));
    }
    items += page.items.length;
    pages++;
    cont = page.metadata.continue || undefined;
    checkMemory();
  } while (cont);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { items, seeded, jsonBytes, listRv: rv ?? "", pages, fixture, consistent };
}

// --- list measurements ------------------------------------------------------------------------------------

interface ListRun {
  target: string;
  what: string;
  round: number;
  status: number;
  bytes: number;
  items: number | null;
  firstByteMs: number;
  totalMs: number;
  mbPerS: number;
  serverPeakGrowthMiB: number | null;
  serverCpuMs: number;
  machineBusy: number;
  pages?: number;
  rvConsistent?: boolean;
}

const MB = 1e6;

async function timedList(target: string, what: string, roundNo: number, ep: Endpoint, child: Child, p: string, accept?: string): Promise<ListRun> {
  checkMemory();
  const before = procMemory(child.pid).rss;
  await probe(child, "reset");
  const cpu = cpuMeter(child.pid);
  const r = await readList(ep, p, { accept, marker: accept ? undefined : MARKER });
  const used = cpu();
  const s = await probe(child, "stats");
  const run: ListRun = {
    serverCpuMs: Math.round(used.serverCpuS * 1000), machineBusy: used.machineBusy,
    target, what, round: roundNo, status: r.status, bytes: r.bytes, items: accept ? null : r.markers,
    firstByteMs: round(r.firstByteMs, 1)!, totalMs: round(r.totalMs, 1)!, mbPerS: round(r.bytes / MB / (r.totalMs / 1000), 1)!,
    serverPeakGrowthMiB: mib(Math.max(0, s.peakRss - before)),
  };
  if (accept === PROTOBUF && !r.magic.equals(Buffer.from("k8s\0", "latin1"))) run.status = -1;
  log(`  ${target.padEnd(9)} ${what.padEnd(14)} round ${roundNo}: ${r.status} ${mib(r.bytes)} MiB in ${Math.round(r.totalMs)} ms (${run.mbPerS} MB/s, first byte ${Math.round(r.firstByteMs)} ms), items ${run.items ?? "-"}, server peak +${run.serverPeakGrowthMiB} MiB`);
  return run;
}

async function timedWalk(target: string, roundNo: number, ep: Endpoint, child: Child, resource: string): Promise<ListRun> {
  checkMemory();
  const before = procMemory(child.pid).rss;
  await probe(child, "reset");
  const cpu = cpuMeter(child.pid);
  const t0 = performance.now();
  let cont: string | undefined, rv: string | undefined, items = 0, bytes = 0, pages = 0, consistent = true, status = 200, firstByteMs = 0;
  do {
    const r: ListRead = await readList(ep, `/api/v1/${resource}?limit=${PAGE}${cont ? `&continue=${encodeURIComponent(cont)}` : ""}`, { marker: MARKER });
    if (pages === 0) firstByteMs = r.firstByteMs;
    if (r.status !== 200) { status = r.status; break; }
    const meta = listMeta(r.head);
    if (rv === undefined) rv = meta.rv; else if (rv !== meta.rv) consistent = false;
    items += r.markers;
    bytes += r.bytes;
    pages++;
    cont = meta.cont;
  } while (cont);
  const totalMs = performance.now() - t0;
  const used = cpu();
  const s = await probe(child, "stats");
  const run: ListRun = {
    serverCpuMs: Math.round(used.serverCpuS * 1000), machineBusy: used.machineBusy,
    target, what: `walk limit=${PAGE}`, round: roundNo, status, bytes, items, firstByteMs: round(firstByteMs, 1)!, totalMs: round(totalMs, 1)!,
    mbPerS: round(bytes / MB / (totalMs / 1000), 1)!, serverPeakGrowthMiB: mib(Math.max(0, s.peakRss - before)), pages, rvConsistent: consistent,
  };
  log(`  ${target.padEnd(9)} ${run.what.padEnd(14)} round ${roundNo}: ${pages} pages, ${items} items, ${mib(bytes)} MiB in ${Math.round(totalMs)} ms (${run.mbPerS} MB/s), one RV ${consistent}`);
  return run;
}

interface ConcurrentRun {
  target: string;
  lists: number;
  statuses: number[];
  tooManyRequests: number;
  bytesReturned: number;
  seconds: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
  growthMiB: number;
  growthVsBytes: number | null;
  completeItems: number[];
  serverCpuMs: number;
  machineBusy: number;
}

/** k full lists at once, each read as fast as this client can: how much the server grows against what it sends. */
async function concurrentLists(target: string, ep: Endpoint, child: Child, p: string, k: number): Promise<ConcurrentRun> {
  checkMemory();
  const before = procMemory(child.pid).rss;
  await probe(child, "reset");
  const cpu = cpuMeter(child.pid);
  const t0 = performance.now();
  const reads = await Promise.all(Array.from({ length: k }, () => readList(ep, p, { marker: MARKER })));
  const seconds = (performance.now() - t0) / 1000;
  const used = cpu();
  const s = await probe(child, "stats");
  const bytesReturned = reads.filter((r) => r.status === 200).reduce((a, r) => a + r.bytes, 0);
  const growth = Math.max(0, s.peakRss - before);
  const run: ConcurrentRun = {
    target, lists: k, statuses: reads.map((r) => r.status), tooManyRequests: reads.filter((r) => r.status === 429).length, bytesReturned,
    seconds: round(seconds, 1)!, rssBeforeMiB: mib(before), peakRssMiB: mib(s.peakRss), growthMiB: mib(growth),
    growthVsBytes: bytesReturned > 0 ? round(growth / bytesReturned, 3) : null, completeItems: reads.map((r) => r.markers),
    serverCpuMs: Math.round(used.serverCpuS * 1000), machineBusy: used.machineBusy,
  };
  log(`  ${target.padEnd(9)} ${k} lists at once: statuses ${run.statuses.join(",")}, ${mib(bytesReturned)} MiB returned in ${run.seconds} s, server ${run.rssBeforeMiB} -> peak ${run.peakRssMiB} MiB (+${run.growthMiB}, ${run.growthVsBytes}x the bytes)`);
  return run;
}

interface SlowRun {
  target: string;
  pauseS: number;
  bytesBeforePause: number;
  listBytes: number;
  status: number;
  rssBeforeMiB: number;
  peakGrowthWhilePausedMiB: number;
  rssSamplesMiB: number[];
  completed: boolean;
  totalS: number;
}

/** One reader that stops after the first MiB for SLOW_PAUSE_MS, then reads the rest: the server must not buffer the list meanwhile. */
async function slowReader(target: string, ep: Endpoint, child: Child, p: string, expectItems: number): Promise<SlowRun> {
  checkMemory();
  const before = procMemory(child.pid).rss;
  await probe(child, "reset");
  let peakPaused = before;
  const samples: number[] = [];
  const t0 = performance.now();
  const r = await readList(ep, p, {
    marker: MARKER, pauseAfterBytes: MiB, pauseMs: SLOW_PAUSE_MS,
    whilePaused: async () => {
      const end = Date.now() + SLOW_PAUSE_MS - 250;
      while (Date.now() < end) {
        const rss = procMemory(child.pid).rss;
        samples.push(mib(rss));
        if (rss > peakPaused) peakPaused = rss;
        await sleep(250);
      }
      const s = await probe(child, "stats");
      if (s.peakRss > peakPaused) peakPaused = s.peakRss;
    },
  });
  const run: SlowRun = {
    target, pauseS: SLOW_PAUSE_MS / 1000, bytesBeforePause: r.bytesBeforePause ?? 0, listBytes: r.bytes, status: r.status,
    rssBeforeMiB: mib(before), peakGrowthWhilePausedMiB: mib(Math.max(0, peakPaused - before)),
    rssSamplesMiB: samples.filter((_, i) => i % 4 === 0), completed: r.status === 200 && r.markers === expectItems, totalS: round((performance.now() - t0) / 1000, 1)!,
  };
  log(`  ${target.padEnd(9)} slow reader: paused ${run.pauseS} s after ${mib(run.bytesBeforePause)} MiB of ${mib(r.bytes)} MiB; server grew at most ${run.peakGrowthWhilePausedMiB} MiB while paused; complete ${run.completed}`);
  return run;
}

// --- restart --------------------------------------------------------------------------------------------

interface RestartRun { how: string; listeningS: number; readyS: number; objectsAfter: number | null; serverCpuS: number; machineBusy: number }

async function pollReady(url: string, ca: Buffer, token: string, deadlineMs: number): Promise<void> {
  while (Date.now() < deadlineMs) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = https.request(`${url}/readyz`, { ca, agent: false, headers: { authorization: `Bearer ${token}` }, timeout: 2000 }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode === 200));
      });
      req.on("error", () => resolve(false));
      req.on("timeout", () => { req.destroy(); resolve(false); });
      req.end();
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error("restart: /readyz never answered 200");
}

/** Stop the server (SIGTERM, or SIGKILL as a crash), start it on the same data and port, time it to /readyz 200. */
async function restart(server: OurServer, how: "SIGTERM" | "SIGKILL", resource: string, label?: string): Promise<{ run: RestartRun; server: OurServer }> {
  if (how === "SIGKILL") { server.child.proc.kill("SIGKILL"); await server.child.exited; } else await stopChild(server.child, 120_000);
  const ca = readFileSync(server.caFile);
  const t0 = performance.now();
  const m0 = machineCpu();
  const next = await ctx.startOurs({ dataDir: server.dataDir, gc: true, port: server.port });
  const listeningS = (performance.now() - t0) / 1000;
  await pollReady(next.url, ca, next.token, Date.now() + 600_000);
  const readyS = (performance.now() - t0) / 1000;
  const m1 = machineCpu();
  const serverCpuS = round(cpuSeconds(next.child.pid), 2)!;
  const machineBusy = round((m1.busy - m0.busy) / Math.max(1e-9, m1.total - m0.total), 2)!;
  const one = await readList(endpoint(next, next.token), `/api/v1/${resource}?limit=1`, { marker: MARKER });
  const remaining = listMeta(one.head).remaining;
  const run = { how: label ?? how, listeningS: round(listeningS, 2)!, readyS: round(readyS, 2)!, objectsAfter: one.status !== 200 ? null : Number.isFinite(remaining) ? remaining! + 1 : one.bytes > 0 && /"items":\[\{/.test(one.head) ? 1 : 0, serverCpuS, machineBusy };
  log(`  restart after ${run.how}: listening after ${run.listeningS} s, /readyz 200 after ${run.readyS} s (server CPU ${serverCpuS} s, machine ${Math.round(machineBusy * 100)}% busy); ${run.objectsAfter} objects`);
  return { run, server: next };
}

// --- one phase: one kind, its own server -------------------------------------------------------------------

interface PhaseResult {
  phase: string;
  kind: string;
  resource: string;
  objects: number;
  seed?: SeedResult;
  census?: Omit<Census, "fixture"> & { jsonBytesPerObject: number };
  memory?: Record<string, unknown>;
  database?: Record<string, unknown>;
  lists?: { warmup: ListRun[]; runs: ListRun[]; medians: Record<string, Record<string, number | null>>; ratios: Record<string, number | null> };
  concurrent?: ConcurrentRun[];
  slowReader?: SlowRun[];
  restarts?: RestartRun[];
  notes: string[];
  error?: string;
}

async function phase(kind: "pods" | "configmaps", count: number): Promise<PhaseResult> {
  const layout = kind === "pods" ? POD_LAYOUT : CONFIGMAP_LAYOUT;
  const refNs = namespaceOf(layout, 0);
  const refSize = Math.min(count, layout.refSize);
  const result: PhaseResult = { phase: kind, kind: kind === "pods" ? "Pod" : "ConfigMap", resource: kind, objects: count, notes: [] };
  const gateSource = "issue 23";
  let ours: OurServer | undefined;
  let bare: RefServer | undefined;
  try {
    // 1. The empty server, then seeding (through the API, or in-process for SCALE_CONFIGMAP_SEED=store).
    const store = kind === "configmaps" && CM_SEED === "store";
    let empty: MemoryReading;
    let emptyRestart: RestartRun;
    const dataDir = path.join(ctx.scratch, `ours-${kind}`);
    if (store) {
      let blank = await ctx.startOurs({ gc: true });
      ({ run: emptyRestart, server: blank } = await restart(blank, "SIGTERM", kind, "SIGTERM, empty server"));
      empty = await settledMemory(blank.child);
      await stopChild(blank.child);
      log(`${kind}: seeding ${count} in-process (lib/registry) before the server starts`);
      result.seed = await seedStore(dataDir, count, layout);
      ours = await ctx.startOurs({ dataDir, gc: true });
    } else {
      ours = await ctx.startOurs({ dataDir, gc: true });
      // The empty server's restart: the fixed part of a restart on this machine now (the ceiling for the restarts below).
      ({ run: emptyRestart, server: ours } = await restart(ours, "SIGTERM", kind, "SIGTERM, empty server"));
      empty = await settledMemory(ours.child);
      log(`${kind}: empty server RSS ${mib(empty.rss)} MiB, heap+external ${mib(empty.heapPlusExternal)} MiB; seeding ${count} through the API, ${CONCURRENCY} in flight`);
      result.seed = await seedApi(kind, ours, endpoint(ours, ours.token), count, layout);
    }
    log(`  seeded in ${result.seed.seconds} s (${result.seed.objectsPerSecond} objects/s, ${result.seed.writesPerSecond} writes/s)`);
    const ep = endpoint(ours, ours.token);

    // 2. Memory per object against the objects' JSON as the server serves them.
    const afterSeed = await settledMemory(ours.child);
    const c = await census(ep, kind, path.join(ctx.scratch, `fixture-${kind}.ndjson`));
    result.census = { items: c.items, seeded: c.seeded, jsonBytes: c.jsonBytes, listRv: c.listRv, pages: c.pages, consistent: c.consistent, jsonBytesPerObject: Math.round(c.jsonBytes / c.items) };
    // (The server also holds a kube-root-ca.crt ConfigMap in every namespace: listed and counted in the bytes, not seeded.)
    isTrue(kind, `every seeded ${kind === "pods" ? "pod" : "ConfigMap"} is listed (${count})`, c.seeded === count && c.consistent, "plan §8.1 rule 3");
    const dbFiles = ["cluster-core.db", "cluster-core.db-wal", "cluster-core.db-shm"].map((f) => path.join(ours!.dataDir, f));
    result.database = { bytesAfterSeed: filesBytes(dbFiles), bytesPerObject: Math.round(filesBytes(dbFiles) / c.items), files: Object.fromEntries(dbFiles.map((f) => [path.basename(f), filesBytes([f])])) };
    const per = (m: MemoryReading) => ({
      rssMiB: mib(m.rss), heapPlusExternalMiB: mib(m.heapPlusExternal),
      rssPerObjectKiB: round((m.rss - empty.rss) / c.items / 1024, 2), heapPerObjectKiB: round((m.heapPlusExternal - empty.heapPlusExternal) / c.items / 1024, 2),
      rssVsJson: ratio(m.rss - empty.rss, c.jsonBytes), heapVsJson: ratio(m.heapPlusExternal - empty.heapPlusExternal, c.jsonBytes),
    });
    result.memory = { empty: { rssMiB: mib(empty.rss), heapPlusExternalMiB: mib(empty.heapPlusExternal) }, afterSeed: per(afterSeed), jsonMiB: mib(c.jsonBytes) };
    const seedMem = per(afterSeed);
    log(`  ${c.items} objects, ${mib(c.jsonBytes)} MiB of JSON (${result.census.jsonBytesPerObject} B each); server RSS ${seedMem.rssMiB} MiB: ${seedMem.rssPerObjectKiB} KiB/object, ${seedMem.rssVsJson}x the JSON (heap ${seedMem.heapVsJson}x); database ${mib(result.database.bytesAfterSeed as number)} MiB`);
    atMost(kind, "memory per object vs its JSON (RSS after GC, minus the empty server; live server after seeding)", seedMem.rssVsJson, 2.5, `${gateSource} item 2${kind === "configmaps" ? "/6" : ""}`);

    // 3. The ceiling: a bare node:https server streaming the same bytes.
    bare = await ctx.startRef("bare-http", { gc: true, env: { FIXTURE: c.fixture, LIST_RV: c.listRv, REF_STREAM_LISTS: "1" } });
    const bareEp = endpoint(bare, ours.token);

    // 4. Lists, interleaved ours / bare, ROUNDS rounds: full (JSON, protobuf), the reference namespace, the paginated walk.
    const full = `/api/v1/${kind}`;
    const refList = `/api/v1/namespaces/${refNs}/${kind}`;
    log(`${kind}: lists, ${ROUNDS} interleaved rounds (full list of ${c.items}, namespace ${refNs} of ${refSize}, walk in pages of ${PAGE}; ours and bare-http)`);
    // One discarded pass first (JIT, and protobuf encodings made once per stored object: the cold figure is kept).
    const warmup: ListRun[] = [
      await timedList("ours", "full protobuf", 0, ep, ours.child, full, PROTOBUF),
      await timedList("ours", `ns ${refSize}`, 0, ep, ours.child, refList),
      await timedList("bare-http", `ns ${refSize}`, 0, bareEp, bare.child, refList),
    ];
    const runs: ListRun[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      runs.push(await timedList("ours", "full", r, ep, ours.child, full));
      runs.push(await timedList("bare-http", "full", r, bareEp, bare.child, full));
      runs.push(await timedList("ours", "full protobuf", r, ep, ours.child, full, PROTOBUF));
      runs.push(await timedList("ours", `ns ${refSize}`, r, ep, ours.child, refList));
      runs.push(await timedList("bare-http", `ns ${refSize}`, r, bareEp, bare.child, refList));
      runs.push(await timedWalk("ours", r, ep, ours.child, kind));
      runs.push(await timedWalk("bare-http", r, bareEp, bare.child, kind));
    }
    const med = (target: string, what: string, f: keyof ListRun) => median(runs.filter((x) => x.target === target && x.what === what).map((x) => Number(x[f])));
    const whats = ["full", "full protobuf", `ns ${refSize}`, `walk limit=${PAGE}`];
    const medians: Record<string, Record<string, number | null>> = {};
    for (const t of ["ours", "bare-http"]) for (const w of whats) {
      if (!runs.some((x) => x.target === t && x.what === w)) continue;
      medians[`${t} ${w}`] = { totalMs: med(t, w, "totalMs"), firstByteMs: med(t, w, "firstByteMs"), mbPerS: med(t, w, "mbPerS"), bytes: med(t, w, "bytes"), serverPeakGrowthMiB: med(t, w, "serverPeakGrowthMiB"), serverCpuMs: med(t, w, "serverCpuMs") };
    }
    const ratios = {
      "ours full MB/s vs ours ns-10k MB/s": ratio(medians["ours full"].mbPerS, medians[`ours ns ${refSize}`].mbPerS),
      "bare-http full MB/s vs bare-http ns-10k MB/s": ratio(medians["bare-http full"].mbPerS, medians[`bare-http ns ${refSize}`].mbPerS),
      "ours full vs bare-http full (MB/s)": ratio(medians["ours full"].mbPerS, medians["bare-http full"].mbPerS),
      "ours ns-10k vs bare-http ns-10k (MB/s)": ratio(medians[`ours ns ${refSize}`].mbPerS, medians[`bare-http ns ${refSize}`].mbPerS),
      "ours walk vs bare-http walk (MB/s)": ratio(medians[`ours walk limit=${PAGE}`].mbPerS, medians[`bare-http walk limit=${PAGE}`].mbPerS),
      "ours protobuf full vs JSON full (MB/s)": ratio(medians["ours full protobuf"].mbPerS, medians["ours full"].mbPerS),
      "ours protobuf full vs JSON full (time, JSON / protobuf)": ratio(medians["ours full"].totalMs, medians["ours full protobuf"].totalMs),
      // Server CPU per list: steadier than wall time on a shared box (bare / ours: 1 = as cheap as the ceiling).
      "bare-http full vs ours full (server CPU)": ratio(medians["bare-http full"].serverCpuMs, medians["ours full"].serverCpuMs),
      "bare-http walk vs ours walk (server CPU)": ratio(medians[`bare-http walk limit=${PAGE}`].serverCpuMs, medians[`ours walk limit=${PAGE}`].serverCpuMs),
    };
    result.lists = { warmup, runs, medians, ratios };
    const listsOk = runs.every((x) => x.status === 200 && (x.items === null || x.items === (x.what.startsWith("ns") ? refSize : count)) && x.rvConsistent !== false);
    isTrue(kind, "every list and walk complete (200, every object, one RV per walk; protobuf k8s\\0)", listsOk, "plan §8.1 rule 3");
    if (refSize < layout.refSize) result.notes.push(`only ${refSize} objects: the "ns-10k" list holds ${refSize}.`);
    atLeast(kind, `list throughput at ${c.items} vs a ${refSize}-object list, same server (MB/s)`, ratios["ours full MB/s vs ours ns-10k MB/s"], 0.8, `${gateSource} item 3`);

    // 5. Several full lists at once, ours then bare-http.
    log(`${kind}: ${LISTS} full lists at once`);
    const concurrent = [await concurrentLists("ours", ep, ours.child, full, LISTS), await concurrentLists("bare-http", bareEp, bare.child, full, LISTS)];
    result.concurrent = concurrent;
    atMost(kind, `${LISTS} concurrent full lists: server growth vs the bytes they return`, concurrent[0].growthVsBytes, 0.5, `${gateSource} item 3`);
    gates.push({ phase: kind, name: `${LISTS} concurrent full lists: answered 429 (memory budget)`, goal: "(reported)", value: concurrent[0].tooManyRequests, met: null, source: `${gateSource} item 4` });
    isTrue(kind, `${LISTS} concurrent full lists: every answer a complete list or a 429`, concurrent[0].statuses.every((s, i) => s === 429 || (s === 200 && concurrent[0].completeItems[i] === count)), `${gateSource} item 4`);

    // 6. A slow reader.
    log(`${kind}: a slow reader (stops for ${SLOW_PAUSE_MS / 1000} s after 1 MiB)`);
    const slow = [await slowReader("ours", ep, ours.child, full, count), await slowReader("bare-http", bareEp, bare.child, full, count)];
    result.slowReader = slow;
    atMost(kind, `slow reader of the full list: server growth while it is stopped (MiB)`, slow[0].peakGrowthWhilePausedMiB, SLOW_BOUND_MIB, `${gateSource} item 3 (bound: SCALE_SLOW_BOUND_MIB)`);
    isTrue(kind, "slow reader: the list completes after the pause", slow[0].completed, `${gateSource} item 3`);
    await stopChild(bare.child);
    bare = undefined;

    // 7. Restart: a clean stop, then a crash (kill -9); each timed from the start to /readyz 200.
    log(`${kind}: restart (SIGTERM, then SIGKILL)`);
    const restarts: RestartRun[] = [emptyRestart];
    let r1 = await restart(ours, "SIGTERM", kind);
    ours = r1.server;
    restarts.push(r1.run);
    const afterRestart = await settledMemory(ours.child);
    r1 = await restart(ours, "SIGKILL", kind);
    ours = r1.server;
    restarts.push(r1.run);
    result.restarts = restarts;
    result.memory.afterRestart = per(afterRestart);
    (result.database as Record<string, unknown>).bytesAfterRestarts = filesBytes(dbFiles);
    const worst = Math.max(...restarts.slice(1).map((x) => x.readyS));
    const goalS = kind === "pods" ? 5 : 30;
    atMost(kind, `restart to /readyz (s), the slower of a clean stop and kill -9`, round(worst, 2), goalS, `${gateSource} item 6`);
    isTrue(kind, "every object there after each restart", restarts.slice(1).every((x) => x.objectsAfter === c.items), "issue 23 (nothing less correct)");
    gates.push({ phase: kind, name: "restart to /readyz (s) of the same server empty (this machine's fixed part, now)", goal: "(reported)", value: emptyRestart.readyS, met: null, source: "ceiling" });
    gates.push({ phase: kind, name: "memory per object vs its JSON after a restart (RSS after GC, minus the empty server)", goal: "(reported)", value: per(afterRestart).rssVsJson, met: null, source: `${gateSource} item 2` });
    if (kind === "configmaps" && store) result.notes.push("SEEDED IN-PROCESS (SCALE_CONFIGMAP_SEED=store): the 'after seed' memory is the server's first start on that data, not a live server that took the writes.");
    result.notes.push(
      "Memory: RSS from /proc after two forced GCs and a settle, minus the same reading of the empty server (same process for API seeding). heap = V8 heapUsed + external.",
      "JSON bytes: each object as the server serves it in a list (JSON.stringify of the parsed item, which keeps the bytes), summed.",
      "The live reading after seeding includes the watch cache's history of the last COMPACTION_WINDOW_SECONDS (300 s) of the seeding's writes; the reading after a restart is the steady state.",
      "Lists are read by this process over HTTP/1.1 + TLS (node:https), one connection per list, counting bytes and items as they arrive; time = request sent to last byte.",
      "bare-http streams the same items (the fixture written from our paginated walk) in 64 KiB chunks with backpressure: the ceiling for this client on this machine.",
    );
  } catch (err) {
    result.error = String((err as Error)?.stack ?? err);
    log(`${kind} FAILED: ${result.error}`);
  } finally {
    await Promise.all([ours, bare].filter((s): s is OurServer | RefServer => !!s).map((s) => stopChild(s.child, 60_000)));
  }
  return result;
}

// --- output -----------------------------------------------------------------------------------------------

function printSummary(phases: PhaseResult[], e: Record<string, unknown>): void {
  for (const p of phases) {
    console.log(`\n== ${p.phase}: ${p.objects} ${p.kind}s${p.error ? `  ERROR: ${p.error.split("\n")[0]}` : ""}`);
    if (!p.census) continue;
    const m = p.memory as { afterSeed: Record<string, number>; afterRestart?: Record<string, number>; empty: Record<string, number> };
    const rows: string[][] = [["figure", "ours", "ceiling (bare-http)", "ratio (MB/s)"]];
    rows.push(["seeded via", p.seed?.via.split(" (")[0] ?? "-", "", ""]);
    rows.push(["seeding objects/s (writes/s)", `${fmt(p.seed?.objectsPerSecond)} (${fmt(p.seed?.writesPerSecond)})`, "", ""]);
    rows.push(["JSON bytes per object", fmt(p.census.jsonBytesPerObject), "", ""]);
    rows.push(["RSS per object KiB (after seed / restart)", `${fmt(m.afterSeed.rssPerObjectKiB)} / ${fmt(m.afterRestart?.rssPerObjectKiB)}`, "", `${fmt(m.afterSeed.rssVsJson)}x / ${fmt(m.afterRestart?.rssVsJson)}x JSON`]);
    rows.push(["heap per object KiB (after seed / restart)", `${fmt(m.afterSeed.heapPerObjectKiB)} / ${fmt(m.afterRestart?.heapPerObjectKiB)}`, "", `${fmt(m.afterSeed.heapVsJson)}x / ${fmt(m.afterRestart?.heapVsJson)}x JSON`]);
    const md = p.lists?.medians ?? {};
    const refKey = Object.keys(md).find((k) => k.startsWith("ours ns "))?.slice(5) ?? "ns";
    for (const w of ["full", "full protobuf", refKey, `walk limit=${PAGE}`]) {
      const o = md[`ours ${w}`], b = md[`bare-http ${w}`];
      if (!o) continue;
      rows.push([`list ${w}: ms (MB/s) [server CPU ms]`, `${fmt(o.totalMs)} (${fmt(o.mbPerS)}) [${fmt(o.serverCpuMs)}]`, b ? `${fmt(b.totalMs)} (${fmt(b.mbPerS)}) [${fmt(b.serverCpuMs)}]` : "", b ? fmt(ratio(o.mbPerS, b.mbPerS)) : ""]);
    }
    for (const cc of p.concurrent ?? []) rows.push([`${cc.lists} lists at once: growth MiB / bytes (429s)`, cc.target === "ours" ? `${fmt(cc.growthMiB)} / ${fmt(mib(cc.bytesReturned))} = ${fmt(cc.growthVsBytes)}x (${cc.tooManyRequests})` : "", cc.target === "bare-http" ? `${fmt(cc.growthMiB)} / ${fmt(mib(cc.bytesReturned))} = ${fmt(cc.growthVsBytes)}x` : "", ""]);
    const so = p.slowReader?.find((s) => s.target === "ours"), sb = p.slowReader?.find((s) => s.target === "bare-http");
    if (so) rows.push(["slow reader: growth MiB while stopped", fmt(so.peakGrowthWhilePausedMiB), fmt(sb?.peakGrowthWhilePausedMiB), ""]);
    for (const r of p.restarts ?? []) rows.push([`restart after ${r.how}: s to /readyz [server CPU s]`, `${fmt(r.readyS)} [${fmt(r.serverCpuS)}]`, "", ""]);
    rows.push(["database MiB (after seed)", fmt(mib(Number(p.database?.bytesAfterSeed ?? 0))), "", ""]);
    console.log(table(rows));
  }
  const g: string[][] = [["phase", "gate", "value", "goal", "met", "source"]];
  for (const x of gates) g.push([x.phase, x.name, fmt(x.value), x.goal, x.met === null ? "-" : fmt(x.met), x.source]);
  console.log(`\nGates`);
  console.log(table(g));
  console.log(`\nnproc ${e.nproc}, node ${e.node}, git ${String(e.gitSha).slice(0, 12)}, loadavg before ${(e.loadavgBefore as number[]).join(" ")} after ${(e.loadavgAfter as number[]).join(" ")}`);
}

async function waitForQuiet(): Promise<void> {
  const max = Number(env.SCALE_MAX_LOAD ?? NaN);
  if (!(max > 0)) return;
  const deadline = Date.now() + 600_000;
  while (os.loadavg()[0] >= max && Date.now() < deadline) {
    log(`load average ${os.loadavg()[0].toFixed(2)} >= ${max}: waiting`);
    await sleep(15_000);
  }
}

async function main(): Promise<void> {
  await waitForQuiet();
  const started = new Date();
  const loadBefore = os.loadavg().map((x) => round(x)!);
  log(`bench:scale: ${PODS} pods${POD_STATUS ? " with status" : ""}, ${CONFIGMAPS} ConfigMaps (${CM_SEED}); ${ROUNDS} round(s); scratch ${ctx.scratch}; load ${loadBefore.join(" ")}`);
  const phases: PhaseResult[] = [];
  if (PODS > 0) phases.push(await phase("pods", PODS));
  if (CONFIGMAPS > 0 && !memoryAbort) phases.push(await phase("configmaps", CONFIGMAPS));
  const out = {
    benchmark: "cluster-core issue 23 item 7: scale", startedAt: started.toISOString(), finishedAt: new Date().toISOString(),
    config: { pods: PODS, podStatus: POD_STATUS, configMaps: CONFIGMAPS, configMapSeed: CM_SEED, seedConcurrency: CONCURRENCY, rounds: ROUNDS, concurrentLists: LISTS, slowPauseS: SLOW_PAUSE_MS / 1000, slowBoundMiB: SLOW_BOUND_MIB, page: PAGE },
    env: { ...ctx.environment(), loadavgBefore: loadBefore, loadavgAfter: os.loadavg().map((x) => round(x)!), memAvailableMiBAtEnd: Math.round(memAvailableMiB()), client: "this process (node:https, HTTP/1.1) on the same cores as the servers" },
    summary: gates,
    phases,
    aborted: memoryAbort,
  };
  const stamp = started.toISOString().replace(/[:.]/g, "-");
  const file = env.SCALE_OUT ?? path.join(ROOT, "bench", "results", `scale-${stamp}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(out, null, 2) + "\n");
  renameSync(`${file}.tmp`, file);
  printSummary(phases, out.env);
  console.log(`results: ${path.relative(process.cwd(), file)} (${Math.round(statSync(file).size / 1024)} KiB)`);
  if (phases.some((p) => p.error) || memoryAbort) process.exitCode = 1;
}

main()
  .catch((err) => { console.error(err); process.exitCode = 1; })
  .finally(async () => { await killAllChildren(); ctx.cleanup(); });

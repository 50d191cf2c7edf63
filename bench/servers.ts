// The servers a benchmark starts, set up as bench/run.ts sets up its own: our server exactly as `npm start` runs
// it (the compiled `.server/server.mjs` of scripts/build-server.mjs, NODE_ENV=production, console off, a fresh
// DATA_DIR; `BENCH_SOURCE=1`: `server.ts` through tsx instead, whose CPU profiles name our files) from a copy of
// the working tree taken when the run starts, and the reference servers of bench/refs with a certificate from the same
// lib/tls code; every one with the bench/probe.ts preload (event-loop delay, peak RSS, memoryUsage, forced GC
// with --expose-gc). Also the run's environment record (versions, git SHA, load average) and CPU readings from
// /proc. Used by bench/run.ts and bench/scale.ts.
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort, installCleanup, openFileLimit, round, startChild, waitForOutput, type Child } from "./common";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const SKIP_IN_SNAPSHOT = new Set(["node_modules", ".next", ".git", "data", "test-results", "playwright-report"]);

export interface OurServer {
  child: Child;
  url: string;
  port: number;
  caFile: string;
  token: string;
  dataDir: string;
}

export interface RefServer {
  child: Child;
  url: string;
  caFile: string;
}

export interface BenchContext {
  scratch: string;
  /** The tree our server and in-process seeding run from (the snapshot, or ROOT with snapshot off). */
  src: string;
  git: { sha: string; dirty: string[] };
  snapshot: boolean;
  /** Import a module of the server under test, e.g. lib/registry/registry.ts. */
  serverModule<T>(rel: string): Promise<T>;
  /** A path under the scratch folder not handed out before: `<scratch>/<prefix>-<n><suffix>`. */
  freshPath(prefix: string, suffix?: string): string;
  /** The shared certificate of the reference servers (made on first use with lib/tls). */
  refTls(): Promise<{ cert: string; key: string; ca: string }>;
  /**
   * Our server on `dataDir` (a fresh one under the scratch folder by default); resolves once it listens.
   * `plain`: INSECURE_HTTP=1 (an http:// url); `nodeArgs`: more node flags (e.g. --cpu-prof); `name`: the child's name in logs.
   */
  startOurs(opts?: { dataDir?: string; gc?: boolean; env?: Record<string, string>; port?: number; waitFor?: RegExp; plain?: boolean; nodeArgs?: string[]; name?: string; timeoutMs?: number }): Promise<OurServer>;
  /** A reference server of bench/refs (e.g. "bare-http") with the shared certificate; `plain`: REF_PLAIN_HTTP=1. */
  startRef(kind: string, opts?: { gc?: boolean; env?: Record<string, string>; plain?: boolean; timeoutMs?: number }): Promise<RefServer>;
  environment(): Record<string, unknown>;
  /** Remove the scratch folder (unless keepTmp). */
  cleanup(): void;
}

function sh(cmd: string, args: string[]): string {
  try { return execFileSync(cmd, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(); } catch { return ""; }
}

export function pkgVersion(name: string): string {
  try { return (JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version; } catch { return "?"; }
}

/** Our environment minus the benchmark's own knobs and anything that would change how a server runs. */
export function cleanEnv(prefixes: string[] = ["BENCH_"]): NodeJS.ProcessEnv {
  const e = { ...process.env };
  for (const k of Object.keys(e)) if (prefixes.some((p) => k.startsWith(p))) delete e[k];
  for (const k of ["CLUSTER_ADMIN_TOKEN", "DATABASE_URL", "TLS_CERT_FILE", "TLS_KEY_FILE", "INSECURE_HTTP", "API_VIA_NEXT", "NODE_OPTIONS"]) delete e[k];
  return e;
}

export function nodeArgs(script: string, gc: boolean, extra: string[] = []): string[] {
  return ["--import", "tsx", "--import", "./bench/probe.ts", ...(gc ? ["--expose-gc"] : []), ...extra, script];
}

/**
 * A benchmark run's scratch folder, code snapshot and server starters. `envPrefixes`: the run's own variables
 * (kept from the servers' environment).
 */
export function benchContext(opts: { name: string; snapshot: boolean; keepTmp: boolean; envPrefixes?: string[] }): BenchContext {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `cluster-core-${opts.name}-`));
  const cleanup = () => { if (!opts.keepTmp) rmSync(scratch, { recursive: true, force: true }); };
  installCleanup(cleanup);
  const git = {
    sha: sh("git", ["rev-parse", "HEAD"]),
    dirty: sh("git", ["status", "--porcelain", "--", "server.ts", "lib", "prisma", "bench", "package.json"]).split("\n").filter(Boolean),
  };
  let src = ROOT;
  if (opts.snapshot) {
    src = path.join(scratch, "src");
    cpSync(ROOT, src, {
      recursive: true,
      filter: (from) => {
        const rel = path.relative(ROOT, from);
        if (rel === "") return true;
        if (SKIP_IN_SNAPSHOT.has(rel.split(path.sep)[0])) return false;
        if (rel === path.join("bench", "results")) return false;
        return !/\.(db|db-wal|db-shm|tsbuildinfo)$/.test(rel);
      },
    });
    symlinkSync(path.join(ROOT, "node_modules"), path.join(src, "node_modules"), "dir");
  }
  const serverEnv = () => cleanEnv(opts.envPrefixes ?? ["BENCH_"]);
  const serverModule = <T>(rel: string) => import(pathToFileURL(path.join(src, rel)).href) as Promise<T>;
  let seq = 0;
  const freshPath = (prefix: string, suffix = "") => path.join(scratch, `${prefix}-${++seq}${suffix}`);

  let refPki: { cert: string; key: string; ca: string } | undefined;
  const refTls = async () => {
    if (!refPki) {
      const dir = path.join(scratch, "ref-pki");
      const { ensureServingCertificate, pkiPaths } = await serverModule<typeof import("../lib/tls/certificates")>("lib/tls/certificates.ts");
      await ensureServingCertificate({ dataDir: dir, hosts: ["127.0.0.1"] });
      const p = pkiPaths(dir);
      refPki = { cert: p.servingCert, key: p.servingKey, ca: p.caCert };
    }
    return refPki;
  };

  // The compiled server, built once per run from the snapshot (as `npm start` builds it when stale).
  let built: Promise<string> | undefined;
  const ourEntry = () => {
    if (process.env.BENCH_SOURCE === "1") return Promise.resolve("server.ts");
    return (built ??= serverModule<{ buildServer(o: { root: string }): Promise<string> }>("scripts/build-server.mjs")
      .then((m) => m.buildServer({ root: src }))
      .then((bundle) => path.relative(src, bundle)));
  };

  return {
    scratch, src, git, snapshot: opts.snapshot, serverModule, freshPath, refTls,
    async startOurs(o = {}) {
      const port = o.port ?? await freePort();
      const dataDir = o.dataDir ?? freshPath("ours");
      const child = startChild(o.name ?? "ours", process.execPath, nodeArgs(await ourEntry(), !!o.gc, o.nodeArgs), {
        cwd: src, ipc: true,
        env: { ...serverEnv(), PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, CLUSTER_CORE_CONSOLE: "off", NODE_ENV: "production", ...(o.plain ? { INSECURE_HTTP: "1" } : {}), ...o.env },
      });
      await waitForOutput(child, o.waitFor ?? /cluster-core listening/, o.timeoutMs ?? 600_000);
      // A server given CLUSTER_ADMIN_TOKEN (replicas sharing one) uses it instead of <dataDir>/admin-token.
      const token = o.env?.CLUSTER_ADMIN_TOKEN ?? readFileSync(path.join(dataDir, "admin-token"), "utf8").trim();
      return { child, url: `${o.plain ? "http" : "https"}://127.0.0.1:${port}`, port, caFile: o.env?.TLS_CA_FILE ?? path.join(dataDir, "pki", "ca.crt"), token, dataDir };
    },
    async startRef(kind, o = {}) {
      const port = await freePort();
      const tls = await refTls();
      const child = startChild(kind, process.execPath, nodeArgs(`bench/refs/${kind}.ts`, !!o.gc), {
        cwd: ROOT, ipc: true,
        env: { ...serverEnv(), PORT: String(port), HOST: "127.0.0.1", REF_TLS_CERT: tls.cert, REF_TLS_KEY: tls.key, NODE_ENV: "production", ...(o.plain ? { REF_PLAIN_HTTP: "1" } : {}), ...o.env },
      });
      await waitForOutput(child, /listening on/, o.timeoutMs ?? 600_000);
      return { child, url: `${o.plain ? "http" : "https"}://127.0.0.1:${port}`, caFile: tls.ca };
    },
    environment() {
      const mem = new Database(":memory:");
      const sqlite = (mem.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
      mem.close();
      return {
        nproc: os.availableParallelism(), cpu: os.cpus()[0]?.model, memGiB: round(os.totalmem() / 2 ** 30, 1), kernel: os.release(),
        node: process.version, betterSqlite3: pkgVersion("better-sqlite3"), sqlite,
        gitSha: git.sha, gitDirtyServerFiles: git.dirty,
        ourServer: process.env.BENCH_SOURCE === "1" ? "server.ts through tsx (BENCH_SOURCE=1)" : "the compiled .server/server.mjs, as npm start runs it",
        serverTree: opts.snapshot ? "copy of the working tree taken at the start of the run (gitDirtyServerFiles: what differed from gitSha)" : "working tree, in place (snapshot off)",
        openFilesLimit: openFileLimit(),
        durability: "SQLite WAL, synchronous=FULL (lib/storage default)",
        transport: "HTTPS (TLS 1.3, EC P-256 certificates from lib/tls) on 127.0.0.1",
      };
    },
    cleanup,
  };
}

/** Bytes of the files that exist among `files`. */
export function filesBytes(files: string[]): number {
  return files.reduce((a, f) => { try { return a + statSync(f).size; } catch { return a; } }, 0);
}

const CLK_TCK = Number(sh("getconf", ["CLK_TCK"])) || 100;

/** CPU seconds (user + system) a process has used so far; undefined when it is gone. */
export function procCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch { return undefined; }
}

/** CPU seconds (user + system) a process has used so far; 0 when it is gone. */
export const cpuSeconds = (pid: number): number => procCpuSeconds(pid) ?? 0;

/** The machine's busy and total CPU time so far (seconds over all cores, from /proc/stat). */
export function machineCpu(): { busy: number; total: number } {
  const v = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - v[3] - v[4]) / CLK_TCK, total: total / CLK_TCK };
}

/**
 * A meter over an interval: the CPU seconds `pid` used, this process used (the client), and how busy the whole
 * machine was (0..1): on a shared box these say whether a figure was limited by our server or by the rest.
 */
export function cpuMeter(pid: number): () => { serverCpuS: number; clientCpuS: number; machineBusy: number } {
  const s0 = cpuSeconds(pid), c0 = process.cpuUsage(), m0 = machineCpu();
  return () => {
    const c1 = process.cpuUsage(c0), m1 = machineCpu();
    return {
      serverCpuS: round(cpuSeconds(pid) - s0, 2)!,
      clientCpuS: round((c1.user + c1.system) / 1e6, 2)!,
      machineBusy: round((m1.busy - m0.busy) / Math.max(1e-9, m1.total - m0.total), 2)!,
    };
  };
}

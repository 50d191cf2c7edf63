// Shared helpers for the benchmark (never a test): child processes we start (and only those), ports,
// /proc readings, statistics, a small HTTPS client for seeding, the printed tables. Used by bench/run.ts, bench/scale.ts
// and bench/watch-client.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";

/** Median of numbers (mean of the two middle values for an even count); null for an empty list. */
export function median(values: number[]): number | null {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Nearest-rank percentile of an already sorted array. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1));
  return sorted[i];
}

export const round = (x: number | null | undefined, digits = 2): number | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits));

/** A figure for a printed table: "-" when missing, yes/NO, whole numbers from 100 up, else 3 decimals. */
export function fmt(v: unknown): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "boolean") return v ? "yes" : "NO";
  if (typeof v === "number") return Math.abs(v) >= 100 ? String(Math.round(v)) : String(round(v, 3));
  return String(v);
}

/** Rows (the first one the header) as aligned text columns, a rule under the header. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((cell, i) => (cell ?? "").padEnd(widths[i])).join("  ").trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A free TCP port on 127.0.0.1 (closed again before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM of a process from /proc/<pid>/status, in bytes. */
export function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Soft and hard RLIMIT_NOFILE of a process (from /proc/<pid>/limits). */
export function openFileLimit(pid: number = process.pid): { soft: number; hard: number } {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8").split("\n").find((l) => l.startsWith("Max open files")) ?? "";
  const [soft, hard] = line.replace("Max open files", "").trim().split(/\s+/).map((x) => (x === "unlimited" ? Infinity : Number(x)));
  return { soft, hard };
}

/**
 * Raises a child's RLIMIT_NOFILE to at least `want` (capped at its hard limit) with util-linux `prlimit`.
 * Returns the soft limit in force afterwards.
 */
export async function raiseOpenFileLimit(pid: number, want: number): Promise<number> {
  const { soft, hard } = openFileLimit(pid);
  if (soft >= want) return soft;
  const target = Math.min(want, hard);
  await new Promise<void>((resolve) => {
    const p = spawn("prlimit", ["--pid", String(pid), `--nofile=${target}:${hard === Infinity ? "unlimited" : hard}`], { stdio: "ignore" });
    p.on("error", () => resolve());
    p.on("exit", () => resolve());
  });
  return openFileLimit(pid).soft;
}

// --- child processes -------------------------------------------------------------------------------------

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** Everything the child wrote (stdout + stderr), kept for error reports. */
  output: () => string;
  exited: Promise<number | null>;
}

const children = new Set<Child>();

/** Starts a child we own; it is killed by killAllChildren() (also on exit and on SIGINT/SIGTERM). */
export function startChild(name: string, cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; ipc?: boolean } = {}): Child {
  const proc = spawn(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: opts.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  if (proc.pid === undefined) throw new Error(`could not start ${name}`);
  let out = "";
  const keep = (d: Buffer) => { out += d.toString(); if (out.length > 200_000) out = out.slice(-100_000); };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const child: Child = { name, proc, pid: proc.pid, output: () => out, exited };
  children.add(child);
  void exited.then(() => children.delete(child));
  return child;
}

/** Resolves when the child's output matches `re`; rejects when it exits first or after `timeoutMs`. */
export function waitForOutput(child: Child, re: RegExp, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (re.test(child.output())) return resolve();
    const onData = () => { if (re.test(child.output())) { cleanup(); resolve(); } };
    const timer = setTimeout(() => { cleanup(); reject(new Error(`${child.name}: no ${re} within ${timeoutMs} ms; output:\n${child.output().slice(-2000)}`)); }, timeoutMs);
    const onExit = (code: number | null) => { cleanup(); reject(new Error(`${child.name} exited (${code}) before ${re}; output:\n${child.output().slice(-2000)}`)); };
    const cleanup = () => {
      clearTimeout(timer);
      child.proc.stdout?.off("data", onData);
      child.proc.stderr?.off("data", onData);
      child.proc.off("exit", onExit);
    };
    child.proc.stdout?.on("data", onData);
    child.proc.stderr?.on("data", onData);
    child.proc.on("exit", onExit);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; only ever this child's own PID. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill("SIGTERM");
  const timer = setTimeout(() => child.proc.kill("SIGKILL"), graceMs);
  await child.exited;
  clearTimeout(timer);
}

export async function killAllChildren(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, 3000)));
}

let cleanupInstalled = false;
/** Kill our children on every way out of this process. */
export function installCleanup(extra: () => void = () => {}): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const c of children) c.proc.kill("SIGKILL");
    extra();
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      console.error(`\nbench: ${sig}, stopping the processes it started`);
      void killAllChildren().finally(() => process.exit(130));
    });
  }
}

// --- IPC with bench/probe.ts inside a server process -------------------------------------------------------

export interface ProbeStats {
  /** Event-loop delay since the last reset, ms. */
  eldP50: number;
  eldP99: number;
  eldMax: number;
  rss: number;
  /** Highest RSS sampled (every 50 ms) since the last reset. */
  peakRss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

let probeSeq = 0;
/** Ask the probe preloaded in a child (bench/probe.ts) to do `cmd` and answer. */
export function probe(child: Child, cmd: "reset" | "stats" | "gc", timeoutMs = 10_000): Promise<ProbeStats> {
  return new Promise((resolve, reject) => {
    const id = ++probeSeq;
    const onMessage = (m: unknown) => {
      const msg = m as { probe?: number; stats?: ProbeStats };
      if (msg && msg.probe === id) { clearTimeout(timer); child.proc.off("message", onMessage); resolve(msg.stats!); }
    };
    const timer = setTimeout(() => { child.proc.off("message", onMessage); reject(new Error(`${child.name}: probe ${cmd} timed out`)); }, timeoutMs);
    child.proc.on("message", onMessage);
    child.proc.send({ probe: id, cmd });
  });
}

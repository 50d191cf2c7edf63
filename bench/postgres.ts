// PostgreSQL for the `replicas` scenario: BENCH_PG_URL when set, otherwise a throw-away cluster in a temp
// folder, from Debian's postgresql (initdb/pg_ctl on PATH or in /usr/lib/postgresql/<version>/bin; as root they
// run as the postgres user), with PostgreSQL's default durability (fsync, synchronous_commit on), stopped at
// the end. Each call of `database()` creates a new empty database on it.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freshPostgresDatabase } from "../lib/storage/test-databases";
import { freePort } from "./common";

export interface BenchPostgres {
  /** The server's URL (its `postgres` database). */
  url: string;
  /** How it was obtained, for the results. */
  origin: string;
  /** A new empty database; its URL. */
  database(prefix: string): Promise<string>;
  /** The server's processes (postmaster and its children; empty for BENCH_PG_URL), for CPU accounting. */
  pids(): number[];
  stop(): void;
}

/** `parent` and its direct children (from /proc). */
function processTree(parent: number): number[] {
  const out = [parent];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}

function postgresBin(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (onPath && existsSync(path.join(path.dirname(onPath), "pg_ctl"))) return path.dirname(onPath);
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => path.join(root, v, "bin")).find((d) => existsSync(path.join(d, "initdb")) && existsSync(path.join(d, "pg_ctl")));
}

export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.BENCH_PG_URL;
  if (given) return { url: given, origin: "BENCH_PG_URL", database: (p) => freshPostgresDatabase(given, p), pids: () => [], stop: () => {} };
  const bin = postgresBin();
  if (!bin) throw new Error("the replicas scenario needs PostgreSQL: install Debian's postgresql or set BENCH_PG_URL");
  // Its own folder (the postgres user cannot enter the bench's private scratch folder).
  const dir = mkdtempSync(path.join(os.tmpdir(), "cluster-core-bench-pg-"));
  const root = os.userInfo().uid === 0;
  const asPg = (cmd: string, args: string[]) => {
    const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    if (root) execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", `cd /tmp && ${quoted}`], { stdio: "ignore" });
    else execFileSync(cmd, args, { stdio: "ignore" });
  };
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, uid);
  }
  const port = await freePort();
  asPg(path.join(bin, "initdb"), ["-D", path.join(dir, "data"), "--auth=trust", "-U", "postgres"]);
  asPg(path.join(bin, "pg_ctl"), ["-D", path.join(dir, "data"), "-l", path.join(dir, "log"), "-w", "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`, "start"]);
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  return {
    url, origin: `throw-away cluster from ${bin} (default durability: fsync and synchronous_commit on)`,
    database: (p) => freshPostgresDatabase(url, p),
    pids: () => {
      try {
        return processTree(Number(readFileSync(path.join(dir, "data", "postmaster.pid"), "utf8").split("\n", 1)[0]));
      } catch {
        return [];
      }
    },
    stop: () => {
      try { asPg(path.join(bin, "pg_ctl"), ["-D", path.join(dir, "data"), "-m", "fast", "stop"]); } catch { /* already gone */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

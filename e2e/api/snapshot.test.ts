// `npm run snapshot` against the real server: a snapshot saved while the server runs and writes, restored
// into a new SQLite data directory and into an empty PostgreSQL database (moving from SQLite to PostgreSQL),
// serves exactly the objects the first server had at the snapshot's revision; encrypted Secrets stay
// encrypted; damaged files and non-empty stores are refused without changing anything.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { kinds } from "../../lib/kinds";
import { readSnapshotFile, type SnapshotHeader, type SnapshotRecord } from "../../lib/snapshot/snapshot-file";
import { rawState, sqliteBytes } from "../../lib/snapshot/test-stores";
import { freshPostgresDatabase } from "./cluster";
import { createNamespaces, REPO_ROOT, startServer, stopAll, type Server } from "./harness";

afterAll(stopAll);

const dir = mkdtempSync(path.join(os.tmpdir(), "cc-snapshot-e2e-"));
const VALUE = `v-${randomBytes(8).toString("hex")}`;
const b64 = (s: string) => Buffer.from(s).toString("base64");

function run(args: string[], env: Record<string, string> = {}, npm = false): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const cmd = npm ? "npm" : process.execPath;
    const argv = npm ? ["run", "--silent", "snapshot", "--", ...args] : ["--import", "tsx", "lib/snapshot/cli.ts", ...args];
    const childEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? os.tmpdir(), ...env } as unknown as NodeJS.ProcessEnv;
    const p = spawn(cmd, argv, { cwd: REPO_ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    p.stdout.on("data", (c: Buffer) => (stdout += c));
    p.stderr.on("data", (c: Buffer) => (stderr += c));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A snapshot file's header and records, read (and checked) with the snapshot reader. */
async function records(file: string): Promise<{ header: SnapshotHeader & { objects: number }; records: SnapshotRecord[] }> {
  const out: SnapshotRecord[] = [];
  const header = await readSnapshotFile(file, (r) => { out.push(r); });
  return { header, records: out };
}

const sorted = (xs: SnapshotRecord[]) => [...xs].sort((x, y) => `${x.resource}/${x.namespace}/${x.name}`.localeCompare(`${y.resource}/${y.namespace}/${y.name}`));

/** Every kind's objects at revision `rv` (kube's resourceVersionMatch=Exact list), keyed by URL. */
async function stateAt(s: Server, rv: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const k of kinds) {
    const url = k.group ? `/apis/${k.group}/v1/${k.plural}` : `/api/v1/${k.plural}`;
    const res = await s.request("GET", `${url}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(200);
    expect(res.body.metadata.resourceVersion).toBe(rv);
    out[url] = res.body.items;
  }
  return out;
}

describe("npm run snapshot", { timeout: 300_000 }, () => {
  test("save from a running server, restore into SQLite and PostgreSQL, refuse damage", async () => {
    const configFile = path.join(dir, "encryption.yaml");
    writeFileSync(configFile, JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration",
      resources: [{ resources: ["secrets"], providers: [{ secretbox: { keys: [{ name: "k", secret: randomBytes(32).toString("base64") }] } }] }] }));
    const env = { ENCRYPTION_CONFIG: configFile };
    const a = await startServer({ env });
    await createNamespaces(a, "team-a");
    await a.kubectl(["create", "secret", "generic", "db", "-n", "team-a", `--from-literal=password=${VALUE}`]);
    await a.kubectl(["create", "configmap", "settings", "-n", "team-a", "--from-literal=mode=blue"]);
    await a.kubectl(["create", "service", "nodeport", "web", "-n", "team-a", "--tcp=80:8080"]); // allocation records too
    await a.kubectl(["create", "role", "reader", "-n", "team-a", "--verb=get", "--resource=pods"]);

    // Save while the server runs and keeps writing.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) await a.kubectl(["create", "configmap", `busy-${i}`, "-n", "team-a", `--from-literal=i=${i}`]);
    })();
    const file = path.join(dir, "a.snap");
    const saved = await run(["save", file], { DATA_DIR: a.dataDir }, true);
    writing = false;
    await writer;
    expect(saved.code, saved.stderr).toBe(0);
    const m = /^saved .*cluster-core\.db at revision (\d+): (\d+) objects to .*a\.snap \(sha256 [0-9a-f]{64}\)\n$/.exec(saved.stdout);
    expect(m, saved.stdout).not.toBeNull();
    const revision = m![1];
    expect(readFileSync(file, "utf8")).not.toContain(b64(VALUE)); // the Secret is in the file as stored: encrypted
    const expected = await stateAt(a, revision);
    expect(JSON.stringify(expected)).toContain(b64(VALUE));

    // Refusals change nothing: a damaged file, a truncated file, a store that is not empty (the running one).
    const target = path.join(dir, "restored");
    const damaged = path.join(dir, "damaged.snap");
    writeFileSync(damaged, readFileSync(file, "utf8").replace("blue", "bluf"));
    let r = await run(["restore", damaged, "--data-dir", target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^snapshot: .*damaged\.snap is damaged or truncated: checksum mismatch/);
    writeFileSync(damaged, readFileSync(file).subarray(0, 4000));
    r = await run(["restore", damaged, "--data-dir", target]);
    expect(r.stderr).toMatch(/^snapshot: .*damaged\.snap is damaged or truncated: the last line \(\d+\) is cut off/);
    expect(existsSync(target)).toBe(false);
    const before = await rawState(`file:${path.join(a.dataDir, "cluster-core.db")}`);
    r = await run(["restore", file], { DATA_DIR: a.dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^snapshot: the store at .*cluster-core\.db is not empty \(revision \d+, \d+ objects\): restore needs an empty store .*nothing was changed\n$/);
    expect((await rawState(`file:${path.join(a.dataDir, "cluster-core.db")}`))!.revision).toBeGreaterThanOrEqual(before!.revision);

    // Restore into a new data directory and start a server there: the same objects at the same revision.
    r = await run(["restore", file, "--data-dir", target]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(new RegExp(`^restored .*a\\.snap into .*restored/cluster-core\\.db: revision ${revision}, \\d+ objects\\n$`));
    expect(sqliteBytes(`file:${path.join(target, "cluster-core.db")}`).includes(b64(VALUE))).toBe(false);
    const b = await startServer({ env, dataDir: target });
    expect(await stateAt(b, revision)).toEqual(expected);
    expect((await b.kubectl(["get", "secret", "db", "-n", "team-a", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(VALUE));
    const next = await b.request("POST", "/api/v1/namespaces/team-a/configmaps", { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "after" } } });
    expect(next.status).toBe(201);
    expect(Number(next.body.metadata.resourceVersion)).toBeGreaterThan(Number(revision));

    // Moving from SQLite to PostgreSQL: restore into an empty database, start a server on it.
    if (process.env.SKIP_POSTGRES !== "1") {
      if (!process.env.TEST_PG_URL) throw new Error("TEST_PG_URL is not set: run under scripts/with-postgres.sh, or set SKIP_POSTGRES=1");
      const pg = await freshPostgresDatabase(process.env.TEST_PG_URL);
      r = await run(["restore", file, "--database-url", pg]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(new RegExp(`^restored .* into postgresql://.*: revision ${revision}, \\d+ objects\\n$`));
      const rows = (await rawState(pg))!;
      expect(rows.revision).toBe(Number(revision));
      expect(rows.rows.filter((x) => x.object.includes(b64(VALUE)))).toEqual([]);
      // And back: a snapshot of the PostgreSQL store holds exactly the first one's records (the Secret still
      // encrypted, every object at its revision), at the same revision. Saved before a server runs on it, so
      // nothing (the controllers' Lease, say) can have changed in between.
      const again = path.join(dir, "from-pg.snap");
      r = await run(["save", again, "--database-url", pg]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^saved postgresql://.* at revision ${revision}: \\d+ objects`));
      const [first, back] = await Promise.all([records(file), records(again)]);
      expect(first.header).toMatchObject({ revision: Number(revision), source: "sqlite" });
      expect(back.header).toMatchObject({ revision: Number(revision), source: "postgresql", objects: first.header.objects });
      expect(first.records.some((x) => x.resource === "secrets" && x.name === "db"), "the Secret is among the records").toBe(true);
      expect(sorted(back.records), "the records saved from PostgreSQL = the records saved from SQLite").toEqual(sorted(first.records));

      const c = await startServer({ env: { ...env, DATABASE_URL: pg } });
      expect(await stateAt(c, revision)).toEqual(expected);
    }
  });
});

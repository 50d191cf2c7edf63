// Snapshots on real stores: round trips between SQLite and PostgreSQL (every object, byte for byte, and the
// revision), a snapshot taken while writes go on is exactly the store at its revision, and damaged, truncated
// or misdirected restores are refused without changing anything.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EncryptionTransformer, groupsOfKinds, parseEncryptionConfiguration } from "../encryption";
import { kinds } from "../kinds";
import type { KubeObject } from "../kinds/types";
import { openStore, type ObjectKey, type Store, type ValueTransformer } from "../storage";
import { readSnapshotFile, SnapshotFileError } from "./snapshot-file";
import { restoreSnapshot, saveSnapshot, SnapshotError } from "./snapshot-store";
import { backends, freshUrl, rawState, sqliteBytes, sqliteUrl, type Backend } from "./test-stores";

const SECRET_VALUE = "s3cr3t-VALUE-for-snapshots";
const encryption = (): ValueTransformer => new EncryptionTransformer(parseEncryptionConfiguration(JSON.stringify({
  apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration",
  resources: [{ resources: ["secrets"], providers: [{ aesgcm: { keys: [{ name: "k1", secret: KEY }] } }, { identity: {} }] }],
})), groupsOfKinds(kinds));
const KEY = randomBytes(32).toString("base64");

const stores: Store[] = [];
afterEach(async () => { while (stores.length) await stores.pop()!.close(); });

async function open(url: string, transformer?: ValueTransformer): Promise<Store> {
  const store = await openStore({ databaseUrl: url, compactionWindowSeconds: 300, pollIntervalMs: 20, transformer });
  stores.push(store);
  return store;
}

async function close(store: Store): Promise<void> {
  stores.splice(stores.indexOf(store), 1);
  await store.close();
}

const tmpFile = (name = "store.snap") => path.join(mkdtempSync(path.join(tmpdir(), "cc-snap-")), name);
const obj = (kind: string, name: string, namespace: string | undefined, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: "v1", kind, metadata: { name, ...(namespace ? { namespace } : {}) }, ...extra }) as KubeObject;

async function commit(store: Store, op: Parameters<Store["writer"]["commit"]>[0]): Promise<number> {
  const r = await store.writer.commit(op);
  if (!r.ok) throw new Error(`commit ${op.type} ${op.key.name}: ${r.reason}`);
  return r.event.rev;
}

/** Several resources, updates and deletes (so revisions have gaps), a Secret, an allocation record, awkward values. */
async function populate(store: Store): Promise<void> {
  const key = (resource: string, namespace: string, name: string): ObjectKey => ({ resource, namespace, name });
  for (let i = 0; i < 30; i++) await commit(store, { type: "create", key: key("configmaps", `ns${i % 3}`, `cm-${i}`), object: obj("ConfigMap", `cm-${i}`, `ns${i % 3}`, { data: { i: String(i) } }) });
  const rev = await commit(store, { type: "create", key: key("secrets", "default", "db"), object: obj("Secret", "db", "default", { data: { password: Buffer.from(SECRET_VALUE).toString("base64") } }) });
  await commit(store, { type: "update", key: key("secrets", "default", "db"), expectRev: rev, object: obj("Secret", "db", "default", { data: { password: Buffer.from(SECRET_VALUE).toString("base64"), user: "YWRtaW4=" } }) });
  await commit(store, { type: "create", key: key("namespaces", "", "ns0"), object: obj("Namespace", "ns0", undefined) });
  await commit(store, { type: "create", key: key("serviceipallocations", "", "10.96.0.10"), object: obj("ServiceIPAllocation", "10.96.0.10", undefined, { service: { namespace: "default", name: "web" } }) });
  const gone = await commit(store, { type: "create", key: key("configmaps", "ns0", "gone"), object: obj("ConfigMap", "gone", "ns0") });
  await commit(store, { type: "delete", key: key("configmaps", "ns0", "gone"), expectRev: gone, object: obj("ConfigMap", "gone", "ns0") });
  // Newlines, quotes, unicode, a large value: the file's JSON lines must carry them exactly.
  await commit(store, { type: "create", key: key("configmaps", "ns1", "awkward"), object: obj("ConfigMap", "awkward", "ns1", {
    data: { text: "line1\nline2\r\n\"quoted\" \\ tab\t é 中文 😀 \u2028", big: "x".repeat(1_500_000) },
  }) });
}

describe.each(backends.flatMap((from) => backends.map((to) => [from, to] as [Backend, Backend])))("snapshot %s -> %s", (from, to) => {
  it("restores every object byte for byte and the revision, encrypted Secrets staying encrypted", async () => {
    const source = await freshUrl(from);
    const s = await open(source, encryption());
    await populate(s);
    await close(s); // a stopped store
    const before = (await rawState(source))!;
    const file = tmpFile();
    const saved = await saveSnapshot({ databaseUrl: source, file });
    expect(saved.revision).toBe(before.revision);
    expect(saved.objects).toBe(before.rows.length);
    expect(readFileSync(file, "utf8")).not.toContain(Buffer.from(SECRET_VALUE).toString("base64"));

    const target = await freshUrl(to);
    const restored = await restoreSnapshot({ databaseUrl: target, file });
    expect(restored).toEqual(saved);
    const after = (await rawState(target))!;
    expect(after.revision).toBe(before.revision);
    expect(after.rows).toEqual(before.rows); // every object, its revision and its stored (encrypted) value
    // The log holds each object's entry at its revision, as compaction leaves it.
    expect(after.log).toEqual(before.rows.map((r) => ({ rev: r.rev, object: r.object })).sort((x, y) => x.rev - y.rev));
    const secretRow = after.rows.find((r) => r.resource === "secrets")!;
    expect(secretRow.object.startsWith("k8s:enc:aesgcm:v1:k1:")).toBe(true);
    if (to === "sqlite") expect(sqliteBytes(target).includes(Buffer.from(SECRET_VALUE).toString("base64"))).toBe(false);

    // A server on the restored store sees the same objects at the same revision, and continues after it.
    const t = await open(target, encryption());
    expect(t.objects.rev).toBe(before.revision);
    const sourceStore = await open(source, encryption());
    for (const resource of ["configmaps", "secrets", "namespaces", "serviceipallocations"]) {
      expect(t.objects.list(resource).map((o) => o.json)).toEqual(sourceStore.objects.list(resource).map((o) => o.json));
    }
    expect(t.objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.data).toEqual({ password: Buffer.from(SECRET_VALUE).toString("base64"), user: "YWRtaW4=" });
    const next = await commit(t, { type: "create", key: { resource: "configmaps", namespace: "ns0", name: "after-restore" }, object: obj("ConfigMap", "after-restore", "ns0") });
    expect(next).toBe(before.revision + 1);
    // A server that starts after a restored object changed still serves watches from the snapshot's revision.
    const cm0 = t.objects.get({ resource: "configmaps", namespace: "ns0", name: "cm-0" })!;
    await commit(t, { type: "update", key: cm0.key, expectRev: cm0.rev, object: { ...cm0.object, data: { changed: "yes" } } });
    const late = await open(target, encryption());
    expect(late.objects.rev).toBe(before.revision + 2);
    expect(late.objects.historyStartRev).toBe(before.revision);
  });
});

describe.each(backends)("snapshot of a running store on %s", (backend) => {
  it("is the store exactly at one revision while writes go on", async () => {
    const url = await freshUrl(backend);
    const s = await open(url, encryption());
    await populate(s);
    // Several pages of objects, so the snapshot reads across many awaits while the writer commits.
    await Promise.all(Array.from({ length: 2500 }, (_, i) => commit(s, { type: "create", key: { resource: "configmaps", namespace: "bulk", name: `b-${i}` }, object: obj("ConfigMap", `b-${i}`, "bulk", { data: { i: String(i) } }) })));
    let stop = false;
    let writes = 0;
    const writer = (async () => {
      // Creates, updates and deletes, several at once (group commits), until the snapshot is done.
      const revs = new Map<string, number>();
      for (let round = 0; !stop; round++) {
        await Promise.all(Array.from({ length: 8 }, async (_, j) => {
          const name = `w-${j}-${round % 5}`;
          const key = { resource: j % 2 ? "secrets" : "configmaps", namespace: "busy", name };
          const current = revs.get(name);
          const object = obj(j % 2 ? "Secret" : "ConfigMap", name, "busy", { data: { round: Buffer.from(String(round)).toString("base64") } });
          const r = await s.writer.commit(current === undefined ? { type: "create", key, object }
            : round % 7 === 0 ? { type: "delete", key, object, expectRev: current } : { type: "update", key, object, expectRev: current });
          if (r.ok) { if (r.event.type === "DELETED") revs.delete(name); else revs.set(name, r.event.rev); writes++; }
        }));
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    const file = tmpFile();
    const writesBefore = writes;
    const saved = await saveSnapshot({ databaseUrl: url, file });
    const writesDuring = writes - writesBefore;
    await new Promise((r) => setTimeout(r, 100));
    stop = true;
    await writer;
    expect(writesDuring).toBeGreaterThan(0); // the writer committed while the snapshot was being read
    expect((await rawState(url))!.revision).toBeGreaterThan(saved.revision); // writes went on after the snapshot's revision

    // The file holds exactly the objects the store had at that revision (the watch cache's history knows them).
    await s.objects.waitFor(saved.revision);
    const records = new Map<string, string>();
    const t = encryption();
    await readSnapshotFile(file, (r) => { records.set(`${r.resource}/${r.namespace}/${r.name}`, t.fromStorage(r, r.value).json); });
    const expected = new Map<string, string>();
    for (const resource of ["configmaps", "secrets", "namespaces", "serviceipallocations"]) {
      for (const o of s.objects.list(resource, { atRev: saved.revision })) expected.set(`${resource}/${o.key.namespace}/${o.key.name}`, o.json);
    }
    expect(records.size).toBe(expected.size);
    expect(Object.fromEntries(records)).toEqual(Object.fromEntries(expected));
  });
});

describe("restore refuses", () => {
  async function snapshotFile(): Promise<string> {
    const url = sqliteUrl();
    const s = await open(url, encryption());
    await populate(s);
    await close(s);
    const file = tmpFile();
    await saveSnapshot({ databaseUrl: url, file });
    return file;
  }

  const damage: [string, (text: string) => string, RegExp][] = [
    ["a changed byte inside a value", (t) => t.replace('\\"i\\":\\"7\\"', '\\"i\\":\\"8\\"'), /is damaged or truncated: checksum mismatch/],
    ["a file cut in the middle of a line", (t) => t.slice(0, Math.floor(t.length / 2)), /is damaged or truncated: the last line \(\d+\) is cut off/],
    ["a file cut before its end record", (t) => t.slice(0, t.lastIndexOf("{\"end\":true")), /is damaged or truncated: it ends without its end record \(after \d+ objects\)/],
    ["a line removed", (t) => { const lines = t.split("\n"); lines.splice(3, 1); return lines.join("\n"); }, /checksum mismatch/],
    ["data after the end record", (t) => `${t}{"resource":"configmaps"}\n`, /data after the end record/],
    ["a record that is not JSON", (t) => t.replace("\n{\"resource\"", "\n{\"resource\"!"), /line 2 is not valid JSON/],
    ["another file", () => "hello\n", /is damaged or truncated: line 1 is not valid JSON/],
    ["a newer format", (t) => t.replace('"version":1', '"version":2'), /is a version 2 snapshot; this version reads version 1/],
    ["an empty file", () => "", /is empty/],
  ];

  it.each(damage)("%s, and creates nothing", async (_what, change, message) => {
    const file = await snapshotFile();
    const bad = tmpFile("bad.snap");
    writeFileSync(bad, change(readFileSync(file, "utf8")));
    const target = sqliteUrl();
    const error = await restoreSnapshot({ databaseUrl: target, file: bad }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(SnapshotFileError);
    expect((error as Error).message).toMatch(message);
    expect(existsSync(target.replace(/^file:/, ""))).toBe(false);
  });

  it.each(backends)("a damaged file on an existing empty %s store, which stays empty", async (backend) => {
    const file = await snapshotFile();
    const bad = tmpFile("bad.snap");
    writeFileSync(bad, readFileSync(file, "utf8").replace('\\"i\\":\\"7\\"', '\\"i\\":\\"8\\"'));
    const target = await freshUrl(backend);
    await close(await open(target)); // schema created, nothing written (no server ran)
    const before = await rawState(target);
    await expect(restoreSnapshot({ databaseUrl: target, file: bad })).rejects.toThrow(/checksum mismatch/);
    expect(await rawState(target)).toEqual(before);
    expect(before!.revision).toBe(0);
  });

  it.each(backends)("a %s store that is not empty, and changes nothing in it", async (backend) => {
    const file = await snapshotFile();
    const target = await freshUrl(backend);
    const t = await open(target);
    await commit(t, { type: "create", key: { resource: "configmaps", namespace: "x", name: "mine" }, object: obj("ConfigMap", "mine", "x") });
    await close(t);
    const before = await rawState(target);
    const error = await restoreSnapshot({ databaseUrl: target, file }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toMatch(/is not empty \(revision 1, 1 objects\): restore needs an empty store .*nothing was changed/);
    expect(await rawState(target)).toEqual(before);
  });

  it("a missing file, and saving over an existing file or from a missing store", async () => {
    await expect(restoreSnapshot({ databaseUrl: sqliteUrl(), file: "/nonexistent/x.snap" })).rejects.toThrow("/nonexistent/x.snap: no such file");
    const file = await snapshotFile();
    await expect(saveSnapshot({ databaseUrl: sqliteUrl(), file: tmpFile() })).rejects.toThrow(/no store at .*cluster-core.db: set DATA_DIR or DATABASE_URL/);
    const url = sqliteUrl();
    await close(await open(url));
    await expect(saveSnapshot({ databaseUrl: url, file })).rejects.toThrow(/exists; choose another name \(or pass --force/);
    const r = await saveSnapshot({ databaseUrl: url, file, overwrite: true });
    expect(r.objects).toBe(0);
    expect((await readSnapshotFile(file)).objects).toBe(0);
  });
});

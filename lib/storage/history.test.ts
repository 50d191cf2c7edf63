// Object history in the revision log, on SQLite and on PostgreSQL (TEST_PG_URL; see test-databases.ts):
// revisions kept past compaction up to the retention, deleted objects listed and pruned by age, who wrote what.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Compactor } from "./compaction";
import { openStoreParts } from "./open-store";
import { freshDatabaseUrl, testBackends, type Backend } from "./test-databases";
import type { KubeObject } from "../kinds/types";

type Store = Awaited<ReturnType<typeof openStoreParts>>;

const stores: Store[] = [];
afterEach(async () => { while (stores.length) await stores.pop()!.close(); });

let backend: Backend = "sqlite";

async function fresh(history = { revisions: 3, days: 7 }, url?: string): Promise<{ store: Store; url: string }> {
  const u = url ?? await freshDatabaseUrl(backend);
  const store = await openStoreParts({ databaseUrl: u, compactionWindowSeconds: 300, pollIntervalMs: 20, history });
  stores.push(store);
  return { store, url: u };
}

const cm = (name: string, v: string, namespace = "ns"): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data: { v } });
const key = (name: string, namespace = "ns", resource = "configmaps") => ({ resource, namespace, name });
const alice = { username: "alice", groups: ["dev", "system:authenticated"] };
const bob = { username: "bob", groups: ["system:authenticated"] };

async function write(store: Store, name: string, v: string, user?: typeof alice, namespace = "ns"): Promise<number> {
  const cur = store.objects.get(key(name, namespace));
  const r = await store.writer.commit(cur
    ? { type: "update", key: key(name, namespace), object: cm(name, v, namespace), expectRev: cur.rev, user }
    : { type: "create", key: key(name, namespace), object: cm(name, v, namespace), user });
  if (!r.ok) throw new Error(r.reason);
  await store.objects.waitFor(r.event.rev);
  return r.event.rev;
}

async function remove(store: Store, name: string, user?: typeof alice): Promise<number> {
  const cur = store.objects.get(key(name))!;
  const r = await store.writer.commit({ type: "delete", key: key(name), object: cur.object, expectRev: cur.rev, user });
  if (!r.ok) throw new Error(r.reason);
  await store.objects.waitFor(r.event.rev);
  return r.event.rev;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const values = (entries: { json: string }[]) => entries.map((e) => (JSON.parse(e.json) as { data: { v: string } }).data.v);

describe.each(testBackends)("object history on %s", (b) => {
  beforeAll(() => { backend = b; });

  it("keeps the last revisions of each object past compaction, newest first, with who made each", async () => {
    const { store } = await fresh({ revisions: 3, days: 7 });
    for (let i = 1; i <= 6; i++) await write(store, "a", String(i), i % 2 ? alice : bob);
    await write(store, "b", "1");
    await pause(15);
    // Everything is older than the window's end: compaction as etcd's would leave only each key's latest entry.
    await store.parts.compactor.compact(Date.now());
    const a = await store.history.history(key("a"), 100);
    expect(values(a)).toEqual(["6", "5", "4"]);
    expect(a.map((e) => e.type)).toEqual(["MODIFIED", "MODIFIED", "MODIFIED"]);
    expect(a.map((e) => e.user?.username)).toEqual(["bob", "alice", "bob"]);
    expect(a[1].user).toEqual(alice);
    expect(a[0].rev).toBeGreaterThan(a[1].rev);
    expect(a[0].createdAt).toBeGreaterThan(Date.now() - 60_000);
    // The server's own writes have no user.
    const bh = await store.history.history(key("b"), 100);
    expect(bh).toHaveLength(1);
    expect(bh[0].user).toBeUndefined();
    // Paging: older than a revision.
    expect(values(await store.history.history(key("a"), 1, a[0].rev))).toEqual(["5"]);
    // A write after compaction: the count is kept on the next round.
    await write(store, "a", "7", alice);
    await pause(15);
    await store.parts.compactor.compact(Date.now());
    expect(values(await store.history.history(key("a"), 100))).toEqual(["7", "6", "5"]);
  });

  it("never prunes what the watch window still holds", async () => {
    const { store } = await fresh({ revisions: 1, days: 0 });
    for (let i = 1; i <= 4; i++) await write(store, "a", String(i), alice);
    const cutoff = Date.now() - 60_000; // nothing is older than the window
    expect(await store.parts.compactor.compact(cutoff)).toBe(0);
    expect(values(await store.history.history(key("a"), 100))).toEqual(["4", "3", "2", "1"]);
  });

  it("keeps deleted objects, lists them with their last state, and prunes them once their deletion is older than the retention", async () => {
    const { store } = await fresh({ revisions: 5, days: 7 });
    await write(store, "gone", "1", alice);
    await write(store, "gone", "2", alice);
    await remove(store, "gone", bob);
    await write(store, "back", "1", alice);
    await remove(store, "back", alice);
    await write(store, "back", "2", alice); // created again: not deleted any more
    await write(store, "other-ns", "1", alice, "elsewhere");
    const cur = store.objects.get(key("other-ns", "elsewhere"))!;
    await store.writer.commit({ type: "delete", key: key("other-ns", "elsewhere"), object: cur.object, expectRev: cur.rev });
    await pause(15);
    await store.parts.compactor.compact(Date.now());

    const deleted = await store.history.deletedObjects("configmaps", "ns", 100);
    expect(deleted.map((e) => e.key.name)).toEqual(["gone"]);
    expect(deleted[0].type).toBe("DELETED");
    expect(values(deleted)).toEqual(["2"]);
    expect(deleted[0].user?.username).toBe("bob");
    expect((await store.history.deletedObjects("configmaps", undefined, 100)).map((e) => `${e.key.namespace}/${e.key.name}`))
      .toEqual(["elsewhere/other-ns", "ns/gone"]);
    expect(await store.history.deletedObjects("secrets", "ns", 100)).toEqual([]);
    expect(values(await store.history.history(key("gone"), 100))).toEqual(["2", "2", "1"]);

    // Past HISTORY_DAYS (0 here: the deletion is older than that), every entry of a deleted object goes;
    // the re-created object keeps its history.
    const longer = new Compactor(store.parts.dialect, { revisions: 5, days: 0 });
    await write(store, "tick", "1");
    await pause(15);
    await longer.compact(Date.now());
    expect(await store.history.history(key("gone"), 100)).toEqual([]);
    expect(await store.history.deletedObjects("configmaps", undefined, 100)).toEqual([]);
    expect(values(await store.history.history(key("back"), 100))).toEqual(["2", "1", "1"]);
  });

  it("lists a namespace's recent changes across kinds, newest first", async () => {
    const { store } = await fresh();
    await write(store, "a", "1", alice);
    // Strictly after that write's time (the same millisecond would count it as a change since).
    await pause(10);
    const since = Date.now();
    await pause(10);
    await write(store, "a", "2", bob);
    await write(store, "b", "1", alice);
    await write(store, "c", "1", alice, "elsewhere");
    const r = await store.writer.commit({ type: "create", key: key("s", "ns", "secrets"), object: { apiVersion: "v1", kind: "Secret", metadata: { name: "s", namespace: "ns" } }, user: alice });
    expect(r.ok).toBe(true);
    const changes = await store.history.changes("ns", ["configmaps", "secrets"], since, 100);
    expect(changes.map((e) => `${e.type} ${e.key.resource}/${e.key.name} ${e.user?.username}`))
      .toEqual(["ADDED secrets/s alice", "ADDED configmaps/b alice", "MODIFIED configmaps/a bob"]);
    // Only the kinds asked for (the caller may list).
    expect((await store.history.changes("ns", ["configmaps"], since, 100)).map((e) => e.key.name)).toEqual(["b", "a"]);
    expect(await store.history.changes("ns", [], since, 100)).toEqual([]);
    expect((await store.history.changes("ns", ["configmaps"], since, 1)).map((e) => e.key.name)).toEqual(["b"]);
  });

  it("a process that opens after pruning rebuilds the same watch history and current state", async () => {
    const { store: one, url } = await fresh({ revisions: 2, days: 7 });
    for (let i = 1; i <= 5; i++) await write(one, "a", String(i), alice);
    await write(one, "b", "1");
    await remove(one, "b");
    await pause(15);
    await one.parts.compactor.compact(Date.now());
    await write(one, "a", "6", alice);
    const { store: late } = await fresh({ revisions: 2, days: 7 }, url);
    expect(late.objects.rev).toBe(one.objects.rev);
    expect(late.objects.list("configmaps", {}).map((o) => `${o.key.name}@${o.rev}`)).toEqual(one.objects.list("configmaps", {}).map((o) => `${o.key.name}@${o.rev}`));
    expect(late.objects.get(key("a"))!.object.data).toEqual({ v: "6" });
    expect(values(await late.history.history(key("a"), 100))).toEqual(["6", "5", "4"]);
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store, type WatchSink } from "./index";
import type { KubeObject } from "../kinds/types";

const stores: Store[] = [];
afterEach(async () => { while (stores.length) await stores.pop()!.close(); });

async function fresh(file?: string, windowSeconds = 300): Promise<{ store: Store; file: string }> {
  const f = file ?? path.join(mkdtempSync(path.join(tmpdir(), "cc-store-")), "test.db");
  const store = await openStore({ databaseUrl: `file:${f}`, compactionWindowSeconds: windowSeconds, pollIntervalMs: 20 });
  stores.push(store);
  return { store, file: f };
}

const cm = (name: string, data: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "ns" }, data });
const key = (name: string) => ({ resource: "configmaps", namespace: "ns", name });

function collect(): { sink: WatchSink; lines: () => { type: string; object: KubeObject }[]; closed: () => boolean } {
  const chunks: string[] = [];
  let closed = false;
  return {
    sink: { send: (c) => { chunks.push(c.toString()); return true; }, close: () => { closed = true; } },
    lines: () => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l)),
    closed: () => closed,
  };
}

const always = { matches: () => true, initialState: false, initialEventsEnd: false, bookmarks: false, bookmark: () => "{}", expired: () => `{"code":410}` };

describe("revision log and watch cache", () => {
  it("assigns strictly increasing revisions and enforces preconditions", async () => {
    const { store } = await fresh();
    const a = await store.log.commit({ type: "create", key: key("a"), object: cm("a") });
    const b = await store.log.commit({ type: "create", key: key("b"), object: cm("b") });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.event.rev).toBe(a.event.rev + 1);
    expect(b.event.object.metadata.resourceVersion).toBe(String(b.event.rev));
    expect(await store.log.commit({ type: "create", key: key("a"), object: cm("a") })).toEqual({ ok: false, reason: "exists" });
    expect(await store.log.commit({ type: "update", key: key("a"), object: cm("a"), expectRev: 999 })).toEqual({ ok: false, reason: "conflict" });
    expect(await store.log.commit({ type: "update", key: key("zz"), object: cm("zz"), expectRev: 1 })).toEqual({ ok: false, reason: "missing" });
    await store.cache.waitFor(b.event.rev);
    expect(store.cache.get(key("a"))?.object.metadata.resourceVersion).toBe(String(a.event.rev));
  });

  it("commits concurrent writes as one batch without losing any", async () => {
    const { store } = await fresh();
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      store.log.commit({ type: "create", key: key(`o${i}`), object: cm(`o${i}`) })));
    const revs = results.map((r) => (r.ok ? r.event.rev : -1)).sort((x, y) => x - y);
    expect(new Set(revs).size).toBe(200);
    expect(revs[199] - revs[0]).toBe(199);
    await store.cache.waitFor(revs[199]);
    expect(store.cache.list("configmaps").length).toBe(200);
  });

  it("lists a consistent snapshot at an older revision", async () => {
    const { store } = await fresh();
    const a = await store.log.commit({ type: "create", key: key("a"), object: cm("a", { v: "1" }) });
    await store.log.commit({ type: "create", key: key("b"), object: cm("b") });
    if (!a.ok) throw new Error("create failed");
    const snapshot = store.cache.rev;
    const cur = store.cache.get(key("a"))!;
    await store.log.commit({ type: "update", key: key("a"), object: cm("a", { v: "2" }), expectRev: cur.rev });
    await store.log.commit({ type: "delete", key: key("b"), object: cm("b"), expectRev: store.cache.get(key("b"))!.rev });
    await store.log.commit({ type: "create", key: key("c"), object: cm("c") });
    await store.cache.waitFor(snapshot + 3);
    const then = store.cache.list("configmaps", { atRev: snapshot });
    expect(then.map((o) => o.key.name)).toEqual(["a", "b"]);
    expect((then[0].object.data as Record<string, string>).v).toBe("1");
    expect(store.cache.list("configmaps").map((o) => o.key.name)).toEqual(["a", "c"]);
    expect(store.cache.list("configmaps", { atRev: snapshot, startAfter: "ns/a" }).map((o) => o.key.name)).toEqual(["b"]);
  });

  it("streams every change after a revision, and 410 for one older than the history", async () => {
    const { store } = await fresh();
    const start = store.cache.rev;
    await store.log.commit({ type: "create", key: key("a"), object: cm("a") });
    const w = collect();
    store.cache.watch({ ...always, resource: "configmaps", sinceRev: start }, w.sink);
    await store.log.commit({ type: "update", key: key("a"), object: cm("a", { x: "y" }), expectRev: start + 1 });
    await store.cache.waitFor(start + 2);
    expect(w.lines().map((l) => l.type)).toEqual(["ADDED", "MODIFIED"]);
    const old = collect();
    store.cache.watch({ ...always, resource: "configmaps", sinceRev: start - 1 }, old.sink);
    expect(old.lines()[0].type).toBe("ERROR");
    expect(old.closed()).toBe(true);
  });

  it("a second process on the same file sees every write in order", async () => {
    const { store: one, file } = await fresh();
    const { store: two } = await fresh(file);
    const w = collect();
    two.cache.watch({ ...always, resource: "configmaps", sinceRev: two.cache.rev }, w.sink);
    for (let i = 0; i < 20; i++) await one.log.commit({ type: "create", key: key(`p${i}`), object: cm(`p${i}`) });
    expect(await two.cache.waitFor(one.cache.rev, 5000)).toBe(true);
    const revs = w.lines().map((l) => Number(l.object.metadata.resourceVersion));
    expect(revs.length).toBe(20);
    expect(revs).toEqual([...revs].sort((x, y) => x - y));
    // A consistent read on the second process sees a write acknowledged by the first at once.
    const r = await one.log.commit({ type: "create", key: key("fresh"), object: cm("fresh") });
    expect(r.ok).toBe(true);
    await two.cache.catchUp();
    expect(two.cache.get(key("fresh"))).toBeDefined();
  });

  it("keeps acknowledged writes across a reopen", async () => {
    const { store, file } = await fresh();
    const r = await store.log.commit({ type: "create", key: key("kept"), object: cm("kept", { a: "b" }) });
    await store.close();
    stores.pop();
    const { store: again } = await fresh(file);
    expect(again.cache.get(key("kept"))?.object.data).toEqual({ a: "b" });
    expect(r.ok && again.cache.rev).toBe(r.ok ? r.event.rev : false);
  });
});

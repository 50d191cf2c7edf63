// The revision log and watch cache on SQLite and on PostgreSQL (TEST_PG_URL; see test-databases.ts), with
// several stores on one database standing in for several server processes (replicas). PostgreSQL's own ways
// (write function, batches planned here, turn-taking, notifications): postgres/replicas.test.ts.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WatchFraming } from "./index";
import { testBackends, type Backend } from "./test-databases";
import { always, closeStores, cm, collect, forget, fresh as freshOn, key, latestRev, type TestStore as Store, RESOURCE } from "./test-stores";
import type { KubeObject } from "../kinds/types";

afterEach(closeStores);

let backend: Backend = "sqlite";
const fresh = (url?: string) => freshOn(backend, url);

describe.each(testBackends)("revision log and watch cache on %s", (b) => {
  beforeAll(() => { backend = b; });

  it("assigns strictly increasing revisions and enforces preconditions", async () => {
    const { store } = await fresh();
    const a = await store.writer.commit({ type: "create", key: key("a"), object: cm("a") });
    const b = await store.writer.commit({ type: "create", key: key("b"), object: cm("b") });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.event.rev).toBe(a.event.rev + 1);
    expect(b.event.object.metadata.resourceVersion).toBe(String(b.event.rev));
    expect(await store.writer.commit({ type: "create", key: key("a"), object: cm("a") })).toEqual({ ok: false, reason: "exists" });
    expect(await store.writer.commit({ type: "update", key: key("a"), object: cm("a"), expectRev: 999 })).toEqual({ ok: false, reason: "conflict" });
    expect(await store.writer.commit({ type: "update", key: key("zz"), object: cm("zz"), expectRev: 1 })).toEqual({ ok: false, reason: "missing" });
    await store.objects.waitFor(b.event.rev);
    expect(store.objects.get(key("a"))?.object.metadata.resourceVersion).toBe(String(a.event.rev));
  });

  it("commits concurrent writes as one batch without losing any", async () => {
    const { store } = await fresh();
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      store.writer.commit({ type: "create", key: key(`o${i}`), object: cm(`o${i}`) })));
    const revs = results.map((r) => (r.ok ? r.event.rev : -1)).sort((x, y) => x - y);
    expect(new Set(revs).size).toBe(200);
    expect(revs[199] - revs[0]).toBe(199);
    await store.objects.waitFor(revs[199]);
    expect(store.objects.list(RESOURCE).length).toBe(200);
  });

  it("lists a consistent snapshot at an older revision", async () => {
    const { store } = await fresh();
    const a = await store.writer.commit({ type: "create", key: key("a"), object: cm("a", { v: "1" }) });
    await store.writer.commit({ type: "create", key: key("b"), object: cm("b") });
    if (!a.ok) throw new Error("create failed");
    const snapshot = store.objects.rev;
    const cur = store.objects.get(key("a"))!;
    await store.writer.commit({ type: "update", key: key("a"), object: cm("a", { v: "2" }), expectRev: cur.rev });
    await store.writer.commit({ type: "delete", key: key("b"), object: cm("b"), expectRev: store.objects.get(key("b"))!.rev });
    await store.writer.commit({ type: "create", key: key("c"), object: cm("c") });
    await store.objects.waitFor(snapshot + 3);
    const then = store.objects.list(RESOURCE, { atRev: snapshot });
    expect(then.map((o) => o.key.name)).toEqual(["a", "b"]);
    expect((then[0].object.data as Record<string, string>).v).toBe("1");
    expect(store.objects.list(RESOURCE).map((o) => o.key.name)).toEqual(["a", "c"]);
    expect(store.objects.list(RESOURCE, { atRev: snapshot, startAfter: "ns/a" }).map((o) => o.key.name)).toEqual(["b"]);
  });

  it("streams every change after a revision, and 410 for one older than the history", async () => {
    const { store } = await fresh();
    const start = store.objects.rev;
    await store.writer.commit({ type: "create", key: key("a"), object: cm("a") });
    const w = collect();
    store.objects.watch({ ...always, resource: RESOURCE, sinceRev: start }, w.sink);
    await store.writer.commit({ type: "update", key: key("a"), object: cm("a", { x: "y" }), expectRev: start + 1 });
    await store.objects.waitFor(start + 2);
    expect(w.lines().map((l) => l.type)).toEqual(["ADDED", "MODIFIED"]);
    const old = collect();
    store.objects.watch({ ...always, resource: RESOURCE, sinceRev: start - 1 }, old.sink);
    expect(old.lines()[0].type).toBe("ERROR");
    expect(old.closed()).toBe(true);
  });

  it("a second process on the same file sees every write in order", async () => {
    const { store: one, file } = await fresh();
    const { store: two } = await fresh(file);
    const w = collect();
    two.objects.watch({ ...always, resource: RESOURCE, sinceRev: two.objects.rev }, w.sink);
    for (let i = 0; i < 20; i++) await one.writer.commit({ type: "create", key: key(`p${i}`), object: cm(`p${i}`) });
    expect(await two.objects.waitFor(one.objects.rev, 5000)).toBe(true);
    const revs = w.lines().map((l) => Number(l.object.metadata.resourceVersion));
    expect(revs.length).toBe(20);
    expect(revs).toEqual([...revs].sort((x, y) => x - y));
    // A consistent read on the second process sees a write acknowledged by the first at once.
    const r = await one.writer.commit({ type: "create", key: key("fresh"), object: cm("fresh") });
    expect(r.ok).toBe(true);
    await two.objects.catchUp();
    expect(two.objects.get(key("fresh"))).toBeDefined();
  });

  it("a consistent read asks the database only when another process committed since (SQLite's data_version)", async () => {
    const { store: one, file } = await fresh();
    const { store: two } = await fresh(file);
    let asked = 0;
    const dialect = two.parts.dialect;
    const latest = dialect.latestRevision.bind(dialect);
    dialect.latestRevision = () => { asked++; return latest() as never; };
    await two.objects.catchUp();
    asked = 0;
    // Nobody wrote, then only this process wrote: its own commits are in its cache before they are answered.
    for (let i = 0; i < 5; i++) await two.objects.catchUp();
    expect((await two.writer.commit({ type: "create", key: key("own"), object: cm("own") })).ok).toBe(true);
    await two.objects.catchUp();
    expect(two.objects.get(key("own"))).toBeDefined();
    expect(asked).toBe(dialect.name === "sqlite" ? 0 : 6);
    // Another process's acknowledged write is read at once (the counter is asked, then the log).
    asked = 0;
    expect((await one.writer.commit({ type: "create", key: key("other"), object: cm("other") })).ok).toBe(true);
    await two.objects.catchUp();
    expect(two.objects.get(key("other"))).toBeDefined();
    expect(asked).toBe(1);
    await two.objects.catchUp();
    expect(asked).toBe(dialect.name === "sqlite" ? 1 : 2);
    // current(): a read may skip catchUp only while nobody else committed (never on PostgreSQL).
    expect(two.objects.current()).toBe(dialect.name === "sqlite");
    expect((await one.writer.commit({ type: "create", key: key("another"), object: cm("another") })).ok).toBe(true);
    expect(two.objects.current()).toBe(false);
    await two.objects.catchUp();
    expect(two.objects.get(key("another"))).toBeDefined();
    expect(two.objects.current()).toBe(dialect.name === "sqlite");
  });

  it("keeps acknowledged writes across a reopen", async () => {
    const { store, file } = await fresh();
    const r = await store.writer.commit({ type: "create", key: key("kept"), object: cm("kept", { a: "b" }) });
    await store.close();
    forget(store);
    const { store: again } = await fresh(file);
    expect(again.objects.get(key("kept"))?.object.data).toEqual({ a: "b" });
    expect(r.ok && again.objects.rev).toBe(r.ok ? r.event.rev : false);
  });

  it("keys are data, whatever they hold (quotes, backslashes, dollars, unicode)", async () => {
    const { store, file } = await fresh();
    const odd = ["it's", "back\\slash", "dollar$1", "naïve-ü", "'; DROP TABLE \"LogEntry\"; --"];
    const data = (name: string) => ({ v: `${name} "quoted" \\ back\nline\ttab {} [1,2] $1 \u0001 ü 🙂`, [`k-${name}`]: "x" });
    for (const name of odd) expect((await store.writer.commit({ type: "create", key: key(name), object: cm(name, data(name)) })).ok).toBe(true);
    for (const name of odd) expect(await store.writer.commit({ type: "create", key: key(name), object: cm(name) })).toEqual({ ok: false, reason: "exists" });
    const again = await store.writer.commit({ type: "update", key: key("it's"), object: cm("it's", { v: "2" }), expectRev: (await latestRev(store, "it's"))! });
    expect(again.ok).toBe(true);
    const { store: other } = await fresh(file);
    expect(other.objects.list(RESOURCE).map((o) => o.key.name).sort()).toEqual([...odd].sort());
    for (const name of odd.slice(1)) expect(other.objects.get(key(name))?.object.data).toEqual(data(name));
  });

  it("writes from two processes never share a revision, and a precondition holds across them", async () => {
    const { store: one, file } = await fresh();
    const { store: two } = await fresh(file);
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) =>
      (i % 2 ? one : two).writer.commit({ type: "create", key: key(`c${i}`), object: cm(`c${i}`) })));
    const revs = results.map((r) => (r.ok ? r.event.rev : -1)).sort((x, y) => x - y);
    expect(new Set(revs).size).toBe(120);
    expect(revs[119] - revs[0]).toBe(119);
    for (let round = 0; round < 5; round++) {
      const cur = await one.writer.commit({ type: "update", key: key("c0"), object: cm("c0", { round: String(round) }), expectRev: (await latestRev(one, "c0"))! });
      expect(cur.ok).toBe(true);
      const expectRev = cur.ok ? cur.event.rev : 0;
      const both = await Promise.all([one, two].map((s, i) =>
        s.writer.commit({ type: "update", key: key("c0"), object: cm("c0", { by: String(i) }), expectRev })));
      expect(both.map((x) => (x.ok ? "ok" : x.reason)).sort()).toEqual(["conflict", "ok"]);
    }
  });

  it("a process that opens later replays the shared log's history: watches and lists from an older revision", async () => {
    const { store: one, file } = await fresh();
    const start = one.objects.rev;
    const labelled = (name: string, x: string, v: string): KubeObject => ({ ...cm(name, { v }), metadata: { name, namespace: "ns", labels: { x } } });
    const a = await one.writer.commit({ type: "create", key: key("a"), object: labelled("a", "1", "1") });
    await one.writer.commit({ type: "create", key: key("b"), object: labelled("b", "1", "1") });
    const mid = one.objects.rev;
    await one.writer.commit({ type: "update", key: key("a"), object: labelled("a", "2", "2"), expectRev: a.ok ? a.event.rev : 0 });
    await one.writer.commit({ type: "delete", key: key("b"), object: labelled("b", "1", "1"), expectRev: (await latestRev(one, "b"))! });
    await one.writer.commit({ type: "create", key: key("c"), object: labelled("c", "2", "1") });
    await one.writer.commit({ type: "update", key: key("c"), object: labelled("c", "1", "2"), expectRev: (await latestRev(one, "c"))! });
    const end = one.objects.rev;

    const { store: late } = await fresh(file);
    expect(late.objects.rev).toBe(end);
    expect(late.objects.historyStartRev).toBeLessThanOrEqual(start);
    const x1 = { ...always, matches: (o: KubeObject) => o.metadata.labels?.x === "1" };
    for (const [since, spec] of [[start, always], [mid, always], [mid, x1]] as const) {
      const want = collect(), got = collect();
      one.objects.watch({ ...spec, resource: RESOURCE, sinceRev: since }, want.sink);
      late.objects.watch({ ...spec, resource: RESOURCE, sinceRev: since }, got.sink);
      const seq = (c: ReturnType<typeof collect>) => c.lines().map((l) => `${l.type} ${l.object.metadata.name}@${l.object.metadata.resourceVersion}`);
      expect(seq(got)).toEqual(seq(want));
      expect(seq(got).length).toBeGreaterThan(0);
    }
    const names = (s: Store, atRev: number) => s.objects.list(RESOURCE, { atRev }).map((o) => `${o.key.name}@${o.rev}`);
    expect(names(late, mid)).toEqual(names(one, mid));
    expect(names(late, mid)).toHaveLength(2);
  });

  it("compaction keeps each key's latest entry: a process that opens after it still knows what every later change replaced", async () => {
    const { store: one, file } = await fresh();
    const labelled = (name: string, x: string): KubeObject => ({ ...cm(name), metadata: { name, namespace: "ns", labels: { x } } });
    await one.writer.commit({ type: "create", key: key("a"), object: labelled("a", "0") });
    await one.writer.commit({ type: "create", key: key("b"), object: labelled("b", "1") });
    await one.writer.commit({ type: "update", key: key("a"), object: labelled("a", "1"), expectRev: (await latestRev(one, "a"))! });
    await one.writer.commit({ type: "delete", key: key("b"), object: labelled("b", "1"), expectRev: (await latestRev(one, "b"))! });
    await one.writer.commit({ type: "create", key: key("c"), object: labelled("c", "2") });
    const compactedAt = one.objects.rev;
    await new Promise((r) => setTimeout(r, 20));
    const cutoff = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await one.writer.commit({ type: "update", key: key("a"), object: labelled("a", "2"), expectRev: (await latestRev(one, "a"))! });
    await one.writer.commit({ type: "update", key: key("c"), object: labelled("c", "1"), expectRev: (await latestRev(one, "c"))! });
    // a's create, b's create and delete go; a's update (replaced later) and c's create (its latest) stay.
    expect(await one.parts.compactor.compact(cutoff)).toBe(3);
    expect(await one.parts.compactor.compactedRevision()).toBe(compactedAt);

    const { store: late } = await fresh(file);
    expect(late.objects.historyStartRev).toBe(compactedAt);
    const x1 = { ...always, matches: (o: KubeObject) => o.metadata.labels?.x === "1" };
    const got = collect(), want = collect();
    late.objects.watch({ ...x1, resource: RESOURCE, sinceRev: compactedAt }, got.sink);
    one.objects.watch({ ...x1, resource: RESOURCE, sinceRev: compactedAt }, want.sink);
    expect(got.lines().map((l) => `${l.type} ${l.object.metadata.name}`)).toEqual(["DELETED a", "ADDED c"]);
    expect(got.lines()).toEqual(want.lines());
    expect(late.objects.list(RESOURCE, { atRev: compactedAt }).map((o) => `${o.key.name}=${o.object.metadata.labels?.x}`)).toEqual(["a=1", "c=2"]);
    const old = collect();
    late.objects.watch({ ...always, resource: RESOURCE, sinceRev: compactedAt - 1 }, old.sink);
    expect(old.lines()[0].type).toBe("ERROR");
  });

  it("watchers sharing a framing get one encoding per event: the same bytes, whatever their number", async () => {
    const { store } = await fresh();
    const calls: string[] = [];
    const framing = (id: string): WatchFraming => ({
      id,
      event: (type, object) => { calls.push(`${id} ${type} ${object.metadata.name}@${object.metadata.resourceVersion}`); return Buffer.from(`${id}:${type}:${object.metadata.name};`); },
      frame: (type, json) => Buffer.from(`${id}:${type}:${json};`),
    });
    const labelled = (name: string, x: string): KubeObject => ({ ...cm(name), metadata: { name, namespace: "ns", labels: { x } } });
    const x1 = { ...always, matches: (o: KubeObject) => o.metadata.labels?.x === "1" };
    const sinks = [0, 1, 2, 3, 4].map(() => ({ chunks: [] as Buffer[] }));
    const specs = [framing("pb"), framing("pb"), framing("pb"), framing("other"), undefined];
    specs.forEach((f, i) => store.objects.watch({ ...x1, resource: RESOURCE, framing: f }, { send: (c) => { sinks[i].chunks.push(c); return true; }, close: () => {} }));
    const a = await store.writer.commit({ type: "create", key: key("a"), object: labelled("a", "1") });
    const b = await store.writer.commit({ type: "update", key: key("a"), object: labelled("a", "2"), expectRev: a.ok ? a.event.rev : 0 });
    await store.objects.waitFor(b.ok ? b.event.rev : 0);
    const rv = (r: typeof a) => (r.ok ? r.event.rev : 0);
    // One call per event and framing id; a selector transition (DELETED with the last matching state) too.
    expect(calls).toEqual([`pb ADDED a@${rv(a)}`, `other ADDED a@${rv(a)}`, `pb DELETED a@${rv(b)}`, `other DELETED a@${rv(b)}`]);
    for (const i of [1, 2]) sinks[i].chunks.forEach((c, j) => expect(c).toBe(sinks[0].chunks[j]));
    expect(Buffer.concat(sinks[0].chunks).toString()).toBe("pb:ADDED:a;pb:DELETED:a;");
    expect(Buffer.concat(sinks[3].chunks).toString()).toBe("other:ADDED:a;other:DELETED:a;");
    expect(Buffer.concat(sinks[4].chunks).toString().split("\n").filter(Boolean).map((l) => JSON.parse(l).type)).toEqual(["ADDED", "DELETED"]);
    // Bookmarks, initial state and the in-stream error go through the framing too.
    const initial: Buffer[] = [];
    store.objects.watch({ ...always, resource: RESOURCE, initialState: true, initialEventsEnd: true, bookmark: (r) => `{"rv":"${r}"}`, framing: framing("pb") },
      { send: (c) => { initial.push(c); return true; }, close: () => {} });
    expect(Buffer.concat(initial).toString()).toBe(`pb:ADDED:a;pb:BOOKMARK:{"rv":"${store.objects.rev}"};`);
    const expired: Buffer[] = [];
    store.objects.watch({ ...always, resource: RESOURCE, sinceRev: store.objects.historyStartRev - 1, framing: framing("pb") },
      { send: (c) => { expired.push(c); return true; }, close: () => {} });
    expect(Buffer.concat(expired).toString()).toBe(`pb:ERROR:{"code":410};`);
  });
});

// Watch consistency under concurrency (issue 3): concurrent writers (create, PUT with and without
// resourceVersion, merge and JSON patches, deletes with and without preconditions) over a small pool of names,
// and watchers started at random revisions, at "0", unset, and as watch-lists. At the end every watcher's
// sequence of (type, name, resourceVersion) must be exactly what the log implies after its start: no gap, no
// duplicate, no reordering. The reference is a watcher started before the first write, itself checked
// against the writers' acknowledged responses and against revision contiguity (nothing else writes to these
// servers). Then the same with two server processes on one SQLite file, writers and watchers on both (and on
// one PostgreSQL database, TEST_PG_URL's; see lib/storage/test-databases.ts).
//
// The run is seeded: E2E_SEED=<n> replays one (the seed is in every failure message).
import { afterAll, describe, expect, test } from "vitest";
import { freshPostgresDatabase, openWatch, sleep, startSharedServers, type WatchEvent, type WatchStream } from "./cluster";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";
import { skipPostgres, testBackends } from "../../lib/storage/test-databases";
import { prng } from "./seeded-random";

afterAll(async () => {
  await stopAll();
}, 60_000);

const SEED = Number(process.env.E2E_SEED ?? Math.floor(Math.random() * 2 ** 31));


interface Ack {
  op: string;
  type: "ADDED" | "MODIFIED" | "DELETED";
  name: string;
  /** Unknown for deletes of ConfigMaps (they answer a Status). */
  rv?: number;
  via: number;
}

interface Observed {
  type: string;
  name: string;
  rv: number;
}

interface WatcherCase {
  label: string;
  via: number;
  /** Numeric start revision, or a mode for the "current state first" forms. */
  start: number | "0" | "unset" | "watchlist" | "watchlist-at" | "0-bookmarks";
  startAt?: number;
  stream: WatchStream;
}

const cmPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;
const fmt = (o: Observed) => `${o.type} ${o.name}@${o.rv}`;

function observed(e: WatchEvent): Observed {
  return { type: e.type, name: e.object?.metadata?.name ?? "", rv: Number(e.object?.metadata?.resourceVersion) };
}

/** State (name -> rv) after applying `events` (from an empty namespace). */
function stateOf(events: Observed[]): Map<string, number> {
  const s = new Map<string, number>();
  for (const e of events) {
    if (e.type === "DELETED") s.delete(e.name);
    else s.set(e.name, e.rv);
  }
  return s;
}

function firstDifference(got: string[], want: string[]): string {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (got[i] !== want[i]) {
      return `first difference at #${i}: got ${got[i] ?? "<nothing>"}, want ${want[i] ?? "<nothing>"} ` +
        `(got ${got.length} events, want ${want.length}; context got: ${got.slice(Math.max(0, i - 3), i + 3).join(", ")} | want: ${want.slice(Math.max(0, i - 3), i + 3).join(", ")})`;
    }
  }
  return "equal";
}

/**
 * One randomized run: `writers` concurrent loops of `opsPerWriter` writes spread over `servers`, watchers
 * opened along the way, a sentinel write at the end, then the checks.
 */
async function randomizedRun(servers: Server[], ns: string, opts: { writers: number; opsPerWriter: number; watchers: number; seed: number }) {
  const rand = prng(opts.seed);
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const ctx = `seed ${opts.seed}, ${servers.length} process(es)`;
  const names = Array.from({ length: 10 }, (_, i) => `n${i}`);
  let counter = 0;
  const acks: Ack[] = [];
  const unexpected: string[] = [];

  // Before the start revision: the service-account controller's writes for new namespaces would otherwise
  // fall between this namespace's revisions.
  await createNamespaces(servers[0], ns, `${ns}-warmup`);
  // A new namespace also gets, from controllers, the `kube-root-ca.crt` ConfigMap and the SCC range
  // annotations, as on a real cluster: wait for both, so that they too come before the start revision.
  for (let i = 0; ; i++) {
    const [cms, nsObj] = await Promise.all([servers[0].request("GET", cmPath(ns)), servers[0].request("GET", `/api/v1/namespaces/${ns}`)]);
    if (cms.body.items?.length && nsObj.body.metadata?.annotations?.["openshift.io/sa.scc.uid-range"]) break;
    if (i > 200) throw new Error(`${ns}: controllers never finished with the new namespace`);
    await sleep(50);
  }
  // One write elsewhere first, so that the start revision is not "0" (which means "any", not "after 0").
  const warmup = await servers[0].request("POST", cmPath(`${ns}-warmup`), { body: { metadata: { name: "warmup" } } });
  expect(warmup.status, warmup.text).toBe(201);
  const startList = await servers[0].request("GET", cmPath(ns));
  expect(startList.status).toBe(200);
  expect(startList.body.items.map((o: any) => o.metadata.name), "the namespace starts with only the root CA").toEqual(["kube-root-ca.crt"]);
  // The state before the start revision, as the events that made it.
  const base: Observed[] = startList.body.items.map((o: any) => ({ type: "ADDED", name: o.metadata.name, rv: Number(o.metadata.resourceVersion) }));
  const stateFrom = (events: Observed[]) => stateOf([...base, ...events]);
  const startRev = Number(startList.body.metadata.resourceVersion);
  expect(startRev).toBeGreaterThan(0);

  // Reference watchers: one per process, before the first write.
  const watchers: WatcherCase[] = [];
  for (let i = 0; i < servers.length; i++) {
    watchers.push({ label: `reference@${i}`, via: i, start: startRev, stream: await openWatch(servers[i], `${cmPath(ns)}?watch=true&resourceVersion=${startRev}`) });
  }
  let maxAcked = startRev;
  // The controllers' Lease is renewed every 2 s meanwhile: those are writes and take revisions, as in kube.
  const leaseWatch = await openWatch(servers[0], `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?watch=true&resourceVersion=${startRev}`);

  async function writeOnce(w: number): Promise<void> {
    const via = Math.floor(rand() * servers.length);
    const s = servers[via];
    const name = pick(names);
    const v = String(++counter);
    const r = rand();
    let op: string;
    let res;
    if (r < 0.3) {
      op = "create";
      res = await s.request("POST", cmPath(ns), { body: { metadata: { name, labels: { writer: String(w) } }, data: { v } } });
    } else if (r < 0.45) {
      op = "put-rv";
      const cur = await s.request("GET", cmPath(ns, name));
      if (cur.status !== 200) return;
      res = await s.request("PUT", cmPath(ns, name), { body: { ...cur.body, data: { v } } });
    } else if (r < 0.55) {
      op = "put-unconditional";
      res = await s.request("PUT", cmPath(ns, name), { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } } });
    } else if (r < 0.67) {
      op = "merge-patch";
      res = await s.request("PATCH", cmPath(ns, name), { body: { data: { v } }, contentType: "application/merge-patch+json" });
    } else if (r < 0.77) {
      op = "json-patch";
      res = await s.request("PATCH", cmPath(ns, name), { body: [{ op: "add", path: "/data/v", value: v }], contentType: "application/json-patch+json" });
    } else if (r < 0.92) {
      op = "delete";
      res = await s.request("DELETE", cmPath(ns, name));
    } else {
      op = "delete-precondition";
      const cur = await s.request("GET", cmPath(ns, name));
      if (cur.status !== 200) return;
      res = await s.request("DELETE", cmPath(ns, name), { body: { kind: "DeleteOptions", apiVersion: "v1", preconditions: { resourceVersion: cur.body.metadata.resourceVersion } } });
    }
    if (res.status === 200 || res.status === 201) {
      if (op.startsWith("delete")) {
        acks.push({ op, type: "DELETED", name, via });
      } else {
        const rvNum = Number(res.body.metadata.resourceVersion);
        acks.push({ op, type: op === "create" ? "ADDED" : "MODIFIED", name, rv: rvNum, via });
        if (res.body.data?.v !== v) unexpected.push(`${op} ${name} answered data ${JSON.stringify(res.body.data)}, wrote v=${v}`);
        maxAcked = Math.max(maxAcked, rvNum);
      }
    } else if (![404, 409].includes(res.status)) {
      unexpected.push(`${op} ${name} via ${via}: ${res.status} ${res.text.slice(0, 300)}`);
    }
  }

  async function writer(w: number): Promise<void> {
    for (let i = 0; i < opts.opsPerWriter; i++) {
      await writeOnce(w);
      if (rand() < 0.1) await sleep(Math.floor(rand() * 20));
    }
  }

  const modes: WatcherCase["start"][] = ["0", "unset", "watchlist", "watchlist-at", "0-bookmarks"];
  async function watcherStarter(): Promise<void> {
    for (let i = 0; i < opts.watchers; i++) {
      await sleep(20 + Math.floor(rand() * 150));
      const via = Math.floor(rand() * servers.length);
      const m = i < modes.length ? modes[i] : rand() < 0.7 ? "numeric" : pick(modes);
      let q: string;
      let start: WatcherCase["start"];
      let startAt: number | undefined;
      if (m === "numeric") {
        start = startRev + Math.floor(rand() * (maxAcked - startRev + 1));
        q = `resourceVersion=${start}`;
      } else {
        start = m;
        if (m === "0") q = "resourceVersion=0";
        else if (m === "unset") q = "";
        else if (m === "0-bookmarks") q = "resourceVersion=0&allowWatchBookmarks=true";
        else if (m === "watchlist") q = "allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan";
        else {
          startAt = maxAcked;
          q = `allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${startAt}`;
        }
      }
      const stream = await openWatch(servers[via], `${cmPath(ns)}?watch=true${q ? `&${q}` : ""}`);
      watchers.push({ label: `watcher#${i} ${m}${typeof start === "number" ? `=${start}` : ""}@${via}`, via, start, startAt, stream });
    }
  }

  await Promise.all([...Array.from({ length: opts.writers }, (_, w) => writer(w)), watcherStarter()]);
  expect(unexpected, `${ctx}: writes answered something other than 2xx/404/409`).toEqual([]);

  // A sentinel every watcher sees last.
  const sentinel = await servers[0].request("POST", cmPath(ns), { body: { metadata: { name: "sentinel" }, data: { v: "end" } } });
  expect(sentinel.status, sentinel.text).toBe(201);
  const endRev = Number(sentinel.body.metadata.resourceVersion);
  acks.push({ op: "create", type: "ADDED", name: "sentinel", rv: endRev, via: 0 });
  await Promise.all(watchers.map((w) =>
    w.stream.until((evs) => evs.some((e) => Number(e.object?.metadata?.resourceVersion) === endRev && e.object?.metadata?.name === "sentinel"), 30_000, `${w.label} to see the sentinel`)));
  await sleep(200);
  for (const w of watchers) w.stream.close();
  // Every renewal before the sentinel has arrived once a later one has.
  await leaseWatch.until((evs) => evs.some((e) => Number(e.object?.metadata?.resourceVersion) > endRev), 10_000, "a Lease renewal after the sentinel");
  leaseWatch.close();
  const leaseRevs = leaseWatch.events.map((e) => Number(e.object?.metadata?.resourceVersion)).filter((rv) => rv > startRev && rv <= endRev);

  // --- the reference sequence -------------------------------------------------------------------------
  for (const w of watchers) {
    expect(w.stream.status, `${ctx}: ${w.label}`).toBe(200);
    expect(w.stream.malformed, `${ctx}: ${w.label}`).toEqual([]);
    expect(w.stream.events.filter((e) => e.type === "ERROR"), `${ctx}: ${w.label}`).toEqual([]);
  }
  const reference = watchers[0].stream.events.map(observed);
  const refStrings = reference.map(fmt);
  // Contiguous revisions: every revision after the start up to the sentinel is one event of this namespace or a
  // renewal of the controllers' Lease (nothing else writes meanwhile).
  expect([...reference.map((e) => e.rv), ...leaseRevs].sort((x, y) => x - y), `${ctx}: reference revisions and Lease renewals are contiguous from ${startRev + 1} to ${endRev}`)
    .toEqual(Array.from({ length: endRev - startRev }, (_, i) => startRev + 1 + i));
  // Every acknowledged create/update is in it, with its type and name; nothing else is.
  const byRv = new Map(reference.map((e) => [e.rv, e]));
  for (const a of acks.filter((x) => x.rv !== undefined)) {
    const e = byRv.get(a.rv!);
    expect(e && `${e.type} ${e.name}`, `${ctx}: acknowledged ${a.op} ${a.name}@${a.rv} via ${a.via}`).toBe(`${a.type} ${a.name}`);
  }
  const ackedRvs = new Set(acks.filter((a) => a.rv !== undefined).map((a) => a.rv));
  const extra = reference.filter((e) => e.type !== "DELETED" && !ackedRvs.has(e.rv)).map(fmt);
  expect(extra, `${ctx}: events nobody's write produced`).toEqual([]);
  const deletesPerName = (xs: { type: string; name: string }[]) => {
    const m: Record<string, number> = {};
    for (const x of xs) if (x.type === "DELETED") m[x.name] = (m[x.name] ?? 0) + 1;
    return m;
  };
  expect(deletesPerName(reference), `${ctx}: DELETED events per name = acknowledged deletes`).toEqual(deletesPerName(acks));
  // Per object: ADDED, MODIFIED*, DELETED, ADDED, ...
  const alive = new Set<string>();
  for (const e of reference) {
    const ok = e.type === "ADDED" ? !alive.has(e.name) : alive.has(e.name);
    expect(ok, `${ctx}: ${fmt(e)} does not fit the object's lifecycle`).toBe(true);
    if (e.type === "DELETED") alive.delete(e.name); else alive.add(e.name);
  }
  // The reference ends in the state a consistent list shows now, on every process.
  for (let i = 0; i < servers.length; i++) {
    const list = await servers[i].request("GET", cmPath(ns));
    const listed = new Map<string, number>((list.body.items as any[]).map((o) => [o.metadata.name, Number(o.metadata.resourceVersion)]));
    expect(listed, `${ctx}: list on process ${i} = state implied by the watch`).toEqual(stateFrom(reference));
  }

  // --- every watcher against the reference ----------------------------------------------------------
  const after = (rev: number) => refStrings.filter((_, i) => reference[i].rv > rev);
  for (const w of watchers) {
    const evs = w.stream.events.map(observed);
    const label = `${ctx}: ${w.label}`;
    if (typeof w.start === "number") {
      const got = evs.map(fmt);
      const want = after(w.start);
      expect(got, `${label}: ${firstDifference(got, want)}`).toEqual(want);
      continue;
    }
    if (w.start === "watchlist" || w.start === "watchlist-at" || w.start === "0-bookmarks") {
      const b = w.stream.events.findIndex((e) => e.type === "BOOKMARK");
      expect(b, `${label}: an initial-events-end bookmark`).toBeGreaterThanOrEqual(0);
      const bookmark = w.stream.events[b];
      expect(bookmark.object.metadata.annotations?.["k8s.io/initial-events-end"], label).toBe("true");
      const at = Number(bookmark.object.metadata.resourceVersion);
      if (w.startAt !== undefined) expect(at, `${label}: state not older than ${w.startAt}`).toBeGreaterThanOrEqual(w.startAt);
      const initial = evs.slice(0, b);
      expect(initial.every((e) => e.type === "ADDED"), label).toBe(true);
      const snapshot = stateFrom(reference.filter((e) => e.rv <= at));
      expect(new Map(initial.map((e) => [e.name, e.rv])), `${label}: initial events = state at the bookmark's revision ${at}`).toEqual(snapshot);
      expect(initial.length, `${label}: no duplicate initial event`).toBe(snapshot.size);
      const rest = evs.slice(b + 1).filter((e) => e.type !== "BOOKMARK").map(fmt);
      expect(rest, `${label}: ${firstDifference(rest, after(at))}`).toEqual(after(at));
      continue;
    }
    // "0" / unset: some synthetic ADDED (any order) for the state at some revision, then every change after it.
    const got = evs.map(fmt);
    let matched = false;
    for (let k = 0; k < evs.length && !matched; k++) {
      if (k > 0 && evs[k - 1].type !== "ADDED") break;
      const next = evs[k].rv;
      const snapshot = stateFrom(reference.filter((e) => e.rv < next));
      const initial = evs.slice(0, k);
      if (initial.length !== snapshot.size || initial.some((e) => snapshot.get(e.name) !== e.rv)) continue;
      const want = refStrings.filter((_, i) => reference[i].rv >= next);
      if (got.slice(k).join("\n") === want.join("\n")) matched = true;
    }
    expect(matched, `${label}: not "initial state at some revision R, then exactly the changes after R": ${got.join(", ")}`).toBe(true);
  }
  return { events: reference.length, acks: acks.length, watchers: watchers.length };
}

describe("randomized watch consistency", () => {
  test("one process: concurrent writers, watchers from random revisions see exactly the log", { timeout: 120_000 }, async () => {
    const server = await startServer();
    const result = await randomizedRun([server], "consistency-one", { writers: 8, opsPerWriter: 80, watchers: 16, seed: SEED });
    expect(result.events, `seed ${SEED}: the run produced events`).toBeGreaterThan(100);
    await server.stop();
  });

  test("two processes on one SQLite file: every watcher sees every write through either process, in revision order", { timeout: 120_000 }, async () => {
    const servers = await startSharedServers(2);
    const result = await randomizedRun(servers, "consistency-two", { writers: 6, opsPerWriter: 60, watchers: 16, seed: SEED + 1 });
    expect(result.events, `seed ${SEED + 1}: the run produced events`).toBeGreaterThan(80);
    await Promise.all(servers.map((s) => s.stop()));
  });

  // PostgreSQL too: a fresh database on TEST_PG_URL's server (fails without it unless SKIP_POSTGRES=1).
  test.skipIf(skipPostgres)("two processes on one PostgreSQL database: every watcher sees every write, in revision order", { timeout: 120_000 }, async () => {
    const servers = await startSharedServers(2, {}, await freshPostgresDatabase());
    const result = await randomizedRun(servers, "consistency-pg", { writers: 6, opsPerWriter: 60, watchers: 16, seed: SEED + 2 });
    expect(result.events, `seed ${SEED + 2}: the run produced events`).toBeGreaterThan(80);
    await Promise.all(servers.map((s) => s.stop()));
  });

  test.each(testBackends)("two processes on one %s store: a consistent read on one process sees what the other acknowledged", { timeout: 60_000 }, async (backend) => {
    const [a, b] = await startSharedServers(2, {}, backend === "postgresql" ? await freshPostgresDatabase() : undefined);
    const ns = "consistency-ryw";
    await createNamespaces(a, ns);
    const misses: string[] = [];
    // Each read form, right after a write acknowledged by the other process. A read that catches up with the
    // log makes the following ones pass too, so every form gets to be the first read after a write (in both
    // directions), and the first two rounds are the very first cross-process reads of each process.
    type Check = (reader: Server, name: string, rev: string) => Promise<string | undefined>;
    const initialHas = async (reader: Server, q: string, name: string) => {
      const w = await openWatch(reader, `${cmPath(ns)}?watch=true${q}`);
      const gotBookmark = await w.until((evs) => evs.some((e) => e.type === "BOOKMARK"), 5_000).then(() => true, () => false);
      w.close();
      if (!gotBookmark) return "no initial-events-end bookmark";
      const initial = w.events.slice(0, w.events.findIndex((e) => e.type === "BOOKMARK"));
      return initial.some((e) => e.object?.metadata?.name === name) ? undefined : "not in the initial state (before the bookmark)";
    };
    const checks: [string, Check][] = [
      ["GET (RV unset)", async (r, name) => {
        const got = await r.request("GET", cmPath(ns, name));
        return got.status === 200 ? undefined : `${got.status}`;
      }],
      ["list (RV unset)", async (r, name, rev) => {
        const list = await r.request("GET", cmPath(ns));
        if (!(list.body.items as any[]).some((o) => o.metadata.name === name)) return "missing";
        return Number(list.body.metadata.resourceVersion) >= Number(rev) ? undefined : `list RV ${list.body.metadata.resourceVersion} < ${rev}`;
      }],
      ["watch (RV unset, allowWatchBookmarks)", (r, name) => initialHas(r, "&allowWatchBookmarks=true", name)],
      ["watch-list (RV unset)", (r, name) => initialHas(r, "&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan", name)],
      ["GET ?resourceVersion=<the write's RV>", async (r, name, rev) => {
        const got = await r.request("GET", `${cmPath(ns, name)}?resourceVersion=${rev}`);
        return got.status === 200 ? undefined : `${got.status}`;
      }],
    ];
    for (let i = 0; i < 2 * checks.length; i++) {
      const [writer, reader, dir] = i % 2 === 0 ? [a, b, "A->B"] : [b, a, "B->A"];
      const name = `cm-${i}`;
      const created = await writer.request("POST", cmPath(ns), { body: { metadata: { name }, data: { i: String(i) } } });
      expect(created.status, created.text).toBe(201);
      const rev = created.body.metadata.resourceVersion as string;
      for (let j = 0; j < checks.length; j++) {
        const [label, check] = checks[(i + j) % checks.length];
        const problem = await check(reader, name, rev);
        if (problem) misses.push(`round ${i} ${dir}, ${j === 0 ? "first read" : `read #${j + 1}`}: ${label} of ${name}: ${problem}`);
      }
    }
    expect(misses).toEqual([]);
    await Promise.all([a.stop(), b.stop()]);
  });
});

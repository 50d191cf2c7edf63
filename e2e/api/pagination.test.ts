// Lists and pagination (rest-semantics.md section 5): 1,000 objects paged with limit=100 while other clients
// write, every page read at the first page's revision (the union is one snapshot), remainingItemCount, the
// 410 for a compacted continue token (with its fresh rv -1 token), list-then-watch missing nothing,
// resourceVersionMatch=Exact at old revisions, and resourceVersion=0 ignoring limit.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWatch, sleep, type WatchStream } from "./cluster";
import { createNamespaces, ROOT_CA, rootCA, startServer, stopAll, type Server } from "./harness";
import { expectStatus } from "./kinds";

const NS = "paging";
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const TOTAL = 1_000;
const TOO_OLD_CONTINUE =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

let server: Server;
let shortWindow: Server;

const nameOf = (i: number) => `obj-${String(i).padStart(4, "0")}`;
const configMap = (name: string, labels: Record<string, string> = {}, v = "0") => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, labels },
  data: { v },
});

async function inParallel<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

beforeAll(async () => {
  [server, shortWindow] = await Promise.all([startServer(), startServer({ env: { COMPACTION_WINDOW_SECONDS: "2" } })]);
  await Promise.all([
    createNamespaces(server, NS, "paging-exact"),
    createNamespaces(shortWindow, "paging-expire"),
  ]);
  await inParallel(Array.from({ length: TOTAL }, (_, i) => i), 16, async (i) => {
    const res = await server.request("POST", CM, { body: configMap(nameOf(i), { half: i % 2 === 0 ? "even" : "odd" }) });
    if (res.status !== 201) throw new Error(`seeding ${nameOf(i)}: ${res.status} ${res.text}`);
  });
}, 180_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

type State = Map<string, string>; // name -> resourceVersion

function apply(state: State, events: { type: string; object: any }[], upTo = Infinity): State {
  const s = new Map(state);
  for (const e of events) {
    if (Number(e.object.metadata.resourceVersion) > upTo) break;
    if (e.type === "DELETED") s.delete(e.object.metadata.name);
    else if (e.type === "ADDED" || e.type === "MODIFIED") s.set(e.object.metadata.name, e.object.metadata.resourceVersion);
  }
  return s;
}

const stateOfItems = (items: any[]): State => new Map(items.map((o) => [o.metadata.name, o.metadata.resourceVersion]));
const sortedEntries = (s: State) => [...s.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Concurrent writers over the namespace: new objects, updates and deletes of existing ones, until stopped. */
function startWriters(s: Server, ns: string, count: number, tag: string) {
  let stop = false;
  let n = 0;
  const errors: string[] = [];
  const done = Promise.all(Array.from({ length: count }, async (_, w) => {
    while (!stop) {
      const i = n++;
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      const kind = i % 3;
      let res;
      if (kind === 0) res = await s.request("POST", path, { body: configMap(`${tag}-new-${i}`, { half: "even" }) });
      else if (kind === 1) {
        res = await s.request("PATCH", `${path}/${nameOf((i * 7919) % TOTAL)}`, { body: { data: { v: `${tag}-${i}` } }, contentType: "application/merge-patch+json" });
      } else res = await s.request("DELETE", `${path}/${nameOf((i * 104729) % TOTAL)}`);
      if (![200, 201, 404].includes(res.status)) errors.push(`${res.status} ${res.text.slice(0, 200)}`);
    }
  }));
  return {
    writes: () => n,
    async stop() {
      stop = true;
      await done;
      return errors;
    },
  };
}

/** Waits until `w` has delivered an event at or after revision `rev` (a write of our own, made last). */
async function sentinel(s: Server, ns: string, w: WatchStream): Promise<string> {
  const res = await s.request("POST", `/api/v1/namespaces/${ns}/configmaps`, { body: configMap(`sentinel-${Date.now()}`) });
  expect(res.status, res.text).toBe(201);
  const rev = res.body.metadata.resourceVersion as string;
  await w.waitForEvent((e) => e.object?.metadata?.resourceVersion === rev, 30_000);
  return rev;
}

describe("paginated lists are one snapshot", { timeout: 120_000 }, () => {
  test("limit=100 under concurrent writes: the union of the pages is exactly the state at the first page's revision", async () => {
    const base = await server.request("GET", CM);
    expect(base.status).toBe(200);
    expect(base.body.items.length).toBeGreaterThanOrEqual(TOTAL);
    const baseState = stateOfItems(base.body.items);
    const baseRev = base.body.metadata.resourceVersion as string;
    // The truth: the base list plus every change after it, as a watch from its revision tells.
    const w = await openWatch(server, `${CM}?watch=true&resourceVersion=${baseRev}`);
    const writers = startWriters(server, NS, 4, "p1");
    await sleep(150); // writers are busy before the first page
    const pages: any[] = [];
    let token = "";
    do {
      const res = await server.request("GET", `${CM}?limit=100${token ? `&continue=${encodeURIComponent(token)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      pages.push(res.body);
      token = res.body.metadata.continue ?? "";
      await sleep(30); // let the writers move on between pages
    } while (token);
    await sleep(100);
    const errors = await writers.stop();
    expect(errors).toEqual([]);
    await sentinel(server, NS, w);
    w.close();

    const snapshotRev = pages[0].metadata.resourceVersion as string;
    expect(pages.map((p) => p.metadata.resourceVersion), "every page carries the first page's resourceVersion").toEqual(pages.map(() => snapshotRev));
    const truth = apply(baseState, w.events, Number(snapshotRev));
    const items = pages.flatMap((p) => p.items);
    const names = items.map((o) => o.metadata.name);
    expect(new Set(names).size, "no object appears on two pages").toBe(names.length);
    expect(names, "pages come in key order").toEqual([...names].sort());
    expect(sortedEntries(stateOfItems(items)), "union of pages = state at the first page's revision").toEqual(sortedEntries(truth));

    // The writers really did create, update and delete after the snapshot; those changes are not in the pages.
    const later = w.events.filter((e) => Number(e.object.metadata.resourceVersion) > Number(snapshotRev) && !e.object.metadata.name.startsWith("sentinel"));
    const byType = (t: string) => later.filter((e) => e.type === t).map((e) => e.object.metadata.name as string);
    expect(byType("ADDED").length, "objects created after the first page").toBeGreaterThan(0);
    expect(byType("MODIFIED").length, "objects updated after the first page").toBeGreaterThan(0);
    expect(byType("DELETED").length, "objects deleted after the first page").toBeGreaterThan(0);
    const listed = stateOfItems(items);
    for (const n of byType("ADDED")) expect(listed.has(n), `${n} was created after the snapshot`).toBe(false);
    for (const n of byType("DELETED")) {
      if (truth.has(n)) expect(listed.get(n), `${n} deleted after the snapshot is listed in its snapshot version`).toBe(truth.get(n));
    }
    const updatedLater = later.filter((e) => e.type === "MODIFIED" && truth.has(e.object.metadata.name));
    expect(updatedLater.length).toBeGreaterThan(0);
    for (const e of updatedLater) {
      const listedObj = items.find((o) => o.metadata.name === e.object.metadata.name);
      expect(listedObj.metadata.resourceVersion, `${e.object.metadata.name}: its version at the snapshot, not the later update`).not.toBe(e.object.metadata.resourceVersion);
    }

    // remainingItemCount: what is left after each page (no selector), absent on the last page.
    let seen = 0;
    for (let i = 0; i < pages.length; i++) {
      seen += pages[i].items.length;
      if (i < pages.length - 1) {
        expect(pages[i].items.length, `page ${i} is full`).toBe(100);
        expect(pages[i].metadata.remainingItemCount, `page ${i}`).toBe(truth.size - seen);
      } else {
        expect(pages[i].metadata.continue).toBeUndefined();
        expect(pages[i].metadata.remainingItemCount).toBeUndefined();
      }
    }
  });

  test("with a label selector: pages are one snapshot of the matching objects, without remainingItemCount", async () => {
    const base = await server.request("GET", `${CM}?labelSelector=half%3Deven`);
    const baseRev = base.body.metadata.resourceVersion as string;
    const w = await openWatch(server, `${CM}?watch=true&labelSelector=half%3Deven&resourceVersion=${baseRev}`);
    const writers = startWriters(server, NS, 3, "p2");
    await sleep(100);
    const pages: any[] = [];
    let token = "";
    do {
      const res = await server.request("GET", `${CM}?limit=100&labelSelector=half%3Deven${token ? `&continue=${encodeURIComponent(token)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      pages.push(res.body);
      token = res.body.metadata.continue ?? "";
      await sleep(20);
    } while (token);
    expect(await writers.stop()).toEqual([]);
    // A labelled write of our own, made last: once the watch has it, it has everything before it.
    const mark = await server.request("POST", CM, { body: configMap(`mark-${Date.now()}`, { half: "even" }) });
    await w.waitForEvent((e) => e.object.metadata.resourceVersion === mark.body.metadata.resourceVersion, 30_000);
    w.close();
    const snapshotRev = pages[0].metadata.resourceVersion;
    expect(pages.every((p) => p.metadata.resourceVersion === snapshotRev)).toBe(true);
    expect(pages.every((p) => p.metadata.remainingItemCount === undefined), "no remainingItemCount with a selector").toBe(true);
    const items = pages.flatMap((p) => p.items);
    expect(items.every((o) => o.metadata.labels?.half === "even")).toBe(true);
    const truth = apply(stateOfItems(base.body.items), w.events, Number(snapshotRev));
    expect(sortedEntries(stateOfItems(items))).toEqual(sortedEntries(truth));
  });

  test("resourceVersion=0 ignores limit: the whole list, no continue", async () => {
    const full = await server.request("GET", CM);
    const res = await server.request("GET", `${CM}?limit=100&resourceVersion=0`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.continue).toBeUndefined();
    expect(res.body.metadata.remainingItemCount).toBeUndefined();
    expect(res.body.items.length).toBe(full.body.items.length);
    expect(res.body.items.length).toBeGreaterThan(100);
  });
});

describe("list then watch", { timeout: 120_000 }, () => {
  test("a watch started at a list's resourceVersion misses nothing, while writers run throughout", async () => {
    const writers = startWriters(server, NS, 4, "lw");
    await sleep(100);
    const listed = await server.request("GET", CM);
    expect(listed.status).toBe(200);
    const rv = listed.body.metadata.resourceVersion as string;
    await sleep(100); // writes land between the list and the watch
    const w = await openWatch(server, `${CM}?watch=true&resourceVersion=${rv}`);
    await sleep(300);
    expect(await writers.stop()).toEqual([]);
    await sentinel(server, NS, w);
    w.close();
    const revs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(revs.every((r, i) => r > Number(rv) && (i === 0 || r > revs[i - 1])), "events after the list's revision, in order").toBe(true);
    // No gap: every revision after the list's is one of the events, unless it changed nothing in this
    // namespace. Controllers write elsewhere meanwhile (the kube-system Lease is renewed every 2 s), so a
    // skipped revision is checked with exact lists on both sides of it.
    const delivered = new Set(revs);
    const skipped: number[] = [];
    for (let r = Number(rv) + 1; r <= revs[revs.length - 1]; r++) if (!delivered.has(r)) skipped.push(r);
    expect(skipped.length, `revisions without an event: ${skipped.join(", ")}`).toBeLessThanOrEqual(5);
    const exactState = async (r: number) => {
      const res = await server.request("GET", `${CM}?resourceVersion=${r}&resourceVersionMatch=Exact`);
      expect(res.status, res.text).toBe(200);
      return sortedEntries(stateOfItems(res.body.items));
    };
    for (const r of skipped) {
      expect(await exactState(r), `revision ${r} changed ${NS}, but the watch did not deliver it`).toEqual(await exactState(r - 1));
    }
    const final = await server.request("GET", CM);
    expect(sortedEntries(apply(stateOfItems(listed.body.items), w.events)), "list + watch = the current state").toEqual(sortedEntries(stateOfItems(final.body.items)));
    expect(w.events.length).toBeGreaterThan(5);
  });

  test("the same with a paginated list: watch from the first page's resourceVersion", async () => {
    const writers = startWriters(server, NS, 4, "plw");
    await sleep(100);
    const items: any[] = [];
    let token = "";
    let rv = "";
    do {
      const res = await server.request("GET", `${CM}?limit=250${token ? `&continue=${encodeURIComponent(token)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      rv ||= res.body.metadata.resourceVersion;
      items.push(...res.body.items);
      token = res.body.metadata.continue ?? "";
    } while (token);
    const w = await openWatch(server, `${CM}?watch=true&resourceVersion=${rv}`);
    await sleep(200);
    expect(await writers.stop()).toEqual([]);
    await sentinel(server, NS, w);
    w.close();
    const final = await server.request("GET", CM);
    expect(sortedEntries(apply(stateOfItems(items), w.events))).toEqual(sortedEntries(stateOfItems(final.body.items)));
  });
});

describe("resourceVersionMatch and compaction", { timeout: 60_000 }, () => {
  test("resourceVersionMatch=Exact at an old revision shows the old state; NotOlderThan the current one", async () => {
    const ns = "paging-exact";
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    // The namespace starts with the root-ca publisher's kube-root-ca.crt, written before the test's objects.
    const ca = await rootCA(server, ns);
    const caRev = ca.metadata.resourceVersion as string;
    const a1 = (await server.request("POST", path, { body: configMap("a", {}, "one") })).body;
    const a2 = (await server.request("PATCH", `${path}/a`, { body: { data: { v: "two" } }, contentType: "application/merge-patch+json" })).body;
    const b1 = (await server.request("POST", path, { body: configMap("b", {}, "bee") })).body;
    expect((await server.request("DELETE", `${path}/a`)).status).toBe(200);
    const now = (await server.request("GET", path)).body;
    const at = async (rev: string, extra = "&resourceVersionMatch=Exact") => {
      const res = await server.request("GET", `${path}?resourceVersion=${rev}${extra}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const r1 = await at(a1.metadata.resourceVersion);
    expect(r1.metadata.resourceVersion).toBe(a1.metadata.resourceVersion);
    expect(r1.items.map((o: any) => [o.metadata.name, o.data.v, o.metadata.resourceVersion])).toEqual([
      ["a", "one", a1.metadata.resourceVersion],
      [ROOT_CA, undefined, caRev],
    ]);
    const r2 = await at(a2.metadata.resourceVersion);
    expect(r2.items.map((o: any) => [o.metadata.name, o.data.v])).toEqual([["a", "two"], [ROOT_CA, undefined]]);
    const r3 = await at(b1.metadata.resourceVersion);
    expect(r3.items.map((o: any) => [o.metadata.name, o.data.v])).toEqual([["a", "two"], ["b", "bee"], [ROOT_CA, undefined]]);
    expect((await at(String(Number(a1.metadata.resourceVersion) - 1))).items.map((o: any) => o.metadata.name)).toEqual([ROOT_CA]);
    expect((await at(String(Number(caRev) - 1))).items, "before the root-ca publisher's write the namespace held nothing").toEqual([]);
    // Legacy exact: resourceVersion=N with a limit.
    const legacy = await at(a2.metadata.resourceVersion, "&limit=10");
    expect(legacy.metadata.resourceVersion).toBe(a2.metadata.resourceVersion);
    expect(legacy.items.map((o: any) => [o.metadata.name, o.data.v])).toEqual([["a", "two"], [ROOT_CA, undefined]]);
    // NotOlderThan: at least as new as N, i.e. today's state.
    const nt = await at(a1.metadata.resourceVersion, "&resourceVersionMatch=NotOlderThan");
    expect(Number(nt.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(now.metadata.resourceVersion));
    expect(nt.items.map((o: any) => o.metadata.name)).toEqual(["b", ROOT_CA]);
    const plain = await at(a1.metadata.resourceVersion, "");
    expect(plain.items.map((o: any) => o.metadata.name), "resourceVersion=N without limit: not older than N").toEqual(["b", ROOT_CA]);
  });

  test("an expired continue token answers 410 Expired with a fresh continue token; Exact at a compacted revision is 410", async () => {
    const ns = "paging-expire";
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    for (let i = 0; i < 25; i++) {
      const res = await shortWindow.request("POST", path, { body: configMap(nameOf(i)) });
      expect(res.status).toBe(201);
    }
    const first = await shortWindow.request("GET", `${path}?limit=10`);
    expect(first.status).toBe(200);
    const firstRev = first.body.metadata.resourceVersion as string;
    const token = first.body.metadata.continue as string;
    expect(token).toBeTruthy();
    // 26 objects in key order: the namespace's kube-root-ca.crt, then the test's 25.
    expect(first.body.items.map((o: any) => o.metadata.name)).toEqual([ROOT_CA, ...Array.from({ length: 9 }, (_, i) => nameOf(i))]);
    expect(first.body.metadata.remainingItemCount).toBe(16);
    // Changes after the snapshot, then let the 2 s window pass over them.
    await shortWindow.request("DELETE", `${path}/${nameOf(15)}`);
    await shortWindow.request("POST", path, { body: configMap(nameOf(30)) });
    let expired;
    const deadline = Date.now() + 20_000;
    do {
      await sleep(1_000);
      await shortWindow.request("POST", path, { body: configMap(`tick-${Date.now()}`) });
      expired = await shortWindow.request("GET", `${path}?limit=10&continue=${encodeURIComponent(token)}`);
    } while (expired.status === 200 && Date.now() < deadline);
    expectStatus(expired, 410, "Expired", TOO_OLD_CONTINUE);
    const fresh = expired.body.metadata?.continue as string;
    expect(fresh, "the 410 Status carries metadata.continue").toBeTruthy();
    const decoded = JSON.parse(Buffer.from(fresh, "base64url").toString("utf8"));
    expect(decoded).toMatchObject({ v: "meta.k8s.io/v1", rv: -1 });
    // The fresh token continues (inconsistently, at the latest state) after the first page.
    const rest = await shortWindow.request("GET", `${path}?limit=100&continue=${encodeURIComponent(fresh)}`);
    expect(rest.status, rest.text).toBe(200);
    const restNames = (rest.body.items as any[]).map((o) => o.metadata.name);
    const lastOfFirst = first.body.items[9].metadata.name;
    expect(restNames.every((n) => n > lastOfFirst), "continues after the first page").toBe(true);
    expect(restNames).toContain(nameOf(30)); // created after the first page: the latest state
    expect(restNames).not.toContain(nameOf(15));
    expect(Number(rest.body.metadata.resourceVersion)).toBeGreaterThan(Number(firstRev));

    const exact = await shortWindow.request("GET", `${path}?resourceVersion=${firstRev}&resourceVersionMatch=Exact`);
    expectStatus(exact, 410, "Expired", "The resourceVersion for the provided list is too old.");
  });
});

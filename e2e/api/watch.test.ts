// Watch (rest-semantics.md section 4): every request path form, the wire format, resourceVersion semantics
// (unset / "0" / N), DELETED carrying the deletion's revision, selector transitions, the in-stream 410 for a
// compacted revision, sendInitialEvents + the initial-events-end bookmark, timeoutSeconds and client
// disconnects. Raw HTTPS streams (cluster.ts openWatch); one server for most tests, a second one with a
// 2-second compaction window for the "too old" case. Everything runs on SQLite and on PostgreSQL
// (lib/storage/test-databases.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backendEnv, openWatch, describe as describeEvents, sleep, type WatchEvent, type WatchStream } from "./cluster";
import { createNamespaces, ROOT_CA, rv, startServer, stopAll, type Server } from "./harness";
import { expectStatus } from "./kinds";
import { testBackends } from "../../lib/storage/test-databases";

describe.each(testBackends)("on %s", (backend) => {
let server: Server;
let shortWindow: Server;

beforeAll(async () => {
  [server, shortWindow] = await Promise.all([
    backendEnv(backend).then((env) => startServer({ env })),
    backendEnv(backend).then((env) => startServer({ env: { ...env, COMPACTION_WINDOW_SECONDS: "2" } })),
  ]);
  const namespaces = ["w-forms", "w-forms-other", "w-initial", "w-initial-other", "w-from-n", "w-selectors", "w-watchlist", "w-timeout", "w-disconnect"];
  await Promise.all([
    createNamespaces(server, ...namespaces),
    createNamespaces(shortWindow, "w-too-old"),
  ]);
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const cmPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;
const PV = "/api/v1/persistentvolumes";

const configMap = (name: string, labels?: Record<string, string>, data: Record<string, string> = { k: "v" }) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

const persistentVolume = (name: string) => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name, labels: { suite: "watch" } },
  spec: {
    capacity: { storage: "1Gi" },
    accessModes: ["ReadWriteOnce"],
    persistentVolumeReclaimPolicy: "Retain",
    nfs: { server: "10.0.0.20", path: `/exports/${name}` },
  },
});

async function call(s: Server, method: string, path: string, body?: unknown, contentType?: string, expected?: number): Promise<any> {
  const res = await s.request(method, path, { body, contentType });
  const want = expected ?? (method === "POST" ? 201 : 200);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 500)}`).toBe(want);
  return res.body;
}

const create = (s: Server, path: string, body: unknown) => call(s, "POST", path, body);
const mergePatch = (s: Server, path: string, patch: unknown) => call(s, "PATCH", path, patch, "application/merge-patch+json");
const remove = (s: Server, path: string) => call(s, "DELETE", path);

/** The store's current revision, as a list answers it (every list carries the snapshot revision). */
async function currentRev(s: Server): Promise<string> {
  const res = await s.request("GET", "/api/v1/configmaps?limit=1");
  expect(res.status, res.text).toBe(200);
  return res.body.metadata.resourceVersion;
}

/** Whether `path` (one object) exists at revision `r`, as an exact list at that revision answers. */
async function existsAt(s: Server, path: string, r: bigint): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  const selector = encodeURIComponent(`metadata.name=${path.slice(slash + 1)}`);
  const res = await s.request("GET", `${path.slice(0, slash)}?fieldSelector=${selector}&resourceVersion=${r}&resourceVersionMatch=Exact`);
  expect(res.status, res.text).toBe(200);
  return res.body.items.length > 0;
}

/**
 * Deletes `path`, waits until the object has left the store (a finalizer, such as the PersistentVolume's
 * kubernetes.io/pv-protection, holds it until its controller lets go) and returns the DELETE answer and the
 * revision at which the object disappeared. Controllers write beside the tests (lease renewals every 2 s,
 * Events), so the revision after the delete is only an upper bound: exact lists pin the deletion down.
 */
async function deleteFully(s: Server, path: string): Promise<{ answer: any; goneAt: string }> {
  const before = rv(await currentRev(s));
  const answer = await remove(s, path);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await s.request("GET", path);
    if (res.status === 404) break;
    expect(res.status, res.text).toBe(200);
    if (Date.now() > deadline) throw new Error(`${path} is still there 15 s after its DELETE: ${res.text.slice(0, 300)}`);
    await sleep(50);
  }
  const after = rv(await currentRev(s));
  for (let r = before + 1n; r < after; r++) {
    if (!(await existsAt(s, path, r))) return { answer, goneAt: String(r) };
  }
  return { answer, goneAt: String(after) };
}

/** Delete and return the revision of the deletion. */
async function deleteAt(s: Server, path: string): Promise<string> {
  return (await deleteFully(s, path)).goneAt;
}

/**
 * The PersistentVolume binder marks every new volume `status.phase: Available` (one write); waits for that
 * write and returns the volume as it left it.
 */
async function availablePV(s: Server, name: string): Promise<any> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await s.request("GET", `${PV}/${name}`);
    expect(res.status, res.text).toBe(200);
    if (res.body.status?.phase === "Available") return res.body;
    if (Date.now() > deadline) throw new Error(`${name} is not Available 15 s after its creation: ${res.text.slice(0, 300)}`);
    await sleep(50);
  }
}

const key = (e: WatchEvent) =>
  `${e.type} ${e.object.metadata?.namespace ? `${e.object.metadata.namespace}/` : ""}${e.object.metadata?.name ?? ""}@${e.object.metadata?.resourceVersion}`;
const ev = (type: string, nsName: string, resourceVersion: string) => `${type} ${nsName}@${resourceVersion}`;

/** Waits for the event with resourceVersion `last`, then a little longer for anything that should not come. */
async function settle(w: WatchStream, last: string, quietMs = 300): Promise<string[]> {
  await w.waitForEvent((e) => e.object?.metadata?.resourceVersion === last, 15_000);
  await sleep(quietMs);
  return w.events.map(key);
}

function expectWireFormat(w: WatchStream): void {
  expect(w.status).toBe(200);
  const ct = String(w.headers["content-type"]);
  expect(ct).toMatch(/^application\/json(\s*;|$)/);
  expect(ct).not.toContain("stream=watch");
  expect(String(w.headers["cache-control"] ?? "")).toContain("no-cache");
  expect(w.malformed, `lines that are not {"type","object"} documents`).toEqual([]);
  const text = w.text();
  if (text.length) {
    expect(text.endsWith("\n"), "every event is terminated by a newline").toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines.length).toBe(w.events.length);
    for (const line of lines) {
      const doc = JSON.parse(line);
      expect(Object.keys(doc).sort()).toEqual(["object", "type"]);
    }
  }
  for (const e of w.events) {
    expect(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]).toContain(e.type);
    if (e.type !== "ERROR") expect(e.object.apiVersion).toBe("v1");
  }
}

describe("request forms and wire format", { timeout: 60_000 }, () => {
  test("every path form streams exactly its objects' changes, newline-delimited, as application/json", async () => {
    const ns = "w-forms";
    const other = "w-forms-other";
    const start = await currentRev(server);
    const q = `resourceVersion=${start}`;
    const forms: Record<string, string> = {
      nsWatchParam: `${cmPath(ns)}?watch=true&${q}`,
      nsWatchOne: `${cmPath(ns)}?watch=1&${q}`,
      allNsWatchParam: `/api/v1/configmaps?watch=true&${q}`,
      nsWatchPath: `/api/v1/watch/namespaces/${ns}/configmaps?${q}`,
      allNsWatchPath: `/api/v1/watch/configmaps?${q}`,
      namePath: `/api/v1/watch/namespaces/${ns}/configmaps/a?${q}`,
      nameFieldSelector: `${cmPath(ns)}?watch=true&fieldSelector=${encodeURIComponent("metadata.name=a")}&${q}`,
      pvWatchParam: `${PV}?watch=true&${q}`,
      pvWatchPath: `/api/v1/watch/persistentvolumes?${q}`,
      pvNamePath: `/api/v1/watch/persistentvolumes/w-pv-1?${q}`,
    };
    const streams: Record<string, WatchStream> = {};
    for (const [k, p] of Object.entries(forms)) streams[k] = await openWatch(server, p);
    try {
      const a1 = await create(server, cmPath(ns), configMap("a"));
      const b1 = await create(server, cmPath(ns), configMap("b"));
      const oa1 = await create(server, cmPath(other), configMap("a"));
      const p1 = await create(server, PV, persistentVolume("w-pv-1"));
      const p1a = await availablePV(server, "w-pv-1");
      const p2 = await create(server, PV, persistentVolume("w-pv-2"));
      const p2a = await availablePV(server, "w-pv-2");
      const bDel = await deleteAt(server, cmPath(ns, "b"));
      // The pv-protection finalizer makes the delete two writes: deletionTimestamp set, then the object gone.
      const { answer: p2Terminating, goneAt: p2DelRev } = await deleteFully(server, `${PV}/w-pv-2`);
      expect(p2Terminating.metadata.deletionTimestamp, "a volume with the pv-protection finalizer is first marked for deletion").toBeTruthy();
      const oaDel = await deleteAt(server, cmPath(other, "a"));
      const p1m = await mergePatch(server, `${PV}/w-pv-1`, { metadata: { labels: { touched: "yes" } } });
      const a2 = await call(server, "PUT", cmPath(ns, "a"), { ...a1, data: { k: "v2" } });

      const r = (o: any) => o.metadata.resourceVersion as string;
      const nsEvents = [ev("ADDED", `${ns}/a`, r(a1)), ev("ADDED", `${ns}/b`, r(b1)), ev("DELETED", `${ns}/b`, bDel), ev("MODIFIED", `${ns}/a`, r(a2))];
      const allEvents = [
        ev("ADDED", `${ns}/a`, r(a1)), ev("ADDED", `${ns}/b`, r(b1)), ev("ADDED", `${other}/a`, r(oa1)),
        ev("DELETED", `${ns}/b`, bDel), ev("DELETED", `${other}/a`, oaDel), ev("MODIFIED", `${ns}/a`, r(a2)),
      ];
      const nameEvents = [ev("ADDED", `${ns}/a`, r(a1)), ev("MODIFIED", `${ns}/a`, r(a2))];
      const pvEvents = [
        ev("ADDED", "w-pv-1", r(p1)), ev("MODIFIED", "w-pv-1", r(p1a)),
        ev("ADDED", "w-pv-2", r(p2)), ev("MODIFIED", "w-pv-2", r(p2a)),
        ev("MODIFIED", "w-pv-2", r(p2Terminating)), ev("DELETED", "w-pv-2", p2DelRev),
        ev("MODIFIED", "w-pv-1", r(p1m)),
      ];
      const pvNameEvents = [ev("ADDED", "w-pv-1", r(p1)), ev("MODIFIED", "w-pv-1", r(p1a)), ev("MODIFIED", "w-pv-1", r(p1m))];
      const expected: Record<string, [string[], string]> = {
        nsWatchParam: [nsEvents, r(a2)],
        nsWatchOne: [nsEvents, r(a2)],
        allNsWatchParam: [allEvents, r(a2)],
        nsWatchPath: [nsEvents, r(a2)],
        allNsWatchPath: [allEvents, r(a2)],
        namePath: [nameEvents, r(a2)],
        nameFieldSelector: [nameEvents, r(a2)],
        pvWatchParam: [pvEvents, r(p1m)],
        pvWatchPath: [pvEvents, r(p1m)],
        pvNamePath: [pvNameEvents, r(p1m)],
      };
      for (const [k, [want, last]] of Object.entries(expected)) {
        const got = await settle(streams[k], last, 50);
        expect(got, `${k}: ${forms[k]}`).toEqual(want);
        expectWireFormat(streams[k]);
        for (const e of streams[k].events) {
          expect(e.object.kind, `${k}: watch objects carry kind`).toBe(k.startsWith("pv") ? "PersistentVolume" : "ConfigMap");
        }
      }
      // The deleted object is its last state at the deletion's revision.
      const deleted = streams.nsWatchPath.events.find((e) => e.type === "DELETED")!;
      expect(deleted.object.metadata.uid).toBe(b1.metadata.uid);
      expect(deleted.object.data).toEqual(b1.data);
    } finally {
      for (const s of Object.values(streams)) s.close();
    }
  });

  test("the single-object watch path refuses a conflicting field selector (400)", async () => {
    const res = await server.request(
      "GET",
      `/api/v1/watch/namespaces/w-forms/configmaps/a?fieldSelector=${encodeURIComponent("metadata.name=b")}`,
    );
    expectStatus(res, 400, "BadRequest");
  });

  test("watch params other than watch=0/false make a list path a watch; watch=false is a list", async () => {
    const listed = await server.request("GET", `${cmPath("w-forms")}?watch=false`);
    expect(listed.status).toBe(200);
    expect(listed.body.kind).toBe("ConfigMapList");
    const w = await openWatch(server, `${cmPath("w-forms")}?watch=&timeoutSeconds=1`);
    await w.ended;
    expectWireFormat(w);
    // The current state: configmap a, and the namespace's kube-root-ca.crt the root-ca publisher put there.
    const state = (listed.body.items as any[]).map((o) => `ADDED ${o.metadata.name}@${o.metadata.resourceVersion}`);
    expect(state.map((e) => e.replace(/@.*$/, ""))).toEqual(["ADDED a", `ADDED ${ROOT_CA}`]);
    expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`).sort()).toEqual(state);
  });
});

describe("resourceVersion semantics", { timeout: 60_000 }, () => {
  test('resourceVersion unset and "0": synthetic ADDED for the current state, then the changes', async () => {
    const ns = "w-initial";
    const created = [];
    for (const n of ["x", "y", "z"]) created.push(await create(server, cmPath(ns), configMap(n)));
    const y2 = await mergePatch(server, cmPath(ns, "y"), { data: { k: "y2" } });
    await create(server, cmPath("w-initial-other"), configMap("x"));
    const rootCA = await call(server, "GET", cmPath(ns, ROOT_CA));
    const state = [
      ev("ADDED", `${ns}/${ROOT_CA}`, rootCA.metadata.resourceVersion),
      ev("ADDED", `${ns}/x`, created[0].metadata.resourceVersion),
      ev("ADDED", `${ns}/y`, y2.metadata.resourceVersion),
      ev("ADDED", `${ns}/z`, created[2].metadata.resourceVersion),
    ];
    for (const q of ["", "?resourceVersion=", "?resourceVersion=0"]) {
      const w = await openWatch(server, `/api/v1/watch/namespaces/${ns}/configmaps${q}`);
      try {
        await w.until((evs) => evs.length >= state.length, 10_000, "the initial state");
        expect(w.events.slice(0, state.length).map(key).sort(), `initial events for "${q}"`).toEqual(state);
        const x2 = await mergePatch(server, cmPath(ns, "x"), { data: { k: `x-${q}` } });
        const got = await settle(w, x2.metadata.resourceVersion);
        expect(got.slice(state.length), `changes after the initial state for "${q}"`).toEqual([ev("MODIFIED", `${ns}/x`, x2.metadata.resourceVersion)]);
        expect(w.events.some((e) => e.type === "BOOKMARK"), "no bookmark unless allowWatchBookmarks").toBe(false);
        expectWireFormat(w);
        state[1] = ev("ADDED", `${ns}/x`, x2.metadata.resourceVersion);
      } finally {
        w.close();
      }
    }
  });

  test("resourceVersion=N: exactly the changes after N, in order, with no synthetic events", async () => {
    const ns = "w-from-n";
    const a1 = await create(server, cmPath(ns), configMap("a"));
    const a2 = await mergePatch(server, cmPath(ns, "a"), { data: { k: "2" } });
    const b1 = await create(server, cmPath(ns), configMap("b"));
    const aDel = await deleteAt(server, cmPath(ns, "a"));
    const b2 = await call(server, "PUT", cmPath(ns, "b"), { ...b1, data: { k: "b2" } });
    const all = [
      ev("ADDED", `${ns}/a`, a1.metadata.resourceVersion),
      ev("MODIFIED", `${ns}/a`, a2.metadata.resourceVersion),
      ev("ADDED", `${ns}/b`, b1.metadata.resourceVersion),
      ev("DELETED", `${ns}/a`, aDel),
      ev("MODIFIED", `${ns}/b`, b2.metadata.resourceVersion),
    ];
    const revs = [a1, a2, b1].map((o) => o.metadata.resourceVersion as string).concat([aDel, b2.metadata.resourceVersion]);
    expect(revs.map((r) => Number(r)), "revisions increase").toEqual([...revs.map(Number)].sort((x, y) => x - y));

    // From one revision before the first write, from each write, and from the last one.
    const starts = [String(rv(revs[0]) - 1n), ...revs];
    const streams = await Promise.all(starts.map((s) => openWatch(server, `${cmPath(ns)}?watch=true&resourceVersion=${s}`)));
    try {
      // A sentinel write every stream must see after the replayed history.
      const sentinel = await create(server, cmPath(ns), configMap("sentinel"));
      const sRev = sentinel.metadata.resourceVersion;
      for (let i = 0; i < starts.length; i++) {
        const got = await settle(streams[i], sRev, i === 0 ? 300 : 20);
        const want = all.filter((_, j) => rv(revs[j]) > rv(starts[i])).concat([ev("ADDED", `${ns}/sentinel`, sRev)]);
        expect(got, `watch from resourceVersion ${starts[i]}`).toEqual(want);
      }
      // The DELETED event carries the deletion's revision and the last state of the object.
      const del = streams[0].events.find((e) => e.type === "DELETED")!;
      expect(del.object.metadata.resourceVersion).toBe(aDel);
      expect(del.object.metadata.uid).toBe(a1.metadata.uid);
      expect(del.object.data).toEqual({ k: "2" });
    } finally {
      for (const s of streams) s.close();
    }
  });

  test("a too old resourceVersion: HTTP 200, one ERROR event with a 410 Expired Status, then the stream ends", async () => {
    const ns = "w-too-old";
    const first = await create(shortWindow, cmPath(ns), configMap("a"));
    await mergePatch(shortWindow, cmPath(ns, "a"), { data: { k: "2" } });
    await mergePatch(shortWindow, cmPath(ns, "a"), { data: { k: "3" } });
    const oldRev = first.metadata.resourceVersion as string;
    // The window is 2 s and history is trimmed every 2 s: after ~5 s the first two changes are gone.
    const deadline = Date.now() + 20_000;
    let w: WatchStream;
    for (;;) {
      await sleep(1_000);
      w = await openWatch(shortWindow, `${cmPath(ns)}?watch=true&resourceVersion=${oldRev}`);
      const done = await Promise.race([w.ended.then(() => true), sleep(1_500).then(() => false)]);
      if (done || Date.now() > deadline) break;
      w.close();
    }
    const ended = await Promise.race([w.ended, sleep(5_000).then(() => undefined)]);
    expect(ended, "the server ends the stream after the ERROR event").toEqual({ clean: true });
    expect(w.status).toBe(200);
    expectWireFormat(w);
    expect(w.events.length, describeEvents(w.events)).toBe(1);
    const [error] = w.events;
    expect(error.type).toBe("ERROR");
    expect(error.object).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410 });
    expect(error.object.message).toMatch(new RegExp(`^too old resource version: ${oldRev} \\(\\d+\\)$`));

    // The newest revision is still a valid start point. Other writers (the controllers' Lease, renewed every
    // 2 s) move the store on, so with a 2 s window "newest" is a list's revision taken now, not the object's.
    const now = await shortWindow.request("GET", cmPath(ns));
    const fresh = await openWatch(shortWindow, `${cmPath(ns)}?watch=true&resourceVersion=${now.body.metadata.resourceVersion}`);
    try {
      const next = await mergePatch(shortWindow, cmPath(ns, "a"), { data: { k: "4" } });
      expect(await settle(fresh, next.metadata.resourceVersion, 50)).toEqual([ev("MODIFIED", `${ns}/a`, next.metadata.resourceVersion)]);
    } finally {
      fresh.close();
    }
  });
});

describe("selectors", { timeout: 60_000 }, () => {
  test("an object that starts matching arrives as ADDED, one that stops matching leaves as DELETED", async () => {
    const ns = "w-selectors";
    const start = await currentRev(server);
    const w = await openWatch(server, `${cmPath(ns)}?watch=true&labelSelector=${encodeURIComponent("tier=web")}&resourceVersion=${start}`);
    const wf = await openWatch(
      server,
      `${cmPath(ns)}?watch=true&fieldSelector=${encodeURIComponent("metadata.name!=other")}&labelSelector=${encodeURIComponent("tier in (web,db)")}&resourceVersion=${start}`,
    );
    try {
      const r = (o: any) => o.metadata.resourceVersion as string;
      await create(server, cmPath(ns), configMap("plain")); // never matches
      const m1 = await create(server, cmPath(ns), configMap("moving", { tier: "cache" })); // not matching yet
      const m2 = await mergePatch(server, cmPath(ns, "moving"), { metadata: { labels: { tier: "web" } } }); // starts matching
      const m3 = await mergePatch(server, cmPath(ns, "moving"), { data: { k: "changed" } }); // matching before and after
      const m4 = await mergePatch(server, cmPath(ns, "moving"), { metadata: { labels: { tier: "db" } } }); // stops matching tier=web
      const m5 = await mergePatch(server, cmPath(ns, "moving"), { data: { k: "unseen" } }); // not matching tier=web: nothing
      const m6 = await mergePatch(server, cmPath(ns, "moving"), { metadata: { labels: { tier: "cache" } } }); // leaves tier in (web,db)
      const o1 = await create(server, cmPath(ns), configMap("other", { tier: "web" }));
      const o2 = await mergePatch(server, cmPath(ns, "other"), { data: { k: "o2" } });
      const gone = await create(server, cmPath(ns), configMap("gone", { tier: "web" }));
      const goneDel = await deleteAt(server, cmPath(ns, "gone"));
      await deleteAt(server, cmPath(ns, "moving")); // deleted while not matching: nothing
      const last = await create(server, cmPath(ns), configMap("last", { tier: "web" }));
      expect(r(m1)).not.toBe(r(m2));

      const got = await settle(w, r(last));
      expect(got).toEqual([
        ev("ADDED", `${ns}/moving`, r(m2)),
        ev("MODIFIED", `${ns}/moving`, r(m3)),
        ev("DELETED", `${ns}/moving`, r(m4)),
        ev("ADDED", `${ns}/other`, r(o1)),
        ev("MODIFIED", `${ns}/other`, r(o2)),
        ev("ADDED", `${ns}/gone`, r(gone)),
        ev("DELETED", `${ns}/gone`, goneDel),
        ev("ADDED", `${ns}/last`, r(last)),
      ]);
      // The "stopped matching" DELETED carries the last matching state, at the revision of the change.
      const left = w.events[2];
      expect(left.object.metadata.labels).toEqual({ tier: "web" });
      expect(left.object.data).toEqual({ k: "changed" });
      expect(left.object.metadata.resourceVersion).toBe(r(m4));

      const gotF = await settle(wf, r(last), 50);
      expect(gotF).toEqual([
        ev("ADDED", `${ns}/moving`, r(m2)),
        ev("MODIFIED", `${ns}/moving`, r(m3)),
        ev("MODIFIED", `${ns}/moving`, r(m4)),
        ev("MODIFIED", `${ns}/moving`, r(m5)),
        ev("DELETED", `${ns}/moving`, r(m6)),
        ev("ADDED", `${ns}/gone`, r(gone)),
        ev("DELETED", `${ns}/gone`, goneDel),
        ev("ADDED", `${ns}/last`, r(last)),
      ]);
      expect(wf.events[4].object.metadata.labels).toEqual({ tier: "db" });
    } finally {
      w.close();
      wf.close();
    }
  });
});

describe("sendInitialEvents, bookmarks and termination", { timeout: 60_000 }, () => {
  test("sendInitialEvents=true: initial ADDED, then a BOOKMARK marking their end, then changes", async () => {
    const ns = "w-watchlist";
    const objs = [];
    for (const n of ["p", "q"]) objs.push(await create(server, cmPath(ns), configMap(n)));
    const rootCA = await call(server, "GET", cmPath(ns, ROOT_CA));
    const current = await currentRev(server);
    for (const rvParam of ["", "&resourceVersion=0", `&resourceVersion=${objs[1].metadata.resourceVersion}`]) {
      const w = await openWatch(
        server,
        `${cmPath(ns)}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan${rvParam}`,
      );
      try {
        await w.until((evs) => evs.some((e) => e.type === "BOOKMARK"), 10_000, "the initial-events-end bookmark");
        // The namespace's whole state: the test's objects and the root-ca publisher's kube-root-ca.crt.
        const state = [rootCA, ...objs];
        const initial = w.events.slice(0, state.length);
        expect(initial.map(key).sort(), rvParam).toEqual(state.map((o) => ev("ADDED", `${ns}/${o.metadata.name}`, o.metadata.resourceVersion)));
        const bookmark = w.events[state.length];
        expect(bookmark.type, describeEvents(w.events)).toBe("BOOKMARK");
        expect(bookmark.object.kind).toBe("ConfigMap");
        expect(bookmark.object.apiVersion).toBe("v1");
        expect(bookmark.object.metadata.annotations?.["k8s.io/initial-events-end"]).toBe("true");
        expect(rv(bookmark.object.metadata.resourceVersion) >= rv(current), "bookmark at the snapshot revision").toBe(true);
        expect(bookmark.object.metadata.name).toBeUndefined();
        const p2 = await mergePatch(server, cmPath(ns, "p"), { data: { k: `p${rvParam.length}` } });
        const got = await settle(w, p2.metadata.resourceVersion, 50);
        expect(got.slice(state.length + 1)).toEqual([ev("MODIFIED", `${ns}/p`, p2.metadata.resourceVersion)]);
        objs[0] = p2;
        expectWireFormat(w);
      } finally {
        w.close();
      }
    }
  });

  test("sendInitialEvents without resourceVersionMatch=NotOlderThan is refused (422)", async () => {
    const res = await server.request("GET", `${cmPath("w-watchlist")}?watch=true&sendInitialEvents=true`);
    expectStatus(res, 422, "Invalid");
  });

  test("timeoutSeconds=1 ends the stream cleanly, without an ERROR event", async () => {
    const rootCA = await call(server, "GET", cmPath("w-timeout", ROOT_CA));
    const t0 = Date.now();
    const w = await openWatch(server, `${cmPath("w-timeout")}?watch=true&timeoutSeconds=1`);
    const res = await Promise.race([w.ended, sleep(10_000).then(() => undefined)]);
    const elapsed = Date.now() - t0;
    expect(res, "the stream ends").toEqual({ clean: true });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5_000);
    // Only the synthetic ADDED of the namespace's current state (kube-root-ca.crt alone), then the clean end.
    expect(w.events.map(key)).toEqual([ev("ADDED", `w-timeout/${ROOT_CA}`, rootCA.metadata.resourceVersion)]);
    expectWireFormat(w);
  });

  test("closed client connections free their watchers: the server keeps serving writes and new watches", async () => {
    const ns = "w-disconnect";
    await create(server, cmPath(ns), configMap("seed"));
    const streams: WatchStream[] = [];
    for (let i = 0; i < 40; i++) {
      streams.push(await openWatch(server, `${cmPath(ns)}?watch=true${i % 2 ? "&resourceVersion=0" : ""}`));
    }
    await Promise.all(streams.map((s) => s.until((evs) => evs.length >= 1, 10_000, "the initial ADDED")));
    for (const s of streams) s.close();
    // Writes after the disconnects must not fail or stall on the dead watchers.
    let lastRev = "";
    for (let i = 0; i < 30; i++) {
      const o = await create(server, cmPath(ns), configMap(`after-${i}`, undefined, { blob: "x".repeat(2_000) }));
      lastRev = o.metadata.resourceVersion;
    }
    const w = await openWatch(server, `${cmPath(ns)}?watch=true&resourceVersion=${lastRev}`);
    try {
      const next = await create(server, cmPath(ns), configMap("next"));
      expect(await settle(w, next.metadata.resourceVersion, 50)).toEqual([ev("ADDED", `${ns}/next`, next.metadata.resourceVersion)]);
    } finally {
      w.close();
    }
    const ready = await server.request("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(server.logs()).not.toMatch(/unhandled|uncaught|ERR_STREAM_WRITE_AFTER_END|write after end/i);
  });
});
});

// A watch's initial events (WatchList, sendInitialEvents) are written as the client reads them: while the
// sink says it is behind, the rest waits, events committed meanwhile queue behind them, and the client gets
// the state at the watch's revision, its bookmark, then those events in order.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WatchSink } from "./index";
import { testBackends, type Backend } from "./test-databases";
import { always, closeStores, cm, fresh as freshOn, key, RESOURCE } from "./test-stores";

afterEach(closeStores);

let backend: Backend = "sqlite";

/** A sink that is "behind" after every `per` chunks until the test lets it catch up. */
function slowSink(per: number) {
  const chunks: string[] = [];
  let closed = false;
  let since = 0;
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  const sink: WatchSink = {
    send: (c) => { chunks.push(c.toString()); since++; return true; },
    close: () => { closed = true; gate?.open(); },
    ready: () => {
      if (since < per) return undefined;
      if (!gate) {
        let open!: () => void;
        const promise = new Promise<void>((r) => { open = r; });
        gate = { promise, open: () => { since = 0; gate = undefined; open(); } };
      }
      return gate.promise;
    },
  };
  return {
    sink,
    lines: () => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: { metadata: { name?: string; resourceVersion?: string } } }),
    /** Let the client read what waits; resolves after the watcher had its turn. */
    read: async () => { gate?.open(); await new Promise((r) => setImmediate(r)); },
    closed: () => closed,
  };
}

describe.each(testBackends)("initial events at the client's pace on %s", (b) => {
  beforeAll(() => { backend = b; });

  it("sends no more than the client takes, then the bookmark, then what happened meanwhile, in order", async () => {
    const { store } = await freshOn(backend);
    let last = 0;
    for (let i = 0; i < 50; i++) {
      const r = await store.writer.commit({ type: "create", key: key(`o${String(i).padStart(2, "0")}`), object: cm(`o${String(i).padStart(2, "0")}`) });
      if (r.ok) last = r.event.rev;
    }
    await store.objects.waitFor(last);
    const at = store.objects.rev;
    const w = slowSink(10);
    const stop = store.objects.watch({
      ...always, resource: RESOURCE, initialState: true, initialEventsEnd: true, bookmarks: true,
      bookmark: (rev, end) => JSON.stringify({ kind: "Widget", metadata: { resourceVersion: String(rev), ...(end ? { annotations: { "k8s.io/initial-events-end": "true" } } : {}) } }),
    }, w.sink);
    expect(w.lines()).toHaveLength(10); // the rest waits for the client

    const current = store.objects.get(key("o05"))!;
    const changed = await store.writer.commit({ type: "update", key: key("o05"), object: cm("o05", { v: "2" }), expectRev: current.rev });
    const added = await store.writer.commit({ type: "create", key: key("zz"), object: cm("zz") });
    expect(changed.ok && added.ok).toBe(true);
    await store.objects.waitFor(store.objects.rev);
    expect(w.lines()).toHaveLength(10); // still behind: the new events wait behind the initial ones

    for (let i = 0; i < 10 && w.lines().length < 53; i++) await w.read();
    const lines = w.lines();
    expect(lines.slice(0, 50).map((l) => l.type)).toEqual(Array(50).fill("ADDED"));
    expect(lines.slice(0, 50).map((l) => l.object.metadata.name)).toEqual(Array.from({ length: 50 }, (_, i) => `o${String(i).padStart(2, "0")}`));
    expect(lines[5].object.metadata.resourceVersion).toBe(String(current.rev)); // the state at the watch's revision
    expect(lines[50]).toMatchObject({ type: "BOOKMARK", object: { metadata: { resourceVersion: String(at) } } });
    expect(lines.slice(51).map((l) => [l.type, l.object.metadata.name])).toEqual([["MODIFIED", "o05"], ["ADDED", "zz"]]);

    // Live from then on: the next event goes out at once.
    await store.writer.commit({ type: "create", key: key("zz2"), object: cm("zz2") });
    await store.objects.waitFor(store.objects.rev);
    await w.read();
    expect(w.lines().at(-1)).toMatchObject({ type: "ADDED", object: { metadata: { name: "zz2" } } });
    stop();
    expect(w.closed()).toBe(true);
  });

  it("stops writing initial events when the watch is stopped while the client is behind", async () => {
    const { store } = await freshOn(backend);
    for (let i = 0; i < 30; i++) await store.writer.commit({ type: "create", key: key(`p${i}`), object: cm(`p${i}`) });
    await store.objects.catchUp();
    const w = slowSink(5);
    const stop = store.objects.watch({ ...always, resource: RESOURCE, initialState: true }, w.sink);
    expect(w.lines()).toHaveLength(5);
    stop();
    await w.read();
    await w.read();
    expect(w.lines()).toHaveLength(5);
    expect(w.closed()).toBe(true);
  });
});

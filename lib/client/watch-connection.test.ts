import { describe, expect, it } from "vitest";
import { startWatch, type WatchStatus } from "./watch-connection";
import { WatchSlots } from "./watch-slots";

const enc = new TextEncoder();
const ndjson = (lines: unknown[]) =>
  new Response(new ReadableStream({ start(c) { for (const l of lines) c.enqueue(enc.encode(JSON.stringify(l) + "\n")); c.close(); } }), { status: 200 });

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe("startWatch", () => {
  it("resumes from the last resourceVersion after the stream ends, and stops on 410", async () => {
    const urls: string[] = [];
    const statuses: WatchStatus[] = [];
    const events: string[] = [];
    let expired = false;
    const answers = [
      () => ndjson([{ type: "ADDED", object: { metadata: { name: "a", resourceVersion: "11" } } }, { type: "BOOKMARK", object: { metadata: { resourceVersion: "15" } } }]),
      () => ndjson([{ type: "MODIFIED", object: { metadata: { name: "a", resourceVersion: "16" } } }]),
      () => ndjson([{ type: "ERROR", object: { kind: "Status", code: 410, reason: "Expired" } }]),
    ];
    const stop = startWatch({
      url: (rv) => `/w?resourceVersion=${rv}`,
      resourceVersion: "10",
      onEvent: (e) => events.push(e.type),
      onStatus: (s) => statuses.push(s),
      onExpired: () => (expired = true),
      slots: new WatchSlots(4),
      fetchImpl: (async (url: string) => {
        urls.push(url);
        return answers[urls.length - 1]();
      }) as never,
      backoffMs: [1],
    });
    await waitFor(() => expired);
    stop();
    expect(urls).toEqual(["/w?resourceVersion=10", "/w?resourceVersion=15", "/w?resourceVersion=16"]);
    expect(events).toEqual(["ADDED", "BOOKMARK", "MODIFIED"]);
    expect(statuses).toContain("live");
    expect(statuses.at(-1)).toBe("relisting");
  });

  it("stops for good on 403 and reports kube's message", async () => {
    let calls = 0;
    const statuses: [WatchStatus, string | undefined][] = [];
    const message = 'configmaps is forbidden: User "dev" cannot watch resource "configmaps" in API group "" in the namespace "x"';
    const stop = startWatch({
      url: (rv) => `/w?resourceVersion=${rv}`,
      resourceVersion: "1",
      onEvent: () => {},
      onStatus: (s, d) => statuses.push([s, d]),
      onExpired: () => {},
      slots: new WatchSlots(4),
      fetchImpl: (async () => {
        calls++;
        return new Response(JSON.stringify({ kind: "Status", code: 403, reason: "Forbidden", message }), { status: 403 });
      }) as never,
      backoffMs: [1],
    });
    await waitFor(() => statuses.some(([s]) => s === "error"));
    await new Promise((r) => setTimeout(r, 30));
    stop();
    expect(calls).toBe(1);
    expect(statuses.at(-1)).toEqual(["error", message]);
  });

  it("reports reconnecting after a network failure and retries from the same version", async () => {
    const urls: string[] = [];
    const statuses: WatchStatus[] = [];
    let calls = 0;
    const stop = startWatch({
      url: (rv) => rv,
      resourceVersion: "7",
      onEvent: () => {},
      onStatus: (s) => statuses.push(s),
      onExpired: () => {},
      slots: new WatchSlots(4),
      fetchImpl: (async (url: string) => {
        urls.push(url);
        calls++;
        if (calls === 1) throw new TypeError("network down");
        return new Response(new ReadableStream({ start() {} }), { status: 200 });
      }) as never,
      backoffMs: [1],
    });
    await waitFor(() => statuses.includes("live"));
    stop();
    expect(statuses).toContain("reconnecting");
    expect(urls).toEqual(["7", "7"]);
  });
});

describe("WatchSlots", () => {
  it("queues beyond the limit and preempts the oldest holder after its slice", async () => {
    let now = 0;
    const slots = new WatchSlots(1, 100, () => now);
    const first = await slots.acquire();
    let preempted = false;
    first.onPreempt = () => {
      preempted = true;
      first.release();
    };
    let secondGranted = false;
    const second = slots.acquire().then((s) => {
      secondGranted = true;
      return s;
    });
    slots.rebalance();
    expect(preempted).toBe(false);
    now = 150;
    slots.rebalance();
    expect(preempted).toBe(true);
    (await second).release();
    expect(secondGranted).toBe(true);
    expect(slots.active).toBe(0);
  });
});

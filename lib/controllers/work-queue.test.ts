import { describe, expect, it } from "vitest";
import { WorkQueue } from "./work-queue";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe("work queue", () => {
  it("processes a key added many times while waiting once", async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const q = new WorkQueue(async (k) => { seen.push(k); if (k === "first") await gate; });
    q.add("first");
    for (let i = 0; i < 5; i++) q.add("x");
    release();
    await q.idle();
    expect(seen).toEqual(["first", "x"]);
  });

  it("runs a key again when it was added while being processed, never twice at once", async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const q = new WorkQueue(async () => {
      running++; maxRunning = Math.max(maxRunning, running); runs++;
      if (runs === 1) q.add("k");
      await tick(5);
      running--;
    }, { concurrency: 4 });
    q.add("k");
    await tick(1);
    await q.idle();
    expect(runs).toBe(2);
    expect(maxRunning).toBe(1);
  });

  it("retries a failing key with growing delays until it succeeds", async () => {
    const at: number[] = [];
    const errors: string[] = [];
    const q = new WorkQueue(async () => {
      at.push(Date.now());
      if (at.length < 4) throw new Error("not yet");
    }, { baseDelayMs: 10, onError: (k, e) => errors.push(`${k}: ${(e as Error).message}`) });
    q.add("k");
    const deadline = Date.now() + 2000;
    while (at.length < 4 && Date.now() < deadline) await tick(5);
    expect(at).toHaveLength(4);
    expect(errors).toEqual(["k: not yet", "k: not yet", "k: not yet"]);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    expect(gaps[2]).toBeGreaterThanOrEqual(gaps[0]);
    expect(gaps[2]).toBeGreaterThanOrEqual(35);
  });

  it("does nothing more once stopped", async () => {
    const seen: string[] = [];
    const q = new WorkQueue(async (k) => { seen.push(k); });
    q.stop();
    q.add("k");
    q.addAfter("later", 1);
    await tick(10);
    expect(seen).toEqual([]);
  });

  it("works through 200,000 keys (a start-up at scale) in time proportional to them, in order", async () => {
    // Taking keys from the front of the array one by one copied it each time: 200,000 keys took most of a minute.
    const seen: string[] = [];
    const q = new WorkQueue(async (k) => { seen.push(k); });
    const keys = Array.from({ length: 200_000 }, (_, i) => `ns/pod-${i}`);
    const t0 = performance.now();
    for (const k of keys) q.add(k);
    await q.idle();
    expect(seen).toEqual(keys);
    expect(q.length).toBe(0);
    expect(performance.now() - t0).toBeLessThan(10_000);
  }, 60_000);

  it("processes nothing before its informer has synced, then everything queued meanwhile", async () => {
    let synced = false;
    let sync!: () => void;
    const whenSynced = new Promise<void>((r) => { sync = () => { synced = true; r(); }; });
    const seen: string[] = [];
    const q = new WorkQueue(async (k) => { seen.push(k); }, { waitFor: { hasSynced: () => synced, whenSynced: () => whenSynced } });
    q.add("a");
    q.add("b");
    await tick(10);
    expect(seen).toEqual([]);
    expect(q.length).toBe(2);
    sync();
    await tick(1);
    await q.idle();
    expect(seen).toEqual(["a", "b"]);
  });
});

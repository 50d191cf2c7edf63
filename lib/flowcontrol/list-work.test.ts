// A LIST weighed as kube's APF weighs it: seats by the objects it touches, a wide request holding that many
// seats (and waiting for them without being overtaken), and a memory budget for answers in flight that
// refuses at once with kube's 429 beyond it while smaller requests keep fitting.
import { describe, expect, it } from "vitest";
import { isStatusError } from "../status";
import { FlowController, tooManyRequests } from "./flow-controller";
import { listWorkEstimate } from "./list-work-estimate";
import { MemoryBudget } from "./memory-budget";

describe("listWorkEstimate", () => {
  const est = (objects: number, limit = 0, selective = false, single = false, bytes = objects * 2000) =>
    listWorkEstimate({ objects, bytes, limit, selective, single });

  it("one seat per 100 objects touched, at least 1 and at most 100", () => {
    expect(est(0).seats).toBe(1);
    expect(est(99).seats).toBe(1);
    expect(est(101).seats).toBe(2);
    expect(est(10_000).seats).toBe(100);
    expect(est(150_000).seats).toBe(100);
  });

  it("a page without selectors touches its limit; with a selector the whole resource; a named object one", () => {
    expect(est(10_000, 500).seats).toBe(5);
    expect(est(10_000, 500, true).seats).toBe(100);
    expect(est(10_000, 0, true, true).seats).toBe(1);
  });

  it("memory: the answer's bytes, at most 1 MB for a streamed list", () => {
    expect(est(100).memory).toBe(200_000);
    expect(est(10_000).memory).toBe(1_000_000);
    expect(est(10_000, 50).memory).toBe(100_000);
    expect(est(0).memory).toBe(0);
  });
});

describe("wide requests", () => {
  it("take their width in seats; a wide one waits until that many are free and narrower ones queue behind it", async () => {
    const fc = new FlowController({ readOnly: 10, queueWaitMs: 5_000 });
    const list = fc.admit("a", "readOnly", 8) as () => void;
    expect(typeof list).toBe("function");
    expect(fc.usage().readOnly.inUse).toBe(8);
    const get = fc.admit("b", "readOnly") as () => void;
    expect(fc.usage().readOnly.inUse).toBe(9);
    const wide = fc.admit("c", "readOnly", 5) as Promise<() => void>;
    const narrow = fc.admit("d", "readOnly") as Promise<() => void>;
    expect(fc.usage().readOnly).toEqual({ inUse: 9, waiting: 2 });
    let narrowServed = false;
    void narrow.then(() => { narrowServed = true; });
    get();
    await Promise.resolve();
    expect(narrowServed).toBe(false); // not ahead of the wide request
    list();
    const w = await wide;
    expect(fc.usage().readOnly.inUse).toBe(6);
    (await narrow)();
    w();
    expect(fc.usage().readOnly).toEqual({ inUse: 0, waiting: 0 });
  });

  it("a width beyond the pool takes the whole pool, never waits forever", async () => {
    const fc = new FlowController({ readOnly: 4, queueWaitMs: 5_000 });
    const all = fc.admit("a", "readOnly", 100) as () => void;
    expect(fc.usage().readOnly.inUse).toBe(4);
    all();
  });
});

describe("MemoryBudget", () => {
  it("reserves until full, refuses with kube's 429 and Retry-After, and takes reservations again once released", () => {
    const budget = new MemoryBudget(2_500_000, tooManyRequests);
    const one = budget.reserve(1_000_000);
    const two = budget.reserve(1_000_000);
    let refused: unknown;
    try { budget.reserve(1_000_000); } catch (err) { refused = err; }
    expect(isStatusError(refused)).toBe(true);
    const status = (refused as { toStatus(): { code?: number; reason?: string; message?: string; details?: { retryAfterSeconds?: number } } }).toStatus();
    expect(status).toMatchObject({ code: 429, reason: "TooManyRequests", message: "Too many requests, please try again later.", details: { retryAfterSeconds: 1 } });
    const small = budget.reserve(100_000); // a small list still fits
    one();
    one(); // idempotent
    const three = budget.reserve(1_000_000);
    expect(budget.inUse).toBe(2_100_000);
    for (const r of [two, small, three]) r();
    expect(budget.inUse).toBe(0);
  });

  it("an answer larger than the whole budget is served alone rather than never", () => {
    const budget = new MemoryBudget(1000, tooManyRequests);
    const big = budget.reserve(5000);
    expect(() => budget.reserve(1)).toThrow();
    big();
    expect(() => budget.reserve(1)()).not.toThrow();
  });
});

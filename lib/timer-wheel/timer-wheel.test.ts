import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TimerWheel } from "./timer-wheel";

describe("TimerWheel", () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout", "performance", "Date", "queueMicrotask"] }); });
  afterEach(() => { vi.useRealTimers(); });

  it("fires each deadline once, never early and at most a tick late, in deadline order", () => {
    const wheel = new TimerWheel(100);
    const fired: [string, number][] = [];
    const t0 = performance.now();
    wheel.schedule(1000, () => fired.push(["b", performance.now() - t0]));
    wheel.schedule(250, () => fired.push(["a", performance.now() - t0]));
    wheel.schedule(30_000, () => fired.push(["c", performance.now() - t0]));
    vi.advanceTimersByTime(999);
    expect(fired.map(([n]) => n)).toEqual(["a"]);
    vi.advanceTimersByTime(60_000);
    expect(fired.map(([n]) => n)).toEqual(["a", "b", "c"]);
    for (const [, at] of fired) expect(at).toBeGreaterThanOrEqual(0);
    expect(fired[0][1]).toBeGreaterThanOrEqual(250);
    expect(fired[0][1]).toBeLessThanOrEqual(350);
    expect(fired[1][1]).toBeGreaterThanOrEqual(1000);
    expect(fired[1][1]).toBeLessThanOrEqual(1100);
    expect(fired[2][1]).toBeGreaterThanOrEqual(30_000);
    expect(wheel.pending).toBe(0);
  });

  it("a cancelled deadline never fires, and the wheel stops its interval when nothing waits", () => {
    const wheel = new TimerWheel(100);
    let fired = 0;
    const cancel = wheel.schedule(500, () => fired++);
    wheel.schedule(200, () => fired++);
    expect(vi.getTimerCount()).toBe(1);
    cancel();
    cancel();
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(1);
    expect(wheel.pending).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ten thousand deadlines share one timer", () => {
    const wheel = new TimerWheel(100);
    let fired = 0;
    for (let i = 0; i < 10_000; i++) wheel.schedule(1_800_000 + Math.random() * 1_800_000, () => fired++);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3_600_100);
    expect(fired).toBe(10_000);
  });

  it("a callback that throws does not keep the others of its slot from firing", () => {
    const wheel = new TimerWheel(100);
    let fired = 0;
    wheel.schedule(100, () => { throw new Error("boom"); });
    wheel.schedule(100, () => fired++);
    expect(() => vi.advanceTimersByTime(300)).toThrow("boom");
    expect(fired).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { isStatusError } from "../status";
import { FlowController, type Release } from "./flow-controller";

const seat = async (fc: FlowController, user: string, kind: "readOnly" | "mutating" = "readOnly") => fc.admit(user, kind);

async function refusal(p: unknown): Promise<{ code: number; reason: string; message: string; retry?: number }> {
  try {
    await (typeof p === "function" ? (p as () => unknown)() : p);
  } catch (err) {
    if (isStatusError(err)) {
      const s = err.toStatus();
      return { code: s.code!, reason: s.reason!, message: s.message!, retry: s.details?.retryAfterSeconds };
    }
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("flow control", () => {
  it("grants seats up to the limit per pool; reads and writes have their own", async () => {
    const fc = new FlowController({ readOnly: 2, mutating: 1, queueWaitMs: 50 });
    await seat(fc, "a");
    await seat(fc, "a");
    await seat(fc, "a", "mutating");
    expect(fc.usage()).toEqual({ readOnly: { inUse: 2, waiting: 0 }, mutating: { inUse: 1, waiting: 0 } });
  });

  it("a request waits for a freed seat, and past the wait is refused 429 with Retry-After", async () => {
    const fc = new FlowController({ readOnly: 1, queueWaitMs: 60 });
    const first = await seat(fc, "a");
    const waiting = seat(fc, "a");
    expect(fc.usage().readOnly.waiting).toBe(1);
    first();
    const second = await waiting;
    expect(fc.usage().readOnly).toEqual({ inUse: 1, waiting: 0 });
    const late = await refusal(seat(fc, "a"));
    expect(late).toEqual({ code: 429, reason: "TooManyRequests", message: "Too many requests, please try again later.", retry: 1 });
    expect(fc.usage().readOnly.waiting).toBe(0);
    second();
    second(); // a second release changes nothing
    expect(fc.usage().readOnly.inUse).toBe(0);
  });

  it("a full per-user queue is refused at once", async () => {
    const fc = new FlowController({ readOnly: 1, queueWaitMs: 1000, queueLengthPerUser: 2 });
    const held = await seat(fc, "flood");
    const queued = [seat(fc, "flood"), seat(fc, "flood")];
    expect((await refusal(() => fc.admit("flood", "readOnly"))).code).toBe(429);
    held();
    for (const q of queued) (await q)();
  });

  it("freed seats go round robin: one user's flood does not starve another", async () => {
    const fc = new FlowController({ readOnly: 1, queueWaitMs: 5000, queueLengthPerUser: 100 });
    let release: Release = await seat(fc, "flood");
    const order: string[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) waits.push(Promise.resolve(fc.admit("flood", "readOnly")).then((r) => { order.push("flood"); release = r; }));
    waits.push(Promise.resolve(fc.admit("quiet", "readOnly")).then((r) => { order.push("quiet"); release = r; }));
    for (let i = 0; i < 21; i++) {
      release();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(waits);
    release();
    expect(order.indexOf("quiet")).toBeLessThanOrEqual(1);
  });

  it("watches take no seat and are capped per user", () => {
    const fc = new FlowController({ readOnly: 1, watchesPerUser: 2 });
    const w1 = fc.admitLongRunning("a");
    fc.admitLongRunning("a");
    expect(() => fc.admitLongRunning("a")).toThrow("Too many requests");
    fc.admitLongRunning("b");
    w1();
    w1();
    fc.admitLongRunning("a");
    expect(fc.usage().readOnly.inUse).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { BACKGROUND_SHARE_SLICES, WatchSlots, type WatchPriority, type WatchSlot } from "./watch-slots";

/** A holder that gives its slot back when asked, as watch-connection does. */
async function hold(slots: WatchSlots, priority: WatchPriority, log: string[], name: string): Promise<WatchSlot> {
  const slot = await slots.acquire(undefined, priority);
  slot.onPreempt = () => {
    log.push(`preempt ${name}`);
    slot.release();
  };
  return slot;
}

describe("WatchSlots priorities", () => {
  it("a normal watch takes a background watch's slot at once", async () => {
    const now = 0;
    const slots = new WatchSlots(1, 100, () => now);
    const log: string[] = [];
    await hold(slots, "background", log, "bg");
    const normal = slots.acquire(undefined, "normal");
    expect(log).toEqual(["preempt bg"]);
    (await normal).release();
  });

  it("a released slot goes to a waiting normal watch before earlier background ones", async () => {
    const slots = new WatchSlots(1, 100, () => 0);
    const first = await slots.acquire(undefined, "normal");
    const order: string[] = [];
    const bg = slots.acquire(undefined, "background").then((s) => (order.push("bg"), s));
    const normal = slots.acquire(undefined, "normal").then((s) => (order.push("normal"), s));
    first.release();
    (await normal).release();
    (await bg).release();
    expect(order).toEqual(["normal", "bg"]);
    expect(slots.active).toBe(0);
  });

  it("background watches take turns among themselves after a third of a slice", async () => {
    let now = 0;
    const slots = new WatchSlots(1, 100, () => now);
    const log: string[] = [];
    await hold(slots, "background", log, "bg1");
    const second = slots.acquire(undefined, "background");
    slots.rebalance();
    expect(log).toEqual([]);
    now = 33;
    slots.rebalance();
    expect(log).toEqual([]);
    now = 34;
    slots.rebalance();
    expect(log).toEqual(["preempt bg1"]);
    (await second).release();
  });

  it("a background watch waits for a normal one that holds the last slot, until its longer share is used", async () => {
    let now = 0;
    const slots = new WatchSlots(1, 100, () => now);
    const log: string[] = [];
    await hold(slots, "normal", log, "normal");
    const bg = slots.acquire(undefined, "background");
    now = 100;
    slots.rebalance();
    expect(log).toEqual([]);
    now = 100 * BACKGROUND_SHARE_SLICES;
    slots.rebalance();
    expect(log).toEqual(["preempt normal"]);
    (await bg).release();
  });

  it("background watches do not take normal slots while one of them already has a slot", async () => {
    let now = 0;
    const slots = new WatchSlots(2, 100, () => now);
    const log: string[] = [];
    await hold(slots, "normal", log, "normal");
    now = 1; // the background holder is the younger, so it is not due when the normal one is
    await hold(slots, "background", log, "bg1");
    const waiting = slots.acquire(undefined, "background");
    now = 100 * BACKGROUND_SHARE_SLICES;
    slots.rebalance();
    expect(log).toEqual(["preempt bg1"]);
    (await waiting).release();
  });
});

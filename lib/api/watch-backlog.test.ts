import { describe, expect, it } from "vitest";
import { WatchBacklogs } from "./watch-backlog";

function fake(backlog: number) {
  const s = { backlog, progress: 0, cut: false };
  return { s, stream: { backlog: () => s.backlog, progress: () => s.progress, cut: () => { s.cut = true; } } };
}

describe("watch backlogs", () => {
  it("cuts a stream whose client took nothing for the stall time while bytes waited", () => {
    const b = new WatchBacklogs({ stallMs: 5000, totalBytes: 1e9 });
    const stuck = fake(1000), reading = fake(1000), idle = fake(0);
    for (const f of [stuck, reading, idle]) b.track(f.stream);
    for (let t = 0; t <= 6000; t += 1000) {
      reading.s.progress += 10;
      b.sweep(t);
    }
    expect([stuck.s.cut, reading.s.cut, idle.s.cut]).toEqual([true, false, false]);
  });

  it("a stream that drains in time is not cut", () => {
    const b = new WatchBacklogs({ stallMs: 5000, totalBytes: 1e9 });
    const slow = fake(1000);
    b.track(slow.stream);
    b.sweep(0);
    b.sweep(4000);
    slow.s.progress += 1;
    b.sweep(4500);
    b.sweep(9000);
    expect(slow.s.cut).toBe(false);
  });

  it("over the total cap, the largest backlogs go first", () => {
    const b = new WatchBacklogs({ stallMs: 1e9, totalBytes: 100 });
    const big = fake(80), mid = fake(50), small = fake(10);
    for (const f of [small, big, mid]) b.track(f.stream);
    b.sweep(0);
    expect([big.s.cut, mid.s.cut, small.s.cut]).toEqual([true, false, false]);
  });

  it("an untracked stream is never cut", () => {
    const b = new WatchBacklogs({ stallMs: 0, totalBytes: 0 });
    const gone = fake(10);
    b.track(gone.stream)();
    b.sweep(0);
    expect(gone.s.cut).toBe(false);
  });
});

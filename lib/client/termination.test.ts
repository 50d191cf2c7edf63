import { describe, expect, it } from "vitest";
import { stillHeld, termination, terminationDetail, terminationSentence } from "./termination";

const at = Date.parse("2025-06-01T12:00:00Z");

describe("termination", () => {
  it("is undefined for an object that is not being deleted", () => {
    expect(termination({ metadata: { name: "a", finalizers: ["x/y"] } }, at)).toBeUndefined();
  });

  it("names the finalizers that hold it", () => {
    const t = termination({ metadata: { deletionTimestamp: "2025-06-01T11:59:00Z", deletionGracePeriodSeconds: 0, finalizers: ["example.com/a", "example.com/b"] } }, at)!;
    expect(t).toEqual({ deletionTimestamp: "2025-06-01T11:59:00Z", finalizers: ["example.com/a", "example.com/b"] });
    expect(terminationDetail(t)).toBe("finalizers example.com/a, example.com/b");
    expect(terminationSentence(t)).toBe("Deletion requested at 2025-06-01T11:59:00Z; waiting for the finalizers example.com/a, example.com/b to be removed.");
  });

  it("counts down the grace period to the deletionTimestamp, in whole seconds, never below 0", () => {
    const pod = { metadata: { deletionTimestamp: "2025-06-01T12:00:30Z", deletionGracePeriodSeconds: 30 } };
    expect(termination(pod, at)?.secondsLeft).toBe(30);
    expect(termination(pod, at + 1)?.secondsLeft).toBe(30);
    expect(termination(pod, at + 1_000)?.secondsLeft).toBe(29);
    expect(terminationDetail(termination(pod, at + 12_500)!)).toBe("18s left");
    expect(termination(pod, at + 45_000)?.secondsLeft).toBe(0);
    expect(terminationDetail(termination(pod, at + 45_000)!)).toBe("grace period over");
    expect(terminationSentence(termination(pod, at + 10_000)!)).toBe("Deletion requested; goes at 2025-06-01T12:00:30Z (20 seconds left).");
    expect(terminationSentence(termination(pod, at + 45_000)!)).toBe("Deletion requested; its grace period ended at 2025-06-01T12:00:30Z.");
  });

  it("shows both a grace period and a finalizer", () => {
    const t = termination({ metadata: { deletionTimestamp: "2025-06-01T12:00:10Z", deletionGracePeriodSeconds: 10, finalizers: ["example.com/a"] } }, at)!;
    expect(terminationDetail(t)).toBe("finalizer example.com/a · 10s left");
    expect(terminationSentence(t)).toBe("Deletion requested; goes at 2025-06-01T12:00:10Z (10 seconds left), once the finalizer example.com/a is removed.");
  });

  it("says nothing more when nothing holds it (about to go)", () => {
    const t = termination({ metadata: { deletionTimestamp: "2025-06-01T12:00:00Z" } }, at)!;
    expect(terminationDetail(t)).toBe("");
    expect(terminationSentence(t)).toBe("Deletion requested at 2025-06-01T12:00:00Z.");
  });
});

describe("stillHeld", () => {
  it("reads a DELETE answer: a Status or an object nothing holds is gone; finalizers or a grace period keep it", () => {
    expect(stillHeld({ kind: "Status", apiVersion: "v1", status: "Success", metadata: {} })).toBe(false);
    expect(stillHeld(undefined)).toBe(false);
    expect(stillHeld({ kind: "Pod", metadata: { deletionTimestamp: "2025-06-01T12:00:00Z", deletionGracePeriodSeconds: 0 } })).toBe(false);
    expect(stillHeld({ kind: "Pod", metadata: { deletionTimestamp: "2025-06-01T12:00:30Z", deletionGracePeriodSeconds: 30 } })).toBe(true);
    expect(stillHeld({ kind: "ConfigMap", metadata: { deletionTimestamp: "2025-06-01T12:00:00Z", deletionGracePeriodSeconds: 0, finalizers: ["foregroundDeletion"] } })).toBe(true);
    expect(stillHeld({ kind: "ConfigMap", metadata: { finalizers: ["x/y"] } })).toBe(false);
  });
});

describe("termination seconds left", () => {
  it("never reads more than the grace period, even when the clock lags the timestamp", () => {
    const obj = { metadata: { name: "p", deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30 } };
    expect(termination(obj as never, Date.parse("2026-01-01T00:00:00Z") - 700)?.secondsLeft).toBe(30);
    expect(termination(obj as never, Date.parse("2026-01-01T00:00:10Z"))?.secondsLeft).toBe(20);
  });
});

import { describe, expect, it } from "vitest";
import { applyWatchEvent, applyWatchEvents, isExpired } from "./apply-watch-event";
import { listStateFromBody } from "./list-state";

const pod = (name: string, rv: string, extra: Record<string, unknown> = {}) => ({
  kind: "Pod",
  metadata: { name, namespace: "ns", resourceVersion: rv, managedFields: [{ manager: "x" }] },
  ...extra,
});

describe("applyWatchEvent", () => {
  const initial = listStateFromBody({ metadata: { resourceVersion: "10" }, items: [pod("a", "5"), pod("b", "6")] });

  it("keys the initial list by namespace/name and strips managedFields", () => {
    expect([...initial.items.keys()]).toEqual(["ns/a", "ns/b"]);
    expect(initial.items.get("ns/a")!.metadata.managedFields).toBeUndefined();
    expect(initial.resourceVersion).toBe("10");
  });

  it("folds ADDED, MODIFIED and DELETED without mutating the input", () => {
    const added = applyWatchEvent(initial, { type: "ADDED", object: pod("c", "11") }, 1000);
    expect(added.items.size).toBe(3);
    expect(added.changedAt.get("ns/c")).toBe(1000);
    expect(initial.items.size).toBe(2);
    const modified = applyWatchEvent(added, { type: "MODIFIED", object: pod("a", "12", { spec: { x: 1 } }) });
    expect(modified.items.get("ns/a")).toMatchObject({ spec: { x: 1 } });
    expect(added.items.get("ns/a")).not.toHaveProperty("spec");
    const deleted = applyWatchEvent(modified, { type: "DELETED", object: pod("b", "13") });
    expect([...deleted.items.keys()].sort()).toEqual(["ns/a", "ns/c"]);
    expect(deleted.resourceVersion).toBe("13");
    expect(deleted.revision).toBe(3);
  });

  it("advances the resourceVersion on BOOKMARK without touching items", () => {
    const next = applyWatchEvent(initial, { type: "BOOKMARK", object: { kind: "Pod", metadata: { resourceVersion: "99" } } as never });
    expect(next.resourceVersion).toBe("99");
    expect(next.items).toEqual(initial.items);
  });

  it("applies a batch with one copy and returns the same state for an empty batch", () => {
    expect(applyWatchEvents(initial, [])).toBe(initial);
    const next = applyWatchEvents(initial, [
      { type: "ADDED", object: pod("x", "20") },
      { type: "MODIFIED", object: pod("x", "21", { spec: { y: 2 } }) },
      { type: "DELETED", object: pod("a", "22") },
    ]);
    expect(next.items.get("ns/x")).toMatchObject({ spec: { y: 2 } });
    expect(next.items.has("ns/a")).toBe(false);
    expect(next.revision).toBe(1);
  });

  it("recognises a 410 ERROR event", () => {
    expect(isExpired({ type: "ERROR", object: { kind: "Status", code: 410, reason: "Expired" } })).toBe(true);
    expect(isExpired({ type: "ERROR", object: { kind: "Status", code: 500 } })).toBe(false);
    expect(isExpired({ type: "ADDED", object: pod("a", "1") as never })).toBe(false);
  });
});

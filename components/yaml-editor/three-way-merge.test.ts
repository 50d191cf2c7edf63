import { describe, expect, it } from "vitest";
import { threeWayMerge } from "./three-way-merge";

const base = {
  metadata: { name: "web", resourceVersion: "5", labels: { app: "web" } },
  data: { a: "1", b: "2" },
  spec: { containers: [{ name: "app", image: "nginx:1" }, { name: "side", image: "busybox" }] },
};

describe("threeWayMerge", () => {
  it("keeps both sides' changes to different fields and takes the server's resourceVersion", () => {
    const theirs = { ...base, metadata: { ...base.metadata, resourceVersion: "9", labels: { app: "web", tier: "x" } } };
    const mine = { ...base, data: { a: "1", b: "3", c: "4" } };
    const { merged, conflicts } = threeWayMerge(base, theirs, mine);
    expect(conflicts).toEqual([]);
    expect(merged).toMatchObject({ metadata: { resourceVersion: "9", labels: { app: "web", tier: "x" } }, data: { a: "1", b: "3", c: "4" } });
  });

  it("reports a field changed differently on both sides and resolves it to the user's value", () => {
    const theirs = { ...base, data: { a: "server", b: "2" } };
    const mine = { ...base, data: { a: "mine", b: "2" } };
    const { merged, conflicts } = threeWayMerge(base, theirs, mine);
    expect(conflicts).toEqual([{ path: "data.a", base: "1", theirs: "server", mine: "mine" }]);
    expect((merged as typeof base).data.a).toBe("mine");
  });

  it("honours deletions on either side", () => {
    const theirs = { ...base, data: { a: "1" } };
    const mine = { ...base, data: { b: "2" } };
    expect(threeWayMerge(base, theirs, mine).merged).toMatchObject({ data: {} });
  });

  it("merges lists of named items by name", () => {
    const theirs = { ...base, spec: { containers: [{ name: "app", image: "nginx:1" }, { name: "side", image: "busybox:2" }] } };
    const mine = { ...base, spec: { containers: [{ name: "app", image: "nginx:2" }, { name: "side", image: "busybox" }] } };
    const { merged, conflicts } = threeWayMerge(base, theirs, mine);
    expect(conflicts).toEqual([]);
    expect((merged as typeof base).spec.containers).toEqual([{ name: "app", image: "nginx:2" }, { name: "side", image: "busybox:2" }]);
  });

  it("agrees when both sides made the same change", () => {
    const same = { ...base, data: { a: "z", b: "2" } };
    expect(threeWayMerge(base, same, same).conflicts).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { threeWayMerge, unstoredChanges } from "./three-way-merge";

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
    expect(conflicts).toEqual([{ path: "data.a", at: ["data", "a"], base: "1", theirs: "server", mine: "mine" }]);
    expect((merged as typeof base).data.a).toBe("mine");
  });

  it("settles a conflict as the user chose, and a field the user left keeps the stored value", () => {
    const theirs = { ...base, metadata: { ...base.metadata, resourceVersion: "9" }, data: { a: "server", b: "from-api" } };
    const mine = { ...base, data: { a: "mine", b: "2", c: "new" } };
    const kept = threeWayMerge(base, theirs, mine, { "data.a": "theirs" });
    expect((kept.merged as typeof base).data).toEqual({ a: "server", b: "from-api", c: "new" });
    expect(kept.changes.map((c) => [c.path, c.kept])).toEqual([
      ["data.a", false],
      ["data.c", true],
    ]);
    expect((threeWayMerge(base, theirs, mine, { "data.a": "mine" }).merged as typeof base).data).toEqual({ a: "mine", b: "from-api", c: "new" });
  });

  it("changes nothing the user did not change: the stored object comes back as stored, without managedFields", () => {
    const theirs = { ...base, metadata: { ...base.metadata, resourceVersion: "9", managedFields: [{ manager: "kubectl" }] }, data: { a: "1", b: "from-api" } };
    const { merged, changes } = threeWayMerge(base, theirs, structuredClone(base));
    expect(changes).toEqual([]);
    expect(merged).toEqual({ ...theirs, metadata: { ...base.metadata, resourceVersion: "9" } });
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

describe("unstoredChanges", () => {
  const mine = { ...base, data: { b: "3", c: "4" }, spec: { containers: [...base.spec.containers, { name: "new", image: "x" }] } };
  const { changes } = threeWayMerge(base, base, mine);

  it("lists nothing when the saved object holds every change (defaults added around a new item are fine)", () => {
    const saved = { ...mine, spec: { containers: [...base.spec.containers, { name: "new", image: "x", imagePullPolicy: "Always" }] } };
    expect(changes.map((c) => c.path)).toEqual(["data.b", "data.c", "data.a", "spec.containers[name=new]"]);
    expect(unstoredChanges(changes, saved)).toEqual([]);
  });

  it("names each change the saved object lacks, with what it holds instead", () => {
    const saved = { ...base, data: { a: "1", b: "3" } };
    expect(unstoredChanges(changes, saved).map((c) => [c.path, c.stored])).toEqual([
      ["data.c", undefined],
      ["data.a", "1"],
      ["spec.containers[name=new]", undefined],
    ]);
  });
});

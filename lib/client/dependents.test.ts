import { describe, expect, it } from "vitest";
import type { KubeObject } from "../kinds";
import type { OwnerReference } from "../kinds/types";
import { deletionPlan, dependentsOf, ownershipGraph, type Located, type PlannedDependent } from "./dependents";

function obj(kind: string, name: string, namespace: string | undefined, owners: Partial<OwnerReference>[] = [], extra: Partial<KubeObject["metadata"]> = {}): Located {
  return {
    kind,
    namespaced: namespace !== undefined,
    obj: {
      metadata: {
        name,
        namespace,
        uid: `uid-${namespace ?? "_"}-${name}`,
        ...(owners.length ? { ownerReferences: owners.map((o) => ({ apiVersion: "v1", kind: "ConfigMap", name: "?", uid: "?", ...o })) } : {}),
        ...extra,
      },
    },
  };
}
const ref = (owner: Located, extra: Partial<OwnerReference> = {}): Partial<OwnerReference> => ({
  kind: owner.kind,
  name: owner.obj.metadata.name,
  uid: owner.obj.metadata.uid,
  ...extra,
});
const names = (nodes: PlannedDependent[]): unknown[] => nodes.map((n) => (n.children.length ? [n.item.obj.metadata.name, names(n.children)] : n.item.obj.metadata.name));
const everything = () => true;

describe("dependentsOf", () => {
  it("finds objects naming the owner's uid, in the owner's namespace only", () => {
    const owner = obj("ConfigMap", "root", "a");
    const child = obj("Secret", "child", "a", [ref(owner)]);
    const elsewhere = obj("Secret", "elsewhere", "b", [ref(owner)]);
    const clusterScoped = obj("PersistentVolume", "pv", undefined, [ref(owner)]);
    const graph = ownershipGraph([owner, child, elsewhere, clusterScoped]);
    expect(dependentsOf(graph, owner).map((d) => d.obj.metadata.name)).toEqual(["child"]);
  });

  it("a cluster-scoped owner has dependents in every namespace and at cluster scope, sorted", () => {
    const owner = obj("Namespace", "root", undefined);
    const deps = [obj("Secret", "s", "b", [ref(owner)]), obj("ConfigMap", "c", "a", [ref(owner)]), obj("PersistentVolume", "pv", undefined, [ref(owner)])];
    const graph = ownershipGraph([owner, ...deps]);
    expect(dependentsOf(graph, owner).map((d) => `${d.kind}/${d.obj.metadata.name}`)).toEqual(["ConfigMap/c", "PersistentVolume/pv", "Secret/s"]);
  });
});

describe("deletionPlan", () => {
  const root = obj("ConfigMap", "root", "ns");
  const child = obj("ConfigMap", "child", "ns", [ref(root, { blockOwnerDeletion: true })]);
  const grandchild = obj("Secret", "grandchild", "ns", [ref(child)]);
  const other = obj("ConfigMap", "other", "ns");
  const shared = obj("ConfigMap", "shared", "ns", [ref(root), ref(other)]);
  const graph = ownershipGraph([root, child, grandchild, other, shared]);

  it("Background/Foreground: dependents and theirs go; one another owner keeps stays and loses the reference", () => {
    for (const policy of ["Background", "Foreground"] as const) {
      const plan = deletionPlan(graph, [root], policy, everything);
      expect(names(plan.deleted)).toEqual([["child", ["grandchild"]]]);
      expect(plan.deletedCount).toBe(2);
      expect(plan.deleted[0].blocksOwner).toBe(true);
      expect(plan.deleted[0].children[0].blocksOwner).toBe(false);
      expect(plan.staying.map((s) => [s.item.obj.metadata.name, s.losesOwners.map((r) => r.name), s.keptBy.map((r) => r.name)])).toEqual([["shared", ["root"], ["other"]]]);
    }
  });

  it("an owner that is gone, or being deleted, keeps nothing", () => {
    const gone = obj("ConfigMap", "gone", "ns");
    const deleting = obj("ConfigMap", "deleting", "ns", [], { deletionTimestamp: "2025-01-01T00:00:00Z", finalizers: ["x/y"] });
    const a = obj("Secret", "a", "ns", [ref(root), ref(gone)]);
    const b = obj("Secret", "b", "ns", [ref(root), ref(deleting)]);
    const plan = deletionPlan(ownershipGraph([root, a, b, deleting]), [root], "Background", everything);
    expect(names(plan.deleted)).toEqual(["a", "b"]);
    expect(plan.staying).toEqual([]);
  });

  it("an owner that goes with the deletion deeper in the tree does not keep its dependent", () => {
    // d is owned by the root and by c, and c is the root's dependent: both go.
    const c = obj("ConfigMap", "c", "ns", [ref(root)]);
    const d = obj("ConfigMap", "d", "ns", [ref(c), ref(root)]);
    const plan = deletionPlan(ownershipGraph([d, c, root]), [root], "Foreground", everything);
    expect(plan.deletedCount).toBe(2);
    expect(plan.staying).toEqual([]);
    // Placed once, under the first owner that reaches it.
    expect(names(plan.deleted)).toEqual(["c", "d"]);
  });

  it("owners whose kind could not be listed are named as unverified", () => {
    const a = obj("Secret", "a", "ns", [ref(root), { kind: "ReplicaSet", name: "rs", uid: "rs-uid" }]);
    const plan = deletionPlan(ownershipGraph([root, a]), [root], "Background", (kind) => kind !== "ReplicaSet");
    expect(plan.deleted[0].unverifiedOwners.map((r) => r.name)).toEqual(["rs"]);
    const listedEverywhere = deletionPlan(ownershipGraph([root, a]), [root], "Background", everything);
    expect(listedEverywhere.deleted[0].unverifiedOwners).toEqual([]);
  });

  it("survives ownership cycles and several roots", () => {
    const x = obj("ConfigMap", "x", "ns", [{ kind: "ConfigMap", name: "y", uid: "uid-ns-y" }]);
    const y = obj("ConfigMap", "y", "ns", [ref(x)]);
    const z = obj("ConfigMap", "z", "ns", [ref(x), ref(root)]);
    const plan = deletionPlan(ownershipGraph([x, y, z, root]), [x, root], "Background", everything);
    // y and z go; x and root are the roots themselves, never listed as dependents.
    expect(names(plan.deleted).sort()).toEqual(["y", "z"]);
  });

  it("Orphan: direct dependents stay and lose the references to the deleted objects; theirs are untouched", () => {
    const plan = deletionPlan(graph, [root], "Orphan", everything);
    expect(plan.deleted).toEqual([]);
    expect(plan.staying.map((s) => [s.item.obj.metadata.name, s.losesOwners.map((r) => r.name)])).toEqual([
      ["child", ["root"]],
      ["shared", ["root"]],
    ]);
  });

  it("nothing depends on an object nobody names", () => {
    expect(deletionPlan(graph, [grandchild], "Background", everything)).toEqual({ policy: "Background", deleted: [], deletedCount: 0, staying: [] });
  });
});

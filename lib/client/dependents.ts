// Owners and dependents as kube's garbage collector sees them, computed in the browser from the lists the
// user can read: an object depends on every owner its `metadata.ownerReferences[].uid` names. A namespaced
// owner has dependents only in its own namespace; a cluster-scoped owner may have them anywhere (a cluster-
// scoped object naming a namespaced owner is invalid and ignored, as the collector does).
// `deletionPlan` answers "what goes if I delete these with this propagation policy": Background and Foreground
// delete every dependent (and theirs, recursively) whose owners are all gone or going; one that another owner
// keeps stays and only loses the reference. Orphan keeps the direct dependents and strips the reference.
import type { KubeObject } from "../kinds";
import type { OwnerReference } from "../kinds/types";

export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

/** An object with the kind it was listed as (list items carry no `kind`). */
export interface Located {
  kind: string;
  namespaced: boolean;
  obj: KubeObject;
}

export interface OwnershipGraph {
  byUid: Map<string, Located>;
  /** owner uid → the objects whose ownerReferences name it (location not yet checked). */
  referrers: Map<string, Located[]>;
}

const uidOf = (l: Located) => l.obj.metadata?.uid ?? "";
const refsOf = (l: Located): OwnerReference[] => l.obj.metadata?.ownerReferences ?? [];
const isDeleting = (l: Located) => !!l.obj.metadata?.deletionTimestamp;

export function ownershipGraph(objects: Iterable<Located>): OwnershipGraph {
  const byUid = new Map<string, Located>();
  const referrers = new Map<string, Located[]>();
  for (const item of objects) {
    const uid = uidOf(item);
    if (uid) byUid.set(uid, item);
    const seen = new Set<string>();
    for (const ref of refsOf(item)) {
      if (!ref?.uid || seen.has(ref.uid)) continue;
      seen.add(ref.uid);
      let list = referrers.get(ref.uid);
      if (!list) referrers.set(ref.uid, (list = []));
      list.push(item);
    }
  }
  return { byUid, referrers };
}

/** Whether `dependent` may depend on `owner` by where each lives. */
export function mayDependOn(dependent: Located, owner: Located): boolean {
  if (!owner.namespaced) return true;
  return dependent.namespaced && dependent.obj.metadata?.namespace === owner.obj.metadata?.namespace;
}

export function compareLocated(a: Located, b: Located): number {
  return (
    a.kind.localeCompare(b.kind) ||
    (a.obj.metadata?.namespace ?? "").localeCompare(b.obj.metadata?.namespace ?? "") ||
    (a.obj.metadata?.name ?? "").localeCompare(b.obj.metadata?.name ?? "")
  );
}

/** The objects that depend on `owner`, sorted by kind, namespace and name. */
export function dependentsOf(graph: OwnershipGraph, owner: Located): Located[] {
  const uid = uidOf(owner);
  return (graph.referrers.get(uid) ?? []).filter((d) => uidOf(d) !== uid && mayDependOn(d, owner)).sort(compareLocated);
}

/** The reference from `dependent` to the owner with `uid`. */
export function referenceTo(dependent: Located, uid: string): OwnerReference | undefined {
  return refsOf(dependent).find((r) => r.uid === uid);
}

export interface PlannedDependent {
  item: Located;
  /** The reference to the owner it is listed under asks that owner to wait for it (`blockOwnerDeletion`). */
  blocksOwner: boolean;
  /** Owners that could not be looked up (a kind not served or not listable): it stays if one still exists. */
  unverifiedOwners: OwnerReference[];
  children: PlannedDependent[];
}

export interface StayingDependent {
  item: Located;
  /** The references that are removed (to the objects being deleted). */
  losesOwners: OwnerReference[];
  /** Owners that keep it (Background/Foreground); empty for Orphan. */
  keptBy: OwnerReference[];
}

export interface DeletionPlan {
  policy: PropagationPolicy;
  /** Background/Foreground: the dependents that go, each with the dependents that go with it. */
  deleted: PlannedDependent[];
  /** How many objects `deleted` holds, at every depth. */
  deletedCount: number;
  /** Background/Foreground: dependents another owner keeps; Orphan: every direct dependent. */
  staying: StayingDependent[];
}

/**
 * What deleting `roots` with `policy` does to their dependents among `graph`'s objects. `listed(kind)` says
 * whether that kind was listed everywhere its objects could be (so an owner not found there is gone).
 */
export function deletionPlan(graph: OwnershipGraph, roots: Located[], policy: PropagationPolicy, listed: (kind: string) => boolean): DeletionPlan {
  const rootUids = new Set(roots.map(uidOf).filter(Boolean));
  if (policy === "Orphan") {
    const staying = new Map<string, StayingDependent>();
    for (const root of roots) {
      for (const dep of dependentsOf(graph, root)) {
        const uid = uidOf(dep);
        if (rootUids.has(uid) || staying.has(uid)) continue;
        staying.set(uid, { item: dep, losesOwners: refsOf(dep).filter((r) => rootUids.has(r.uid)), keptBy: [] });
      }
    }
    return { policy, deleted: [], deletedCount: 0, staying: [...staying.values()].sort((a, b) => compareLocated(a.item, b.item)) };
  }

  const going = new Set(rootUids);
  /** The owner a reference names, if it is known and may own `dependent`. */
  const resolve = (dependent: Located, ref: OwnerReference): Located | undefined => {
    const owner = graph.byUid.get(ref.uid);
    return owner && mayDependOn(dependent, owner) ? owner : undefined;
  };
  /** Owners that keep `dep`: they exist, are not being deleted and are not going with this deletion. */
  const keepers = (dep: Located) =>
    refsOf(dep).filter((ref) => {
      if (going.has(ref.uid)) return false;
      const owner = resolve(dep, ref);
      return !!owner && !isDeleting(owner);
    });
  const unverified = (dep: Located) => refsOf(dep).filter((ref) => !going.has(ref.uid) && !resolve(dep, ref) && !listed(ref.kind));

  // Grow the set of going objects to a fixed point: a dependent goes once none of its owners keeps it.
  const candidates = new Map<string, Located>();
  let frontier = [...roots];
  while (frontier.length) {
    for (const owner of frontier) for (const dep of dependentsOf(graph, owner)) if (!going.has(uidOf(dep))) candidates.set(uidOf(dep), dep);
    frontier = [];
    for (const [uid, dep] of candidates) {
      if (keepers(dep).length) continue;
      going.add(uid);
      candidates.delete(uid);
      frontier.push(dep);
    }
  }

  // Lay the going dependents out as a tree, each under the first going owner that reaches it.
  const placed = new Set(rootUids);
  const deleted: PlannedDependent[] = [];
  let count = 0;
  const queue: { owner: Located; into: PlannedDependent[] }[] = roots.map((owner) => ({ owner, into: deleted }));
  while (queue.length) {
    const { owner, into } = queue.shift()!;
    for (const dep of dependentsOf(graph, owner)) {
      const uid = uidOf(dep);
      if (!going.has(uid) || placed.has(uid)) continue;
      placed.add(uid);
      const node: PlannedDependent = { item: dep, blocksOwner: referenceTo(dep, uidOf(owner))?.blockOwnerDeletion === true, unverifiedOwners: unverified(dep), children: [] };
      into.push(node);
      count++;
      queue.push({ owner: dep, into: node.children });
    }
  }
  deleted.sort((a, b) => compareLocated(a.item, b.item));

  const staying = [...candidates.values()]
    .map((dep) => ({ item: dep, losesOwners: refsOf(dep).filter((r) => going.has(r.uid)), keptBy: keepers(dep) }))
    .sort((a, b) => compareLocated(a.item, b.item));
  return { policy, deleted, deletedCount: count, staying };
}

// kube-controller-manager's garbage collector: objects whose ownerReferences name owners that are all gone
// are deleted; owners deleted in the foreground wait (finalizer `foregroundDeletion`) until their dependents
// with blockOwnerDeletion are gone; owners deleted with `orphan` first strip their references from every
// dependent. Level-triggered over the watch cache: every decision reads the latest state, so a restart (or a
// new leader) finds the work again from the initial list.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import type { EventRecorder } from "../events/recorder";
import { acceptedApiVersions, addedKinds, kindByStorageResource, storageResourceOf } from "../kinds";
import type { AnyKind, KubeObject, OwnerReference } from "../kinds/types";
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "../registry/deletion";
import type { DeleteOptions } from "../registry/options";
import type { Registry } from "../registry/registry";
import type { ObjectKey } from "../storage";
import { ALL_RESOURCES, type Informer, type InformerEvent } from "./informer";
import { WorkQueue } from "./work-queue";

export const GARBAGE_COLLECTOR_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:generic-garbage-collector",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};
const COMPONENT = "garbage-collector-controller";

/**
 * kube's garbagecollector.DefaultIgnoredResources (group/resource): Events expire by their own TTL, so the
 * collector keeps them out of its graph and an Event whose owner goes stays until then (Events cannot be
 * owners: validation bans them).
 */
export const GC_IGNORED_RESOURCES: ReadonlySet<string> = new Set(["/events", "events.k8s.io/events"]);

const finalizersOf = (o: KubeObject) => o.metadata.finalizers ?? [];
const ownersOf = (o: KubeObject): OwnerReference[] => o.metadata.ownerReferences ?? [];
const isDeleting = (o: KubeObject) => !!o.metadata.deletionTimestamp;
/** Deleted in the foreground: waiting for its blocking dependents. */
export const isDeletingDependents = (o: KubeObject) => isDeleting(o) && finalizersOf(o).includes(FOREGROUND_FINALIZER);
const isOrphaning = (o: KubeObject) => isDeleting(o) && finalizersOf(o).includes(ORPHAN_FINALIZER);

export interface GarbageCollectorOptions {
  registry: Registry;
  informer: Informer;
  kinds: AnyKind[];
  recorder?: EventRecorder;
  user?: UserInfo;
  onError?: (key: string, err: unknown) => void;
}

/**
 * A work item and a graph entry: where an object is stored and its uid, `resource/namespace/name/uid` (names and
 * namespaces hold no "/"; the uid comes last). The collector keeps no uid -> key map of every object: an owner
 * is found from its reference (kind, name, the dependent's namespace), so the graph holds only objects that name
 * owners, and a million objects without owner references cost it nothing.
 */
const itemOf = (key: ObjectKey, uid: string): string => [key.resource, key.namespace, key.name, uid].join("/");

function parseItem(item: string): { key: ObjectKey; uid: string } {
  const a = item.indexOf("/"), b = item.indexOf("/", a + 1), c = item.indexOf("/", b + 1);
  return { key: { resource: item.slice(0, a), namespace: item.slice(a + 1, b), name: item.slice(b + 1, c) }, uid: item.slice(c + 1) };
}

/** An object read from the cache with where it is stored. */
interface Found {
  key: ObjectKey;
  object: KubeObject;
}

interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

export class GarbageCollector {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly kinds: AnyKind[];
  private readonly kindsByPlural: Map<string, AnyKind>;
  private readonly recorder?: EventRecorder;
  private readonly user: UserInfo;
  /** owner uid -> the objects (items, `itemOf`) that name it in their ownerReferences. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Invalid references already reported (dependent uid + owner uid), so each gets one Event. */
  private readonly reported = new Set<string>();

  constructor(opts: GarbageCollectorOptions) {
    this.registry = opts.registry;
    this.kinds = opts.kinds;
    this.kindsByPlural = new Map(opts.kinds.map((k) => [k.plural, k]));
    this.recorder = opts.recorder;
    this.user = opts.user ?? GARBAGE_COLLECTOR_USER;
    this.queue = new WorkQueue((item) => this.sync(item), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(ALL_RESOURCES, (e) => this.observe(e));
  }

  stop(): void {
    this.queue.stop();
  }

  /** The uids of the dependents recorded for an owner (tests and the console's "what goes with it" read the same idea). */
  dependentsOf(uid: string): string[] {
    return [...(this.dependents.get(uid) ?? [])].map((item) => parseItem(item).uid);
  }

  // --- the graph: kept from events, cheap; decisions are made in sync() ------------------------------------

  private observe(e: InformerEvent): void {
    // Only metadata is read here (the cache then need not parse every object at start-up).
    const object = { metadata: e.metadata } as KubeObject;
    const uid = object.metadata.uid;
    if (!uid || GC_IGNORED_RESOURCES.has(`${this.kindsByPlural.get(e.key.resource)?.group ?? ""}/${e.key.resource}`)) return;
    const before = e.old ? ownersOf(e.old) : [];
    const item = itemOf(e.key, uid);
    const namespace = e.key.namespace;
    if (e.type === "DELETED") {
      for (const ref of ownersOf(object)) this.unlink(ref.uid, item);
      // Its dependents may have lost their last owner.
      for (const dep of this.dependents.get(uid) ?? []) this.queue.add(dep);
      // An owner waiting in the foreground may have lost its last blocking dependent.
      for (const ref of ownersOf(object)) this.enqueueIfWaiting(ref, namespace);
      return;
    }
    const after = ownersOf(object);
    const afterUids = new Set(after.map((r) => r.uid));
    for (const ref of before) {
      if (!afterUids.has(ref.uid)) { this.unlink(ref.uid, item); this.enqueueIfWaiting(ref, namespace); }
    }
    for (const ref of after) this.link(ref.uid, item);
    const startsDeleting = isDeleting(object) && !(e.old && isDeleting(e.old));
    if (isOrphaning(object) || isDeletingDependents(object)) this.queue.add(item);
    // An owner starting a foreground deletion: every dependent is looked at (kube's graph builder does this).
    if (isDeletingDependents(object) && (startsDeleting || !(e.old && isDeletingDependents(e.old)))) {
      for (const dep of this.dependents.get(uid) ?? []) this.queue.add(dep);
    }
    if (after.length && (e.type === "ADDED" || !sameOwners(before, after) || after.some((r) => this.ownerNeedsLook(r, namespace)))) {
      this.queue.add(item);
    }
    // Blocking flags changed on a dependent of a waiting owner.
    if (e.type === "MODIFIED") for (const ref of after) this.enqueueIfWaiting(ref, namespace);
  }

  private link(owner: string, dependent: string): void {
    let set = this.dependents.get(owner);
    if (!set) this.dependents.set(owner, (set = new Set()));
    set.add(dependent);
  }

  private unlink(owner: string, dependent: string): void {
    const set = this.dependents.get(owner);
    if (!set) return;
    set.delete(dependent);
    if (!set.size) this.dependents.delete(owner);
  }

  private enqueueIfWaiting(ref: OwnerReference, namespace: string): void {
    const owner = this.ownerOf(ref, namespace);
    if (owner && isDeletingDependents(owner.object)) this.queue.add(itemOf(owner.key, ref.uid));
  }

  /** An owner not (or no longer) known, or one deleting in the foreground, needs the dependent decided. */
  private ownerNeedsLook(ref: OwnerReference, namespace: string): boolean {
    const owner = this.ownerOf(ref, namespace);
    return !owner || isDeletingDependents(owner.object);
  }

  /** The kind a reference names: custom resources' kinds too, in any served version (conversion None: one stored object). */
  private kindOfRef(ref: OwnerReference): AnyKind | undefined {
    return this.kinds.find((k) => k.kind === ref.kind && acceptedApiVersions(k).includes(ref.apiVersion))
      ?? addedKinds().find((k) => k.kind === ref.kind && acceptedApiVersions(k).includes(ref.apiVersion));
  }

  /** The owner a reference of a dependent in `namespace` names, where it must live, with the reference's uid. */
  private ownerOf(ref: OwnerReference, namespace: string): Found | undefined {
    const kind = this.kindOfRef(ref);
    if (!kind || (kind.namespaced && !namespace)) return undefined;
    return this.read({ resource: storageResourceOf(kind), namespace: kind.namespaced ? namespace : "", name: ref.name }, ref.uid);
  }

  /** The object stored at `key` if it is still the one with `uid`. */
  private read(key: ObjectKey, uid: string): Found | undefined {
    const object = this.registry.store.objects.get(key)?.object;
    return object?.metadata.uid === uid ? { key, object } : undefined;
  }

  // --- decisions ---------------------------------------------------------------------------------------

  async sync(item: string): Promise<void> {
    await this.registry.store.objects.catchUp();
    const { key, uid } = parseItem(item);
    const found = this.read(key, uid);
    if (!found) return;
    const obj = found.object;
    if (isOrphaning(obj)) await this.orphanDependents(found);
    if (isDeletingDependents(obj)) return this.processDeletingDependents(found);
    // Being deleted is a one-way trip: wait for the removal, then its dependents are looked at.
    if (isDeleting(obj) || !ownersOf(obj).length) return;
    await this.attemptToDelete(found);
  }

  /** Foreground: the owner goes once no dependent blocks it; meanwhile its blocking dependents are deleted. */
  private async processDeletingDependents(owner: Found): Promise<void> {
    const uid = owner.object.metadata.uid!;
    const blocking = this.dependentObjects(uid).filter((d) =>
      ownersOf(d.object).some((r) => r.uid === uid && r.blockOwnerDeletion === true));
    if (!blocking.length) {
      await this.removeFinalizer(owner, FOREGROUND_FINALIZER);
      return;
    }
    for (const dep of blocking) if (!isDeletingDependents(dep.object)) this.queue.add(itemOf(dep.key, dep.object.metadata.uid!));
  }

  /** Orphan: every dependent loses its reference to the owner, then the owner's `orphan` finalizer goes. */
  private async orphanDependents(owner: Found): Promise<void> {
    const uid = owner.object.metadata.uid!;
    for (const dep of this.dependentObjects(uid)) {
      await this.rewrite(dep, (o) => {
        const refs = ownersOf(o).filter((r) => r.uid !== uid);
        if (refs.length === ownersOf(o).length) return undefined;
        return { ...o, metadata: { ...o.metadata, ownerReferences: refs.length ? refs : undefined } };
      });
    }
    await this.removeFinalizer(owner, ORPHAN_FINALIZER);
  }

  /** kube's attemptToDeleteItem for an object that names owners. */
  private async attemptToDelete(found: Found): Promise<void> {
    const item = found.object;
    const refs = ownersOf(item);
    const classified = this.classify(item, refs);
    if (!classified) return; // an owner that cannot be resolved: never collected on a guess
    const { solid, dangling, waiting } = classified;
    const uid = item.metadata.uid!;
    if (solid.length) {
      if (!dangling.length && !waiting.length) return;
      // Still owned: drop the references to owners that are gone or that wait for this dependent to go.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.rewrite(found, (o) => {
        const kept = ownersOf(o).filter((r) => !drop.has(r.uid));
        return kept.length === ownersOf(o).length ? undefined : { ...o, metadata: { ...o.metadata, ownerReferences: kept.length ? kept : undefined } };
      });
      return;
    }
    if (waiting.length && this.dependentObjects(uid).length) {
      // Foreground all the way down; a dependent of ours also deleting in the foreground would be a cycle.
      if (this.dependentObjects(uid).some((d) => isDeletingDependents(d.object))) {
        await this.rewrite(found, (o) => {
          if (!ownersOf(o).some((r) => r.blockOwnerDeletion)) return undefined;
          return { ...o, metadata: { ...o.metadata, ownerReferences: ownersOf(o).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r)) } };
        });
      }
      await this.deleteObject(found, "Foreground");
      return;
    }
    const policy = finalizersOf(item).includes(ORPHAN_FINALIZER) ? "Orphan"
      : finalizersOf(item).includes(FOREGROUND_FINALIZER) ? "Foreground" : "Background";
    await this.deleteObject(found, policy);
  }

  /**
   * Each reference resolved as kube's isDangling: the owner's kind, then its name in the dependent's namespace
   * (or cluster-wide for a cluster-scoped kind), then its uid. Undefined when a reference names a kind this
   * server does not serve, or a cluster-scoped dependent names a namespaced owner (unresolvable: kube keeps
   * such dependents and reports the second case).
   */
  private classify(item: KubeObject, refs: OwnerReference[]): Classified | undefined {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    const namespace = item.metadata.namespace ?? "";
    for (const ref of refs) {
      const kind = this.kindOfRef(ref);
      if (!kind) return undefined;
      if (kind.namespaced && !namespace) {
        this.reportInvalidNamespace(item, ref);
        return undefined;
      }
      const owner = this.registry.store.objects.get({ resource: storageResourceOf(kind), namespace: kind.namespaced ? namespace : "", name: ref.name })?.object;
      if (!owner || owner.metadata.uid !== ref.uid) {
        if (kind.namespaced && this.inOtherNamespace(storageResourceOf(kind), ref, namespace)) this.reportInvalidNamespace(item, ref);
        out.dangling.push(ref);
      } else if (isDeletingDependents(owner)) {
        out.waiting.push(ref);
      } else {
        out.solid.push(ref);
      }
    }
    return out;
  }

  /**
   * Whether the owner a reference names lives in another namespace than its dependent's: looked for by name in
   * each namespace (a lookup per Namespace object, not a map of every object's uid), for kube's Warning only.
   */
  private inOtherNamespace(resource: string, ref: OwnerReference, namespace: string): boolean {
    const objects = this.registry.store.objects;
    let found = false;
    objects.scan("namespaces", {}, (ns) => {
      const name = ns.key.name;
      const o = name === namespace ? undefined : objects.get({ resource, namespace: name, name: ref.name });
      found = !!o && (o.metadata ?? o.object.metadata).uid === ref.uid;
      return !found;
    });
    return found;
  }

  /** kube's OwnerRefInvalidNamespace Warning, about the dependent, once per reference. */
  private reportInvalidNamespace(item: KubeObject, ref: OwnerReference): void {
    const id = `${item.metadata.uid}/${ref.uid}`;
    if (this.reported.has(id)) return;
    this.reported.add(id);
    const namespace = item.metadata.namespace ?? "";
    this.recorder?.event(item, "Warning", "OwnerRefInvalidNamespace",
      `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${namespace}"`, COMPONENT);
  }

  private dependentObjects(uid: string): Found[] {
    const out: Found[] = [];
    for (const dep of this.dependents.get(uid) ?? []) {
      const { key, uid: depUid } = parseItem(dep);
      const found = this.read(key, depUid);
      if (found && ownersOf(found.object).some((r) => r.uid === uid)) out.push(found);
    }
    return out;
  }

  // --- writes, as the collector's identity; pinned to the version decided on ---------------------------

  private kindOf(key: ObjectKey): AnyKind | undefined {
    return this.kindsByPlural.get(key.resource) ?? kindByStorageResource(key.resource);
  }

  /** Deletes with uid and resourceVersion preconditions; gone already is success, a conflict is retried. */
  private async deleteObject(found: Found, propagationPolicy: NonNullable<DeleteOptions["propagationPolicy"]>): Promise<void> {
    const o = found.object;
    const kind = this.kindOf(found.key);
    if (!kind) return;
    try {
      await this.registry.delete(kind, o.metadata.namespace ?? "", o.metadata.name!, {
        propagationPolicy, preconditions: { uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion }, dryRun: false, user: this.user,
      });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }

  private async removeFinalizer(o: Found, finalizer: string): Promise<void> {
    await this.rewrite(o, (cur) => {
      if (!finalizersOf(cur).includes(finalizer)) return undefined;
      const rest = finalizersOf(cur).filter((f) => f !== finalizer);
      return { ...cur, metadata: { ...cur.metadata, finalizers: rest.length ? rest : undefined } };
    });
  }

  /** An update of what `change` makes of the object, pinned to its resourceVersion (a conflict retries). */
  private async rewrite(found: Found, change: (o: KubeObject) => KubeObject | undefined): Promise<void> {
    const o = found.object;
    const kind = this.kindOf(found.key);
    const next = change(o);
    if (!kind || !next) return;
    try {
      await this.registry.update(kind, o.metadata.namespace ?? "", o.metadata.name!, next, { dryRun: false, fieldValidation: "Ignore", user: this.user });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

function sameOwners(a: OwnerReference[], b: OwnerReference[]): boolean {
  return a.length === b.length && a.every((r, i) => r.uid === b[i].uid && r.blockOwnerDeletion === b[i].blockOwnerDeletion);
}

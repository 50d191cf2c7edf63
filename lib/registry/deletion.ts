// The rules a DELETE follows before anything is written (kube-apiserver's rest.BeforeDelete, the store's
// finalizer handling for garbage collection and markAsDeleting). Pure functions over a copy of the stored
// object: the registry decides from their answer whether to update the object, remove it, or leave it.
import { errors } from "../status";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { DeleteOptions } from "./options";

/** Finalizer the garbage collector honours by removing the owner's references from its dependents first. */
export const ORPHAN_FINALIZER = "orphan";
/** Finalizer the garbage collector honours by deleting the blocking dependents first. */
export const FOREGROUND_FINALIZER = "foregroundDeletion";

/** RFC 3339 to the second, as metav1.Time serialises. */
export const toTimestamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

export interface DeletionStart {
  /** The object now carries a (new or shortened) grace period to record. */
  graceful: boolean;
  /** A graceful deletion is already running and these options change nothing. */
  pending: boolean;
}

/** The group-qualified Kind kube names in precondition conflicts (`ConfigMap`, `Role.rbac.authorization.k8s.io`). */
const kindResource = (kind: AnyKind) => (kind.group ? `${kind.kind}.${kind.group}` : kind.kind);

export function checkPreconditions(kind: AnyKind, obj: KubeObject, pre: DeleteOptions["preconditions"]): void {
  const m = obj.metadata;
  if (kind.beginDeletion) {
    // The namespace storage checks them itself, with the storage layer's wording.
    if (pre?.uid && pre.uid !== m.uid) {
      throw errors.conflict(kind.plural, m.name ?? "", `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${m.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== m.resourceVersion) {
      throw errors.conflict(kind.plural, m.name ?? "", `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion}`);
    }
    return;
  }
  if (pre?.uid && pre.uid !== m.uid) {
    throw errors.conflict(kindResource(kind), m.name ?? "", `the UID in the precondition (${pre.uid}) does not match the UID in record (${m.uid}). The object might have been deleted and then recreated`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== m.resourceVersion) {
    throw errors.conflict(kindResource(kind), m.name ?? "", `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${m.resourceVersion}). The object might have been modified`);
  }
}

/**
 * rest.BeforeDelete on `obj` (a copy, changed in place). Only kinds with a grace period rule (Pod) delete
 * gracefully: the first delete sets deletionTimestamp = now + grace (also for grace 0, so watchers see the
 * MODIFIED before the DELETED); a later one may only shorten a running period.
 */
export function beginDeletion(kind: AnyKind, obj: KubeObject, requested: number | undefined, now: number): DeletionStart {
  const m = obj.metadata;
  if (requested !== undefined && requested < 0) requested = 1;
  if (!kind.gracePeriodSeconds) return { graceful: false, pending: false };
  if (m.deletionTimestamp) {
    const current = m.deletionGracePeriodSeconds ?? 0;
    // Already due (or left half-done by an interrupted deletion): delete now.
    if (current <= 0) return { graceful: false, pending: false };
    if (requested === undefined || requested >= current) return { graceful: false, pending: true };
    m.deletionTimestamp = toTimestamp(Date.parse(m.deletionTimestamp) - (current - requested) * 1000);
    m.deletionGracePeriodSeconds = requested;
    return { graceful: true, pending: false };
  }
  const grace = kind.gracePeriodSeconds(obj, requested);
  m.deletionTimestamp = toTimestamp(now + grace * 1000);
  m.deletionGracePeriodSeconds = grace;
  if (m.generation && m.generation > 0) m.generation += 1;
  return { graceful: true, pending: false };
}

/** Deletion without a grace period while finalizers remain: due now (or earlier), grace 0. */
export function markAsDeleting(obj: KubeObject, now: number): void {
  const m = obj.metadata;
  if (!m.deletionTimestamp && m.generation && m.generation > 0) m.generation += 1;
  if (!m.deletionTimestamp || Date.parse(m.deletionTimestamp) > now) m.deletionTimestamp = toTimestamp(now);
  m.deletionGracePeriodSeconds = 0;
}

type PolicyOptions = Pick<DeleteOptions, "orphanDependents" | "propagationPolicy">;

/**
 * kube's shouldOrphanDependents: explicit options, then the object's finalizers, then the kind's default
 * policy. Every kind served here defaults to Background (kube's OrphanDependents default is only for the
 * extensions/v1beta1 and apps/v1beta1-2 workloads).
 */
export function shouldOrphan(finalizers: string[], opts: PolicyOptions): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === "Orphan";
  for (const f of finalizers) {
    if (f === ORPHAN_FINALIZER) return true;
    if (f === FOREGROUND_FINALIZER) return false;
  }
  return false;
}

/** kube's shouldDeleteDependents (foreground). */
export function shouldDeleteForeground(finalizers: string[], opts: PolicyOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === "Foreground";
  for (const f of finalizers) {
    if (f === FOREGROUND_FINALIZER) return true;
    if (f === ORPHAN_FINALIZER) return false;
  }
  return false;
}

/**
 * The finalizers a delete leaves for the garbage collector: both GC finalizers removed, then `orphan` or
 * `foregroundDeletion` added back as the options (or the object) ask. Undefined when nothing changes.
 */
export function finalizersForGarbageCollection(obj: KubeObject, opts: PolicyOptions): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(current, opts)) next.push(ORPHAN_FINALIZER);
  if (shouldDeleteForeground(current, opts)) next.push(FOREGROUND_FINALIZER);
  return sameSet(current, next) ? undefined : next;
}

/**
 * A namespace's GC finalizers (kube's namespace storage): set from the options when they say, else kept as
 * they are; unlike other kinds a namespace's existing finalizers are never re-read as a policy.
 */
export function namespaceFinalizersForGarbageCollection(obj: KubeObject, opts: PolicyOptions): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const orphan = opts.orphanDependents ?? (opts.propagationPolicy ? opts.propagationPolicy === "Orphan" : current.includes(ORPHAN_FINALIZER));
  const foreground = opts.orphanDependents !== undefined ? !opts.orphanDependents
    : opts.propagationPolicy ? opts.propagationPolicy === "Foreground" : current.includes(FOREGROUND_FINALIZER);
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) next.push(ORPHAN_FINALIZER);
  if (foreground) next.push(FOREGROUND_FINALIZER);
  return sameSet(current, next) ? undefined : next;
}

function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a), y = new Set(b);
  return x.size === y.size && [...y].every((f) => x.has(f));
}

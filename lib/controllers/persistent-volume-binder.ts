// kube-controller-manager's persistentvolume-binder (pkg/controller/volume/persistentvolume): binds each claim to
// the smallest matching Available volume (or to the one either side names), keeps both phases, and reclaims a
// volume whose claim is gone by its reclaim policy. Level-triggered: every sync reads the whole state of one claim
// or one volume from the watch cache and writes only what differs, so a restart, a missed event or the 15 s
// resync all converge. Claims and volumes each have one worker, as in kube: two claims synced at once could pick
// the same volume; across processes the resourceVersion on every write makes the loser retry.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { noEvents, type EventRecorder, type EventType } from "../events/recorder";
import { betaStorageClassAnnotation, persistentVolume as volumeKind, type PersistentVolume } from "../kinds/persistent-volume";
import { persistentVolumeClaim as claimKind, type PersistentVolumeClaim } from "../kinds/persistent-volume-claim";
import type { ObjectReference } from "../kinds/shared/object-reference";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import { labelSelectorFromObject, matchesLabels } from "../selectors/label-selector";
import { compareQuantities, isQuantity, parseQuantity, type Quantity } from "../validation/quantity";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

/** kube's identity for this controller (its ServiceAccount in kube-system). */
export const PERSISTENT_VOLUME_BINDER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:persistent-volume-binder",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

/** The `source.component` of this controller's Events. */
export const PERSISTENT_VOLUME_COMPONENT = "persistentvolume-controller";
export const ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
export const ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
const ANN_DYNAMICALLY_PROVISIONED = "pv.kubernetes.io/provisioned-by";

/** kube's --pvclaimbinder-sync-period: every claim and volume is synced again this often. */
export const DEFAULT_RESYNC_MS = 15_000;

const PENDING = "Pending", AVAILABLE = "Available", BOUND = "Bound", RELEASED = "Released", FAILED = "Failed", LOST = "Lost";
const FILESYSTEM = "Filesystem";
/** Access modes in the order kube spells their index keys. */
const ACCESS_MODES = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"];
const ZERO: Quantity = { mantissa: 0n, exponent: 0, format: "DecimalSI" };

const clone = <T>(v: T): T => structuredClone(v);
const annotation = (o: KubeObject, key: string) => o.metadata.annotations?.[key];
const hasAnnotation = (o: KubeObject, key: string) => annotation(o, key) !== undefined;
function setAnnotation(o: KubeObject, key: string, value: string): void {
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [key]: value };
}

function storageOf(list: Record<string, unknown> | undefined): Quantity | undefined {
  const raw = list?.storage;
  if (raw === undefined || raw === null) return undefined;
  const q = parseQuantity(raw);
  return isQuantity(q) ? q : undefined;
}

/** GetPersistentVolumeClaimClass / GetPersistentVolumeClass: the beta annotation wins over the field. */
export function classOf(o: PersistentVolume | PersistentVolumeClaim): string {
  const beta = annotation(o, betaStorageClassAnnotation);
  if (beta !== undefined) return beta;
  return (o.spec?.storageClassName as string | undefined) ?? "";
}

const volumeModeOf = (o: PersistentVolume | PersistentVolumeClaim) => (o.spec?.volumeMode as string | undefined) || FILESYSTEM;

/** IsVolumeBoundToClaim: the volume names the claim (a missing uid is a pre-binding by name). */
export function isVolumeBoundToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

function hasAccessModes(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const offered = volume.spec?.accessModes ?? [];
  return (claim.spec?.accessModes ?? []).every((m) => offered.includes(m));
}

/** FindMatchingVolume over one access-mode group: the pre-bound volume, else the smallest Available match. */
function findMatchingVolume(claim: PersistentVolumeClaim, volumes: PersistentVolume[]): PersistentVolume | undefined {
  const requested = storageOf(claim.spec?.resources?.requests) ?? ZERO;
  const requestedClass = classOf(claim);
  const selector = claim.spec?.selector ? labelSelectorFromObject(claim.spec.selector) : null;
  let smallest: PersistentVolume | undefined;
  let smallestQty = ZERO;
  for (const volume of volumes) {
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = storageOf(volume.spec?.capacity) ?? ZERO;
    if (compareQuantities(qty, requested) < 0) continue;
    if (volumeModeOf(volume) !== volumeModeOf(claim)) continue;
    if (volume.metadata.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(volume, claim)) return volume;
    if (volume.status?.phase !== AVAILABLE) continue;
    if (selector && !matchesLabels(selector, volume.metadata.labels)) continue;
    if (classOf(volume) !== requestedClass) continue;
    if (!smallest || compareQuantities(smallestQty, qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return smallest;
}

/**
 * findBestMatchForClaim: volumes are grouped by their exact set of access modes; groups offering every mode the
 * claim asks for are searched fewest modes first, so a claim never takes a more capable volume than it needs.
 */
export function findBestMatchForClaim(claim: PersistentVolumeClaim, volumes: PersistentVolume[]): PersistentVolume | undefined {
  const groups = new Map<string, PersistentVolume[]>();
  for (const volume of volumes) {
    if (!hasAccessModes(volume, claim)) continue;
    const modes = volume.spec?.accessModes ?? [];
    const key = ACCESS_MODES.filter((m) => modes.includes(m)).join(",");
    groups.set(key, [...(groups.get(key) ?? []), volume]);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => a.split(",").length - b.split(",").length || (a < b ? -1 : a > b ? 1 : 0));
  for (const [, group] of ordered) {
    // The cache's order is no order; by name, equal candidates resolve the same way in every process.
    const match = findMatchingVolume(claim, group.sort((x, y) => (x.metadata.name! < y.metadata.name! ? -1 : 1)));
    if (match) return match;
  }
  return undefined;
}

/** checkVolumeSatisfyClaim: why a volume the claim names by spec.volumeName cannot serve it, or undefined. */
export function volumeMismatch(volume: PersistentVolume, claim: PersistentVolumeClaim): string | undefined {
  if (volume.metadata.deletionTimestamp) return `the volume is marked for deletion "${volume.metadata.name}"`;
  const requested = storageOf(claim.spec?.resources?.requests) ?? ZERO;
  if (compareQuantities(storageOf(volume.spec?.capacity) ?? ZERO, requested) < 0) return "requested PV is too small";
  if (classOf(volume) !== classOf(claim)) return "storageClassName does not match";
  if (volumeModeOf(volume) !== volumeModeOf(claim)) return "incompatible volumeMode";
  if (!hasAccessModes(volume, claim)) return "incompatible accessMode";
  return undefined;
}

/** reference.GetReference of a claim, in the field order kube writes it. */
function claimReference(claim: PersistentVolumeClaim): ObjectReference {
  return {
    kind: "PersistentVolumeClaim", namespace: claim.metadata.namespace, name: claim.metadata.name,
    uid: claim.metadata.uid, apiVersion: "v1", resourceVersion: claim.metadata.resourceVersion,
  };
}

const claimKey = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ""}/${name ?? ""}`;
const splitKey = (key: string) => {
  const slash = key.indexOf("/");
  return [key.slice(0, slash), key.slice(slash + 1)] as const;
};

export interface PersistentVolumeBinderOptions {
  registry: Registry;
  informer: Informer;
  recorder?: EventRecorder;
  user?: UserInfo;
  /** Full resync period (default 15 s, kube's); 0 turns it off. */
  resyncMs?: number;
  onError?: (key: string, err: unknown) => void;
}

export class PersistentVolumeBinder {
  readonly claimQueue: WorkQueue;
  readonly volumeQueue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly recorder: EventRecorder;
  private readonly user: UserInfo;
  private readonly resync?: NodeJS.Timeout;

  constructor(opts: PersistentVolumeBinderOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.recorder = opts.recorder ?? noEvents;
    this.user = opts.user ?? PERSISTENT_VOLUME_BINDER_USER;
    this.claimQueue = new WorkQueue((key) => this.syncClaim(key), { onError: opts.onError, waitFor: opts.informer });
    this.volumeQueue = new WorkQueue((name) => this.syncVolume(name), { onError: opts.onError, waitFor: opts.informer });

    opts.informer.on(claimKind.plural, (e) => {
      const claim = e.object as PersistentVolumeClaim;
      if (e.type !== "DELETED") { this.claimQueue.add(claimKey(e.key.namespace, e.key.name)); return; }
      // The claim's volume is now released (or was mid-binding): its volume decides what happens next.
      if (claim.spec?.volumeName) this.volumeQueue.add(claim.spec.volumeName);
      for (const v of this.volumes()) {
        const ref = v.spec?.claimRef;
        if (ref?.namespace === e.key.namespace && ref?.name === e.key.name) this.volumeQueue.add(v.metadata.name!);
      }
    });
    opts.informer.on(volumeKind.plural, (e) => {
      const volume = e.object as PersistentVolume;
      if (e.type === "DELETED") {
        const ref = volume.spec?.claimRef;
        if (ref) this.claimQueue.add(claimKey(ref.namespace, ref.name));
        return;
      }
      this.volumeQueue.add(e.key.name);
      // kube would wait for the next resync to offer a new Available volume to waiting claims; offering it now
      // reaches the same state sooner.
      if (volume.status?.phase === AVAILABLE) {
        for (const c of this.claims()) if (!hasAnnotation(c, ANN_BIND_COMPLETED)) this.claimQueue.add(claimKey(c.metadata.namespace, c.metadata.name));
      }
    });

    const resyncMs = opts.resyncMs ?? DEFAULT_RESYNC_MS;
    if (resyncMs > 0) {
      this.resync = setInterval(() => this.resyncAll(), resyncMs);
      this.resync.unref();
    }
  }

  stop(): void {
    if (this.resync) clearInterval(this.resync);
    this.claimQueue.stop();
    this.volumeQueue.stop();
  }

  /** Resolves once both queues are idle (tests). */
  async idle(): Promise<void> {
    await Promise.all([this.claimQueue.idle(), this.volumeQueue.idle()]);
  }

  private resyncAll(): void {
    for (const c of this.claims()) this.claimQueue.add(claimKey(c.metadata.namespace, c.metadata.name));
    for (const v of this.volumes()) this.volumeQueue.add(v.metadata.name!);
  }

  private claims(): PersistentVolumeClaim[] {
    return this.informer.list(claimKind.plural) as PersistentVolumeClaim[];
  }

  private volumes(): PersistentVolume[] {
    return this.informer.list(volumeKind.plural) as PersistentVolume[];
  }

  private claim(namespace: string | undefined, name: string | undefined): PersistentVolumeClaim | undefined {
    return this.informer.get(claimKind.plural, namespace ?? "", name ?? "") as PersistentVolumeClaim | undefined;
  }

  private volume(name: string): PersistentVolume | undefined {
    return this.informer.get(volumeKind.plural, "", name) as PersistentVolume | undefined;
  }

  private event(object: KubeObject, type: EventType, reason: string, message: string): void {
    this.recorder.event(object, type, reason, message, PERSISTENT_VOLUME_COMPONENT);
  }

  // --- claims -----------------------------------------------------------------------------------------

  async syncClaim(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.claim(namespace, name);
    if (!claim) return;
    if (!hasAnnotation(claim, ANN_BIND_COMPLETED)) await this.syncUnboundClaim(claim);
    else await this.syncBoundClaim(claim);
  }

  private async syncUnboundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const wanted = claim.spec?.volumeName;
    if (!wanted) {
      const volume = findBestMatchForClaim(claim, this.volumes());
      if (volume) { await this.bind(volume, claim); return; }
      const className = classOf(claim);
      if (className) {
        // No StorageClass API is served here, so a named class is one kube would not find either. Like kube, the
        // failure is reported and retried at the next resync, not in a tight loop.
        this.event(claim, "Warning", "ProvisioningFailed", `storageclass.storage.k8s.io "${className}" not found`);
        return;
      }
      this.event(claim, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set");
      await this.updateClaimStatus(claim, PENDING, undefined);
      return;
    }
    const volume = this.volume(wanted);
    if (!volume) {
      // The user asked for a volume that does not exist (yet); its creation brings the claim back.
      await this.updateClaimStatus(claim, PENDING, undefined);
      return;
    }
    if (!volume.spec?.claimRef) {
      const mismatch = volumeMismatch(volume, claim);
      if (mismatch) {
        this.event(claim, "Warning", "VolumeMismatch", `Cannot bind to requested volume "${volume.metadata.name}": ${mismatch}`);
        await this.updateClaimStatus(claim, PENDING, undefined);
        return;
      }
      await this.bind(volume, claim);
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) { await this.bind(volume, claim); return; }
    if (!hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) {
      // The user asked for a volume someone else holds: wait until it is free.
      await this.updateClaimStatus(claim, PENDING, undefined);
      return;
    }
    const ref = volume.spec.claimRef;
    throw new Error(`Invalid binding of claim "${claimKey(claim.metadata.namespace, claim.metadata.name)}" to volume "${wanted}": volume already claimed by "${claimKey(ref.namespace, ref.name)}"`);
  }

  private async syncBoundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const name = claim.spec?.volumeName;
    if (!name) {
      await this.updateClaimStatusWithEvent(claim, LOST, "ClaimLost", "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
      return;
    }
    const volume = this.volume(name);
    if (!volume) {
      await this.updateClaimStatusWithEvent(claim, LOST, "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
      return;
    }
    const ref = volume.spec?.claimRef;
    if (!ref || ref.uid === claim.metadata.uid) { await this.bind(volume, claim); return; }
    await this.updateClaimStatusWithEvent(claim, LOST, "ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly");
  }

  // --- volumes ----------------------------------------------------------------------------------------

  async syncVolume(name: string): Promise<void> {
    let volume = this.volume(name);
    if (!volume) return;
    const ref = volume.spec?.claimRef;
    // Unused, or reserved by name for a claim whose own sync will finish the binding.
    if (!ref || !ref.uid) { await this.updateVolumePhase(volume, AVAILABLE, ""); return; }

    let claim = this.claim(ref.namespace, ref.name);
    if (!claim && volume.status?.phase !== RELEASED && volume.status?.phase !== FAILED) {
      // Releasing is not undone: make sure the cache is not merely behind a claim created elsewhere.
      await this.registry.store.objects.catchUp();
      claim = this.claim(ref.namespace, ref.name);
    }
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;

    if (!claim) {
      if (volume.status?.phase !== RELEASED && volume.status?.phase !== FAILED) {
        volume = await this.updateVolumePhase(volume, RELEASED, "");
        if (!volume) return;
      }
      await this.reclaimVolume(volume);
      return;
    }
    if (!claim.spec?.volumeName) {
      if (volumeModeOf(claim) !== volumeModeOf(volume)) {
        this.event(volume, "Warning", "VolumeMismatch", `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata.name}" due to incompatible volumeMode.`);
        this.event(claim, "Warning", "VolumeMismatch", `Cannot bind PersistentVolume "${volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`);
        return;
      }
      // Half-bound: the claim's sync completes it.
      this.claimQueue.add(claimKey(claim.metadata.namespace, claim.metadata.name));
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) { await this.updateVolumePhase(volume, BOUND, ""); return; }
    // The claim went to another volume.
    if (hasAnnotation(volume, ANN_DYNAMICALLY_PROVISIONED) && volume.spec?.persistentVolumeReclaimPolicy === "Delete") {
      if (volume.status?.phase !== RELEASED && volume.status?.phase !== FAILED) {
        volume = await this.updateVolumePhase(volume, RELEASED, "");
        if (!volume) return;
      }
      await this.reclaimVolume(volume);
      return;
    }
    await this.unbindVolume(volume);
  }

  private async reclaimVolume(volume: PersistentVolume): Promise<void> {
    switch (volume.spec?.persistentVolumeReclaimPolicy) {
      case "Retain":
        return;
      case "Recycle":
        await this.recycleVolume(volume.metadata.name!);
        return;
      case "Delete":
        await this.deleteVolume(volume.metadata.name!);
        return;
      default:
        await this.updateVolumePhaseWithEvent(volume, FAILED, "VolumeUnknownReclaimPolicy", "Volume has unrecognized PersistentVolumeReclaimPolicy");
    }
  }

  /** isVolumeReleased: the volume names a claim (by uid) that is gone, or that went to another volume. */
  private isVolumeReleased(volume: PersistentVolume): boolean {
    const ref = volume.spec?.claimRef;
    if (!ref?.uid) return false;
    const claim = this.claim(ref.namespace, ref.name);
    if (claim && claim.metadata.uid === ref.uid) return !!claim.spec?.volumeName && claim.spec.volumeName !== volume.metadata.name;
    return true;
  }

  /** Recycle is deprecated and no recycler runs here (no kubelet to run kube's scrubber pod): the volume fails. */
  private async recycleVolume(name: string): Promise<void> {
    await this.registry.store.objects.catchUp();
    const volume = this.volume(name);
    if (!volume || !this.isVolumeReleased(volume)) return;
    await this.updateVolumePhaseWithEvent(volume, FAILED, "VolumeFailedRecycle", "No recycler plugin found for the volume!");
  }

  /** No storage backend sits behind a volume here, so deleting it is deleting the object. */
  private async deleteVolume(name: string): Promise<void> {
    await this.registry.store.objects.catchUp();
    const volume = this.volume(name);
    if (!volume || volume.metadata.deletionTimestamp || !this.isVolumeReleased(volume)) return;
    try {
      await this.registry.delete(volumeKind, "", name, { dryRun: false, user: this.user, preconditions: { uid: volume.metadata.uid } });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }

  private async unbindVolume(volume: PersistentVolume): Promise<void> {
    const next = clone(volume);
    if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) {
      delete next.spec!.claimRef;
      delete next.metadata.annotations![ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(next.metadata.annotations!).length === 0) delete next.metadata.annotations;
    } else {
      // Pre-bound by the user: keep the name, forget the claim instance.
      const { uid: _uid, ...byName } = next.spec!.claimRef!;
      void _uid;
      next.spec!.claimRef = byName;
    }
    const saved = await this.write(volumeKind, next);
    if (saved) await this.updateVolumePhase(saved, AVAILABLE, "");
  }

  // --- binding ----------------------------------------------------------------------------------------

  /** Volume first, then its phase, then the claim, then the claim's status: each step is a conditional write. */
  private async bind(volume: PersistentVolume, claim: PersistentVolumeClaim): Promise<void> {
    const v1 = await this.bindVolumeToClaim(volume, claim);
    if (!v1) return;
    const v2 = await this.updateVolumePhase(v1, BOUND, "");
    if (!v2) return;
    const c1 = await this.bindClaimToVolume(claim, v2);
    if (!c1) return;
    await this.updateClaimStatus(c1, BOUND, v2);
  }

  private async bindVolumeToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): Promise<PersistentVolume | undefined> {
    const next = clone(volume);
    next.spec ??= {};
    let dirty = false;
    const ref = volume.spec?.claimRef;
    if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid) {
      next.spec.claimRef = claimReference(claim);
      dirty = true;
    }
    // Only a volume the controller picked is marked so: a user's pre-binding stays the user's.
    if (!isVolumeBoundToClaim(volume, claim) && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
      setAnnotation(next, ANN_BOUND_BY_CONTROLLER, "yes");
      dirty = true;
    }
    return dirty ? this.write(volumeKind, next) : volume;
  }

  private async bindClaimToVolume(claim: PersistentVolumeClaim, volume: PersistentVolume): Promise<PersistentVolumeClaim | undefined> {
    const next = clone(claim);
    next.spec ??= {};
    let dirty = false;
    if (claim.spec?.volumeName !== volume.metadata.name) {
      next.spec.volumeName = volume.metadata.name;
      if (!hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) setAnnotation(next, ANN_BOUND_BY_CONTROLLER, "yes");
      dirty = true;
    }
    if (!hasAnnotation(next, ANN_BIND_COMPLETED)) {
      setAnnotation(next, ANN_BIND_COMPLETED, "yes");
      dirty = true;
    }
    return dirty ? this.write(claimKind, next) : claim;
  }

  private async updateClaimStatus(claim: PersistentVolumeClaim, phase: string, volume: PersistentVolume | undefined): Promise<PersistentVolumeClaim | undefined> {
    const { phase: oldPhase, accessModes: oldModes, capacity: oldCapacity, ...rest } = claim.status ?? {};
    let accessModes = oldModes, capacity = oldCapacity;
    let dirty = oldPhase !== phase;
    if (!volume) {
      if (accessModes !== undefined) { accessModes = undefined; dirty = true; }
      if (capacity !== undefined) { capacity = undefined; dirty = true; }
    } else {
      if (JSON.stringify(accessModes) !== JSON.stringify(volume.spec?.accessModes)) { accessModes = clone(volume.spec?.accessModes); dirty = true; }
      // Capacity is copied when the claim becomes Bound, never later: a difference afterwards can be intended.
      if (oldPhase !== phase) {
        const volumeCap = storageOf(volume.spec?.capacity);
        if (!volumeCap) throw new Error(`PersistentVolume "${volume.metadata.name}" is without a storage capacity`);
        const claimCap = storageOf(capacity);
        if (!claimCap || compareQuantities(volumeCap, claimCap) !== 0) { capacity = clone(volume.spec!.capacity); dirty = true; }
      }
    }
    if (!dirty) return claim;
    const status: PersistentVolumeClaim["status"] = { phase };
    if (accessModes !== undefined) status.accessModes = accessModes;
    if (capacity !== undefined) status.capacity = capacity;
    return this.write(claimKind, { ...claim, status: { ...status, ...rest } }, "status");
  }

  /** The Event goes out only when the phase really changes, not at every sync. */
  private async updateClaimStatusWithEvent(claim: PersistentVolumeClaim, phase: string, reason: string, message: string): Promise<void> {
    if (claim.status?.phase === phase) return;
    const saved = await this.updateClaimStatus(claim, phase, undefined);
    if (saved) this.event(saved, "Warning", reason, message);
  }

  private async updateVolumePhase(volume: PersistentVolume, phase: string, message: string): Promise<PersistentVolume | undefined> {
    if (volume.status?.phase === phase) return volume;
    const { phase: _phase, message: _message, ...rest } = volume.status ?? {};
    void _phase; void _message;
    const status: PersistentVolume["status"] = message ? { phase, message, ...rest } : { phase, ...rest };
    return this.write(volumeKind, { ...volume, status }, "status");
  }

  private async updateVolumePhaseWithEvent(volume: PersistentVolume, phase: string, reason: string, message: string): Promise<void> {
    if (volume.status?.phase === phase) return;
    const saved = await this.updateVolumePhase(volume, phase, message);
    if (saved) this.event(saved, "Warning", reason, message);
  }

  /**
   * A write pinned to the resourceVersion the decision was made on: a conflict throws, and the queue retries
   * the whole sync from the newer state. An object deleted meanwhile answers undefined (nothing left to do).
   */
  private async write<T extends KubeObject>(kind: AnyKind, object: T, subresource?: string): Promise<T | undefined> {
    try {
      const answer = await this.registry.update(kind, object.metadata.namespace ?? "", object.metadata.name!, object, {
        dryRun: false, fieldValidation: "Ignore", user: this.user, subresource,
      });
      return ("object" in answer ? answer.object : undefined) as T | undefined;
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return undefined;
      throw err;
    }
  }
}

// kube-controller-manager's pv-protection controller: a deleted volume keeps its `kubernetes.io/pv-protection`
// finalizer (so stays Terminating) while it is Bound; once the binder moves it on (its claim gone: Released), the
// finalizer goes and the registry completes the deletion. Live volumes lacking the finalizer get it.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { PV_PROTECTION_FINALIZER } from "../admission/storage-object-in-use-protection";
import { persistentVolume as volumeKind, type PersistentVolume } from "../kinds/persistent-volume";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { isDeletionCandidate, needsFinalizer } from "./pvc-protection";
import { WorkQueue } from "./work-queue";

export const PV_PROTECTION_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:pv-protection-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

export interface PvProtectionControllerOptions {
  registry: Registry;
  informer: Informer;
  user?: UserInfo;
  onError?: (name: string, err: unknown) => void;
}

export class PvProtectionController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly user: UserInfo;

  constructor(opts: PvProtectionControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.user = opts.user ?? PV_PROTECTION_CONTROLLER_USER;
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(volumeKind.plural, (e) => {
      if (e.type === "DELETED") return;
      if (needsFinalizer(e.object, PV_PROTECTION_FINALIZER) || isDeletionCandidate(e.object, PV_PROTECTION_FINALIZER)) this.queue.add(e.key.name);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(name: string): Promise<void> {
    const volume = this.informer.get(volumeKind.plural, "", name) as PersistentVolume | undefined;
    if (!volume) return;
    const finalizers = volume.metadata.finalizers ?? [];
    if (isDeletionCandidate(volume, PV_PROTECTION_FINALIZER)) {
      // The phase is the binder's word on whether a claim still holds the volume.
      if (volume.status?.phase === "Bound") return;
      await this.write({ ...volume, metadata: { ...volume.metadata, finalizers: finalizers.filter((f) => f !== PV_PROTECTION_FINALIZER) } });
      return;
    }
    if (needsFinalizer(volume, PV_PROTECTION_FINALIZER)) {
      await this.write({ ...volume, metadata: { ...volume.metadata, finalizers: [...finalizers, PV_PROTECTION_FINALIZER] } });
    }
  }

  /** Pinned to the version read: a conflict throws and the queue retries from the newer state. */
  private async write(volume: KubeObject): Promise<void> {
    try {
      await this.registry.update(volumeKind, "", volume.metadata.name!, volume, { dryRun: false, fieldValidation: "Ignore", user: this.user });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

// kube-controller-manager's pvc-protection controller: a deleted claim keeps its `kubernetes.io/pvc-protection`
// finalizer (so stays Terminating) while a scheduled pod still names it; once none does, the finalizer goes and
// the registry completes the deletion. It also adds the finalizer to live claims that lack it (created before
// the admission plug-in, or with it stripped).
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { PVC_PROTECTION_FINALIZER } from "../admission/storage-object-in-use-protection";
import { persistentVolumeClaim as claimKind } from "../kinds/persistent-volume-claim";
import { pod as podKind } from "../kinds/pod";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export const PVC_PROTECTION_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:pvc-protection-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

interface PodVolume {
  name?: string;
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
}

const podVolumes = (pod: KubeObject) => ((pod.spec as { volumes?: PodVolume[] } | undefined)?.volumes ?? []);
const nodeName = (pod: KubeObject) => (pod.spec as { nodeName?: string } | undefined)?.nodeName;
const finalizers = (o: KubeObject) => o.metadata.finalizers ?? [];

export const isDeletionCandidate = (o: KubeObject, finalizer: string) => !!o.metadata.deletionTimestamp && finalizers(o).includes(finalizer);
export const needsFinalizer = (o: KubeObject, finalizer: string) => !o.metadata.deletionTimestamp && !finalizers(o).includes(finalizer);

/** Deleted by the kubelet after stopping, or forced: it holds nothing any more, which also breaks finalizer cycles. */
const isShutDown = (pod: KubeObject) => !!pod.metadata.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;

/** The claim an ephemeral volume's pod owns is named `<pod>-<volume>` and controlled by that pod. */
function isEphemeralClaimOf(pod: KubeObject, volume: PodVolume, claim: KubeObject): boolean {
  if (!volume.ephemeral || `${pod.metadata.name}-${volume.name}` !== claim.metadata.name) return false;
  return (claim.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
}

/**
 * Only a scheduled pod counts (the kubelet never starts one whose claim is being deleted), whatever its phase:
 * a finished pod still names the claim until it is deleted, as in kube.
 */
export function podUsesClaim(pod: KubeObject, claim: KubeObject): boolean {
  if (!nodeName(pod) || pod.metadata.namespace !== claim.metadata.namespace) return false;
  return podVolumes(pod).some((v) =>
    v.persistentVolumeClaim?.claimName === claim.metadata.name || (!isShutDown(pod) && isEphemeralClaimOf(pod, v, claim)));
}

export interface PvcProtectionControllerOptions {
  registry: Registry;
  informer: Informer;
  user?: UserInfo;
  onError?: (key: string, err: unknown) => void;
}

export class PvcProtectionController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly user: UserInfo;

  constructor(opts: PvcProtectionControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.user = opts.user ?? PVC_PROTECTION_CONTROLLER_USER;
    this.queue = new WorkQueue((key) => this.sync(key), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(claimKind.plural, (e) => {
      if (e.type === "DELETED") return;
      if (needsFinalizer(e.object, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(e.object, PVC_PROTECTION_FINALIZER)) {
        this.queue.add(`${e.key.namespace}/${e.key.name}`);
      }
    });
    // A pod going (or finishing, or named differently now) may free the claims it named; only claims being
    // deleted care.
    opts.informer.on(podKind.plural, (e) => {
      // Most namespaces have no claim being deleted: the pod need not be read.
      if (!this.informer.list(claimKind.plural, e.key.namespace).some((c) => isDeletionCandidate(c, PVC_PROTECTION_FINALIZER))) return;
      const names = new Set<string>();
      for (const pod of [e.object, e.old]) {
        if (!pod) continue;
        for (const v of podVolumes(pod)) {
          if (v.persistentVolumeClaim?.claimName) names.add(v.persistentVolumeClaim.claimName);
          else if (v.ephemeral) names.add(`${pod.metadata.name}-${v.name}`);
        }
      }
      for (const name of names) {
        const claim = this.informer.get(claimKind.plural, e.key.namespace, name);
        if (claim && isDeletionCandidate(claim, PVC_PROTECTION_FINALIZER)) this.queue.add(`${e.key.namespace}/${name}`);
      }
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(key: string): Promise<void> {
    const slash = key.indexOf("/");
    const namespace = key.slice(0, slash), name = key.slice(slash + 1);
    const claim = this.informer.get(claimKind.plural, namespace, name);
    if (!claim) return;
    if (isDeletionCandidate(claim, PVC_PROTECTION_FINALIZER)) {
      if (await this.isBeingUsed(claim)) return;
      await this.write({ ...claim, metadata: { ...claim.metadata, finalizers: finalizers(claim).filter((f) => f !== PVC_PROTECTION_FINALIZER) } });
      return;
    }
    if (needsFinalizer(claim, PVC_PROTECTION_FINALIZER)) {
      await this.write({ ...claim, metadata: { ...claim.metadata, finalizers: [...finalizers(claim), PVC_PROTECTION_FINALIZER] } });
    }
  }

  /** The cache first; before letting a claim go, a look at the latest state too (kube's live list). */
  private async isBeingUsed(claim: KubeObject): Promise<boolean> {
    const used = () => this.informer.list(podKind.plural, claim.metadata.namespace).some((pod) => podUsesClaim(pod, claim));
    if (used()) return true;
    await this.registry.store.objects.catchUp();
    return used();
  }

  /** Pinned to the version read: a conflict throws and the queue retries from the newer state. */
  private async write(claim: KubeObject): Promise<void> {
    try {
      await this.registry.update(claimKind, claim.metadata.namespace ?? "", claim.metadata.name!, claim, { dryRun: false, fieldValidation: "Ignore", user: this.user });
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

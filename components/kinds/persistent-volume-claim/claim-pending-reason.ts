// Why a claim is still Pending, in words, from the Events the PV binder records on it (lib/controllers'
// persistent-volume-binder, as kube's persistentvolume-controller): `FailedBinding` (no volume fits and no
// class to provision from), `ProvisioningFailed` (the class does not exist), `VolumeMismatch` (the volume it
// names does not fit). The newest such Event wins; a claim that is not Pending has no reason.
import type { KubeObject } from "@/lib/kinds";
import { eventLastSeen } from "@/lib/client/event-time";
import { objectKey } from "@/lib/client/list-state";

export interface PendingReason {
  /** The Event's reason (FailedBinding, ProvisioningFailed...). */
  reason: string;
  /** What it means, short enough for a list cell. */
  headline: string;
  /** The binder's own message. */
  message: string;
}

interface ClaimEvent {
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string };
}

const CLAIM_KIND = "PersistentVolumeClaim";
const BINDER_REASONS = new Set(["FailedBinding", "ProvisioningFailed", "VolumeMismatch", "WaitForFirstConsumer", "ExternalProvisioning"]);
const CLASS_NOT_FOUND = /storageclass\.storage\.k8s\.io "([^"]*)" not found/;

function headline(reason: string, message: string): string {
  if (reason === "FailedBinding") return "No volume matches this claim";
  if (reason === "ProvisioningFailed") {
    const missing = CLASS_NOT_FOUND.exec(message);
    return missing ? `Storage class "${missing[1]}" not found` : "Provisioning failed";
  }
  if (reason === "VolumeMismatch") return "The volume it asks for does not fit";
  if (reason === "WaitForFirstConsumer") return "Waits for a pod to use it";
  return "Waits for a volume to be provisioned";
}

export function isPendingClaim(claim: KubeObject): boolean {
  return !claim.metadata.deletionTimestamp && ((claim.status as { phase?: string } | undefined)?.phase ?? "Pending") === "Pending";
}

const eventClaimKey = (e: KubeObject): string | undefined => {
  const ref = (e as ClaimEvent).involvedObject;
  if (ref?.kind !== CLAIM_KIND || !ref.name) return undefined;
  const namespace = ref.namespace || e.metadata.namespace;
  return namespace ? `${namespace}/${ref.name}` : ref.name;
};

/**
 * Each Pending claim's reason (keyed by namespace/name, as list caches are), from a list of Events that may
 * hold anything (a namespace's, the cluster's): one pass over the Events, one over the claims. Events about an
 * earlier claim of the same name (another uid) are not this claim's.
 */
export function claimPendingReasons(claims: Iterable<KubeObject>, events: Iterable<KubeObject>): Map<string, PendingReason> {
  const newest = new Map<string, KubeObject[]>();
  for (const e of events) {
    if (!BINDER_REASONS.has((e as ClaimEvent).reason ?? "")) continue;
    const key = eventClaimKey(e);
    if (!key) continue;
    const list = newest.get(key);
    if (list) list.push(e);
    else newest.set(key, [e]);
  }
  const out = new Map<string, PendingReason>();
  for (const claim of claims) {
    if (!isPendingClaim(claim)) continue;
    const key = objectKey(claim);
    const candidates = (newest.get(key) ?? []).filter((e) => {
      const uid = (e as ClaimEvent).involvedObject?.uid;
      return !uid || !claim.metadata.uid || uid === claim.metadata.uid;
    });
    if (candidates.length === 0) continue;
    const latest = candidates.reduce((a, b) => ((eventLastSeen(b) || 0) > (eventLastSeen(a) || 0) ? b : a));
    const { reason = "", message = "" } = latest as ClaimEvent;
    out.set(key, { reason, headline: headline(reason, message), message });
  }
  return out;
}

/** One claim's reason (undefined when it is not Pending or the binder said nothing yet). */
export function claimPendingReason(claim: KubeObject, events: Iterable<KubeObject>): PendingReason | undefined {
  return claimPendingReasons([claim], events).get(objectKey(claim));
}

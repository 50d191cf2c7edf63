"use client";
// A claim and the volume it is bound to, live from both sides: the binder writes spec.volumeName on the
// claim and spec.claimRef on the volume, and a binding is complete only when both agree. A Pending claim says
// why, from the binder's Events on it (claim-pending-reason.ts; the page's own Events watch, shared).
import { useMemo } from "react";
import { useResourceList } from "@/lib/client/use-resource-list";
import { useObjectEvents } from "../../resource-details/events-panel";
import { claimPendingReason } from "./claim-pending-reason";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { FieldList, LoadNote, Muted, ObjectLink } from "../field-list";
import { BindingAnnotations, PhaseBadge, storageClassOf } from "../persistent-volume/volume-binding";

type Loose = Record<string, any>;

const volumeKind = kindByPlural("persistentvolumes");

function BoundVolume({ claim, volumeName }: { claim: KubeObject; volumeName: string }) {
  const list = useResourceList(volumeKind, { fieldSelector: `metadata.name=${volumeName}` }, { enabled: !!volumeName });
  const volume = list.data?.items.get(volumeName);
  if (!volumeName) return null;
  const spec = (volume?.spec ?? {}) as Loose;
  const ref = spec.claimRef as Loose | undefined;
  const pointsBack = !!ref && ref.name === claim.metadata.name && ref.namespace === claim.metadata.namespace && (!ref.uid || ref.uid === claim.metadata.uid);
  return (
    <div className="mt-3 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700" data-testid="bound-volume">
      <p className="mb-1 text-sm font-medium">
        Volume <ObjectLink kind="PersistentVolume" name={volumeName} testId="volume-link" />
      </p>
      <LoadNote error={list.error} loading={!list.data && !list.error} what="The volume" />
      {list.data && !volume && <p className="text-sm text-amber-800 dark:text-amber-300">The volume does not exist: the claim is Lost if it stays so.</p>}
      {volume && (
        <FieldList
          fields={[
            ["Phase", <PhaseBadge key="p" phase={(volume.status as Loose | undefined)?.phase} />, "volume-phase"],
            ["Capacity", spec.capacity?.storage],
            ["Reclaim policy", spec.persistentVolumeReclaimPolicy],
            [
              "Claim reference",
              pointsBack ? "points back to this claim" : ref?.name ? <span className="text-amber-800 dark:text-amber-300">points to {ref.namespace}/{ref.name}</span> : <Muted>not set yet</Muted>,
              "volume-claim-ref",
            ],
          ]}
        />
      )}
    </div>
  );
}

function PendingReason({ claim }: { claim: KubeObject }) {
  const events = useObjectEvents("PersistentVolumeClaim", claim.metadata.namespace, claim.metadata.name ?? "");
  const reason = useMemo(() => claimPendingReason(claim, events.data?.items.values() ?? []), [claim, events.data]);
  if (!reason) return null;
  return (
    <p className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100" data-testid="claim-pending-reason">
      <span className="font-medium">Pending: {reason.headline}.</span> <span className="break-words">The binder says ({reason.reason}): {reason.message}</span>
    </p>
  );
}

export function ClaimBinding({ obj }: { obj: KubeObject }) {
  const spec = (obj.spec ?? {}) as Loose;
  const status = (obj.status ?? {}) as Loose;
  const accessModes: string[] = status.accessModes?.length ? status.accessModes : spec.accessModes ?? [];
  return (
    <div data-testid="claim-binding">
      <PendingReason claim={obj} />
      <FieldList
        fields={[
          ["Phase", <PhaseBadge key="p" phase={status.phase} />, "claim-phase"],
          ["Volume", spec.volumeName ? <ObjectLink kind="PersistentVolume" name={spec.volumeName} testId="claim-volume-name" /> : <Muted>not bound yet</Muted>],
          ["Requested", spec.resources?.requests?.storage, "claim-requested"],
          ["Capacity", status.capacity?.storage, "claim-capacity"],
          ["Access modes", accessModes.join(", "), "claim-access-modes"],
          ["Storage class", storageClassOf(obj) ?? <Muted>none</Muted>, "claim-storage-class"],
          ["Volume mode", spec.volumeMode],
          ["Selector", spec.selector ? <code className="font-mono text-xs">{JSON.stringify(spec.selector)}</code> : undefined],
        ]}
      />
      <BindingAnnotations obj={obj} />
      <BoundVolume claim={obj} volumeName={spec.volumeName ?? ""} />
    </div>
  );
}

"use client";
// A volume and the claim it is bound to, live: phase, capacity, access modes, reclaim policy and class, the
// claimRef as a link, and whether the claim names this volume back (the binder's two-sided handshake).
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { FieldList, LoadNote, Muted, ObjectLink } from "../field-list";

type Loose = Record<string, any>;

const claimKind = kindByPlural("persistentvolumeclaims");

const phaseLooks: Record<string, string> = {
  Bound: "bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100",
  Available: "bg-blue-100 text-blue-900 dark:bg-blue-900/60 dark:text-blue-100",
  Pending: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  Released: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
  Failed: "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100",
  Lost: "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100",
};

export function PhaseBadge({ phase }: { phase: string | undefined }) {
  if (!phase) return <Muted>not reported yet</Muted>;
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${phaseLooks[phase] ?? phaseLooks.Pending}`}>{phase}</span>;
}

/** spec.storageClassName, or the beta annotation older objects still carry (kube reads both). */
export function storageClassOf(obj: KubeObject): string | undefined {
  const spec = (obj.spec ?? {}) as Loose;
  return spec.storageClassName ?? obj.metadata.annotations?.["volume.beta.kubernetes.io/storage-class"] ?? undefined;
}

/** The binder's and provisioner's annotations (pv.kubernetes.io/*, volume.*kubernetes.io/*). */
export function BindingAnnotations({ obj }: { obj: KubeObject }) {
  const entries = Object.entries(obj.metadata.annotations ?? {}).filter(([k]) => k.startsWith("pv.kubernetes.io/") || /^volume\.(beta\.)?kubernetes\.io\//.test(k));
  if (entries.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-1" data-testid="binding-annotations" aria-label="Binding annotations">
      {entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => (
        <li key={k} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800">
          {k}={v}
        </li>
      ))}
    </ul>
  );
}

const volumeSources = ["hostPath", "local", "nfs", "csi", "iscsi", "fc", "cephfs", "rbd", "glusterfs", "azureDisk", "azureFile", "awsElasticBlockStore", "gcePersistentDisk", "cinder", "vsphereVolume", "portworxVolume", "flexVolume", "flocker", "quobyte", "scaleIO", "storageos", "photonPersistentDisk"];

function BoundClaim({ volume, claimRef: ref }: { volume: KubeObject; claimRef: Loose | undefined }) {
  const list = useResourceList(claimKind, { namespace: ref?.namespace, fieldSelector: `metadata.name=${ref?.name ?? ""}` }, { enabled: !!ref?.name && !!ref?.namespace });
  if (!ref?.name) return null;
  const claim = list.data?.items.get(`${ref.namespace}/${ref.name}`);
  const claimSpec = (claim?.spec ?? {}) as Loose;
  const uidMatches = !ref.uid || ref.uid === claim?.metadata.uid;
  return (
    <div className="mt-3 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700" data-testid="bound-claim">
      <p className="mb-1 text-sm font-medium">
        Claim{" "}
        <ObjectLink kind="PersistentVolumeClaim" namespace={ref.namespace} name={ref.name} testId="claim-link">
          {ref.namespace}/{ref.name}
        </ObjectLink>
      </p>
      <LoadNote error={list.error} loading={!list.data && !list.error} what="The claim" />
      {list.data && (!claim || !uidMatches) && (
        <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="claim-missing">
          {claim ? "A different claim of that name exists now (its UID differs):" : "The claim no longer exists:"} the volume is Released and follows its reclaim policy.
        </p>
      )}
      {claim && uidMatches && (
        <FieldList
          fields={[
            ["Phase", <PhaseBadge key="p" phase={(claim.status as Loose | undefined)?.phase} />, "bound-claim-phase"],
            ["Requested", claimSpec.resources?.requests?.storage],
            [
              "Volume name",
              claimSpec.volumeName === volume.metadata.name ? "names this volume" : claimSpec.volumeName ? <span className="text-amber-800 dark:text-amber-300">names {claimSpec.volumeName}</span> : <Muted>not set yet</Muted>,
              "claim-volume-ref",
            ],
          ]}
        />
      )}
    </div>
  );
}

export function VolumeBinding({ obj }: { obj: KubeObject }) {
  const spec = (obj.spec ?? {}) as Loose;
  const status = (obj.status ?? {}) as Loose;
  const source = volumeSources.find((s) => spec[s] !== undefined);
  const ref = spec.claimRef as Loose | undefined;
  return (
    <div data-testid="volume-binding">
      <FieldList
        fields={[
          ["Phase", <PhaseBadge key="p" phase={status.phase} />, "volume-phase"],
          ["Reason", status.reason ? `${status.reason}${status.message ? `: ${status.message}` : ""}` : status.message],
          [
            "Claim",
            ref?.name ? (
              <ObjectLink kind="PersistentVolumeClaim" namespace={ref.namespace} name={ref.name} testId="volume-claim-name">
                {ref.namespace}/{ref.name}
              </ObjectLink>
            ) : (
              <Muted>none (available to a matching claim)</Muted>
            ),
          ],
          ["Capacity", spec.capacity?.storage, "volume-capacity"],
          ["Access modes", (spec.accessModes ?? []).join(", "), "volume-access-modes"],
          ["Reclaim policy", spec.persistentVolumeReclaimPolicy, "volume-reclaim-policy"],
          ["Storage class", storageClassOf(obj) ?? <Muted>none</Muted>, "volume-storage-class"],
          ["Volume mode", spec.volumeMode],
          ["Source", source ? `${source}${spec[source]?.path ? ` ${spec[source].path}` : spec[source]?.server ? ` ${spec[source].server}` : spec[source]?.driver ? ` ${spec[source].driver}` : ""}` : undefined],
        ]}
      />
      <BindingAnnotations obj={obj} />
      <BoundClaim volume={obj} claimRef={ref} />
    </div>
  );
}

// PersistentVolume (spec 2.12): accessModes atomic, capacity a map, claimRef merges as a map; the volume
// source members of spec 2.14 marked for PersistentVolume.
import { resourceList } from "./container";
import { coreType } from "./names";
import { objectReference } from "./object-reference";
import { accessModes } from "./persistent-volume-claim-spec";
import { nodeSelector } from "./node-selector";
import { arr, describe, obj, str, time } from "./schema";
import { resource } from "./resource";
import { persistentVolumeSources } from "./volume-source";

export const persistentVolumeSchema = resource(
  "PersistentVolume",
  {
    spec: obj(
      {
        accessModes: accessModes("Ways the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany."),
        capacity: resourceList("Size of the volume, e.g. storage: 10Gi."),
        claimRef: describe(objectReference, "The claim bound to this volume (two-way binding with the claim's volumeName)."),
        persistentVolumeReclaimPolicy: str({
          description: "What happens when the claim is released: Retain (default for manual volumes), Delete or Recycle.",
          enum: ["Delete", "Recycle", "Retain"],
        }),
        storageClassName: str({ description: "StorageClass of the volume; empty means no class." }),
        ...persistentVolumeSources,
        // Newer than the spec (Kubernetes 1.32):
        mountOptions: arr(str(), { description: "Mount options used when the volume is mounted, e.g. [\"ro\", \"soft\"]; not validated." }),
        nodeAffinity: obj(
          { required: describe(nodeSelector, "Nodes the volume can be reached from.") },
          { name: coreType("VolumeNodeAffinity"), description: "Nodes the volume is accessible from; pods using it are scheduled there." },
        ),
        volumeAttributesClassName: str({ description: "VolumeAttributesClass of the volume." }),
        volumeMode: str({ description: "Filesystem (default) or Block.", enum: ["Block", "Filesystem"] }),
      },
      { name: coreType("PersistentVolumeSpec"), description: "Capacity, access modes and storage of the volume." },
    ),
    status: obj(
      {
        message: str({ description: "Human-readable reason for the phase." }),
        phase: str({ description: "Pending, Available, Bound, Released or Failed.", enum: ["Available", "Bound", "Failed", "Pending", "Released"] }),
        reason: str({ description: "Short reason for a failure." }),
        // Newer than the spec (Kubernetes 1.32):
        lastPhaseTransitionTime: time({ description: "When the phase last changed." }),
      },
      { name: coreType("PersistentVolumeStatus"), description: "Current state of the volume." },
    ),
  },
  { description: "A piece of storage provisioned by an administrator, cluster-wide, that claims bind to." },
);

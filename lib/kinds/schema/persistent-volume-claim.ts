// PersistentVolumeClaim (spec 2.11): accessModes and selector.matchExpressions atomic, resource maps merge.
import { resourceList } from "./container";
import { labelSelector } from "./label-selector";
import { coreType } from "./names";
import { arr, describe, obj, str } from "./schema";
import { resource } from "./resource";

export const accessModes = (description: string) => arr(str({ enum: ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"] }), { description });

export const persistentVolumeClaimSchema = resource(
  "PersistentVolumeClaim",
  {
    spec: obj(
      {
        accessModes: accessModes("Access modes the volume must offer: ReadWriteOnce, ReadOnlyMany, ReadWriteMany."),
        resources: obj(
          {
            limits: resourceList("Most storage the claim may use."),
            requests: resourceList("Least storage the claim needs, e.g. storage: 1Gi."),
          },
          { name: coreType("VolumeResourceRequirements"), description: "Storage the claim needs." },
        ),
        selector: describe(labelSelector, "Labels the bound volume must have."),
        storageClassName: str({ description: "StorageClass the volume must belong to; \"\" asks for a volume without a class." }),
        volumeName: str({ description: "Name of the PersistentVolume to bind to." }),
      },
      { name: coreType("PersistentVolumeClaimSpec"), description: "The storage requested." },
    ),
    status: obj(
      {
        accessModes: accessModes("Access modes of the bound volume."),
        capacity: resourceList("Capacity of the bound volume."),
        phase: str({ description: "Pending, Bound or Lost.", enum: ["Bound", "Lost", "Pending"] }),
      },
      { name: coreType("PersistentVolumeClaimStatus"), description: "Current state of the claim." },
    ),
  },
  { description: "A user's request for, and claim to, a persistent volume." },
);

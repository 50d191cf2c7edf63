// PersistentVolumeClaim `spec` (spec 2.11), shared by the claim and by Pod ephemeral volumes' claim templates.
import { resourceList } from "./container";
import { labelSelector } from "./label-selector";
import { coreType } from "./names";
import { arr, describe, obj, str } from "./schema";

export const accessModes = (description: string) =>
  arr(str({ enum: ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"] }), { description });

const typedReference = {
  apiGroup: str({ description: "API group of the referent; empty for the core group." }),
  kind: str({ description: "Kind of the referent." }),
  name: str({ description: "Name of the referent." }),
};

export const persistentVolumeClaimSpec = obj(
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
    // Newer than the spec (Kubernetes 1.32):
    dataSource: obj(typedReference, {
      name: coreType("TypedLocalObjectReference"),
      description: "An existing snapshot or claim (same namespace) to fill the new volume from.",
      required: ["kind", "name"],
    }),
    dataSourceRef: obj(
      { ...typedReference, namespace: str({ description: "Namespace of the referent." }) },
      { name: coreType("TypedObjectReference"), description: "A populator object to fill the new volume from.", required: ["kind", "name"] },
    ),
    volumeAttributesClassName: str({ description: "VolumeAttributesClass of the volume." }),
    volumeMode: str({ description: "Filesystem (default) or Block.", enum: ["Block", "Filesystem"] }),
  },
  { name: coreType("PersistentVolumeClaimSpec"), description: "The storage requested." },
);

import { validatePersistentVolumeSpec, validatePersistentVolumeUpdate } from "../validation/persistent-volume-spec";
import { canonicalizeResourceList, resourceListDecodeError } from "../validation/quantity";
import { ageColumn, column, formatAccessModes, formatQuantity, nameColumn, UNSET } from "./columns";
import { defineKind } from "./define-kind";
import { persistentVolumeSchema } from "./schema/persistent-volume";
import type { ObjectReference } from "./shared/object-reference";
import type { ResourceList } from "./shared/resource-list";
import { applySharedVolumeSourceDefaults } from "./shared/volume-defaults";
import type { PersistentVolumeSource } from "./shared/volume-source";
import type { KubeObject } from "./types";

export interface PersistentVolumeSpec extends PersistentVolumeSource {
  accessModes?: string[];
  capacity?: ResourceList;
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  /** Newer than the spec; printed by the VolumeMode and VolumeAttributesClass columns when present. */
  [key: string]: unknown;
}

export interface PersistentVolume extends KubeObject {
  spec?: PersistentVolumeSpec;
  status?: { message?: string; phase?: string; reason?: string };
}

/** The beta annotation wins over spec.storageClassName, as the volume binder reads it. */
export const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

function storageClass(pv: PersistentVolume): string {
  const annotations = pv.metadata?.annotations ?? {};
  if (betaStorageClassAnnotation in annotations) return annotations[betaStorageClassAnnotation];
  return pv.spec?.storageClassName ?? "";
}

function claim(pv: PersistentVolume): string {
  const ref = pv.spec?.claimRef;
  return ref ? `${ref.namespace ?? ""}/${ref.name ?? ""}` : "";
}

const optionalString = (value: unknown) => (typeof value === "string" ? value : UNSET);

// --- strategy -----------------------------------------------------------------------------------------------

/**
 * SetDefaults_PersistentVolume (reclaim policy Retain, volumeMode Filesystem), the volume sources' declarative
 * defaults, and capacity in canonical form.
 */
function applyDefaults(pv: PersistentVolume): void {
  const spec = pv.spec;
  if (!spec || typeof spec !== "object") return;
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = "Retain";
  if (spec.volumeMode === undefined || spec.volumeMode === null) spec.volumeMode = "Filesystem";
  canonicalizeResourceList(spec.capacity);
  applySharedVolumeSourceDefaults(spec);
}

// --- declaration --------------------------------------------------------------------------------------------

export const persistentVolume = defineKind<PersistentVolume>({
  kind: "PersistentVolume",
  schema: persistentVolumeSchema,
  plural: "persistentvolumes",
  singular: "persistentvolume",
  shortNames: ["pv"],
  categories: [],
  namespaced: false,
  nameRule: "dns1123-subdomain",
  hasStatus: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // Spec 4.5 (reference decision 3): PersistentVolume deletes answer a Status, single and collection alike.
  deleteReturns: "status",
  deleteCollectionReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<PersistentVolume>({ name: "Capacity", description: "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity", cell: (pv) => formatQuantity(pv.spec?.capacity?.storage) }),
    column<PersistentVolume>({ name: "Access Modes", description: "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes", cell: (pv) => formatAccessModes(pv.spec?.accessModes) }),
    column<PersistentVolume>({ name: "Reclaim Policy", description: "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming", cell: (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? "" }),
    column<PersistentVolume>({ name: "Status", description: "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase", cell: (pv) => (pv.metadata?.deletionTimestamp ? "Terminating" : pv.status?.phase ?? "") }),
    column<PersistentVolume>({ name: "Claim", description: "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding", cell: claim }),
    column<PersistentVolume>({ name: "StorageClass", description: "StorageClass of the pv", cell: storageClass }),
    column<PersistentVolume>({ name: "VolumeAttributesClass", description: "VolumeAttributesClass of the pv", cell: (pv) => optionalString(pv.spec?.volumeAttributesClassName) }),
    column<PersistentVolume>({ name: "Reason", description: "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.", cell: (pv) => pv.status?.reason ?? "" }),
    ageColumn,
    column<PersistentVolume>({ name: "VolumeMode", priority: 1, description: "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.", cell: (pv) => optionalString(pv.spec?.volumeMode) }),
  ],

  template: {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "pv-0001", labels: { type: "local" } },
    spec: {
      capacity: { storage: "5Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Retain",
      hostPath: { path: "/mnt/data/pv-0001" },
    },
  },

  /** The binder moves a new volume on from Pending; whatever status the client sent is dropped. */
  prepareForCreate: (pv) => {
    pv.status = { phase: "Pending" };
  },
  decodeError: (pv) => resourceListDecodeError(pv.spec?.capacity),
  applyDefaults,
  validate: validatePersistentVolumeSpec,
  validateUpdate: validatePersistentVolumeUpdate,
});

import { validatePersistentVolumeClaimSpec, validatePersistentVolumeClaimUpdate } from "../validation/persistent-volume-claim-spec";
import { canonicalizeResourceList, resourceListDecodeError } from "../validation/quantity";
import { ageColumn, column, formatAccessModes, formatQuantity, nameColumn, UNSET } from "./columns";
import { defineKind } from "./define-kind";
import { persistentVolumeClaimSchema } from "./schema/persistent-volume-claim";
import { betaStorageClassAnnotation } from "./persistent-volume";
import type { LabelSelector } from "./shared/label-selector";
import type { ResourceList, ResourceRequirements } from "./shared/resource-list";
import type { KubeObject } from "./types";

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  resources?: ResourceRequirements;
  selector?: LabelSelector;
  storageClassName?: string;
  volumeName?: string;
  /** Newer than the spec; printed by the VolumeMode and VolumeAttributesClass columns when present. */
  [key: string]: unknown;
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: { accessModes?: string[]; capacity?: ResourceList; phase?: string };
}

function storageClass(pvc: PersistentVolumeClaim): string {
  const annotations = pvc.metadata?.annotations ?? {};
  if (betaStorageClassAnnotation in annotations) return annotations[betaStorageClassAnnotation];
  return pvc.spec?.storageClassName ?? "";
}

/** Capacity and access modes come from the bound volume, so they print only once spec.volumeName is set. */
const isBound = (pvc: PersistentVolumeClaim) => Boolean(pvc.spec?.volumeName);

const optionalString = (value: unknown) => (typeof value === "string" ? value : UNSET);

// --- strategy -----------------------------------------------------------------------------------------------

const decodeError = (pvc: PersistentVolumeClaim) =>
  resourceListDecodeError(pvc.spec?.resources?.requests) ??
  resourceListDecodeError(pvc.spec?.resources?.limits) ??
  resourceListDecodeError(pvc.status?.capacity);

/** SetDefaults_PersistentVolumeClaimSpec (volumeMode Filesystem) and quantities in canonical form. */
function applyDefaults(pvc: PersistentVolumeClaim): void {
  const spec = pvc.spec;
  if (spec && typeof spec === "object") {
    if (spec.volumeMode === undefined || spec.volumeMode === null) spec.volumeMode = "Filesystem";
    canonicalizeResourceList(spec.resources?.requests);
    canonicalizeResourceList(spec.resources?.limits);
  }
  canonicalizeResourceList(pvc.status?.capacity);
}

// --- declaration --------------------------------------------------------------------------------------------

export const persistentVolumeClaim = defineKind<PersistentVolumeClaim>({
  kind: "PersistentVolumeClaim",
  schema: persistentVolumeClaimSchema,
  plural: "persistentvolumeclaims",
  singular: "persistentvolumeclaim",
  shortNames: ["pvc"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<PersistentVolumeClaim>({ name: "Status", description: "phase represents the current phase of PersistentVolumeClaim.", cell: (pvc) => (pvc.metadata?.deletionTimestamp ? "Terminating" : pvc.status?.phase ?? "") }),
    column<PersistentVolumeClaim>({ name: "Volume", description: "volumeName is the binding reference to the PersistentVolume backing this claim.", cell: (pvc) => pvc.spec?.volumeName ?? "" }),
    column<PersistentVolumeClaim>({ name: "Capacity", description: "capacity represents the actual resources of the underlying volume.", cell: (pvc) => (isBound(pvc) ? formatQuantity(pvc.status?.capacity?.storage) : "") }),
    column<PersistentVolumeClaim>({ name: "Access Modes", description: "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1", cell: (pvc) => (isBound(pvc) ? formatAccessModes(pvc.status?.accessModes) : "") }),
    column<PersistentVolumeClaim>({ name: "StorageClass", description: "StorageClass of the pvc", cell: storageClass }),
    column<PersistentVolumeClaim>({ name: "VolumeAttributesClass", description: "VolumeAttributesClass of the pvc", cell: (pvc) => optionalString(pvc.spec?.volumeAttributesClassName) }),
    ageColumn,
    column<PersistentVolumeClaim>({ name: "VolumeMode", priority: 1, description: "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.", cell: (pvc) => optionalString(pvc.spec?.volumeMode) }),
  ],

  template: {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "data", labels: { app: "web" } },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "1Gi" } },
    },
  },

  /** Binding state is the binder's to write (through /status); a new claim starts Pending. */
  prepareForCreate: (pvc) => {
    pvc.status = { phase: "Pending" };
  },
  decodeError,
  applyDefaults,
  validate: (pvc) => validatePersistentVolumeClaimSpec(pvc.spec),
  validateUpdate: validatePersistentVolumeClaimUpdate,
});

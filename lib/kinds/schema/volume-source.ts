// Volume sources of spec 2.14: `podVolumeSources` are the members of a Pod `spec.volumes[]` entry,
// `persistentVolumeSources` the members of a PersistentVolume `spec`. The PV variants differ only where the spec
// says so: hostPath without `type`, iscsi without `initiatorName`, storageos with a full object reference, and
// `local`. Every list inside a source is atomic. Members and fields newer than the spec (Kubernetes 1.32) follow
// the spec's ones and are marked.
import { objectFieldSelector, resourceFieldSelector } from "./container";
import { labelSelector } from "./label-selector";
import { coreType } from "./names";
import { objectMeta } from "./object-meta";
import { localObjectReference, objectReference } from "./object-reference";
import { persistentVolumeClaimSpec } from "./persistent-volume-claim-spec";
import { arr, bool, describe, int, int64, map, obj, quantity, str, type ObjectSchema, type Schema } from "./schema";

const fsType = str({ description: "Filesystem type to mount, e.g. ext4 or xfs; implicitly ext4 when unset." });
const readOnlyField = bool({ description: "Mount the volume read-only. Defaults to false." });
const secretRefByName = describe(localObjectReference, "Secret holding the credentials.");
const monitors = arr(str(), { description: "Ceph monitor addresses." });
const mode = int({ description: "Permission bits of this file (0000-0777); defaults to the volume's defaultMode." });
const defaultMode = int({ description: "Permission bits for the created files (0000-0777). Defaults to 0644." });

export const keyToPath = obj(
  {
    key: str({ description: "Key to project." }),
    mode,
    path: str({ description: "Relative path of the file to write the key to; may not contain '..'." }),
  },
  { name: coreType("KeyToPath"), description: "Maps a key to a file path inside the volume.", required: ["key", "path"] },
);

const keyItems = arr(keyToPath, {
  description: "Keys to project and where; without it every key becomes a file named after the key.",
});

const downwardAPIVolumeFile = obj(
  {
    fieldRef: describe(objectFieldSelector, "A pod field: metadata.name, metadata.namespace, metadata.labels, metadata.annotations."),
    mode,
    path: str({ description: "Relative path of the file to create." }),
    resourceFieldRef: describe(resourceFieldSelector, "A container resource limit or request."),
  },
  { name: coreType("DownwardAPIVolumeFile"), description: "A file holding a pod field or resource value.", required: ["path"] },
);

const downwardItems = arr(downwardAPIVolumeFile, { description: "Files to create." });

/** Named source object, as kube publishes one definition per source type. */
const source = (type: string, description: string, properties: Record<string, Schema>, required?: string[]) =>
  obj(properties, { name: coreType(type), description, required });

const sharedSources = {
  awsElasticBlockStore: source("AWSElasticBlockStoreVolumeSource", "An AWS EBS disk attached to the node.", {
    fsType,
    partition: int({ description: "Partition of the disk to mount; 0 (or unset) mounts the whole disk." }),
    readOnly: readOnlyField,
    volumeID: str({ description: "ID of the EBS volume." }),
  }, ["volumeID"]),
  azureDisk: source("AzureDiskVolumeSource", "An Azure data disk attached to the node.", {
    cachingMode: str({ description: "Host caching: None, ReadOnly or ReadWrite." }),
    diskName: str({ description: "Name of the data disk." }),
    diskURI: str({ description: "URI of the data disk." }),
    fsType,
    kind: str({ description: "Shared, Dedicated or Managed." }),
    readOnly: readOnlyField,
  }, ["diskName", "diskURI"]),
  azureFile: source("AzureFileVolumeSource", "An Azure File share.", {
    readOnly: readOnlyField,
    secretName: str({ description: "Secret holding the storage account name and key." }),
    shareName: str({ description: "Name of the share." }),
  }, ["secretName", "shareName"]),
  cephfs: source("CephFSVolumeSource", "A CephFS mount.", {
    monitors,
    path: str({ description: "Path inside the filesystem to mount; defaults to /." }),
    readOnly: readOnlyField,
    secretFile: str({ description: "Path of the key ring for the user; defaults to /etc/ceph/user.secret." }),
    secretRef: secretRefByName,
    user: str({ description: "RADOS user name; defaults to admin." }),
  }, ["monitors"]),
  cinder: source("CinderVolumeSource", "An OpenStack Cinder volume attached to the node.", {
    fsType,
    readOnly: readOnlyField,
    volumeID: str({ description: "ID of the Cinder volume." }),
    // Newer than the spec (Kubernetes 1.32):
    secretRef: describe(localObjectReference, "Secret with the OpenStack credentials."),
  }, ["volumeID"]),
  fc: source("FCVolumeSource", "A Fibre Channel volume attached to the node.", {
    fsType,
    lun: int({ description: "Target LUN number." }),
    readOnly: readOnlyField,
    targetWWNs: arr(str(), { description: "Target world wide names." }),
    wwids: arr(str(), { description: "World wide identifiers; either targetWWNs with lun, or wwids." }),
  }),
  flexVolume: source("FlexVolumeSource", "A volume provisioned by a FlexVolume driver.", {
    driver: str({ description: "Name of the driver." }),
    fsType,
    options: map(str(), { description: "Extra options for the driver." }),
    readOnly: readOnlyField,
    secretRef: secretRefByName,
  }, ["driver"]),
  flocker: source("FlockerVolumeSource", "A Flocker dataset.", {
    datasetName: str({ description: "Name of the dataset (metadata)." }),
    datasetUUID: str({ description: "UUID of the dataset." }),
  }),
  gcePersistentDisk: source("GCEPersistentDiskVolumeSource", "A Google Compute Engine persistent disk attached to the node.", {
    fsType,
    partition: int({ description: "Partition of the disk to mount; 0 (or unset) mounts the whole disk." }),
    pdName: str({ description: "Name of the persistent disk." }),
    readOnly: readOnlyField,
  }, ["pdName"]),
  glusterfs: source("GlusterfsVolumeSource", "A GlusterFS mount.", {
    endpoints: str({ description: "Name of the Endpoints object listing the Glusterfs servers." }),
    path: str({ description: "Glusterfs volume path." }),
    readOnly: readOnlyField,
  }, ["endpoints", "path"]),
  nfs: source("NFSVolumeSource", "An NFS export.", {
    path: str({ description: "Path exported by the server." }),
    readOnly: readOnlyField,
    server: str({ description: "Hostname or IP address of the NFS server." }),
  }, ["server", "path"]),
  photonPersistentDisk: source("PhotonPersistentDiskVolumeSource", "A Photon Controller persistent disk.", {
    fsType,
    pdID: str({ description: "ID of the disk." }),
  }, ["pdID"]),
  portworxVolume: source("PortworxVolumeSource", "A Portworx volume.", {
    fsType,
    readOnly: readOnlyField,
    volumeID: str({ description: "ID of the Portworx volume." }),
  }, ["volumeID"]),
  quobyte: source("QuobyteVolumeSource", "A Quobyte mount.", {
    group: str({ description: "Group to map volume access to." }),
    readOnly: readOnlyField,
    registry: str({ description: "Quobyte registry addresses (host:port, comma-separated)." }),
    user: str({ description: "User to map volume access to." }),
    volume: str({ description: "Name of the Quobyte volume." }),
    // Newer than the spec (Kubernetes 1.32):
    tenant: str({ description: "Quobyte tenant owning the volume." }),
  }, ["registry", "volume"]),
  rbd: source("RBDVolumeSource", "A Rados Block Device attached to the node.", {
    fsType,
    image: str({ description: "Rados image name." }),
    keyring: str({ description: "Path of the key ring; defaults to /etc/ceph/keyring." }),
    monitors,
    pool: str({ description: "Rados pool; defaults to rbd." }),
    readOnly: readOnlyField,
    secretRef: secretRefByName,
    user: str({ description: "Rados user name; defaults to admin." }),
  }, ["monitors", "image"]),
  scaleIO: source("ScaleIOVolumeSource", "A ScaleIO volume.", {
    fsType,
    gateway: str({ description: "Host address of the ScaleIO API gateway." }),
    protectionDomain: str({ description: "Protection domain of the storage." }),
    readOnly: readOnlyField,
    secretRef: secretRefByName,
    sslEnabled: bool({ description: "Use SSL to talk to the gateway." }),
    storageMode: str({ description: "ThickProvisioned or ThinProvisioned. Defaults to ThinProvisioned." }),
    storagePool: str({ description: "Storage pool of the protection domain." }),
    system: str({ description: "Name of the storage system." }),
    volumeName: str({ description: "Name of an existing ScaleIO volume." }),
  }, ["gateway", "system", "secretRef"]),
  vsphereVolume: source("VsphereVirtualDiskVolumeSource", "A vSphere virtual disk attached to the node.", {
    fsType,
    storagePolicyID: str({ description: "ID of the storage policy." }),
    storagePolicyName: str({ description: "Name of the storage policy." }),
    volumePath: str({ description: "Path identifying the vSphere volume vmdk." }),
  }, ["volumePath"]),
};

const iscsiProperties = {
  chapAuthDiscovery: bool({ description: "Use iSCSI discovery CHAP authentication." }),
  chapAuthSession: bool({ description: "Use iSCSI session CHAP authentication." }),
  fsType,
  iqn: str({ description: "Target iSCSI qualified name." }),
  iscsiInterface: str({ description: "iSCSI interface name using the iSCSI transport. Defaults to default (tcp)." }),
  lun: int({ description: "Target LUN number." }),
  portals: arr(str(), { description: "Additional target portals (ip or ip:port)." }),
  readOnly: readOnlyField,
  secretRef: describe(localObjectReference, "Secret for iSCSI target and initiator authentication."),
  targetPortal: str({ description: "Target portal (ip or ip:port; port defaults to 3260)." }),
};

const storageosProperties = {
  fsType,
  readOnly: readOnlyField,
  volumeName: str({ description: "Human-readable StorageOS volume name, unique within its namespace." }),
  volumeNamespace: str({ description: "StorageOS namespace of the volume; defaults to the pod's namespace." }),
};

/** Members of a Pod volume besides `name`. */
export const podVolumeSources = {
  ...sharedSources,
  configMap: source("ConfigMapVolumeSource", "Files from the keys of a ConfigMap.", {
    defaultMode,
    items: keyItems,
    name: str({ description: "Name of the ConfigMap." }),
    optional: bool({ description: "Whether the ConfigMap or its keys may be missing." }),
  }),
  downwardAPI: source("DownwardAPIVolumeSource", "Files holding pod fields and resource values.", {
    defaultMode,
    items: downwardItems,
  }),
  emptyDir: source("EmptyDirVolumeSource", "An empty directory that lives as long as the pod.", {
    medium: str({ description: "Storage medium: \"\" (the node's default) or Memory (tmpfs)." }),
    sizeLimit: quantity({ description: "Most local storage the volume may use." }),
  }),
  gitRepo: source("GitRepoVolumeSource", "Deprecated: a directory with a git repository cloned into it.", {
    directory: str({ description: "Target directory name; '.' clones into the volume root." }),
    repository: str({ description: "Repository URL." }),
    revision: str({ description: "Commit hash to check out." }),
  }, ["repository"]),
  hostPath: source("HostPathVolumeSource", "A file or directory of the node's filesystem.", {
    path: str({ description: "Path on the node; a symlink is followed." }),
    type: str({ description: "What must exist at the path: \"\", DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice, BlockDevice." }),
  }, ["path"]),
  iscsi: source("ISCSIVolumeSource", "An iSCSI disk attached to the node.", {
    ...iscsiProperties,
    initiatorName: str({ description: "Custom iSCSI initiator name (<target portal>:<volume name>)." }),
  }, ["targetPortal", "iqn", "lun"]),
  persistentVolumeClaim: source("PersistentVolumeClaimVolumeSource", "The volume bound to a PersistentVolumeClaim in the pod's namespace.", {
    claimName: str({ description: "Name of the PersistentVolumeClaim." }),
    readOnly: readOnlyField,
  }, ["claimName"]),
  projected: source("ProjectedVolumeSource", "Several sources (secrets, config maps, downward API) merged into one directory.", {
    defaultMode,
    sources: arr(
      obj(
        {
          configMap: source("ConfigMapProjection", "Keys of a ConfigMap.", {
            items: keyItems,
            name: str({ description: "Name of the ConfigMap." }),
            optional: bool({ description: "Whether the ConfigMap or its keys may be missing." }),
          }),
          downwardAPI: source("DownwardAPIProjection", "Pod fields and resource values.", { items: downwardItems }),
          secret: source("SecretProjection", "Keys of a Secret.", {
            items: keyItems,
            name: str({ description: "Name of the Secret." }),
            optional: bool({ description: "Whether the Secret or its keys may be missing." }),
          }),
          // Newer than the spec (Kubernetes 1.32):
          clusterTrustBundle: source("ClusterTrustBundleProjection", "Certificates of ClusterTrustBundle objects, as one PEM file.", {
            labelSelector: describe(labelSelector, "Bundles to include, by label (with signerName)."),
            name: str({ description: "A bundle by name." }),
            optional: bool({ description: "Whether a missing bundle is tolerated." }),
            path: str({ description: "Relative path of the file to write." }),
            signerName: str({ description: "Bundles of this signer." }),
          }, ["path"]),
          serviceAccountToken: source("ServiceAccountTokenProjection", "A token of the pod's service account.", {
            audience: str({ description: "Intended audience of the token; defaults to the API server's." }),
            expirationSeconds: int64({ description: "Requested validity in seconds; at least 600. Defaults to 3600." }),
            path: str({ description: "Relative path of the token file." }),
          }, ["path"]),
        },
        { name: coreType("VolumeProjection"), description: "One projected source." },
      ),
      { description: "Sources to project." },
    ),
  }),
  secret: source("SecretVolumeSource", "Files from the keys of a Secret.", {
    defaultMode,
    items: keyItems,
    optional: bool({ description: "Whether the Secret or its keys may be missing." }),
    secretName: str({ description: "Name of the Secret in the pod's namespace." }),
  }),
  storageos: source("StorageOSVolumeSource", "A StorageOS volume.", {
    ...storageosProperties,
    secretRef: describe(localObjectReference, "Secret holding the StorageOS API credentials."),
  }),
  // Newer than the spec (Kubernetes 1.32):
  csi: source("CSIVolumeSource", "An ephemeral volume from a CSI driver, living as long as the pod.", {
    driver: str({ description: "Name of the CSI driver." }),
    fsType: str({ description: "Filesystem type to mount; passed to the driver." }),
    nodePublishSecretRef: describe(localObjectReference, "Secret passed to the driver's NodePublishVolume call."),
    readOnly: bool({ description: "Mount read-only." }),
    volumeAttributes: map(str(), { description: "Driver-specific properties." }),
  }, ["driver"]),
  ephemeral: source("EphemeralVolumeSource", "A volume from a claim created with the pod and deleted with it.", {
    volumeClaimTemplate: obj(
      {
        metadata: describe(objectMeta, "Labels and annotations copied into the claim."),
        spec: describe(persistentVolumeClaimSpec, "Spec of the claim."),
      },
      { name: coreType("PersistentVolumeClaimTemplate"), description: "Template of the claim created for the pod.", required: ["spec"] },
    ),
  }),
  image: source("ImageVolumeSource", "The contents of an OCI image or artifact, read-only.", {
    pullPolicy: str({ description: "Always, Never or IfNotPresent." }),
    reference: str({ description: "Image or artifact reference." }),
  }),
};

const secretReference = obj(
  {
    name: str({ description: "Name of the Secret." }),
    namespace: str({ description: "Namespace of the Secret." }),
  },
  { name: coreType("SecretReference"), description: "A Secret in any namespace." },
);

/** The PersistentVolume flavour of a source: its secret may live in another namespace (plus extra fields). */
function persistentVariant(base: ObjectSchema, type: string, extra: Record<string, Schema> = {}, omit: string[] = []): ObjectSchema {
  const properties: Record<string, Schema> = { ...base.properties, ...extra };
  for (const key of omit) delete properties[key];
  if (properties.secretRef) properties.secretRef = describe(secretReference, properties.secretRef.description ?? "Secret with the credentials.");
  return obj(properties, { name: coreType(type), description: base.typeDescription, required: base.required });
}

/** Members of a PersistentVolume `spec` that name where its storage is. */
export const persistentVolumeSources = {
  ...sharedSources,
  cephfs: persistentVariant(sharedSources.cephfs, "CephFSPersistentVolumeSource"),
  cinder: persistentVariant(sharedSources.cinder, "CinderPersistentVolumeSource"),
  flexVolume: persistentVariant(sharedSources.flexVolume, "FlexPersistentVolumeSource"),
  rbd: persistentVariant(sharedSources.rbd, "RBDPersistentVolumeSource"),
  scaleIO: persistentVariant(sharedSources.scaleIO, "ScaleIOPersistentVolumeSource"),
  // Newer than the spec (Kubernetes 1.32): the fields below and `csi`.
  azureFile: persistentVariant(sharedSources.azureFile, "AzureFilePersistentVolumeSource", {
    secretNamespace: str({ description: "Namespace of the Secret; defaults to the pod's." }),
  }),
  glusterfs: persistentVariant(sharedSources.glusterfs, "GlusterfsPersistentVolumeSource", {
    endpointsNamespace: str({ description: "Namespace of the Endpoints object; defaults to the claim's." }),
  }),
  csi: source("CSIPersistentVolumeSource", "Storage managed by a CSI driver.", {
    controllerExpandSecretRef: describe(secretReference, "Secret for the driver's ControllerExpandVolume call."),
    controllerPublishSecretRef: describe(secretReference, "Secret for the driver's ControllerPublishVolume call."),
    driver: str({ description: "Name of the CSI driver." }),
    fsType: str({ description: "Filesystem type to mount." }),
    nodeExpandSecretRef: describe(secretReference, "Secret for the driver's NodeExpandVolume call."),
    nodePublishSecretRef: describe(secretReference, "Secret for the driver's NodePublishVolume call."),
    nodeStageSecretRef: describe(secretReference, "Secret for the driver's NodeStageVolume call."),
    readOnly: bool({ description: "Mount read-only." }),
    volumeAttributes: map(str(), { description: "Driver-specific properties." }),
    volumeHandle: str({ description: "The driver's ID of the volume." }),
  }, ["driver", "volumeHandle"]),
  hostPath: obj(
    { path: str({ description: "Path on the node; a symlink is followed." }) },
    { description: "A directory of the node's filesystem (single-node testing only).", required: ["path"] },
  ),
  // initiatorName is Pod only (spec 2.14).
  iscsi: persistentVariant(podVolumeSources.iscsi, "ISCSIPersistentVolumeSource", {}, ["initiatorName"]),
  local: source("LocalVolumeSource", "A local disk, partition or directory of one node.", {
    path: str({ description: "Full path of the volume on the node." }),
    // Newer than the spec (Kubernetes 1.32):
    fsType: str({ description: "Filesystem type of a block device path; detected when unset." }),
  }, ["path"]),
  storageos: source("StorageOSPersistentVolumeSource", "A StorageOS volume.", {
    ...storageosProperties,
    secretRef: describe(objectReference, "Secret holding the StorageOS API credentials."),
  }),
};

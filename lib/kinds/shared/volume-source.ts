// Volume sources of spec section 2.14. Pod volumes accept every source; a PersistentVolume spec accepts the
// subset marked for PersistentVolume (hostPath without `type`, iscsi without `initiatorName`, storageos with a
// full object reference as secretRef, plus `local`).
import type { LocalObjectReference, ObjectReference } from "./object-reference";

export interface KeyToPath {
  key?: string;
  mode?: number;
  path?: string;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath?: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  divisor?: string;
  resource?: string;
}

export interface DownwardAPIVolumeFile {
  fieldRef?: ObjectFieldSelector;
  mode?: number;
  path?: string;
  resourceFieldRef?: ResourceFieldSelector;
}

interface SharedVolumeSources {
  awsElasticBlockStore?: { fsType?: string; partition?: number; readOnly?: boolean; volumeID?: string };
  azureDisk?: { cachingMode?: string; diskName?: string; diskURI?: string; fsType?: string; kind?: string; readOnly?: boolean };
  azureFile?: { readOnly?: boolean; secretName?: string; shareName?: string };
  cephfs?: { monitors?: string[]; path?: string; readOnly?: boolean; secretFile?: string; secretRef?: LocalObjectReference; user?: string };
  cinder?: { fsType?: string; readOnly?: boolean; volumeID?: string };
  fc?: { fsType?: string; lun?: number; readOnly?: boolean; targetWWNs?: string[]; wwids?: string[] };
  flexVolume?: { driver?: string; fsType?: string; options?: Record<string, string>; readOnly?: boolean; secretRef?: LocalObjectReference };
  flocker?: { datasetName?: string; datasetUUID?: string };
  gcePersistentDisk?: { fsType?: string; partition?: number; pdName?: string; readOnly?: boolean };
  glusterfs?: { endpoints?: string; path?: string; readOnly?: boolean };
  nfs?: { path?: string; readOnly?: boolean; server?: string };
  photonPersistentDisk?: { fsType?: string; pdID?: string };
  portworxVolume?: { fsType?: string; readOnly?: boolean; volumeID?: string };
  quobyte?: { group?: string; readOnly?: boolean; registry?: string; user?: string; volume?: string };
  rbd?: { fsType?: string; image?: string; keyring?: string; monitors?: string[]; pool?: string; readOnly?: boolean; secretRef?: LocalObjectReference; user?: string };
  scaleIO?: {
    fsType?: string; gateway?: string; protectionDomain?: string; readOnly?: boolean; secretRef?: LocalObjectReference;
    sslEnabled?: boolean; storageMode?: string; storagePool?: string; system?: string; volumeName?: string;
  };
  vsphereVolume?: { fsType?: string; storagePolicyID?: string; storagePolicyName?: string; volumePath?: string };
}

interface IscsiSource {
  chapAuthDiscovery?: boolean;
  chapAuthSession?: boolean;
  fsType?: string;
  iqn?: string;
  iscsiInterface?: string;
  lun?: number;
  portals?: string[];
  readOnly?: boolean;
  secretRef?: LocalObjectReference;
  targetPortal?: string;
}

export interface PodVolumeSource extends SharedVolumeSources {
  configMap?: { defaultMode?: number; items?: KeyToPath[]; name?: string; optional?: boolean };
  downwardAPI?: { defaultMode?: number; items?: DownwardAPIVolumeFile[] };
  emptyDir?: { medium?: string; sizeLimit?: string };
  gitRepo?: { directory?: string; repository?: string; revision?: string };
  hostPath?: { path?: string; type?: string };
  iscsi?: IscsiSource & { initiatorName?: string };
  persistentVolumeClaim?: { claimName?: string; readOnly?: boolean };
  projected?: {
    defaultMode?: number;
    sources?: {
      configMap?: { items?: KeyToPath[]; name?: string; optional?: boolean };
      downwardAPI?: { items?: DownwardAPIVolumeFile[] };
      secret?: { items?: KeyToPath[]; name?: string; optional?: boolean };
    }[];
  };
  secret?: { defaultMode?: number; items?: KeyToPath[]; optional?: boolean; secretName?: string };
  storageos?: { fsType?: string; readOnly?: boolean; secretRef?: LocalObjectReference; volumeName?: string; volumeNamespace?: string };
}

export interface PersistentVolumeSource extends SharedVolumeSources {
  hostPath?: { path?: string };
  iscsi?: IscsiSource;
  local?: { path?: string };
  storageos?: { fsType?: string; readOnly?: boolean; secretRef?: ObjectReference; volumeName?: string; volumeNamespace?: string };
}

/** Names of the volume-source members, in spec order; used to find "the" source of a volume. */
export const podVolumeSourceNames = [
  "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "configMap", "downwardAPI", "emptyDir", "fc",
  "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "persistentVolumeClaim",
  "photonPersistentDisk", "portworxVolume", "projected", "quobyte", "rbd", "scaleIO", "secret", "storageos", "vsphereVolume",
] as const;

export const persistentVolumeSourceNames = [
  "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk",
  "glusterfs", "hostPath", "iscsi", "local", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO",
  "storageos", "vsphereVolume",
] as const;

// Declarative defaults of volume sources (kube-apiserver 1.32 `+default` markers and SetDefaults_*), shared by Pod
// volumes and PersistentVolume specs.
import type { JsonObject } from "../../validation/zero-values";
import { isObject } from "../../validation/zero-values";

const setIfAbsent = (obj: JsonObject, key: string, value: unknown) => {
  if (obj[key] === undefined || obj[key] === null || obj[key] === "") obj[key] = value;
};

/** Defaults inside the sources both Pod volumes and PersistentVolumes carry (rbd, iscsi, azureDisk, scaleIO). Mutates. */
export function applySharedVolumeSourceDefaults(source: JsonObject): void {
  if (isObject(source.rbd)) {
    setIfAbsent(source.rbd, "pool", "rbd");
    setIfAbsent(source.rbd, "user", "admin");
    setIfAbsent(source.rbd, "keyring", "/etc/ceph/keyring");
  }
  if (isObject(source.iscsi)) setIfAbsent(source.iscsi, "iscsiInterface", "default");
  if (isObject(source.azureDisk)) {
    setIfAbsent(source.azureDisk, "cachingMode", "ReadWrite");
    setIfAbsent(source.azureDisk, "fsType", "ext4");
    if (source.azureDisk.readOnly === undefined || source.azureDisk.readOnly === null) source.azureDisk.readOnly = false;
    setIfAbsent(source.azureDisk, "kind", "Shared");
  }
  if (isObject(source.scaleIO)) {
    setIfAbsent(source.scaleIO, "storageMode", "ThinProvisioned");
    setIfAbsent(source.scaleIO, "fsType", "xfs");
  }
}

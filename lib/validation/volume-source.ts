// Volume sources (spec 2.14) as kube-apiserver 1.32 validates them: exactly one source per Pod volume or
// PersistentVolume, and each source's required fields, formats and ranges. Field paths keep kube-apiserver's
// quirks (a gcePersistentDisk's fields are reported under `persistentDisk`, downwardAPI items under the source
// itself, the "more than 1" error for cephfs says `cephFS` and for downwardAPI `downwarAPI`).
import { field, type FieldError } from "../status";
import { byteLength, dns1123SubdomainErrors, dnsLabelNameErrors, validateDNS1123Label, validateDNS1123Subdomain } from "./dns-names";
import { validateObjectFieldSelector, validateResourceFieldSelector, volumeFieldPaths } from "./downward-api";
import { validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from "./local-path";
import { inclusiveRangeError } from "./port";
import { isQuantity, isNegativeQuantity, parseQuantity } from "./quantity";
import { goSlice, invalidRendered } from "./rendered-value";
import { boolOf, isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const FILE_MODE_MSG = "must be a number between 0 and 0777 (octal), both inclusive";
const PD_PARTITION_MSG = inclusiveRangeError(1, 255);
const MORE_THAN_ONE = "may not specify more than 1 volume type";

type SourceCheck = (src: JsonObject, path: string) => FieldError[];

const required = (src: JsonObject, key: string, path: string): FieldError[] => (stringOf(src[key]) ? [] : [field.required(`${path}.${key}`)]);

function fileModeErrors(mode: unknown, path: string): FieldError[] {
  const m = optionalNumber(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [field.invalid(path, m, FILE_MODE_MSG)] : [];
}

/** validateKeyToPath (secret, configMap and projected items). */
function validateKeyToPath(item: unknown, path: string): FieldError[] {
  const kp = objectOf(item);
  const p = stringOf(kp.path);
  const errs: FieldError[] = [];
  if (!stringOf(kp.key)) errs.push(field.required(`${path}.key`));
  if (!p) errs.push(field.required(`${path}.path`));
  errs.push(...validateLocalNonReservedPath(p, `${path}.path`), ...fileModeErrors(kp.mode, `${path}.mode`));
  return errs;
}

/** validateDownwardAPIVolumeFile. */
function validateDownwardAPIFile(item: unknown, path: string): FieldError[] {
  const file = objectOf(item);
  const p = stringOf(file.path);
  const errs: FieldError[] = [];
  if (!p) errs.push(field.required(`${path}.path`));
  errs.push(...validateLocalNonReservedPath(p, `${path}.path`));
  if (isSet(file.fieldRef)) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, volumeFieldPaths, `${path}.fieldRef`));
    if (isSet(file.resourceFieldRef)) errs.push(field.invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"));
  } else if (isSet(file.resourceFieldRef)) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(field.required(path, "one of fieldRef and resourceFieldRef is required"));
  }
  errs.push(...fileModeErrors(file.mode, `${path}.mode`));
  return errs;
}

function partitionErrors(src: JsonObject, path: string): FieldError[] {
  const partition = numberOf(src.partition);
  return partition < 0 || partition > 255 ? [field.invalid(`${path}.partition`, partition, PD_PARTITION_MSG)] : [];
}

const iqnPattern = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const euiPattern = /^eui.[A-Za-z0-9]{16}$/;
const naaPattern = /^naa.[A-Za-z0-9]{32}$/;

function iqnFormatErrors(value: string, path: string, prefixMessage: string): FieldError[] {
  if (!value.startsWith("iqn") && !value.startsWith("eui") && !value.startsWith("naa")) return [field.invalid(path, value, prefixMessage)];
  const ok = value.startsWith("iqn") ? iqnPattern.test(value) : value.startsWith("eui") ? euiPattern.test(value) : naaPattern.test(value);
  return ok ? [] : [field.invalid(path, value, "must be valid format")];
}

function iscsiSource(pv: boolean, pvName: string): SourceCheck {
  return (src, path) => {
    const errs: FieldError[] = [];
    const portal = stringOf(src.targetPortal);
    if (!portal) errs.push(field.required(`${path}.targetPortal`));
    if (pv && isSet(src.initiatorName) && byteLength(`${pvName}:${portal}`) > 64) {
      errs.push(field.invalid(`${path}.targetportal`, portal, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."));
    }
    const iqn = stringOf(src.iqn);
    if (!iqn) errs.push(field.required(`${path}.iqn`));
    else errs.push(...iqnFormatErrors(iqn, `${path}.iqn`, pv ? "must be valid format" : "must be valid format starting with iqn, eui, or naa"));
    const lun = numberOf(src.lun);
    if (lun < 0 || lun > 255) errs.push(field.invalid(`${path}.lun`, lun, inclusiveRangeError(0, 255)));
    if ((boolOf(src.chapAuthDiscovery) || boolOf(src.chapAuthSession)) && !isSet(src.secretRef)) errs.push(field.required(`${path}.secretRef`));
    if (pv && isSet(src.secretRef) && !stringOf(objectOf(src.secretRef).name)) errs.push(field.required(`${path}.secretRef.name`));
    if (isSet(src.initiatorName)) {
      const initiator = stringOf(src.initiatorName);
      const p = `${path}.initiatorname`;
      if (!initiator.startsWith("iqn") && !initiator.startsWith("eui") && !initiator.startsWith("naa")) {
        errs.push(field.invalid(p, initiator, pv ? "must be valid format" : "must be valid format starting with iqn, eui, or naa"));
      }
      if (initiator.startsWith("iqn") && !iqnPattern.test(initiator)) errs.push(field.invalid(p, initiator, "must be valid format"));
      else if (initiator.startsWith("eui") && !euiPattern.test(initiator)) errs.push(field.invalid(p, initiator, "must be valid format"));
      else if (initiator.startsWith("naa") && !naaPattern.test(initiator)) errs.push(field.invalid(p, initiator, "must be valid format"));
    }
    return errs;
  };
}

const hostPathTypes = ["", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"];

const hostPathSource: SourceCheck = (src, path) => {
  const p = stringOf(src.path);
  if (!p) return [field.required(`${path}.path`)];
  const errs = validatePathNoBacksteps(p, `${path}.path`);
  if (isSet(src.type) && !hostPathTypes.includes(stringOf(src.type))) errs.push(field.notSupported(`${path}.type`, src.type, hostPathTypes));
  return errs;
};

const nfsSource: SourceCheck = (src, path) => {
  const p = stringOf(src.path);
  const errs = required(src, "server", path);
  if (!p) errs.push(field.required(`${path}.path`));
  if (!p.startsWith("/")) errs.push(field.invalid(`${path}.path`, p, "must be an absolute path"));
  return errs;
};

const flockerSource: SourceCheck = (src, path) => {
  const name = stringOf(src.datasetName);
  const uuid = stringOf(src.datasetUUID);
  const errs: FieldError[] = [];
  if (!name && !uuid) errs.push(field.required(path, "one of datasetName and datasetUUID is required"));
  if (name && uuid) errs.push(field.invalid(path, "resource", "datasetName and datasetUUID can not be specified simultaneously"));
  if (name.includes("/")) errs.push(field.invalid(`${path}.datasetName`, name, "must not contain '/'"));
  return errs;
};

const fcSource: SourceCheck = (src, path) => {
  const wwns = listOf(src.targetWWNs);
  const wwids = listOf(src.wwids);
  const errs: FieldError[] = [];
  if (wwns.length < 1 && wwids.length < 1) errs.push(field.required(`${path}.targetWWNs`, "must specify either targetWWNs or wwids, but not both"));
  if (wwns.length && wwids.length) errs.push(invalidRendered(`${path}.targetWWNs`, goSlice("string", wwns), "targetWWNs and wwids can not be specified simultaneously"));
  if (wwns.length) {
    const lun = optionalNumber(src.lun);
    if (lun === undefined) errs.push(field.required(`${path}.lun`, "lun is required if targetWWNs is specified"));
    else if (lun < 0 || lun > 255) errs.push(field.invalid(`${path}.lun`, lun, inclusiveRangeError(0, 255)));
  }
  return errs;
};

const flexSource: SourceCheck = (src, path) => {
  const errs = required(src, "driver", path);
  for (const key of Object.keys(objectOf(src.options)).sort()) {
    const slash = key.indexOf("/");
    const namespace = `.${(slash >= 0 ? key.slice(0, slash) : key).toLowerCase()}`;
    if (namespace.endsWith(".kubernetes.io") || namespace.endsWith(".k8s.io")) {
      errs.push(field.invalid(`${path}.options[${key}]`, key, "kubernetes.io and k8s.io namespaces are reserved"));
    }
  }
  return errs;
};

const quobyteSource: SourceCheck = (src, path) => {
  const registry = stringOf(src.registry);
  const errs: FieldError[] = [];
  const message = "must be a host:port pair or multiple pairs separated by commas";
  if (!registry) errs.push(field.required(`${path}.registry`, message));
  else if (stringOf(src.tenant).length >= 65) errs.push(field.required(`${path}.tenant`, "must be a UUID and may not exceed a length of 64 characters"));
  else for (const pair of registry.split(",")) if (!isHostPort(pair)) errs.push(field.invalid(`${path}.registry`, registry, message));
  errs.push(...required(src, "volume", path));
  return errs;
};

/** net.SplitHostPort succeeds: `host:port` or `[v6]:port` (the port may be any text without ':'). */
function isHostPort(s: string): boolean {
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    return end > 0 && s[end + 1] === ":" && !s.slice(end + 2).includes(":") && !s.slice(1, end).includes("[");
  }
  const colon = s.lastIndexOf(":");
  return colon >= 0 && !s.slice(0, colon).includes(":") && !s.includes("[") && !s.includes("]");
}

const azureDiskSource: SourceCheck = (src, path) => {
  const errs = [...required(src, "diskName", path), ...required(src, "diskURI", path)];
  const uri = stringOf(src.diskURI);
  if (isSet(src.cachingMode) && !["None", "ReadOnly", "ReadWrite"].includes(stringOf(src.cachingMode))) {
    errs.push(field.notSupported(`${path}.cachingMode`, src.cachingMode, ["None", "ReadOnly", "ReadWrite"]));
  }
  if (isSet(src.kind) && !["Dedicated", "Managed", "Shared"].includes(stringOf(src.kind))) {
    errs.push(field.notSupported(`${path}.kind`, src.kind, ["Dedicated", "Managed", "Shared"]));
  }
  if (isSet(src.kind) && src.kind === "Managed" && !uri.startsWith("/subscriptions/")) {
    errs.push(field.notSupported(`${path}.diskURI`, uri, ["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"]));
  }
  if (isSet(src.kind) && src.kind !== "Managed" && !uri.startsWith("https://")) {
    errs.push(field.notSupported(`${path}.diskURI`, uri, ["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"]));
  }
  return errs;
};

function storageosSource(pv: boolean): SourceCheck {
  return (src, path) => {
    const name = stringOf(src.volumeName);
    const errs = name ? validateDNS1123Label(name, `${path}.volumeName`) : [field.required(`${path}.volumeName`)];
    const ns = stringOf(src.volumeNamespace);
    if (ns) errs.push(...validateDNS1123Label(ns, `${path}.volumeNamespace`));
    if (isSet(src.secretRef)) {
      const ref = objectOf(src.secretRef);
      if (!stringOf(ref.name)) errs.push(field.required(`${path}.secretRef.name`));
      if (pv && !stringOf(ref.namespace)) errs.push(field.required(`${path}.secretRef.namespace`));
    }
    return errs;
  };
}

function cinderSource(pv: boolean): SourceCheck {
  return (src, path) => {
    const errs = required(src, "volumeID", path);
    if (isSet(src.secretRef)) {
      const ref = objectOf(src.secretRef);
      if (!stringOf(ref.name)) errs.push(field.required(`${path}.secretRef.name`));
      if (pv && !stringOf(ref.namespace)) errs.push(field.required(`${path}.secretRef.namespace`));
    }
    return errs;
  };
}

function glusterfsSource(pv: boolean): SourceCheck {
  return (src, path) => {
    const errs = [...required(src, "endpoints", path), ...required(src, "path", path)];
    if (pv && isSet(src.endpointsNamespace)) {
      const ns = stringOf(src.endpointsNamespace);
      if (!ns) errs.push(field.invalid(`${path}.endpointsNamespace`, ns, "if the endpointnamespace is set, it must be a valid namespace name"));
      else for (const m of dnsLabelNameErrors(ns)) errs.push(field.invalid(`${path}.endpointsNamespace`, ns, m));
    }
    return errs;
  };
}

/** ValidateCSIDriverName. */
function validateCSIDriverName(driver: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(field.required(path));
  if (byteLength(driver) > 63) errs.push(field.tooLong(path, 63));
  for (const m of dns1123SubdomainErrors(driver.toLowerCase())) errs.push(field.invalid(path, driver, m));
  return errs;
}

const csiSource = (pv: boolean): SourceCheck => (src, path) => {
  const errs = validateCSIDriverName(stringOf(src.driver), `${path}.driver`);
  if (pv && !stringOf(src.volumeHandle)) errs.push(field.required(`${path}.volumeHandle`));
  return errs;
};

const secretSource: SourceCheck = (src, path) => {
  const errs = required(src, "secretName", path);
  errs.push(...fileModeErrors(src.defaultMode, `${path}.defaultMode`));
  listOf(src.items).forEach((item, i) => errs.push(...validateKeyToPath(item, `${path}.items[${i}]`)));
  return errs;
};

const configMapSource: SourceCheck = (src, path) => {
  const errs = required(src, "name", path);
  errs.push(...fileModeErrors(src.defaultMode, `${path}.defaultMode`));
  listOf(src.items).forEach((item, i) => errs.push(...validateKeyToPath(item, `${path}.items[${i}]`)));
  return errs;
};

const downwardAPISource: SourceCheck = (src, path) => {
  const errs = fileModeErrors(src.defaultMode, `${path}.defaultMode`);
  for (const item of listOf(src.items)) errs.push(...validateDownwardAPIFile(item, path));
  return errs;
};

const projectedSource: SourceCheck = (src, path) => {
  const errs = fileModeErrors(src.defaultMode, `${path}.defaultMode`);
  const paths = new Set<string>();
  listOf(src.sources).forEach((s, i) => {
    const source = objectOf(s);
    const srcPath = `${path}.sources[${i}]`;
    let count = 0;
    for (const kind of ["secret", "configMap"] as const) {
      if (!isSet(source[kind])) continue;
      count++;
      const ref = objectOf(source[kind]);
      const name = stringOf(ref.name);
      if (!name) errs.push(field.required(`${srcPath}.${kind}.name`));
      listOf(ref.items).forEach((item, j) => {
        errs.push(...validateKeyToPath(item, `${srcPath}.${kind}.items[${j}]`));
        const p = stringOf(objectOf(item).path);
        if (p) {
          if (paths.has(p)) errs.push(field.invalid(path, name, "conflicting duplicate paths"));
          else paths.add(p);
        }
      });
    }
    if (isSet(source.downwardAPI)) {
      count++;
      for (const item of listOf(objectOf(source.downwardAPI).items)) {
        errs.push(...validateDownwardAPIFile(item, `${srcPath}.downwardAPI`));
        const p = stringOf(objectOf(item).path);
        if (p) {
          if (paths.has(p)) errs.push(field.invalid(path, p, "conflicting duplicate paths"));
          else paths.add(p);
        }
      }
    }
    if (isSet(source.serviceAccountToken)) {
      count++;
      const token = objectOf(source.serviceAccountToken);
      const expiration = numberOf(token.expirationSeconds);
      if (expiration < 600) errs.push(field.invalid(`${srcPath}.serviceAccountToken.expirationSeconds`, expiration, "may not specify a duration less than 10 minutes"));
      if (expiration > 2 ** 32) errs.push(field.invalid(`${srcPath}.serviceAccountToken.expirationSeconds`, expiration, "may not specify a duration larger than 2^32 seconds"));
      const p = stringOf(token.path);
      if (!p) errs.push(field.required(`${path}.path`));
      else errs.push(...validateLocalNonReservedPath(p, `${path}.path`));
    }
    if (count > 1) errs.push(field.forbidden(srcPath, "may not specify more than 1 volume type per source"));
  });
  return errs;
};

const emptyDirSource: SourceCheck = (src, path) => {
  const q = parseQuantity(src.sizeLimit);
  return isSet(src.sizeLimit) && isQuantity(q) && isNegativeQuantity(q)
    ? [field.forbidden(`${path}.sizeLimit`, "SizeLimit field must be a valid resource quantity")]
    : [];
};

const gitRepoSource: SourceCheck = (src, path) => [
  ...required(src, "repository", path),
  ...validateLocalDescendingPath(stringOf(src.directory), `${path}.directory`),
];

const localSource: SourceCheck = (src, path) => {
  const p = stringOf(src.path);
  return p ? validatePathNoBacksteps(p, `${path}.path`) : [field.required(`${path}.path`)];
};

const requiredFields = (...keys: string[]): SourceCheck => (src, path) => keys.flatMap((k) => required(src, k, path));
const withPartition = (key: string): SourceCheck => (src, path) => [...required(src, key, path), ...partitionErrors(src, path)];
const rbdSource: SourceCheck = (src, path) => [
  ...(listOf(src.monitors).length ? [] : [field.required(`${path}.monitors`)]),
  ...required(src, "image", path),
];
const cephfsSource: SourceCheck = (src, path) => (listOf(src.monitors).length ? [] : [field.required(`${path}.monitors`)]);

/** [json name, name in the "more than 1" error, name the source's own errors use, check]. */
type SourceEntry = [string, string, string, SourceCheck];

const podSources: SourceEntry[] = [
  ["emptyDir", "emptyDir", "emptyDir", emptyDirSource],
  ["hostPath", "hostPath", "hostPath", hostPathSource],
  ["gitRepo", "gitRepo", "gitRepo", gitRepoSource],
  ["gcePersistentDisk", "gcePersistentDisk", "persistentDisk", withPartition("pdName")],
  ["awsElasticBlockStore", "awsElasticBlockStore", "awsElasticBlockStore", withPartition("volumeID")],
  ["secret", "secret", "secret", secretSource],
  ["nfs", "nfs", "nfs", nfsSource],
  ["iscsi", "iscsi", "iscsi", iscsiSource(false, "")],
  ["glusterfs", "glusterfs", "glusterfs", glusterfsSource(false)],
  ["flocker", "flocker", "flocker", flockerSource],
  ["persistentVolumeClaim", "persistentVolumeClaim", "persistentVolumeClaim", requiredFields("claimName")],
  ["rbd", "rbd", "rbd", rbdSource],
  ["cinder", "cinder", "cinder", cinderSource(false)],
  ["cephfs", "cephFS", "cephfs", cephfsSource],
  ["quobyte", "quobyte", "quobyte", quobyteSource],
  ["downwardAPI", "downwarAPI", "downwardAPI", downwardAPISource],
  ["fc", "fc", "fc", fcSource],
  ["flexVolume", "flexVolume", "flexVolume", flexSource],
  ["configMap", "configMap", "configMap", configMapSource],
  ["azureFile", "azureFile", "azureFile", requiredFields("secretName", "shareName")],
  ["vsphereVolume", "vsphereVolume", "vsphereVolume", requiredFields("volumePath")],
  ["photonPersistentDisk", "photonPersistentDisk", "photonPersistentDisk", requiredFields("pdID")],
  ["portworxVolume", "portworxVolume", "portworxVolume", requiredFields("volumeID")],
  ["azureDisk", "azureDisk", "azureDisk", azureDiskSource],
  ["storageos", "storageos", "storageos", storageosSource(false)],
  ["projected", "projected", "projected", projectedSource],
  ["scaleIO", "scaleIO", "scaleIO", requiredFields("gateway", "system", "volumeName")],
  ["csi", "csi", "csi", csiSource(false)],
  ["ephemeral", "ephemeral", "ephemeral", (src, path) => (isSet(src.volumeClaimTemplate) ? [] : [field.required(`${path}.volumeClaimTemplate`)])],
  ["image", "image", "image", () => []],
];

/** The Pod volume-source members this server knows (for "exactly one source" and defaulting). */
export const podVolumeSourceKeys = podSources.map(([key]) => key);

/** validateVolumeSource for one Pod volume at `path` (spec.volumes[i]). */
export function validatePodVolumeSource(volume: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, forbiddenName, childName, check] of podSources) {
    if (!isSet(volume[key])) continue;
    if (count > 0) {
      errs.push(field.forbidden(`${path}.${forbiddenName}`, MORE_THAN_ONE));
      continue;
    }
    count++;
    errs.push(...check(objectOf(volume[key]), `${path}.${childName}`));
    if (key === "iscsi") {
      const iscsi = objectOf(volume.iscsi);
      const name = stringOf(volume.name);
      if (isSet(iscsi.initiatorName) && byteLength(`${name}:${stringOf(iscsi.targetPortal)}`) > 64) {
        errs.push(field.invalid(`${path}.name`, name, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."));
      }
    }
  }
  if (count === 0) errs.push(field.required(path, "must specify a volume type"));
  return errs;
}

const pvSources = (pvName: string): SourceEntry[] => [
  ["hostPath", "hostPath", "hostPath", hostPathSource],
  ["gcePersistentDisk", "gcePersistentDisk", "persistentDisk", withPartition("pdName")],
  ["awsElasticBlockStore", "awsElasticBlockStore", "awsElasticBlockStore", withPartition("volumeID")],
  ["glusterfs", "glusterfs", "glusterfs", glusterfsSource(true)],
  ["flocker", "flocker", "flocker", flockerSource],
  ["nfs", "nfs", "nfs", nfsSource],
  ["rbd", "rbd", "rbd", rbdSource],
  ["quobyte", "quobyte", "quobyte", quobyteSource],
  ["cephfs", "cephFS", "cephfs", cephfsSource],
  ["iscsi", "iscsi", "iscsi", iscsiSource(true, pvName)],
  ["cinder", "cinder", "cinder", cinderSource(true)],
  ["fc", "fc", "fc", fcSource],
  ["flexVolume", "", "flexVolume", flexSource],
  ["azureFile", "azureFile", "azureFile", (src, path) => [
    ...requiredFields("secretName", "shareName")(src, path),
    ...(isSet(src.secretNamespace) && !stringOf(src.secretNamespace) ? [field.required(`${path}.secretNamespace`)] : []),
  ]],
  ["vsphereVolume", "vsphereVolume", "vsphereVolume", requiredFields("volumePath")],
  ["photonPersistentDisk", "photonPersistentDisk", "photonPersistentDisk", requiredFields("pdID")],
  ["portworxVolume", "portworxVolume", "portworxVolume", requiredFields("volumeID")],
  ["azureDisk", "azureDisk", "azureDisk", azureDiskSource],
  ["scaleIO", "scaleIO", "scaleIO", requiredFields("gateway", "system", "volumeName")],
  ["local", "local", "local", localSource],
  ["storageos", "storageos", "storageos", storageosSource(true)],
  ["csi", "csi", "csi", csiSource(true)],
];

/** The PersistentVolume spec members that are volume sources. */
export const persistentVolumeSourceKeys = pvSources("").map(([key]) => key);

/**
 * The volume-source part of ValidatePersistentVolumeSpec at `path` (spec): exactly one source; `local` needs
 * node affinity (`nodeAffinitySet`). flexVolume is counted but never reported as a second source, as upstream.
 */
export function validatePersistentVolumeSource(spec: JsonObject, pvName: string, path: string, nodeAffinitySet: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, forbiddenName, childName, check] of pvSources(pvName)) {
    if (!isSet(spec[key])) continue;
    if (count > 0 && forbiddenName) {
      errs.push(field.forbidden(`${path}.${forbiddenName}`, MORE_THAN_ONE));
      continue;
    }
    count++;
    errs.push(...check(objectOf(spec[key]), `${path}.${childName}`));
    if (key === "local" && !nodeAffinitySet) errs.push(field.required(`${path}.nodeAffinity`, "Local volume requires node affinity"));
  }
  if (count === 0) errs.push(field.required(path, "must specify a volume type"));
  return errs;
}

/** A storage class name (PV, PVC): a DNS subdomain. */
export const validateClassName = (name: string, path: string): FieldError[] => validateDNS1123Subdomain(name, path);

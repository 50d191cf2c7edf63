// OpenShift SecurityContextConstraints rules (openshift-apiserver ValidateSecurityContextConstraints): strategy
// types, non-negative priority, uid and ranges, capabilities not both added and dropped, volumes, flex volumes
// and sysctl patterns. Bad values are printed with the internal `security`/`core` Go types, as OpenShift does.
import { field, type FieldError } from "../status";
import { goSlice, goStruct, invalidRendered } from "./rendered-value";
import { isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const SYSCTL_SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const SYSCTL_PATTERN_FMT = `(${SYSCTL_SEGMENT}\\.)*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`;
const SYSCTL_PATTERN = new RegExp(`^${SYSCTL_PATTERN_FMT}$`);

function validateIDRanges(ranges: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  ranges.forEach((item, i) => {
    const r = objectOf(item);
    const min = numberOf(r.min);
    const max = numberOf(r.max);
    const p = `${path}.ranges[${i}]`;
    if (min < 0) errs.push(field.invalid(`${p}.min`, min, "min cannot be negative"));
    if (max < 0) errs.push(field.invalid(`${p}.max`, max, "max cannot be negative"));
    if (min > max) errs.push(invalidRendered(`${p}.min`, goStruct("security.IDRange", [["Min", String(min)], ["Max", String(max)]]), "min cannot be greater than max"));
  });
  return errs;
}

function capsAgainstDrops(drops: unknown, caps: unknown, path: string): FieldError[] {
  if (!Array.isArray(drops)) return [];
  const dropped = new Set(drops.map(stringOf));
  return listOf(caps).map(stringOf).filter((c) => dropped.has(c))
    .map((c) => field.invalid(path, c, `capability is listed in ${path} and requiredDropCapabilities`));
}

function validateSysctlPatterns(patterns: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let coversAll = false;
  patterns.map(stringOf).forEach((s, i) => {
    if (!s) errs.push(field.invalid(`${path}[${i}]`, s, "empty sysctl not allowed"));
    else if (s.length > 253 || !SYSCTL_PATTERN.test(s)) errs.push(field.invalid(`${path}[${i}]`, s, `must have at most 253 characters and match regex ${SYSCTL_PATTERN_FMT}`));
    else if (s[0] === "*") coversAll = true;
  });
  if (coversAll && patterns.length > 1) errs.push(field.forbidden(`${path}.items`, "if '*' is present, must not specify other sysctls"));
  return errs;
}

function sysctlOverlaps(allowed: string[], forbidden: string[]): FieldError[] {
  const errs: FieldError[] = [];
  allowed.forEach((a, i) => {
    const aPattern = a.endsWith("*");
    const aPrefix = aPattern ? a.slice(0, -1) : "";
    forbidden.forEach((f, j) => {
      const fPattern = f.endsWith("*");
      const fPrefix = fPattern ? f.slice(0, -1) : "";
      if (aPattern && fPattern) {
        if (aPrefix.startsWith(fPrefix)) errs.push(field.invalid(`allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
        else if (fPrefix.startsWith(aPrefix)) errs.push(field.invalid(`forbiddenSysctls[${j}]`, f, `sysctl overlaps with ${a}`));
      } else if (aPattern) {
        if (f.startsWith(aPrefix)) errs.push(field.invalid(`forbiddenSysctls[${j}]`, f, `sysctl overlaps with ${a}`));
      } else if (fPattern) {
        if (a.startsWith(fPrefix)) errs.push(field.invalid(`allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
      } else if (a === f) {
        errs.push(field.invalid(`allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
      }
    });
  });
  return errs;
}

export function validateSecurityContextConstraints(scc: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const priority = optionalNumber(scc.priority);
  if (priority !== undefined && priority < 0) errs.push(field.invalid("priority", priority, "priority cannot be negative"));
  const runAsUser = objectOf(scc.runAsUser);
  const userType = stringOf(runAsUser.type);
  if (!["MustRunAs", "MustRunAsNonRoot", "RunAsAny", "MustRunAsRange"].includes(userType)) {
    errs.push(field.invalid("runAsUser.type", userType, "invalid strategy type.  Valid values are MustRunAs, MustRunAsNonRoot, MustRunAsRange, RunAsAny"));
  }
  const uid = optionalNumber(runAsUser.uid);
  if (uid !== undefined && uid < 0) errs.push(field.invalid("runAsUser.uid", uid, "uid cannot be negative"));
  const seLinuxType = stringOf(objectOf(scc.seLinuxContext).type);
  if (seLinuxType !== "MustRunAs" && seLinuxType !== "RunAsAny") {
    errs.push(field.invalid("seLinuxContext.type", seLinuxType, "invalid strategy type.  Valid values are MustRunAs, RunAsAny"));
  }
  for (const key of ["fsGroup", "supplementalGroups"]) {
    const strategy = objectOf(scc[key]);
    const type = stringOf(strategy.type);
    if (type !== "MustRunAs" && type !== "RunAsAny") errs.push(field.notSupported(`${key}.type`, type, ["MustRunAs", "RunAsAny"]));
    errs.push(...validateIDRanges(listOf(strategy.ranges), key));
  }
  errs.push(...capsAgainstDrops(scc.requiredDropCapabilities, scc.defaultAddCapabilities, "defaultAddCapabilities"));
  errs.push(...capsAgainstDrops(scc.requiredDropCapabilities, scc.allowedCapabilities, "allowedCapabilities"));
  const drops = listOf(scc.requiredDropCapabilities);
  if (listOf(scc.allowedCapabilities).includes("*") && drops.length > 0) {
    errs.push(invalidRendered("requiredDropCapabilities", goSlice("core.Capability", drops), "required capabilities must be empty when all capabilities are allowed by a wildcard"));
  }
  if (scc.defaultAllowPrivilegeEscalation === true && scc.allowPrivilegeEscalation === false) {
    errs.push(field.invalid("defaultAllowPrivilegeEscalation", true, "Cannot set DefaultAllowPrivilegeEscalation to true without also setting AllowPrivilegeEscalation to true"));
  }
  const volumes = listOf(scc.volumes).map(stringOf);
  const allowsFlex = volumes.includes("flexVolume") || volumes.includes("*");
  if (volumes.includes("none") && volumes.length > 1) {
    errs.push(invalidRendered("volumes", goSlice("security.FSType", volumes), "if 'none' is specified, no other values are allowed"));
  }
  const flex = listOf(scc.allowedFlexVolumes);
  if (flex.length > 0) {
    if (allowsFlex) {
      flex.forEach((f, i) => {
        if (!stringOf(objectOf(f).driver)) errs.push(field.required(`allowedFlexVolumes[${i}].driver`, "must specify a driver"));
      });
    } else {
      const rendered = `[]security.AllowedFlexVolume{${flex.map((f) => goStruct("security.AllowedFlexVolume", [["Driver", JSON.stringify(stringOf(objectOf(f).driver))]])).join(", ")}}`;
      errs.push(invalidRendered("allowedFlexVolumes", rendered, "volumes does not include 'flexVolume' or '*', so no flex volumes are allowed"));
    }
  }
  const allowedSysctls = listOf(scc.allowedUnsafeSysctls);
  const forbiddenSysctls = listOf(scc.forbiddenSysctls);
  errs.push(...validateSysctlPatterns(allowedSysctls, "allowedUnsafeSysctls"), ...validateSysctlPatterns(forbiddenSysctls, "forbiddenSysctls"));
  errs.push(...sysctlOverlaps(allowedSysctls.map(stringOf), forbiddenSysctls.map(stringOf)));
  return errs;
}

/** Every volume type OpenShift knows (sccutil.GetAllFSTypesAsSet), for expanding "*" when host paths are off. */
const ALL_FS_TYPES = [
  "hostPath", "azureFile", "flocker", "flexVolume", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret",
  "nfs", "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "cinder", "cephFS", "downwardAPI", "fc", "configMap", "vsphere",
  "quobyte", "azureDisk", "photonPersistentDisk", "projected", "portworxVolume", "scaleIO", "storageOS", "csi", "ephemeral",
];

/** SetDefaults_SCC: group strategies RunAsAny, users/groups [], the volume list reconciled with allowHostDirVolumePlugin. */
export function applySecurityContextConstraintsDefaults(scc: JsonObject): void {
  for (const key of ["fsGroup", "supplementalGroups"]) {
    const strategy = typeof scc[key] === "object" && scc[key] !== null ? (scc[key] as JsonObject) : (scc[key] = {} as JsonObject);
    if (!stringOf(strategy.type)) strategy.type = "RunAsAny";
  }
  if (!isSet(scc.users)) scc.users = [];
  if (!isSet(scc.groups)) scc.groups = [];
  const hostDir = scc.allowHostDirVolumePlugin === true;
  let volumes: Set<string>;
  if (!Array.isArray(scc.volumes)) volumes = new Set(["*"]);
  else if (scc.volumes.length === 0) volumes = new Set([hostDir ? "hostPath" : "none"]);
  else volumes = new Set(scc.volumes.map(stringOf));
  if (hostDir) {
    if (!volumes.has("*")) volumes.add("hostPath");
  } else {
    const all = volumes.has("*");
    volumes.delete("*");
    volumes.delete("hostPath");
    if (all) for (const t of ALL_FS_TYPES) if (t !== "hostPath") volumes.add(t);
  }
  scc.volumes = [...volumes].sort();
  if (!isSet(scc.allowPrivilegeEscalation)) scc.allowPrivilegeEscalation = true;
}

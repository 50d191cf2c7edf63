// Pod and container security contexts (validatePodSpecSecurityContext, ValidateSecurityContext, 1.32). Privileged
// containers are allowed, as with kube-apiserver's --allow-privileged=true (the setting of kubeadm clusters and
// OpenShift, where SCC admission decides instead).
import { field, type FieldError } from "../status";
import { validateLocalDescendingPath } from "./local-path";
import { inclusiveRangeError } from "./port";
import { invalidRendered, goStruct } from "./rendered-value";
import { boolOf, isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const MAX_ID = 2147483647;
const idErrors = (value: number): string[] => (Number.isInteger(value) && value >= 0 && value <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)]);

function idFieldErrors(value: unknown, path: string): FieldError[] {
  const n = optionalNumber(value);
  return n === undefined ? [] : idErrors(n).map((m) => field.invalid(path, n, m));
}

/** validateSeccompProfileField. */
function validateSeccompProfile(profile: unknown, path: string): FieldError[] {
  if (!isSet(profile)) return [];
  const sp = objectOf(profile);
  const type = stringOf(sp.type);
  const errs: FieldError[] = [];
  if (type === "") errs.push(field.required(`${path}.type`, "type is required when seccompProfile is set"));
  else if (!["Localhost", "RuntimeDefault", "Unconfined"].includes(type)) errs.push(field.notSupported(`${path}.type`, type, ["Localhost", "RuntimeDefault", "Unconfined"]));
  if (type === "Localhost") {
    if (!isSet(sp.localhostProfile)) errs.push(field.required(`${path}.localhostProfile`, "must be set when seccomp type is Localhost"));
    else errs.push(...validateLocalDescendingPath(stringOf(sp.localhostProfile), `${path}.localhostProfile`));
  } else if (isSet(sp.localhostProfile)) {
    errs.push(invalidRendered(`${path}.localhostProfile`,
      goStruct("&core.SeccompProfile", [["Type", JSON.stringify(type)], ["LocalhostProfile", "(*string)(0xc000000000)"]]),
      "can only be set when seccomp type is Localhost"));
  }
  return errs;
}

const SYSCTL_FMT = "([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const SYSCTL = new RegExp(`^${SYSCTL_FMT}$`);
const ipcSysctls = new Set(["kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni"]);

/** The kernel namespace a sysctl lives in (k8s.io/component-helpers sysctl.GetNamespace), if any. */
function sysctlNamespace(name: string): "net" | "ipc" | undefined {
  const n = name.replace(/\//g, ".");
  if (ipcSysctls.has(n) || n.startsWith("kernel.shm") || n.startsWith("kernel.msg") || n.startsWith("fs.mqueue.")) return "ipc";
  if (n.startsWith("net.")) return "net";
  return undefined;
}

function validateSysctls(sysctls: unknown[], spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  sysctls.forEach((s, i) => {
    const name = stringOf(objectOf(s).name);
    const p = `${path}[${i}].name`;
    if (!name) errs.push(field.required(p));
    else if (name.length > 253 || !SYSCTL.test(name)) errs.push(field.invalid(p, name, `must have at most 253 characters and match regex ^${SYSCTL_FMT}$`));
    else if (seen.has(name)) errs.push(field.duplicate(p, name));
    const ns = sysctlNamespace(name);
    if (boolOf(spec.hostNetwork) && ns === "net") errs.push(field.invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    else if (boolOf(spec.hostIPC) && ns === "ipc") errs.push(field.invalid(p, name, "may not be specified when 'hostIPC' is true"));
    seen.add(name);
  });
  return errs;
}

/** validatePodSpecSecurityContext at spec.securityContext (hostPID/hostNetwork are read from the spec). */
export function validatePodSecurityContext(securityContext: unknown, spec: JsonObject, path: string): FieldError[] {
  if (!isSet(securityContext)) return [];
  const sc = objectOf(securityContext);
  const errs = [
    ...idFieldErrors(sc.fsGroup, `${path}.fsGroup`),
    ...idFieldErrors(sc.runAsUser, `${path}.runAsUser`),
    ...idFieldErrors(sc.runAsGroup, `${path}.runAsGroup`),
  ];
  listOf(sc.supplementalGroups).forEach((gid, i) => {
    const n = numberOf(gid);
    for (const m of idErrors(n)) errs.push(field.invalid(`${path}.supplementalGroups[${i}]`, n, m));
  });
  if (spec.shareProcessNamespace === true && boolOf(spec.hostPID)) {
    errs.push(field.invalid(`${path}.shareProcessNamespace`, true, "ShareProcessNamespace and HostPID cannot both be enabled"));
  }
  const sysctls = listOf(sc.sysctls);
  if (sysctls.length) errs.push(...validateSysctls(sysctls, spec, `${path}.sysctls`));
  if (isSet(sc.fsGroupChangePolicy) && !["Always", "OnRootMismatch"].includes(stringOf(sc.fsGroupChangePolicy))) {
    errs.push(field.notSupported(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, ["Always", "OnRootMismatch"]));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${path}.seccompProfile`));
  if (isSet(sc.supplementalGroupsPolicy) && !["Merge", "Strict"].includes(stringOf(sc.supplementalGroupsPolicy))) {
    errs.push(field.notSupported(`${path}.supplementalGroupsPolicy`, sc.supplementalGroupsPolicy, ["Merge", "Strict"]));
  }
  return errs;
}

const ptr = (type: string, value: unknown) => (isSet(value) ? `(*${type})(0xc000000000)` : `(*${type})(nil)`);

/** %#v of a container's core.SecurityContext, as the allowPrivilegeEscalation errors print it (pointers are opaque). */
function renderSecurityContext(sc: JsonObject): string {
  return goStruct("core.SecurityContext", [
    ["Capabilities", ptr("core.Capabilities", sc.capabilities)],
    ["Privileged", ptr("bool", sc.privileged)],
    ["SELinuxOptions", ptr("core.SELinuxOptions", sc.seLinuxOptions)],
    ["WindowsOptions", ptr("core.WindowsSecurityContextOptions", sc.windowsOptions)],
    ["RunAsUser", ptr("int64", sc.runAsUser)],
    ["RunAsGroup", ptr("int64", sc.runAsGroup)],
    ["RunAsNonRoot", ptr("bool", sc.runAsNonRoot)],
    ["ReadOnlyRootFilesystem", ptr("bool", sc.readOnlyRootFilesystem)],
    ["AllowPrivilegeEscalation", ptr("bool", sc.allowPrivilegeEscalation)],
    ["ProcMount", ptr("core.ProcMountType", sc.procMount)],
    ["SeccompProfile", ptr("core.SeccompProfile", sc.seccompProfile)],
    ["AppArmorProfile", ptr("core.AppArmorProfile", sc.appArmorProfile)],
  ]);
}

/** ValidateSecurityContext for a container at `path` (…securityContext). */
export function validateContainerSecurityContext(securityContext: unknown, hostUsers: boolean, path: string): FieldError[] {
  if (!isSet(securityContext)) return [];
  const sc = objectOf(securityContext);
  const errs = [...idFieldErrors(sc.runAsUser, `${path}.runAsUser`), ...idFieldErrors(sc.runAsGroup, `${path}.runAsGroup`)];
  if (isSet(sc.procMount)) {
    const procMount = stringOf(sc.procMount);
    if (procMount !== "Default" && procMount !== "Unmasked") errs.push(field.notSupported(`${path}.procMount`, procMount, ["Default", "Unmasked"]));
    if (hostUsers && procMount === "Unmasked") errs.push(field.invalid(`${path}.procMount`, procMount, "`hostUsers` must be false to use `Unmasked`"));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${path}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) {
      errs.push(invalidRendered(path, renderSecurityContext(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
    }
    for (const cap of listOf(objectOf(sc.capabilities).add)) {
      if (cap === "CAP_SYS_ADMIN") {
        errs.push(invalidRendered(path, renderSecurityContext(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"));
      }
    }
  }
  return errs;
}

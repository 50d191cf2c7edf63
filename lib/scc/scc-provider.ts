// One SCC made concrete for one namespace (OpenShift's sccmatching simpleProvider): the namespace's pre-allocated
// UID range, MCS level and groups filled in, then `apply(pod)` defaults the pod's and containers' security
// contexts the way the SCC's strategies do and returns every way the result breaks the SCC, with OpenShift's
// field paths and messages (`provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in
// the ranges: [1000680000, 1000689999]`).
import { field, type FieldError } from "../status";
import type { KubeObject } from "../kinds/types";
import { goSlice, invalidRendered } from "../validation/rendered-value";
import { isObject, listOf, objectOf, stringOf, type JsonObject } from "../validation/zero-values";
import { MCS_ANNOTATION, parseBlock, SUPPLEMENTAL_GROUPS_ANNOTATION, UID_RANGE_ANNOTATION, type IdBlock } from "./namespace-ranges";

export const SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

/** kubelet's safe sysctls (SafeSysctlAllowlist): always allowed. */
const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start", "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes",
]);

/** Volume source field → OpenShift's FSType name, where they differ. */
const FS_TYPE_OF: Record<string, string> = { cephfs: "cephFS", vsphereVolume: "vsphere", storageos: "storageOS" };

export const renderError = (e: FieldError) => `${e.field}: ${e.detail}`;

/** field.Invalid of a nil pointer: kube prints it as the quoted string "null". */
const invalidNil = (path: string, detail: string) => invalidRendered(path, '"null"', detail);
const int64Slice = (values: number[] | undefined) => goSlice("int64", values);

type Strategy = { type: string; opts: JsonObject };

function namespaceAnnotation(ns: KubeObject, key: string): string {
  const value = ns.metadata.annotations?.[key];
  if (value === undefined) throw new Error(`unable to find annotation ${key}`);
  if (value === "") throw new Error(`found annotation ${key} but it was empty`);
  return value;
}

function supplementalGroupBlocks(ns: KubeObject): IdBlock[] {
  const a = ns.metadata.annotations ?? {};
  const groups = a[SUPPLEMENTAL_GROUPS_ANNOTATION] ?? a[UID_RANGE_ANNOTATION];
  if (groups === undefined) throw new Error(`unable to find supplemental group or uid annotation for namespace ${ns.metadata.name}`);
  if (groups === "") throw new Error(`unable to find groups using ${SUPPLEMENTAL_GROUPS_ANNOTATION} and ${UID_RANGE_ANNOTATION} annotations`);
  return groups.split(",").map(parseBlock);
}

function withContext(what: string, ns: string, scc: string, fn: () => void): void {
  try { fn(); } catch (err) {
    throw new Error(`unable to find pre-allocated ${what} annotation for namespace ${ns} while trying to configure SCC ${scc}: ${(err as Error).message}`);
  }
}

/** The SCC with the namespace's allocations filled in where its strategies leave them open (CreateProviderFromConstraint). */
function resolveForNamespace(scc: JsonObject, ns: KubeObject): JsonObject {
  const out = structuredClone(scc);
  const name = stringOf(objectOf(out.metadata).name);
  const nsName = ns.metadata.name ?? "";
  const runAsUser = objectOf(out.runAsUser);
  if (runAsUser.type === "MustRunAsRange" && runAsUser.uidRangeMin === undefined && runAsUser.uidRangeMax === undefined) {
    withContext("uid", nsName, name, () => {
      const block = parseBlock(namespaceAnnotation(ns, UID_RANGE_ANNOTATION));
      out.runAsUser = { ...runAsUser, uidRangeMin: block.start, uidRangeMax: block.end };
    });
  }
  const seLinux = objectOf(out.seLinuxContext);
  if (seLinux.type === "MustRunAs" && !stringOf(objectOf(seLinux.seLinuxOptions).level)) {
    withContext("mcs", nsName, name, () => {
      out.seLinuxContext = { ...seLinux, seLinuxOptions: { ...objectOf(seLinux.seLinuxOptions), level: namespaceAnnotation(ns, MCS_ANNOTATION) } };
    });
  }
  const fsGroup = objectOf(out.fsGroup);
  if (fsGroup.type === "MustRunAs" && listOf(fsGroup.ranges).length === 0) {
    withContext("group", nsName, name, () => {
      const first = supplementalGroupBlocks(ns)[0];
      out.fsGroup = { ...fsGroup, ranges: [{ min: first.start, max: first.start }] };
    });
  }
  const supplemental = objectOf(out.supplementalGroups);
  if (supplemental.type === "MustRunAs" && listOf(supplemental.ranges).length === 0) {
    withContext("group", nsName, name, () => {
      out.supplementalGroups = { ...supplemental, ranges: supplementalGroupBlocks(ns).map((b) => ({ min: b.start, max: b.end })) };
    });
  }
  return out;
}

interface Range { min: number; max: number }
const rangesOf = (opts: JsonObject): Range[] => listOf(opts.ranges).map((r) => ({ min: Number(objectOf(r).min ?? 0), max: Number(objectOf(r).max ?? 0) }));

function checkStrategies(scc: JsonObject): void {
  const user = objectOf(scc.runAsUser);
  switch (user.type) {
    case "MustRunAs": if (typeof user.uid !== "number") throw new Error("MustRunAs requires a UID"); break;
    case "MustRunAsRange":
      if (typeof user.uidRangeMin !== "number") throw new Error("MustRunAsRange requires a UIDRangeMin");
      if (typeof user.uidRangeMax !== "number") throw new Error("MustRunAsRange requires a UIDRangeMax");
      break;
    case "MustRunAsNonRoot": case "RunAsAny": break;
    default: throw new Error(`Unrecognized RunAsUser strategy type ${stringOf(user.type)}`);
  }
  const seLinux = objectOf(scc.seLinuxContext);
  if (seLinux.type === "MustRunAs") {
    if (!isObject(seLinux.seLinuxOptions)) throw new Error("MustRunAs requires SELinuxOptions");
  } else if (seLinux.type !== "RunAsAny") {
    throw new Error(`Unrecognized SELinuxContext strategy type ${stringOf(seLinux.type)}`);
  }
  for (const [key, label] of [["fsGroup", "FSGroup"], ["supplementalGroups", "SupplementalGroups"]] as const) {
    const g = objectOf(scc[key]);
    if (g.type === "MustRunAs") {
      if (rangesOf(g).length === 0) throw new Error("ranges must be supplied for MustRunAs");
    } else if (g.type !== "RunAsAny") {
      throw new Error(`Unrecognized ${label} strategy type ${stringOf(g.type)}`);
    }
  }
}

// --- seccomp ----------------------------------------------------------------------------------------------------

function annotationForField(profile: unknown): string {
  const p = objectOf(profile);
  switch (p.type) {
    case "Unconfined": return "unconfined";
    case "RuntimeDefault": return "runtime/default";
    case "Localhost": return typeof p.localhostProfile === "string" ? `localhost/${p.localhostProfile}` : "";
    default: return "";
  }
}

function fieldForAnnotation(annotation: string): JsonObject | undefined {
  if (annotation === "unconfined") return { type: "Unconfined" };
  if (annotation === "runtime/default" || annotation === "docker/default") return { type: "RuntimeDefault" };
  if (annotation.startsWith("localhost/")) return { type: "Localhost", localhostProfile: annotation.slice("localhost/".length) };
  return undefined;
}

class SeccompStrategy {
  private readonly allowed: string[];
  private readonly allowAny: boolean;
  private readonly runtimeDefaultAllowed: boolean;

  constructor(profiles: string[]) {
    this.allowAny = profiles.includes("*");
    this.allowed = profiles.filter((p) => p !== "*");
    this.runtimeDefaultAllowed = this.allowed.some((p) => p === "docker/default" || p === "runtime/default");
  }

  generate(annotations: Record<string, string>, podSC: JsonObject): string {
    if (isObject(podSC.seccompProfile)) return annotationForField(podSC.seccompProfile);
    if (annotations[SECCOMP_POD_ANNOTATION]) return annotations[SECCOMP_POD_ANNOTATION];
    return this.allowed[0] ?? "";
  }

  check(path: string, profile: string): FieldError | undefined {
    if (!this.allowAny && this.allowed.length === 0 && profile !== "") return field.forbidden(path, "seccomp may not be set");
    if (this.allowed.length === 0 && profile === "") return undefined;
    if (this.allowAny) return undefined;
    for (const p of this.allowed) {
      if (profile === p) return undefined;
      if (this.runtimeDefaultAllowed && (profile === "docker/default" || profile === "runtime/default")) return undefined;
    }
    return field.forbidden(path, `${profile} is not an allowed seccomp profile. Valid values are [${this.allowed.join(" ")}]`);
  }
}

// --- the provider -----------------------------------------------------------------------------------------------

interface ContainerRef { list: "initContainers" | "ephemeralContainers" | "containers"; index: number; c: JsonObject }

function containersOf(spec: JsonObject): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const list of ["initContainers", "ephemeralContainers", "containers"] as const) {
    listOf(spec[list]).forEach((c, index) => { if (isObject(c)) out.push({ list, index, c }); });
  }
  return out;
}

/** The pod-level value a container inherits when it does not set its own. */
const effective = (c: JsonObject, podSC: JsonObject, key: string): unknown => {
  const own = objectOf(c.securityContext)[key];
  return own !== undefined ? own : podSC[key];
};

function setContainer(c: JsonObject, key: string, value: unknown): void {
  if (!isObject(c.securityContext)) c.securityContext = {};
  (c.securityContext as JsonObject)[key] = value;
}

function setPod(spec: JsonObject, key: string, value: unknown): void {
  if (!isObject(spec.securityContext)) spec.securityContext = {};
  (spec.securityContext as JsonObject)[key] = value;
}

export class SccProvider {
  readonly name: string;
  readonly users: string[];
  readonly groups: string[];
  private readonly seccomp: SeccompStrategy;

  /** Throws with OpenShift's provider-creation message when the namespace lacks what the SCC needs. */
  constructor(readonly scc: JsonObject, namespace: KubeObject) {
    this.scc = resolveForNamespace(scc, namespace);
    this.name = stringOf(objectOf(scc.metadata).name);
    this.users = listOf(scc.users).map(stringOf);
    this.groups = listOf(scc.groups).map(stringOf);
    try {
      checkStrategies(this.scc);
    } catch (err) {
      throw new Error(`error creating provider for SCC ${this.name} in namespace ${namespace.metadata.name}: ${(err as Error).message}`);
    }
    this.seccomp = new SeccompStrategy(listOf(this.scc.seccompProfiles).map(stringOf));
  }

  /** Defaults `pod` (mutated in place) by this SCC's strategies and returns every violation, OpenShift's order. */
  apply(pod: KubeObject): FieldError[] {
    const spec = (isObject(pod.spec) ? pod.spec : (pod.spec = {})) as JsonObject;
    const prefix = `provider ${this.name}: `;
    this.mutatePod(pod, spec);
    const errs = this.validatePod(pod, spec, `${prefix}.spec.securityContext`);
    for (const ref of containersOf(spec)) {
      this.mutateContainer(pod, spec, ref.c);
      errs.push(...this.validateContainer(pod, spec, ref.c, `${prefix}.${ref.list}[${ref.index}]`));
    }
    return errs;
  }

  private mutatePod(pod: KubeObject, spec: JsonObject): void {
    const sc = objectOf(spec.securityContext);
    const supplemental = objectOf(this.scc.supplementalGroups);
    if (sc.supplementalGroups === undefined && supplemental.type === "MustRunAs") setPod(spec, "supplementalGroups", [rangesOf(supplemental)[0].min]);
    const fsGroup = objectOf(this.scc.fsGroup);
    if (sc.fsGroup === undefined && fsGroup.type === "MustRunAs") setPod(spec, "fsGroup", rangesOf(fsGroup)[0].min);
    const seLinux = objectOf(this.scc.seLinuxContext);
    if (sc.seLinuxOptions === undefined && seLinux.type === "MustRunAs") setPod(spec, "seLinuxOptions", { ...objectOf(seLinux.seLinuxOptions) });
    const profile = this.seccomp.generate(pod.metadata.annotations ?? {}, objectOf(spec.securityContext));
    if (profile) {
      pod.metadata.annotations = { ...pod.metadata.annotations, [SECCOMP_POD_ANNOTATION]: profile };
      const fieldValue = fieldForAnnotation(profile);
      if (fieldValue) setPod(spec, "seccompProfile", fieldValue);
      else if (objectOf(spec.securityContext).seccompProfile !== undefined) delete (spec.securityContext as JsonObject).seccompProfile;
    }
  }

  private mutateContainer(pod: KubeObject, spec: JsonObject, c: JsonObject): void {
    const podSC = objectOf(spec.securityContext);
    const user = objectOf(this.scc.runAsUser);
    if (effective(c, podSC, "runAsUser") === undefined) {
      if (user.type === "MustRunAs") setContainer(c, "runAsUser", user.uid);
      else if (user.type === "MustRunAsRange") setContainer(c, "runAsUser", user.uidRangeMin);
    }
    const seLinux = objectOf(this.scc.seLinuxContext);
    if (effective(c, podSC, "seLinuxOptions") === undefined && seLinux.type === "MustRunAs") setContainer(c, "seLinuxOptions", { ...objectOf(seLinux.seLinuxOptions) });
    const caps = this.generateCapabilities(c);
    if (caps !== undefined) setContainer(c, "capabilities", caps);
    // Kubelet enforces runAsNonRoot; setting it for a known non-zero UID also satisfies PodSecurity `restricted`.
    if (effective(c, podSC, "runAsNonRoot") === undefined) {
      const uid = effective(c, podSC, "runAsUser");
      if ((uid === undefined && user.type === "MustRunAsNonRoot") || (typeof uid === "number" && uid > 0)) setContainer(c, "runAsNonRoot", true);
    }
    const own = objectOf(c.securityContext);
    if (this.scc.readOnlyRootFilesystem === true && own.readOnlyRootFilesystem === undefined) setContainer(c, "readOnlyRootFilesystem", true);
    const containerSeccomp = pod.metadata.annotations?.[SECCOMP_CONTAINER_ANNOTATION_PREFIX + stringOf(c.name)];
    if (containerSeccomp !== undefined) {
      const f = fieldForAnnotation(containerSeccomp);
      if (f) setContainer(c, "seccompProfile", f);
    }
    const privileged = objectOf(c.securityContext).privileged === true;
    const addsSysAdmin = listOf(objectOf(objectOf(c.securityContext).capabilities).add).includes("CAP_SYS_ADMIN");
    if (typeof this.scc.defaultAllowPrivilegeEscalation === "boolean" && objectOf(c.securityContext).allowPrivilegeEscalation === undefined && !privileged && !addsSysAdmin) {
      setContainer(c, "allowPrivilegeEscalation", this.scc.defaultAllowPrivilegeEscalation);
    }
    if (this.scc.allowPrivilegeEscalation === false && objectOf(c.securityContext).allowPrivilegeEscalation === undefined) {
      setContainer(c, "allowPrivilegeEscalation", false);
    }
  }

  /** The capabilities the container ends up with, or undefined when nothing changes. */
  private generateCapabilities(c: JsonObject): JsonObject | undefined {
    const current = objectOf(c.securityContext).capabilities;
    const add = new Set(listOf(objectOf(current).add).map(stringOf));
    const drop = new Set(listOf(objectOf(current).drop).map(stringOf));
    const defaultAdd = listOf(this.scc.defaultAddCapabilities).map(stringOf).filter((x) => !drop.has(x));
    const combinedAdd = new Set([...defaultAdd, ...add]);
    const combinedDrop = new Set([...listOf(this.scc.requiredDropCapabilities).map(stringOf), ...drop]);
    if (combinedAdd.size === add.size && combinedDrop.size === drop.size) return undefined;
    const out: JsonObject = {};
    if (combinedAdd.size) out.add = [...combinedAdd].sort();
    if (combinedDrop.size) out.drop = [...combinedDrop].sort();
    return out;
  }

  private validatePod(pod: KubeObject, spec: JsonObject, scPath: string): FieldError[] {
    const errs: FieldError[] = [];
    const sc = objectOf(spec.securityContext);
    errs.push(...this.validateGroups("fsGroup", scPath, typeof sc.fsGroup === "number" ? [sc.fsGroup] : undefined));
    errs.push(...this.validateGroups("supplementalGroups", scPath, Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups.map(Number) : undefined));
    const podProfile = pod.metadata.annotations?.[SECCOMP_POD_ANNOTATION] || (isObject(sc.seccompProfile) ? annotationForField(sc.seccompProfile) : "");
    const seccompErr = this.seccomp.check(`pod.metadata.annotations[${SECCOMP_POD_ANNOTATION}]`, podProfile);
    if (seccompErr) errs.push(seccompErr);
    errs.push(...this.validateSELinux(`${scPath}.seLinuxOptions`, sc.seLinuxOptions));
    for (const [key, allow, what] of [["hostNetwork", "allowHostNetwork", "Host network"], ["hostPID", "allowHostPID", "Host PID"], ["hostIPC", "allowHostIPC", "Host IPC"]]) {
      if (this.scc[allow] !== true && spec[key] === true) errs.push(field.invalid(`${scPath}.${key}`, true, `${what} is not allowed to be used`));
    }
    errs.push(...this.validateSysctls(listOf(sc.sysctls)));
    errs.push(...this.validateVolumes(listOf(spec.volumes)));
    return errs;
  }

  private validateGroups(key: "fsGroup" | "supplementalGroups", scPath: string, groups: number[] | undefined): FieldError[] {
    const opts = objectOf(this.scc[key]);
    if (opts.type !== "MustRunAs") return [];
    const ranges = rangesOf(opts);
    const path = `${scPath}.${key}`;
    if (!groups || groups.length === 0) return [invalidRendered(path, int64Slice(groups), "unable to validate empty groups against required ranges")];
    return groups.filter((g) => !ranges.some((r) => g >= r.min && g <= r.max))
      .map((g) => invalidRendered(path, int64Slice(groups), `${g} is not an allowed group`));
  }

  private validateSELinux(path: string, options: unknown): FieldError[] {
    const strategy = objectOf(this.scc.seLinuxContext);
    if (strategy.type !== "MustRunAs") return [];
    if (!isObject(options)) return [field.required(path)];
    const want = objectOf(strategy.seLinuxOptions);
    const errs: FieldError[] = [];
    if (!equalLevels(stringOf(want.level), stringOf(options.level))) errs.push(field.invalid(`${path}.level`, stringOf(options.level), `must be ${stringOf(want.level)}`));
    for (const key of ["role", "type", "user"]) {
      if (stringOf(options[key]) !== stringOf(want[key])) errs.push(field.invalid(`${path}.${key}`, stringOf(options[key]), `must be ${stringOf(want[key])}`));
    }
    return errs;
  }

  private validateSysctls(sysctls: unknown[]): FieldError[] {
    const allowed = listOf(this.scc.allowedUnsafeSysctls).map(stringOf);
    const forbidden = listOf(this.scc.forbiddenSysctls).map(stringOf);
    const matches = (patterns: string[], name: string) =>
      patterns.some((p) => p === "*" || p === name || (p.endsWith("*") && name.startsWith(p.slice(0, -1))));
    const errs: FieldError[] = [];
    sysctls.forEach((s, i) => {
      const name = stringOf(objectOf(s).name);
      const path = `pod.spec.securityContext.sysctls[${i}]`;
      if (matches(forbidden, name)) errs.push(field.forbidden(path, `sysctl ${JSON.stringify(name)} is not allowed`));
      else if (!SAFE_SYSCTLS.has(name) && !matches(allowed, name)) errs.push(field.forbidden(path, `unsafe sysctl ${JSON.stringify(name)} is not allowed`));
    });
    return errs;
  }

  private validateVolumes(volumes: unknown[]): FieldError[] {
    const errs: FieldError[] = [];
    const allowed = new Set(listOf(this.scc.volumes).map(stringOf));
    if (volumes.length && !allowed.has("*")) {
      volumes.forEach((v, i) => {
        const type = volumeType(objectOf(v));
        if (type === undefined) {
          errs.push(field.invalid(`spec.volumes[${i}]`, "", "unknown volume type for volume"));
        } else if (!allowed.has(type)) {
          errs.push(field.invalid(`spec.volumes[${i}]`, type, `${type} volumes are not allowed to be used`));
        }
      });
    }
    const flexDrivers = listOf(this.scc.allowedFlexVolumes).map((f) => stringOf(objectOf(f).driver));
    if (volumes.length && flexDrivers.length && (allowed.has("*") || allowed.has("flexVolume"))) {
      volumes.forEach((v, i) => {
        const flex = objectOf(v).flexVolume;
        if (!isObject(flex)) return;
        const driver = stringOf(flex.driver);
        if (!flexDrivers.includes(driver)) errs.push(field.invalid(`provider ${this.name}: .spec.securityContext.volumes[${i}].driver`, driver, "Flexvolume driver is not allowed to be used"));
      });
    }
    return errs;
  }

  private validateContainer(pod: KubeObject, spec: JsonObject, c: JsonObject, path: string): FieldError[] {
    const errs: FieldError[] = [];
    const podSC = objectOf(spec.securityContext);
    const own = objectOf(c.securityContext);
    errs.push(...this.validateRunAsUser(path, effective(c, podSC, "runAsUser"), effective(c, podSC, "runAsNonRoot")));
    errs.push(...this.validateSELinux(`${path}.seLinuxOptions`, effective(c, podSC, "seLinuxOptions")));
    const seccompErr = this.seccomp.check(`pod.metadata.annotations[${SECCOMP_CONTAINER_ANNOTATION_PREFIX}${stringOf(c.name)}]`, containerProfile(pod, podSC, c));
    if (seccompErr) errs.push(seccompErr);
    if (this.scc.allowPrivilegedContainer !== true && own.privileged === true) errs.push(field.invalid(`${path}.privileged`, true, "Privileged containers are not allowed"));
    errs.push(...this.validateCapabilities(path, own.capabilities));
    if (this.scc.allowHostNetwork !== true && spec.hostNetwork === true) errs.push(field.invalid(`${path}.hostNetwork`, true, "Host network is not allowed to be used"));
    if (this.scc.allowHostPorts !== true) {
      // OpenShift checks every container's ports from each container's path, hence `.containers[0].containers[1]`.
      for (const other of containersOf(spec)) {
        for (const port of listOf(other.c.ports).map(objectOf)) {
          if (typeof port.hostPort === "number" && port.hostPort > 0) errs.push(field.invalid(`${path}.${other.list}[${other.index}].hostPort`, port.hostPort, "Host ports are not allowed to be used"));
        }
      }
    }
    if (this.scc.allowHostPID !== true && spec.hostPID === true) errs.push(field.invalid(`${path}.hostPID`, true, "Host PID is not allowed to be used"));
    if (this.scc.allowHostIPC !== true && spec.hostIPC === true) errs.push(field.invalid(`${path}.hostIPC`, true, "Host IPC is not allowed to be used"));
    if (this.scc.readOnlyRootFilesystem === true) {
      if (own.readOnlyRootFilesystem === undefined) errs.push(invalidNil(`${path}.readOnlyRootFilesystem`, "ReadOnlyRootFilesystem may not be nil and must be set to true"));
      else if (own.readOnlyRootFilesystem !== true) errs.push(field.invalid(`${path}.readOnlyRootFilesystem`, false, "ReadOnlyRootFilesystem must be set to true"));
    }
    if (this.scc.allowPrivilegeEscalation === false) {
      if (own.allowPrivilegeEscalation === undefined) errs.push(invalidNil(`${path}.allowPrivilegeEscalation`, "Allowing privilege escalation for containers is not allowed"));
      else if (own.allowPrivilegeEscalation === true) errs.push(field.invalid(`${path}.allowPrivilegeEscalation`, true, "Allowing privilege escalation for containers is not allowed"));
    }
    return errs;
  }

  private validateRunAsUser(path: string, uid: unknown, nonRoot: unknown): FieldError[] {
    const opts = objectOf(this.scc.runAsUser);
    const p = `${path}.runAsUser`;
    switch (opts.type) {
      case "MustRunAs":
        if (typeof uid !== "number") return [field.required(p)];
        return uid === opts.uid ? [] : [field.invalid(p, uid, `must be: ${String(opts.uid)}`)];
      case "MustRunAsRange":
        if (typeof uid !== "number") return [field.required(p)];
        return uid >= Number(opts.uidRangeMin) && uid <= Number(opts.uidRangeMax)
          ? [] : [field.invalid(p, uid, `must be in the ranges: [${String(opts.uidRangeMin)}, ${String(opts.uidRangeMax)}]`)];
      case "MustRunAsNonRoot":
        if (nonRoot === undefined && uid === undefined) return [field.required(`${path}.runAsNonRoot`, "must be true")];
        if (nonRoot === false) return [field.invalid(`${path}.runAsNonRoot`, false, "must be true")];
        if (uid === 0) return [field.invalid(p, 0, "running with the root UID is forbidden")];
        return [];
      default:
        return [];
    }
  }

  private validateCapabilities(path: string, capabilities: unknown): FieldError[] {
    const defaultAdd = listOf(this.scc.defaultAddCapabilities).map(stringOf);
    const requiredDrop = listOf(this.scc.requiredDropCapabilities).map(stringOf);
    if (!isObject(capabilities)) {
      if (defaultAdd.length === 0 && requiredDrop.length === 0) return [];
      return [invalidNil(`${path}.capabilities`, "required capabilities are not set on the securityContext")];
    }
    const allowed = listOf(this.scc.allowedCapabilities).map(stringOf);
    if (allowed.includes("*")) return [];
    const errs: FieldError[] = [];
    for (const cap of listOf(capabilities.add).map(stringOf)) {
      if (!defaultAdd.includes(cap) && !allowed.includes(cap)) errs.push(field.invalid(`${path}.capabilities.add`, cap, "capability may not be added"));
    }
    const drops = Array.isArray(capabilities.drop) ? capabilities.drop.map(stringOf) : undefined;
    for (const d of requiredDrop) {
      if (!drops?.includes(d)) errs.push(invalidRendered(`${path}.capabilities.drop`, goSlice("core.Capability", drops), `${d} is required to be dropped but was not found`));
    }
    return errs;
  }
}

function containerProfile(pod: KubeObject, podSC: JsonObject, c: JsonObject): string {
  const own = objectOf(c.securityContext);
  if (isObject(own.seccompProfile)) return annotationForField(own.seccompProfile);
  const annotated = pod.metadata.annotations?.[SECCOMP_CONTAINER_ANNOTATION_PREFIX + stringOf(c.name)];
  if (annotated !== undefined) return annotated;
  if (isObject(podSC.seccompProfile)) return annotationForField(podSC.seccompProfile);
  return pod.metadata.annotations?.[SECCOMP_POD_ANNOTATION] ?? "";
}

/** The FSType of a volume: the name of its one source field (OpenShift's spelling). */
function volumeType(v: JsonObject): string | undefined {
  const key = Object.keys(v).find((k) => k !== "name" && isObject(v[k]));
  return key === undefined ? undefined : FS_TYPE_OF[key] ?? key;
}

/** SELinux levels are equal when the sensitivity matches and the categories match in any order. */
function equalLevels(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  const e = expected.split(/:(.*)/s);
  const a = actual.split(/:(.*)/s);
  if (e.length < 2 || a.length < 2 || e[0] !== a[0]) return false;
  const cats = (s: string) => s.split(",").sort().join(",");
  return cats(e[1]) === cats(a[1]);
}

// Containers and init containers of a pod spec (validateContainers, validateInitContainers,
// validateContainerCommon, 1.32): names, image, ports, env, mounts, devices, pull policy, resources, probes,
// lifecycle hooks, security context and host-port conflicts.
import { field, type FieldError } from "../status";
import { configKeyErrors } from "./config-key";
import { dnsSubdomainNameErrors, validateDNS1123Label } from "./dns-names";
import { envFieldPaths, validateObjectFieldSelector, validateResourceFieldSelector } from "./downward-api";
import { envVarNameErrors } from "./env-var-name";
import { validateLocalDescendingPath, validatePathNoBacksteps } from "./local-path";
import { portNameErrors, portNumberErrors } from "./port";
import { validateLifecycle, validateProbe } from "./probe";
import { validateContainerResourceRequirements } from "./resource-requirements";
import { validateContainerSecurityContext } from "./security-context";
import { isSet, listOf, numberOf, objectOf, stringOf, type JsonObject } from "./zero-values";

/** What a container check needs to know about its pod: volume sources by name, grace period, host users. */
export interface ContainerContext {
  /** Volumes that passed validation, by name (mounts of any other name are Not found). */
  volumes: Map<string, JsonObject>;
  gracePeriod: number | undefined;
  hostUsers: boolean;
}

function validatePorts(ports: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((item, i) => {
    const port = objectOf(item);
    const p = `${path}[${i}]`;
    const name = stringOf(port.name);
    if (name) {
      const msgs = portNameErrors(name);
      if (msgs.length) for (const m of msgs) errs.push(field.invalid(`${p}.name`, name, m));
      else if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const containerPort = numberOf(port.containerPort);
    if (containerPort === 0) errs.push(field.required(`${p}.containerPort`));
    else for (const m of portNumberErrors(containerPort)) errs.push(field.invalid(`${p}.containerPort`, containerPort, m));
    const hostPort = numberOf(port.hostPort);
    if (hostPort !== 0) for (const m of portNumberErrors(hostPort)) errs.push(field.invalid(`${p}.hostPort`, hostPort, m));
    const protocol = stringOf(port.protocol);
    if (!protocol) errs.push(field.required(`${p}.protocol`));
    else if (!["SCTP", "TCP", "UDP"].includes(protocol)) errs.push(field.notSupported(`${p}.protocol`, protocol, ["SCTP", "TCP", "UDP"]));
  });
  return errs;
}

/** configMapKeyRef / secretKeyRef: the name is checked even when empty (a DNS subdomain), the key is required. */
function validateKeySelector(selector: unknown, path: string): FieldError[] {
  const s = objectOf(selector);
  const name = stringOf(s.name);
  const key = stringOf(s.key);
  const errs = dnsSubdomainNameErrors(name).map((m) => field.invalid(`${path}.name`, name, m));
  if (!key) errs.push(field.required(`${path}.key`));
  else for (const m of configKeyErrors(key)) errs.push(field.invalid(`${path}.key`, key, m));
  return errs;
}

function validateEnv(env: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((item, i) => {
    const ev = objectOf(item);
    const p = `${path}[${i}]`;
    const name = stringOf(ev.name);
    if (!name) errs.push(field.required(`${p}.name`));
    else for (const m of envVarNameErrors(name)) errs.push(field.invalid(`${p}.name`, name, m));
    if (!isSet(ev.valueFrom)) return;
    const from = objectOf(ev.valueFrom);
    const fp = `${p}.valueFrom`;
    let count = 0;
    if (isSet(from.fieldRef)) {
      count++;
      errs.push(...validateObjectFieldSelector(from.fieldRef, envFieldPaths, `${fp}.fieldRef`));
    }
    if (isSet(from.resourceFieldRef)) {
      count++;
      errs.push(...validateResourceFieldSelector(from.resourceFieldRef, `${fp}.resourceFieldRef`, false));
    }
    if (isSet(from.configMapKeyRef)) {
      count++;
      errs.push(...validateKeySelector(from.configMapKeyRef, `${fp}.configMapKeyRef`));
    }
    if (isSet(from.secretKeyRef)) {
      count++;
      errs.push(...validateKeySelector(from.secretKeyRef, `${fp}.secretKeyRef`));
    }
    if (count === 0) errs.push(field.invalid(fp, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    else if (stringOf(ev.value)) errs.push(field.invalid(fp, "", "may not be specified when `value` is not empty"));
    else if (count > 1) errs.push(field.invalid(fp, "", "may not have more than one field specified at a time"));
  });
  return errs;
}

function validateEnvFrom(envFrom: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  envFrom.forEach((item, i) => {
    const ev = objectOf(item);
    const p = `${path}[${i}]`;
    const prefix = stringOf(ev.prefix);
    if (prefix) for (const m of envVarNameErrors(prefix)) errs.push(field.invalid(`${p}.prefix`, prefix, m));
    let count = 0;
    for (const kind of ["configMapRef", "secretRef"]) {
      if (!isSet(ev[kind])) continue;
      count++;
      const name = stringOf(objectOf(ev[kind]).name);
      if (!name) errs.push(field.required(`${p}.${kind}.name`));
      else for (const m of dnsSubdomainNameErrors(name, true)) errs.push(field.invalid(`${p}.${kind}.name`, name, m));
    }
    if (count === 0) errs.push(field.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
    else if (count > 1) errs.push(field.invalid(path, "", "may not have more than one field specified at a time"));
  });
  return errs;
}

function validateVolumeMounts(container: JsonObject, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  const devices = listOf(container.volumeDevices).map(objectOf);
  const deviceNames = new Set(devices.map((d) => stringOf(d.name)));
  const devicePaths = new Set(devices.map((d) => stringOf(d.devicePath)));
  const privileged = objectOf(container.securityContext).privileged === true;
  listOf(container.volumeMounts).forEach((item, i) => {
    const mount = objectOf(item);
    const p = `${path}[${i}]`;
    const name = stringOf(mount.name);
    const mountPath = stringOf(mount.mountPath);
    if (!name) errs.push(field.required(`${p}.name`));
    if (!ctx.volumes.has(name)) errs.push(field.notFound(`${p}.name`, name));
    if (!mountPath) errs.push(field.required(`${p}.mountPath`));
    if (mountPaths.has(mountPath)) errs.push(field.invalid(`${p}.mountPath`, mountPath, "must be unique"));
    mountPaths.add(mountPath);
    if (deviceNames.has(name)) errs.push(field.invalid(`${p}.name`, name, "must not already exist in volumeDevices"));
    if (devicePaths.has(mountPath)) errs.push(field.invalid(`${p}.mountPath`, mountPath, "must not already exist as a path in volumeDevices"));
    const subPath = stringOf(mount.subPath);
    const subPathExpr = stringOf(mount.subPathExpr);
    if (isSet(ctx.volumes.get(name)?.image)) {
      if (subPath) errs.push(field.invalid(`${p}.subPath`, subPath, "not allowed in image volume sources"));
      if (subPathExpr) errs.push(field.invalid(`${p}.subPathExpr`, subPathExpr, "not allowed in image volume sources"));
    }
    // kube-apiserver reports these two under the list's path, without the index.
    if (subPath) errs.push(...validateLocalDescendingPath(subPath, `${path}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(field.invalid(`${p}.subPathExpr`, subPathExpr, "subPathExpr and subPath are mutually exclusive"));
      errs.push(...validateLocalDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    if (isSet(mount.mountPropagation)) {
      const propagation = stringOf(mount.mountPropagation);
      if (!["Bidirectional", "HostToContainer", "None"].includes(propagation)) {
        errs.push(field.notSupported(`${path}.mountPropagation`, propagation, ["Bidirectional", "HostToContainer", "None"]));
      }
      if (propagation === "Bidirectional" && !privileged) {
        errs.push(field.forbidden(`${path}.mountPropagation`, "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
  });
  return errs;
}

function validateVolumeDevices(container: JsonObject, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = listOf(container.volumeMounts).map(objectOf);
  const mountNames = new Set(mounts.map((m) => stringOf(m.name)));
  const mountPaths = new Set(mounts.map((m) => stringOf(m.mountPath)));
  const names = new Set<string>();
  const paths = new Set<string>();
  listOf(container.volumeDevices).forEach((item, i) => {
    const device = objectOf(item);
    const p = `${path}[${i}]`;
    const name = stringOf(device.name);
    const devicePath = stringOf(device.devicePath);
    const volume = ctx.volumes.get(name);
    const isPVC = volume !== undefined && (isSet(volume.persistentVolumeClaim) || isSet(volume.ephemeral));
    if (!name) errs.push(field.required(`${p}.name`));
    if (names.has(name)) errs.push(field.invalid(`${p}.name`, name, "must be unique"));
    if (volume && !isPVC) errs.push(field.invalid(`${p}.name`, name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"));
    if (!volume) errs.push(field.notFound(`${p}.name`, name));
    if (!devicePath) errs.push(field.required(`${p}.devicePath`));
    if (paths.has(devicePath)) errs.push(field.invalid(`${p}.devicePath`, devicePath, "must be unique"));
    if (devicePath && validatePathNoBacksteps(devicePath, p).length > 0) {
      errs.push(field.invalid(`${p}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    } else {
      paths.add(devicePath);
    }
    if (mountNames.has(name)) errs.push(field.invalid(`${p}.name`, name, "must not already exist in volumeMounts"));
    if (mountPaths.has(devicePath)) errs.push(field.invalid(`${p}.devicePath`, devicePath, "must not already exist as a path in volumeMounts"));
    if (name) names.add(name);
  });
  return errs;
}

/** validateContainerCommon: everything checked the same way for regular and init containers. */
function validateContainerCommon(container: JsonObject, ctx: ContainerContext, path: string): FieldError[] {
  const name = stringOf(container.name);
  const errs = name ? validateDNS1123Label(name, `${path}.name`) : [field.required(`${path}.name`)];
  if (!stringOf(container.image)) errs.push(field.required(`${path}.image`));
  const policy = stringOf(container.terminationMessagePolicy);
  if (!policy) errs.push(field.required(`${path}.terminationMessagePolicy`));
  else if (policy !== "File" && policy !== "FallbackToLogsOnError") {
    errs.push(field.notSupported(`${path}.terminationMessagePolicy`, policy, ["File", "FallbackToLogsOnError"]));
  }
  errs.push(
    ...validatePorts(listOf(container.ports), `${path}.ports`),
    ...validateEnv(listOf(container.env), `${path}.env`),
    ...validateEnvFrom(listOf(container.envFrom), `${path}.envFrom`),
    ...validateVolumeMounts(container, ctx, `${path}.volumeMounts`),
    ...validateVolumeDevices(container, ctx, `${path}.volumeDevices`),
  );
  const pull = stringOf(container.imagePullPolicy);
  if (!pull) errs.push(field.required(`${path}.imagePullPolicy`));
  else if (!["Always", "IfNotPresent", "Never"].includes(pull)) errs.push(field.notSupported(`${path}.imagePullPolicy`, pull, ["Always", "IfNotPresent", "Never"]));
  errs.push(...validateContainerResourceRequirements(container.resources, `${path}.resources`));
  errs.push(...validateContainerSecurityContext(container.securityContext, ctx.hostUsers, `${path}.securityContext`));
  return errs;
}

/** Host ports used twice (protocol/hostIP/hostPort) among `containers`, reported as Duplicate at the later one. */
function hostPortConflicts(containers: JsonObject[], path: string): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  containers.forEach((container, ci) => {
    listOf(container.ports).forEach((item, pi) => {
      const port = objectOf(item);
      const hostPort = numberOf(port.hostPort);
      if (hostPort === 0) return;
      const key = `${stringOf(port.protocol)}/${stringOf(port.hostIP)}/${hostPort}`;
      if (seen.has(key)) errs.push(field.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: at least one, unique names, probes and hooks, no restartPolicy, no host-port conflicts. */
export function validateContainers(containers: unknown[], ctx: ContainerContext, path: string): FieldError[] {
  if (containers.length === 0) return [field.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const list = containers.map(objectOf);
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, ctx, p));
    const name = stringOf(c.name);
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else names.add(name);
    if (isSet(c.lifecycle)) errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, `${p}.lifecycle`));
    errs.push(
      ...validateProbe(c.livenessProbe, "liveness", ctx.gracePeriod, `${p}.livenessProbe`),
      ...validateProbe(c.readinessProbe, "readiness", ctx.gracePeriod, `${p}.readinessProbe`),
      ...validateProbe(c.startupProbe, "startup", ctx.gracePeriod, `${p}.startupProbe`),
    );
    if (isSet(c.restartPolicy)) errs.push(field.forbidden(`${p}.restartPolicy`, "may not be set for non-init containers"));
  });
  errs.push(...hostPortConflicts(list, path));
  return errs;
}

/** validateInitContainers: names unique across both lists; hooks and probes only for restartable (sidecar) ones. */
export function validateInitContainers(initContainers: unknown[], containers: unknown[], ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(containers.map((c) => stringOf(objectOf(c).name)));
  initContainers.map(objectOf).forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, ctx, p));
    let restartAlways = false;
    if (isSet(c.restartPolicy)) {
      const policy = stringOf(c.restartPolicy);
      if (policy !== "Always") errs.push(field.notSupported(`${p}.restartPolicy`, policy, ["Always"]));
      restartAlways = policy === "Always";
    }
    const name = stringOf(c.name);
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    // Init containers run one at a time, so each is checked alone (and, as upstream, reported as index 0).
    errs.push(...hostPortConflicts([c], path));
    if (restartAlways) {
      if (isSet(c.lifecycle)) errs.push(...validateLifecycle(c.lifecycle, ctx.gracePeriod, `${p}.lifecycle`));
      errs.push(
        ...validateProbe(c.livenessProbe, "liveness", ctx.gracePeriod, `${p}.livenessProbe`),
        ...validateProbe(c.readinessProbe, "readiness", ctx.gracePeriod, `${p}.readinessProbe`),
        ...validateProbe(c.startupProbe, "startup", ctx.gracePeriod, `${p}.startupProbe`),
      );
    } else {
      for (const key of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"]) {
        if (isSet(c[key])) errs.push(field.forbidden(`${p}.${key}`, "may not be set for init containers without restartPolicy=Always"));
      }
    }
  });
  return errs;
}

/** validateContainersOnlyForPod: an image may not carry leading or trailing whitespace. */
export function validateImageWhitespace(containers: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const image = stringOf(objectOf(c).image);
    if (image !== image.trim()) errs.push(field.invalid(`${path}[${i}].image`, image, "must not have leading or trailing whitespace"));
  });
  return errs;
}

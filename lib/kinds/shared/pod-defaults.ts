// kube-apiserver 1.32's v1 defaulting of a Pod (SetDefaults_Pod, _PodSpec, _Container, _Probe, _HTTPGetAction,
// volume sources, ObjectFieldSelector, ResourceList): what a created or updated pod reads back with.
import { canonicalizeResourceList, canonicalQuantity } from "../../validation/quantity";
import { isObject, listOf, type JsonObject } from "../../validation/zero-values";
import { imageTag } from "./image-reference";
import { applySharedVolumeSourceDefaults } from "./volume-defaults";

const isEmpty = (v: unknown) => v === undefined || v === null || v === "";
const setIfAbsent = (obj: JsonObject, key: string, value: unknown) => {
  if (isEmpty(obj[key])) obj[key] = value;
};

function defaultHTTPGet(handler: unknown): void {
  if (!isObject(handler) || !isObject(handler.httpGet)) return;
  setIfAbsent(handler.httpGet, "path", "/");
  setIfAbsent(handler.httpGet, "scheme", "HTTP");
}

function defaultProbe(probe: unknown): void {
  if (!isObject(probe)) return;
  for (const [key, value] of [["timeoutSeconds", 1], ["periodSeconds", 10], ["successThreshold", 1], ["failureThreshold", 3]] as const) {
    if (isEmpty(probe[key]) || probe[key] === 0) probe[key] = value;
  }
  defaultHTTPGet(probe);
}

function defaultFieldRef(ref: unknown): void {
  if (isObject(ref)) setIfAbsent(ref, "apiVersion", "v1");
}

/** A resourceFieldRef always carries a divisor on the wire ("0" when unset): Quantity is not omitempty. */
function defaultResourceFieldRef(ref: unknown): void {
  if (!isObject(ref)) return;
  ref.divisor = isEmpty(ref.divisor) ? "0" : canonicalQuantity(ref.divisor);
}

function defaultContainer(container: unknown, hostNetwork: boolean): void {
  if (!isObject(container)) return;
  if (isEmpty(container.imagePullPolicy)) {
    container.imagePullPolicy = imageTag(typeof container.image === "string" ? container.image : "") === "latest" ? "Always" : "IfNotPresent";
  }
  setIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
  setIfAbsent(container, "terminationMessagePolicy", "File");
  for (const port of listOf(container.ports)) {
    if (!isObject(port)) continue;
    setIfAbsent(port, "protocol", "TCP");
    if (hostNetwork && (isEmpty(port.hostPort) || port.hostPort === 0)) port.hostPort = port.containerPort;
  }
  for (const env of listOf(container.env)) {
    if (!isObject(env) || !isObject(env.valueFrom)) continue;
    defaultFieldRef(env.valueFrom.fieldRef);
    defaultResourceFieldRef(env.valueFrom.resourceFieldRef);
  }
  if (isObject(container.resources)) {
    const resources = container.resources;
    // Pods (not pod templates) request what they limit, resource by resource.
    if (isObject(resources.limits)) {
      const requests = isObject(resources.requests) ? resources.requests : (resources.requests = {});
      for (const [name, value] of Object.entries(resources.limits)) if (!(name in requests)) requests[name] = value;
    }
    canonicalizeResourceList(resources.limits);
    canonicalizeResourceList(resources.requests);
  }
  defaultProbe(container.livenessProbe);
  defaultProbe(container.readinessProbe);
  defaultProbe(container.startupProbe);
  if (isObject(container.lifecycle)) {
    defaultHTTPGet(container.lifecycle.postStart);
    defaultHTTPGet(container.lifecycle.preStop);
  }
}

function defaultDownwardAPIItems(items: unknown): void {
  for (const item of listOf(items)) {
    if (!isObject(item)) continue;
    defaultFieldRef(item.fieldRef);
    defaultResourceFieldRef(item.resourceFieldRef);
  }
}

/** The member names of a Pod volume that are volume sources (anything but `name`). */
const isSourceKey = (key: string, volume: JsonObject) => key !== "name" && volume[key] !== undefined && volume[key] !== null;

function defaultVolume(volume: unknown): void {
  if (!isObject(volume)) return;
  if (!Object.keys(volume).some((k) => isSourceKey(k, volume))) volume.emptyDir = {};
  for (const key of ["secret", "configMap", "downwardAPI", "projected"]) {
    const source = volume[key];
    if (isObject(source) && isEmpty(source.defaultMode)) source.defaultMode = 420;
  }
  if (isObject(volume.hostPath) && volume.hostPath.type === undefined) volume.hostPath.type = "";
  if (isObject(volume.emptyDir) && !isEmpty(volume.emptyDir.sizeLimit)) volume.emptyDir.sizeLimit = canonicalQuantity(volume.emptyDir.sizeLimit);
  if (isObject(volume.downwardAPI)) defaultDownwardAPIItems(volume.downwardAPI.items);
  if (isObject(volume.projected)) {
    for (const source of listOf(volume.projected.sources)) {
      if (!isObject(source)) continue;
      if (isObject(source.downwardAPI)) defaultDownwardAPIItems(source.downwardAPI.items);
      if (isObject(source.serviceAccountToken)) setIfAbsent(source.serviceAccountToken, "expirationSeconds", 3600);
    }
  }
  applySharedVolumeSourceDefaults(volume);
}

/** Fills a pod's defaults in place (spec policies, containers, probes, volumes, resource quantities). */
export function applyPodDefaults(pod: JsonObject): void {
  if (!isObject(pod.spec)) return;
  const spec = pod.spec;
  setIfAbsent(spec, "dnsPolicy", "ClusterFirst");
  setIfAbsent(spec, "restartPolicy", "Always");
  if (!isObject(spec.securityContext)) spec.securityContext = {};
  setIfAbsent(spec, "terminationGracePeriodSeconds", 30);
  setIfAbsent(spec, "schedulerName", "default-scheduler");
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  // v1 keeps the deprecated serviceAccount in step with serviceAccountName (the newer field wins).
  if (isEmpty(spec.serviceAccountName) && !isEmpty(spec.serviceAccount)) spec.serviceAccountName = spec.serviceAccount;
  if (!isEmpty(spec.serviceAccountName)) spec.serviceAccount = spec.serviceAccountName;
  const hostNetwork = spec.hostNetwork === true;
  for (const c of listOf(spec.containers)) defaultContainer(c, hostNetwork);
  for (const c of listOf(spec.initContainers)) defaultContainer(c, hostNetwork);
  for (const v of listOf(spec.volumes)) defaultVolume(v);
}

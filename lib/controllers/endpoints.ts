// kube-controller-manager's endpoints controller: every Service with a selector owns an Endpoints object of the
// same name listing the selected pods that have an IP (ready ones in `addresses`, the others in
// `notReadyAddresses`), with the service's ports resolved against each pod's container ports. Services without
// a selector (and ExternalName ones) are left alone; the Endpoints of a deleted Service are deleted.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { endpoints as endpointsKind, type EndpointAddress, type EndpointPort, type EndpointSubset, type Endpoints } from "../kinds/endpoints";
import type { Pod } from "../kinds/pod";
import type { Service, ServicePort } from "../kinds/service";
import type { KubeObject } from "../kinds/types";
import type { EventRecorder } from "../events/recorder";
import type { Registry } from "../registry/registry";
import type { Informer, InformerEvent } from "./informer";
import { WorkQueue } from "./work-queue";

export const ENDPOINT_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:endpoint-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

export const LAST_CHANGE_TRIGGER_TIME_ANNOTATION = "endpoints.kubernetes.io/last-change-trigger-time";
export const OVER_CAPACITY_ANNOTATION = "endpoints.kubernetes.io/over-capacity";
export const HEADLESS_SERVICE_LABEL = "service.kubernetes.io/headless";
/** Endpoints used as leader-election locks have no Service and must survive the start-up cleanup. */
const LEADER_ELECTION_ANNOTATION = "control-plane.alpha.kubernetes.io/leader";
/** Addresses kept per Endpoints object; beyond it the object is truncated and annotated. */
export const MAX_ENDPOINTS_CAPACITY = 1000;
/** Retries of a failing service before it is dropped until its next change (kube's maxRetries). */
export const MAX_RETRIES = 15;
const COMPONENT = "endpoint-controller";

const SERVICES = "services";
const PODS = "pods";
const ENDPOINTS = endpointsKind.plural;

// --- pods ------------------------------------------------------------------------------------------------------

/** status.podIPs, or the single podIP a client sent alone (kube-apiserver's conversion fills podIPs from it). */
function podIPs(pod: Pod): string[] {
  const list = pod.status?.podIPs;
  if (Array.isArray(list) && list.length > 0) return list.map((p) => (p as { ip?: string })?.ip ?? "").filter(Boolean);
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

const readyCondition = (pod: Pod) => pod.status?.conditions?.find((c) => c?.type === "Ready");
export const isPodReady = (pod: Pod) => readyCondition(pod)?.status === "True";
const isTerminal = (pod: Pod) => pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";

/** Finished pods and pods without an IP never serve; terminating ones only for services publishing not-ready addresses. */
function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

const isIPv6 = (ip: string | undefined) => !!ip && ip.includes(":");

/** The pod's IP of the service's (first) family; a pod without one is left out of that service. */
function addressFor(service: Service, pod: Pod): EndpointAddress | undefined {
  const hostname = pod.spec?.hostname && pod.spec.subdomain === service.metadata.name && pod.metadata.namespace === service.metadata.namespace
    ? pod.spec.hostname : undefined;
  const spec = service.spec ?? {};
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as string[]) : [];
  let v6: boolean;
  if (families.length > 0) v6 = families[0] === "IPv6";
  else if (spec.clusterIP && spec.clusterIP !== "None") v6 = isIPv6(spec.clusterIP);
  else v6 = isIPv6(pod.status?.podIP);
  const ip = podIPs(pod).find((candidate) => isIPv6(candidate) === v6);
  if (!ip) return undefined;
  // kube always sends the node name, even an empty one (which Endpoints validation then refuses).
  return {
    ip,
    ...(hostname ? { hostname } : {}),
    nodeName: pod.spec?.nodeName ?? "",
    targetRef: { kind: "Pod", namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
}

/** The container port a service port sends to: a number as is, a name looked up in containers and sidecars. */
function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === "number") return target;
  const protocol = servicePort.protocol ?? "TCP";
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c?.restartPolicy === "Always");
  for (const container of [...(pod.spec?.containers ?? []), ...sidecars]) {
    for (const port of container?.ports ?? []) {
      if (port?.name === target && (port.protocol ?? "TCP") === protocol) return port.containerPort;
    }
  }
  return undefined;
}

function endpointPort(servicePort: ServicePort, port: number): EndpointPort {
  // Key order as kube writes them: name, port, protocol, appProtocol.
  const out: EndpointPort & { appProtocol?: string } = { ...(servicePort.name ? { name: servicePort.name } : {}), port, protocol: servicePort.protocol ?? "TCP" };
  const appProtocol = (servicePort as { appProtocol?: unknown }).appProtocol;
  if (typeof appProtocol === "string") out.appProtocol = appProtocol;
  return out as EndpointPort;
}

const selectorOf = (service: Service): Record<string, string> | undefined => {
  const selector = service.spec?.selector;
  // An empty selector reads back as none from kube-apiserver (protobuf has no empty map): it selects nothing.
  return selector && typeof selector === "object" && Object.keys(selector).length > 0 ? selector : undefined;
};

const selects = (selector: Record<string, string>, labels: Record<string, string> | undefined) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// --- repacking ---------------------------------------------------------------------------------------------------

const addressKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ""}`;
const portKey = (p: EndpointPort) => JSON.stringify([p.name ?? "", p.port, p.protocol ?? "", (p as { appProtocol?: string }).appProtocol ?? null]);

/** Byte order of the IP, then the target's uid (an address without a target first). */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const byIP = Buffer.compare(Buffer.from(a.ip), Buffer.from(b.ip));
  if (byIP !== 0) return byIP;
  if (!b.targetRef) return a.targetRef ? 1 : 0;
  if (!a.targetRef) return -1;
  const ua = a.targetRef.uid ?? "", ub = b.targetRef.uid ?? "";
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

const byString = <T>(key: (t: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * endpoints.RepackSubsets: the fewest subsets such that every address in a subset serves every port of it; an
 * address not ready for some port is not ready in that subset. Ports without any (headless services) keep
 * their addresses in a subset of their own. Addresses are sorted as kube sorts them; kube orders ports and
 * subsets by a hash of their Go dump, which cannot be reproduced here, so they follow a stable order instead.
 */
export function repackSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  /** port key -> (address key -> ready) */
  const byPort = new Map<string, { port?: EndpointPort; ready: Map<string, boolean> }>();
  const note = (address: EndpointAddress, port: EndpointPort | undefined, ready: boolean) => {
    const key = addressKey(address);
    if (!addresses.has(key)) addresses.set(key, structuredClone(address));
    const pk = port ? portKey(port) : "";
    let entry = byPort.get(pk);
    if (!entry) byPort.set(pk, (entry = { port, ready: new Map() }));
    const was = entry.ready.get(key);
    if (was === undefined || was) entry.ready.set(key, ready);
  };
  for (const subset of subsets) {
    const ports = subset.ports?.length ? subset.ports : [undefined];
    for (const port of ports) {
      for (const a of subset.addresses ?? []) note(a, port, true);
      for (const a of subset.notReadyAddresses ?? []) note(a, port, false);
    }
  }
  // Ports offered by exactly the same addresses (with the same readiness) share a subset.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const signature = JSON.stringify([...ready.entries()].sort(byString(([k]) => k)));
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = { ready, ports: [] }));
    if (port) group.ports.push(structuredClone(port));
  }
  const out: EndpointSubset[] = [];
  for (const { ready, ports } of groups.values()) {
    const readyAddrs: EndpointAddress[] = [], notReady: EndpointAddress[] = [];
    for (const [key, isReady] of ready) (isReady ? readyAddrs : notReady).push(structuredClone(addresses.get(key)!));
    const subset: EndpointSubset = {};
    if (readyAddrs.length) subset.addresses = readyAddrs.sort(compareAddresses);
    if (notReady.length) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (ports.length) subset.ports = ports.sort(byString(portKey));
    out.push(subset);
  }
  const subsetKey = (s: EndpointSubset) =>
    [(s.ports ?? []).map(portKey).join(","), (s.addresses ?? []).map(addressKey).join(","), (s.notReadyAddresses ?? []).map(addressKey).join(",")].join("|");
  return out.sort(byString(subsetKey));
}

/**
 * truncateEndpoints: beyond the capacity, not-ready addresses go first (spread over the subsets in proportion);
 * when the ready ones alone exceed it, they are cut in proportion and every not-ready one dropped.
 */
export function truncateSubsets(subsets: EndpointSubset[], capacity = MAX_ENDPOINTS_CAPACITY): boolean {
  let totalReady = 0, totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses?.length ?? 0;
    totalNotReady += s.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= capacity) return false;
  const truncateReady = totalReady > capacity;
  const max = truncateReady ? capacity : capacity - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = truncateReady ? s.addresses?.length ?? 0 : s.notReadyAddresses?.length ?? 0;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      if (s.addresses) s.addresses = s.addresses.slice(0, toBeAdded);
      delete s.notReadyAddresses;
      canBeAdded -= s.addresses?.length ?? 0;
    } else {
      if (s.notReadyAddresses) s.notReadyAddresses = s.notReadyAddresses.slice(0, toBeAdded);
      canBeAdded -= s.notReadyAddresses?.length ?? 0;
    }
    for (const field of ["addresses", "notReadyAddresses"] as const) if (s[field]?.length === 0) delete s[field];
  }
  return true;
}

// --- comparison --------------------------------------------------------------------------------------------------

/** JSON with sorted keys, empty lists and maps dropped (nil and empty are equal to kube), target resourceVersions ignored. */
function canonical(value: unknown, parentKey = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || v === null) continue;
      if (parentKey === "targetRef" && key === "resourceVersion") continue;
      if (Array.isArray(v) && v.length === 0) continue;
      if (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) continue;
      out[key] = canonical(v, key);
    }
    return out;
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a ?? {})) === JSON.stringify(canonical(b ?? {}));

function capacityAnnotationSetCorrectly(current: Endpoints): boolean {
  let n = 0;
  for (const s of current.subsets ?? []) n += (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0);
  if (n > MAX_ENDPOINTS_CAPACITY) return false;
  return !(OVER_CAPACITY_ANNOTATION in (current.metadata.annotations ?? {}));
}

// --- trigger times -----------------------------------------------------------------------------------------------

const timeOf = (s: unknown): number => {
  const ms = typeof s === "string" ? Date.parse(s) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/** Go's time.Format(RFC3339Nano) in UTC: fractional seconds without trailing zeros, none when whole. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_, f: string) => (f ? `.${f}Z` : "Z"));
}

const earliest = (a: number, b: number) => (a === 0 ? b : b === 0 ? a : Math.min(a, b));

/**
 * TriggerTimeTracker: when the change that an Endpoints write reflects happened. A new (or, after a restart,
 * newly seen) service reports its creation; later syncs the earliest pod readiness transition or service
 * creation that moved since the last sync; 0 when nothing did (the annotation is then removed).
 */
class TriggerTimeTracker {
  private readonly states = new Map<string, { pods: Map<string, number>; service: number }>();

  compute(key: string, service: Service, pods: Pod[]): number {
    const state = this.states.get(key);
    const last = state ?? { pods: new Map<string, number>(), service: 0 };
    let changed = 0;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = timeOf(readyCondition(pod)?.lastTransitionTime);
      if (t === 0) continue;
      podTimes.set(pod.metadata.name!, t);
      if (t > (last.pods.get(pod.metadata.name!) ?? 0)) changed = earliest(changed, t);
    }
    const serviceTime = timeOf(service.metadata.creationTimestamp);
    if (serviceTime > last.service) changed = earliest(changed, serviceTime);
    this.states.set(key, { pods: podTimes, service: serviceTime });
    return state ? changed : serviceTime;
  }

  delete(key: string): void {
    this.states.delete(key);
  }
}

// --- the controller ----------------------------------------------------------------------------------------------

export interface EndpointsControllerOptions {
  registry: Registry;
  informer: Informer;
  recorder?: EventRecorder;
  user?: UserInfo;
  onError?: (key: string, err: unknown) => void;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

export class EndpointsController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly recorder?: EventRecorder;
  private readonly user: UserInfo;
  private readonly onError?: (key: string, err: unknown) => void;
  private readonly triggerTimes = new TriggerTimeTracker();
  /** resourceVersions this controller replaced, per Endpoints: seeing one again means the cache is behind. */
  private readonly staleVersions = new Map<string, string>();
  private readonly failures = new Map<string, number>();
  private stopped = false;

  constructor(opts: EndpointsControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.recorder = opts.recorder;
    this.user = opts.user ?? ENDPOINT_CONTROLLER_USER;
    this.onError = opts.onError;
    this.queue = new WorkQueue((key) => this.process(key), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(SERVICES, (e) => this.queue.add(keyOf(e.key.namespace, e.key.name)));
    opts.informer.on(PODS, (e) => this.onPod(e));
    // A managed Endpoints deleted by someone is written again (or, without a Service, stays gone).
    opts.informer.on(ENDPOINTS, (e) => {
      if (e.type === "DELETED") this.queue.add(keyOf(e.key.namespace, e.key.name));
    });
    // Once, after the informer's initial list: Endpoints whose Service went away while no controller ran.
    void opts.informer.whenSynced().then(() => { if (!this.stopped) this.checkLeftoverEndpoints(); });
  }

  stop(): void {
    this.stopped = true;
    this.queue.stop();
  }

  /** Queues every existing Endpoints object (kube's checkLeftoverEndpoints): those without a Service get deleted. */
  checkLeftoverEndpoints(): void {
    for (const ep of this.informer.list(ENDPOINTS)) {
      if (ep.metadata.annotations?.[LEADER_ELECTION_ANNOTATION] !== undefined) continue;
      this.queue.add(keyOf(ep.metadata.namespace ?? "", ep.metadata.name ?? ""));
    }
  }

  /** The services whose Endpoints a pod change can move (GetServicesToUpdateOnPodChange). */
  private onPod(e: InformerEvent): void {
    const namespace = e.key.namespace;
    if (e.type !== "MODIFIED" || !e.old) {
      for (const key of this.servicesSelecting(namespace, e.metadata.labels)) this.queue.add(key);
      return;
    }
    const pod = e.object as Pod;
    const old = e.old as Pod;
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelsChanged = !same(old.metadata.labels, pod.metadata.labels) ||
      (old.spec?.hostname ?? "") !== (pod.spec?.hostname ?? "") || (old.spec?.subdomain ?? "") !== (pod.spec?.subdomain ?? "");
    const podChanged = (old.metadata.deletionTimestamp ?? "") !== (pod.metadata.deletionTimestamp ?? "") ||
      isPodReady(old) !== isPodReady(pod) ||
      podIPs(old).join(",") !== podIPs(pod).join(",") ||
      // Beyond kube's checks (which rely on the kubelet clearing Ready first): a pod that finished, or got its node.
      isTerminal(old) !== isTerminal(pod) || (old.spec?.nodeName ?? "") !== (pod.spec?.nodeName ?? "");
    if (!podChanged && !labelsChanged) return;
    const now = this.servicesSelecting(namespace, pod.metadata.labels);
    if (!labelsChanged) {
      for (const key of now) this.queue.add(key);
      return;
    }
    const before = this.servicesSelecting(namespace, old.metadata.labels);
    for (const key of new Set([...now, ...before])) {
      // Only the labels moved: a service selecting the pod before and after keeps the same address.
      if (podChanged || now.has(key) !== before.has(key)) this.queue.add(key);
    }
  }

  private servicesSelecting(namespace: string, labels: Record<string, string> | undefined): Set<string> {
    const keys = new Set<string>();
    for (const service of this.informer.list(SERVICES, namespace) as Service[]) {
      const selector = selectorOf(service);
      if (selector && selects(selector, labels)) keys.add(keyOf(namespace, service.metadata.name!));
    }
    return keys;
  }

  /** handleErr: a failing service is retried (with the queue's backoff) MAX_RETRIES times, then dropped until its next change. */
  private async process(key: string): Promise<void> {
    try {
      await this.sync(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      if (n > MAX_RETRIES) {
        this.failures.delete(key);
        this.onError?.(key, err);
        return;
      }
      this.failures.set(key, n);
      throw err;
    }
  }

  /** syncService: bring the Endpoints of `namespace/name` in line with the Service and its pods. */
  async sync(key: string): Promise<void> {
    const slash = key.indexOf("/");
    const namespace = key.slice(0, slash), name = key.slice(slash + 1);
    const service = this.informer.get(SERVICES, namespace, name) as Service | undefined;
    if (!service) {
      try {
        await this.registry.delete(endpointsKind, namespace, name, { dryRun: false, user: this.user });
      } catch (err) {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
      this.triggerTimes.delete(key);
      this.staleVersions.delete(key);
      return;
    }
    const spec = service.spec ?? {};
    if (spec.type === "ExternalName") return;
    const selector = selectorOf(service);
    if (!selector) return;

    const pods = (this.informer.list(PODS, namespace) as Pod[]).filter((p) => selects(selector, p.metadata.labels));
    // Computed before the comparison so the tracker moves on even when nothing is written.
    const triggerTime = this.triggerTimes.compute(key, service, pods);
    const subsets = repackSubsets(this.subsetsFor(service, pods));

    const current = this.informer.get(ENDPOINTS, namespace, name) as Endpoints | undefined;
    if (current && this.staleVersions.get(key) === current.metadata.resourceVersion) {
      throw new Error(`endpoints informer cache is out of date, resource version ${current.metadata.resourceVersion} already processed for endpoints ${key}`);
    }
    const serviceLabels = service.metadata.labels ?? {};
    if (current) {
      const compareLabels = { ...(current.metadata.labels ?? {}) };
      delete compareLabels[HEADLESS_SERVICE_LABEL];
      if (same(current.subsets ?? [], subsets) && same(compareLabels, serviceLabels) && capacityAnnotationSetCorrectly(current)) return;
    }

    const next: Endpoints = current
      ? structuredClone(current)
      : { apiVersion: "v1", kind: "Endpoints", metadata: { name, labels: serviceLabels } };
    next.apiVersion = "v1";
    next.kind = "Endpoints";
    if (subsets.length) next.subsets = subsets;
    else delete next.subsets;
    const labels: Record<string, string> = { ...serviceLabels };
    const annotations: Record<string, string> = { ...(next.metadata.annotations ?? {}) };
    if (triggerTime) annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION] = rfc3339Nano(triggerTime);
    else delete annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION];
    if (truncateSubsets(next.subsets ?? [])) annotations[OVER_CAPACITY_ANNOTATION] = "truncated";
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    const clusterIP = spec.clusterIP ?? "";
    if (clusterIP === "" || clusterIP === "None") labels[HEADLESS_SERVICE_LABEL] = "";
    else delete labels[HEADLESS_SERVICE_LABEL];
    if (Object.keys(labels).length) next.metadata.labels = labels;
    else delete next.metadata.labels;
    if (Object.keys(annotations).length) next.metadata.annotations = annotations;
    else delete next.metadata.annotations;

    const opts = { dryRun: false, fieldValidation: "Ignore" as const, user: this.user };
    try {
      if (!current) {
        await this.registry.create(endpointsKind, namespace, next, opts);
      } else {
        const answer = await this.registry.update(endpointsKind, namespace, name, next, opts);
        const written = "object" in answer ? (answer.object as KubeObject) : undefined;
        if (written?.metadata.resourceVersion !== current.metadata.resourceVersion) this.staleVersions.set(key, current.metadata.resourceVersion ?? "");
      }
    } catch (err) {
      if (!current && isStatusError(err) && err.code === 403 && err.details?.causes?.some((c) => c.reason === "NamespaceTerminating")) return;
      const message = err instanceof Error ? err.message : String(err);
      // As kube: the object of a failed create carries no namespace, so its Event lands in `default`.
      if (!current) this.recorder?.event(next, "Warning", "FailedToCreateEndpoint", `Failed to create endpoint for service ${namespace}/${name}: ${message}`, COMPONENT);
      else this.recorder?.event(next, "Warning", "FailedToUpdateEndpoint", `Failed to update endpoint ${namespace}/${name}: ${message}`, COMPONENT);
      throw err;
    }
  }

  /** One single-address subset per (pod, service port), as kube builds them before repacking. */
  private subsetsFor(service: Service, pods: Pod[]): EndpointSubset[] {
    const spec = service.spec ?? {};
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const ports = spec.ports ?? [];
    const out: EndpointSubset[] = [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
      const address = addressFor(service, pod);
      if (!address) continue;
      const ready = publishNotReady || isPodReady(pod);
      const subset = (port?: EndpointPort): EndpointSubset => ({
        ...(ready ? { addresses: [address] } : { notReadyAddresses: [address] }),
        ...(port ? { ports: [port] } : {}),
      });
      if (ports.length === 0) {
        // Only a headless service may have no ports; its addresses are published alone.
        if (spec.clusterIP === "None") out.push(subset());
        continue;
      }
      for (const servicePort of ports) {
        const port = findPort(pod, servicePort);
        if (port !== undefined) out.push(subset(endpointPort(servicePort, port)));
      }
    }
    return out;
  }
}

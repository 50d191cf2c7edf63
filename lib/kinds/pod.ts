import { validatePodCreate } from "../validation/pod-spec";
import { validatePodUpdate } from "../validation/pod-update";
import { quantityDecodeError, resourceListDecodeError } from "../validation/quantity";
import { listOf, objectOf } from "../validation/zero-values";
import { ageColumn, column, humanDuration, nameColumn, NONE } from "./columns";
import { defineKind } from "./define-kind";
import { podSchema } from "./schema/pod";
import type { Container, SELinuxOptions } from "./shared/container";
import type { LabelSelector, LabelSelectorRequirement } from "./shared/label-selector";
import type { LocalObjectReference } from "./shared/object-reference";
import { applyPodDefaults } from "./shared/pod-defaults";
import { parseQuantityMilli } from "./shared/quantity";
import type { PodVolumeSource } from "./shared/volume-source";
import type { KubeObject } from "./types";

// --- types --------------------------------------------------------------------------------------------------

export interface NodeSelectorTerm {
  matchExpressions?: LabelSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
}

export interface PodAffinityRules {
  preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm: PodAffinityTerm; weight: number }[];
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: {
    preferredDuringSchedulingIgnoredDuringExecution?: { preference: NodeSelectorTerm; weight: number }[];
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
  };
  podAffinity?: PodAffinityRules;
  podAntiAffinity?: PodAffinityRules;
}

export interface Toleration {
  effect?: string;
  key?: string;
  operator?: string;
  tolerationSeconds?: number;
  value?: string;
}

export interface PodVolume extends PodVolumeSource {
  name: string;
}

export interface PodSpec {
  activeDeadlineSeconds?: number;
  affinity?: Affinity;
  automountServiceAccountToken?: boolean;
  containers: Container[];
  dnsConfig?: { nameservers?: string[]; options?: { name?: string; value?: string }[]; searches?: string[] };
  dnsPolicy?: string;
  hostAliases?: { hostnames?: string[]; ip?: string }[];
  hostIPC?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostname?: string;
  imagePullSecrets?: LocalObjectReference[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  priority?: number;
  priorityClassName?: string;
  restartPolicy?: string;
  schedulerName?: string;
  securityContext?: {
    fsGroup?: number;
    runAsGroup?: number;
    runAsNonRoot?: boolean;
    runAsUser?: number;
    seLinuxOptions?: SELinuxOptions;
    supplementalGroups?: number[];
  };
  serviceAccount?: string;
  serviceAccountName?: string;
  shareProcessNamespace?: boolean;
  subdomain?: string;
  terminationGracePeriodSeconds?: number;
  tolerations?: Toleration[];
  volumes?: PodVolume[];
  /** Fields newer than the spec (e.g. readinessGates) pass through untyped. */
  [key: string]: unknown;
}

export interface PodCondition {
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  message?: string;
  reason?: string;
  status: string;
  type: string;
}

export interface ContainerState {
  running?: { startedAt?: string | null };
  terminated?: {
    containerID?: string;
    exitCode: number;
    finishedAt?: string | null;
    message?: string;
    reason?: string;
    signal?: number;
    startedAt?: string | null;
  };
  waiting?: { message?: string; reason?: string };
}

export interface ContainerStatus {
  containerID?: string;
  image?: string;
  imageID?: string;
  lastState?: ContainerState;
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: ContainerState;
  /** Fields newer than the spec (e.g. started) pass through untyped. */
  [key: string]: unknown;
}

export interface PodStatus {
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  hostIP?: string;
  initContainerStatuses?: ContainerStatus[];
  message?: string;
  nominatedNodeName?: string;
  phase?: string;
  podIP?: string;
  qosClass?: string;
  reason?: string;
  startTime?: string | null;
  /** Fields newer than the spec (e.g. podIPs) pass through untyped. */
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

// --- strategy -----------------------------------------------------------------------------------------------

const qosResources = ["cpu", "memory"];

/**
 * The QoS class fixed at creation, over containers and init containers, counting only cpu and memory
 * quantities above zero. A request missing where a limit is set counts as equal to the limit, which is what
 * pod defaulting fills in before kube-apiserver computes the class.
 */
export function computeQosClass(pod: Pod): "BestEffort" | "Burstable" | "Guaranteed" {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const spec = objectOf(pod.spec);
  for (const container of [...listOf<Container>(spec.containers), ...listOf<Container>(spec.initContainers)].map(objectOf)) {
    const resources = objectOf(container.resources);
    const containerLimits = objectOf(resources.limits) as Record<string, string>;
    const containerRequests = { ...containerLimits, ...(objectOf(resources.requests) as Record<string, string>) };
    for (const name of qosResources) {
      const request = name in containerRequests ? parseQuantityMilli(containerRequests[name]) : undefined;
      if (request !== undefined && request > 0n) requests.set(name, (requests.get(name) ?? 0n) + request);
    }
    let limitsFound = 0;
    for (const name of qosResources) {
      const limit = name in containerLimits ? parseQuantityMilli(containerLimits[name]) : undefined;
      if (limit !== undefined && limit > 0n) {
        limitsFound++;
        limits.set(name, (limits.get(name) ?? 0n) + limit);
      }
    }
    if (limitsFound < qosResources.length) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed) {
    for (const [name, request] of requests) {
      if (limits.get(name) !== request) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}

/** A quantity the decoder would refuse: container resources, emptyDir size limits, resourceFieldRef divisors. */
function decodeError(pod: Pod): string | undefined {
  const spec = objectOf(pod.spec);
  for (const c of [...listOf(spec.containers), ...listOf(spec.initContainers)].map(objectOf)) {
    const resources = objectOf(c.resources);
    const error = resourceListDecodeError(resources.limits) ?? resourceListDecodeError(resources.requests);
    if (error) return error;
    for (const env of listOf(c.env)) {
      const divisor = objectOf(objectOf(objectOf(env).valueFrom).resourceFieldRef).divisor;
      if (divisor !== undefined) {
        const divisorError = quantityDecodeError(divisor);
        if (divisorError) return divisorError;
      }
    }
  }
  for (const v of listOf(spec.volumes)) {
    const sizeLimit = objectOf(objectOf(v).emptyDir).sizeLimit;
    if (sizeLimit !== undefined) {
      const error = quantityDecodeError(sizeLimit);
      if (error) return error;
    }
  }
  return undefined;
}

/** Whatever status the client sent is replaced: a new pod is Pending with its QoS class. */
function prepareForCreate(pod: Pod): void {
  pod.status = { phase: "Pending", qosClass: computeQosClass(pod) };
}

const terminalPhases = new Set(["Succeeded", "Failed"]);

/**
 * Pods are deleted gracefully: the requested grace (negative counts as 1) or the pod's own
 * terminationGracePeriodSeconds (default 30); zero for a pod never scheduled or already finished, since no
 * kubelet has anything to stop.
 */
function gracePeriodSeconds(pod: Pod, requested: number | undefined): number {
  if (!pod.spec?.nodeName || terminalPhases.has(pod.status?.phase ?? "")) return 0;
  const period = requested ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  return period < 0 ? 1 : period;
}

// --- columns --------------------------------------------------------------------------------------------------

/** A sidecar: an init container that keeps running (restartPolicy Always) and counts towards Ready. */
const isRestartable = (container: Container | undefined) => container?.restartPolicy === "Always";

const hasTrueCondition = (pod: Pod, type: string) =>
  (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");

const finishedAt = (status: ContainerStatus) => {
  const at = status.lastState?.terminated?.finishedAt;
  return at ? Date.parse(at) || 0 : 0;
};

interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

/** kubectl's READY, STATUS and RESTARTS for a pod, folded from its container statuses. */
export function summarizePod(pod: Pod, now: number): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const initContainers = new Map((spec?.initContainers ?? []).map((c) => [c.name, c]));
  const total = (spec?.containers ?? []).length + (spec?.initContainers ?? []).filter(isRestartable).length;
  let ready = 0;
  let restarts = 0;
  let lastRestart = 0;
  let sidecarRestarts = 0;
  let lastSidecarRestart = 0;

  let reason = status.reason || status.phase || "";
  if ((status.conditions ?? []).some((c) => c.type === "PodScheduled" && c.reason === "SchedulingGated")) reason = "SchedulingGated";

  const initStatuses = status.initContainerStatuses ?? [];
  const initCount = (spec?.initContainers ?? []).length;
  let initializing = false;
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    const restartable = isRestartable(initContainers.get(container.name));
    restarts += container.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finishedAt(container));
    if (restartable) {
      sidecarRestarts += container.restartCount ?? 0;
      lastSidecarRestart = Math.max(lastSidecarRestart, finishedAt(container));
    }
    const terminated = container.state?.terminated;
    const waiting = container.state?.waiting;
    if (terminated && terminated.exitCode === 0) continue;
    if (restartable && container.started === true) {
      if (container.ready) ready++;
      continue;
    }
    if (terminated) {
      if (terminated.reason) reason = `Init:${terminated.reason}`;
      else reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
    } else if (waiting?.reason && waiting.reason !== "PodInitializing") {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || hasTrueCondition(pod, "Initialized")) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finishedAt(container));
      const { waiting, terminated, running } = container.state ?? {};
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
      else if (container.ready && running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === "Completed" && hasRunning) reason = hasTrueCondition(pod, "Ready") ? "Running" : "NotReady";
  }

  if (pod.metadata?.deletionTimestamp && status.reason === "NodeLost") reason = "Unknown";
  else if (pod.metadata?.deletionTimestamp && !terminalPhases.has(status.phase ?? "")) reason = "Terminating";

  const restartsText =
    restarts !== 0 && lastRestart !== 0 ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

function podIP(pod: Pod): string {
  const podIPs = pod.status?.podIPs;
  const first = Array.isArray(podIPs) ? (podIPs[0] as { ip?: string } | undefined)?.ip : undefined;
  return first || pod.status?.podIP || NONE;
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates;
  if (!Array.isArray(gates) || gates.length === 0) return NONE;
  const conditions = pod.status?.conditions ?? [];
  const passed = gates.filter((gate: { conditionType?: string }) => conditions.find((c) => c.type === gate.conditionType)?.status === "True");
  return `${passed.length}/${gates.length}`;
}

// --- declaration ----------------------------------------------------------------------------------------------

export const pod = defineKind<Pod>({
  kind: "Pod",
  schema: podSchema,
  plural: "pods",
  singular: "pod",
  shortNames: ["po"],
  categories: ["all"],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {
    "spec.nodeName": (p) => p.spec?.nodeName,
    // Old clients' name for spec.nodeName.
    "spec.host": (p) => p.spec?.nodeName,
    "spec.restartPolicy": (p) => p.spec?.restartPolicy,
    "spec.schedulerName": (p) => p.spec?.schedulerName,
    "spec.serviceAccountName": (p) => p.spec?.serviceAccountName,
    "spec.hostNetwork": (p) => String(p.spec?.hostNetwork === true),
    "status.phase": (p) => p.status?.phase,
    "status.podIP": (p) => {
      const ip = podIP(p);
      return ip === NONE ? undefined : ip;
    },
    // Accepted by kube-apiserver but absent from the pod's field set, so it only ever matches "".
    "status.podIPs": () => undefined,
    "status.nominatedNodeName": (p) => p.status?.nominatedNodeName,
  },
  fieldSelectorError: "label-not-supported",

  columns: [
    nameColumn,
    column<Pod>({ name: "Ready", description: "The aggregate readiness state of this pod for accepting traffic.", cell: (p, now) => summarizePod(p, now).ready }),
    column<Pod>({ name: "Status", description: "The aggregate status of the containers in this pod.", cell: (p, now) => summarizePod(p, now).status }),
    column<Pod>({
      name: "Restarts",
      description: "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
      cell: (p, now) => summarizePod(p, now).restarts,
    }),
    ageColumn,
    column<Pod>({ name: "IP", priority: 1, description: "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.", cell: podIP }),
    column<Pod>({
      name: "Node",
      priority: 1,
      description:
        "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
      cell: (p) => p.spec?.nodeName || NONE,
    }),
    column<Pod>({
      name: "Nominated Node",
      priority: 1,
      description:
        "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
      cell: (p) => p.status?.nominatedNodeName || NONE,
    }),
    column<Pod>({
      name: "Readiness Gates",
      priority: 1,
      description:
        "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
      cell: readinessGates,
    }),
  ],

  tableRowConditions: (p) => {
    if (p.status?.phase === "Succeeded") return [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }];
    if (p.status?.phase === "Failed") return [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }];
    return undefined;
  },

  template: {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web", labels: { app: "web" } },
    spec: {
      containers: [
        {
          name: "nginx",
          image: "nginx:1.27",
          ports: [{ name: "http", containerPort: 80, protocol: "TCP" }],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "256Mi" } },
        },
      ],
    },
  },

  decodeError,
  applyDefaults: applyPodDefaults,
  prepareForCreate,
  validate: validatePodCreate,
  validateUpdate: validatePodUpdate,
  gracePeriodSeconds,
});

// Pod (spec 2.13) with kube-apiserver's strategic-merge metadata (reference kinds.md 8.5): containers,
// initContainers and imagePullSecrets by name, volumes by name with retainKeys, hostAliases by ip,
// status.conditions by type; tolerations, affinity term lists, dnsConfig lists, supplementalGroups and container
// statuses atomic.
import {
  appArmorProfile, container, ephemeralContainer, resourceList, resourceRequirements, seccompProfile, seLinuxOptions, windowsSecurityContextOptions,
} from "./container";
import { labelSelector } from "./label-selector";
import { coreType } from "./names";
import { nodeSelector, nodeSelectorTerm } from "./node-selector";
import { localObjectReference } from "./object-reference";
import { arr, bool, describe, int, int64, map, obj, str, time } from "./schema";
import { resource } from "./resource";
import { podVolumeSources } from "./volume-source";

const podAffinityTerm = obj(
  {
    labelSelector: describe(labelSelector, "Pods this term is about."),
    namespaces: arr(str(), { description: "Namespaces the selector applies to; empty means the pod's own." }),
    topologyKey: str({ description: "Node label whose equal values define \"co-located\" (e.g. kubernetes.io/hostname)." }),
    // Newer than the spec (Kubernetes 1.32):
    matchLabelKeys: arr(str(), { description: "Label keys whose values (taken from this pod) are added to labelSelector as In requirements." }),
    mismatchLabelKeys: arr(str(), { description: "Label keys whose values (taken from this pod) are added to labelSelector as NotIn requirements." }),
    namespaceSelector: describe(labelSelector, "Namespaces the selector applies to, by label; ORed with namespaces."),
  },
  {
    name: coreType("PodAffinityTerm"),
    description: "Pods matching the selector in the namespaces, co-located (or not) with this pod on the topology key.",
    required: ["topologyKey"],
  },
);

const weightedPodAffinityTerm = obj(
  {
    podAffinityTerm: describe(podAffinityTerm, "The term."),
    weight: int({ description: "Weight of the term, 1-100." }),
  },
  { name: coreType("WeightedPodAffinityTerm"), description: "A preferred pod affinity term with its weight.", required: ["weight", "podAffinityTerm"] },
);

const podAffinityRules = (type: string, description: string, verb: string) =>
  obj(
    {
      preferredDuringSchedulingIgnoredDuringExecution: arr(weightedPodAffinityTerm, {
        description: `The scheduler prefers nodes where the weighted terms ${verb}; not enforced after scheduling.`,
      }),
      requiredDuringSchedulingIgnoredDuringExecution: arr(podAffinityTerm, {
        description: `The pod is only scheduled where all terms ${verb}; not enforced after scheduling.`,
      }),
    },
    { name: coreType(type), description },
  );

const affinity = obj(
  {
    nodeAffinity: obj(
      {
        preferredDuringSchedulingIgnoredDuringExecution: arr(
          obj(
            {
              preference: describe(nodeSelectorTerm, "The node selector term."),
              weight: int({ description: "Weight of the term, 1-100." }),
            },
            { name: coreType("PreferredSchedulingTerm"), description: "A preferred node selector term with its weight.", required: ["weight", "preference"] },
          ),
          { description: "The scheduler prefers nodes matching the weighted terms." },
        ),
        requiredDuringSchedulingIgnoredDuringExecution: describe(
          nodeSelector,
          "The pod is only scheduled onto nodes matching one of the terms; not enforced after scheduling.",
        ),
      },
      { name: coreType("NodeAffinity"), description: "Node affinity scheduling rules." },
    ),
    podAffinity: podAffinityRules("PodAffinity", "Co-locate this pod with other pods.", "match"),
    podAntiAffinity: podAffinityRules("PodAntiAffinity", "Keep this pod apart from other pods.", "do not match"),
  },
  { name: coreType("Affinity"), description: "Scheduling constraints." },
);

const toleration = obj(
  {
    effect: str({ description: "Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; empty matches all.", enum: ["NoExecute", "NoSchedule", "PreferNoSchedule"] }),
    key: str({ description: "Taint key to match; empty with operator Exists matches every taint." }),
    operator: str({ description: "Exists or Equal (default).", enum: ["Equal", "Exists"] }),
    tolerationSeconds: int64({ description: "For NoExecute: how long the pod stays bound after the taint appears; unset means forever." }),
    value: str({ description: "Taint value to match (Equal); empty with Exists." }),
  },
  { name: coreType("Toleration"), description: "Lets the pod schedule onto (and stay on) nodes with a matching taint." },
);

const volume = obj(
  {
    name: str({ description: "Name of the volume (DNS label), unique within the pod; volume mounts refer to it." }),
    ...podVolumeSources,
  },
  { name: coreType("Volume"), description: "A named volume the pod's containers can mount; exactly one source.", required: ["name"] },
);

const podSecurityContext = obj(
  {
    fsGroup: int64({ description: "Supplementary group owning the pod's volumes, added to every container's processes." }),
    runAsGroup: int64({ description: "GID for every container's entrypoint." }),
    runAsNonRoot: bool({ description: "Refuse to start containers whose image would run as UID 0." }),
    runAsUser: int64({ description: "UID for every container's entrypoint." }),
    seLinuxOptions: describe(seLinuxOptions, "SELinux context for all containers."),
    supplementalGroups: arr(int64(), { description: "Groups added to the first process of every container." }),
    // Newer than the spec (Kubernetes 1.32):
    appArmorProfile: describe(appArmorProfile, "AppArmor profile for all containers."),
    fsGroupChangePolicy: str({ description: "OnRootMismatch or Always: when volume ownership is changed to fsGroup." }),
    seLinuxChangePolicy: str({ description: "Recursive or MountOption: how volumes get the pod's SELinux label." }),
    seccompProfile: describe(seccompProfile, "Seccomp profile for all containers."),
    supplementalGroupsPolicy: str({ description: "Merge (default) or Strict: whether groups from the image's /etc/group are added." }),
    sysctls: arr(
      obj(
        { name: str({ description: "Name of the sysctl." }), value: str({ description: "Value to set." }) },
        { name: coreType("Sysctl"), description: "A kernel parameter.", required: ["name", "value"] },
      ),
      { description: "Namespaced kernel parameters set for the pod." },
    ),
    windowsOptions: describe(windowsSecurityContextOptions, "Windows-specific settings for all containers."),
  },
  { name: coreType("PodSecurityContext"), description: "Pod-level security attributes; containers may override some." },
);

const podSpec = obj(
  {
    activeDeadlineSeconds: int64({ description: "Seconds the pod may run (from its start) before the system kills it." }),
    affinity: describe(affinity, "Scheduling constraints."),
    automountServiceAccountToken: bool({ description: "Whether a service account token is mounted automatically." }),
    containers: arr(container, {
      mergeKey: "name",
      strategy: "merge",
      description: "Containers of the pod; at least one. Cannot be added or removed after creation.",
    }),
    dnsConfig: obj(
      {
        nameservers: arr(str(), { description: "DNS server IPs, appended to those of dnsPolicy." }),
        options: arr(
          obj(
            { name: str({ description: "Option name." }), value: str({ description: "Option value." }) },
            { name: coreType("PodDNSConfigOption"), description: "A resolver option." },
          ),
          { description: "Resolver options, merged with those of dnsPolicy." },
        ),
        searches: arr(str(), { description: "DNS search domains, appended to those of dnsPolicy." }),
      },
      { name: coreType("PodDNSConfig"), description: "DNS settings beyond those dnsPolicy generates." },
    ),
    dnsPolicy: str({
      description: "ClusterFirst (default), ClusterFirstWithHostNet, Default (the node's) or None (only dnsConfig).",
      enum: ["ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"],
    }),
    hostAliases: arr(
      obj(
        {
          hostnames: arr(str(), { description: "Hostnames for the IP." }),
          ip: str({ description: "IP address of the host file entry." }),
        },
        { name: coreType("HostAlias"), description: "An /etc/hosts entry." },
      ),
      { mergeKey: "ip", strategy: "merge", description: "Entries added to the pod's /etc/hosts." },
    ),
    hostIPC: bool({ description: "Use the host's IPC namespace. Defaults to false." }),
    hostNetwork: bool({ description: "Use the host's network namespace; ports must then be specified. Defaults to false." }),
    hostPID: bool({ description: "Use the host's process namespace. Defaults to false." }),
    hostname: str({ description: "Hostname of the pod; defaults to the pod name." }),
    imagePullSecrets: arr(localObjectReference, {
      mergeKey: "name",
      strategy: "merge",
      description: "Secrets in the pod's namespace used to pull the containers' images.",
    }),
    initContainers: arr(container, {
      mergeKey: "name",
      strategy: "merge",
      description: "Containers run one after another to completion before the app containers start.",
    }),
    nodeName: str({ description: "Node the pod is bound to; the scheduler sets it when empty." }),
    nodeSelector: map(str(), { mapType: "atomic", description: "Labels a node must have for the pod to be scheduled onto it." }),
    priority: int({ description: "Priority value, filled from priorityClassName by admission." }),
    priorityClassName: str({ description: "Name of the PriorityClass giving the pod's priority." }),
    restartPolicy: str({ description: "Always (default), OnFailure or Never; applies to every container.", enum: ["Always", "Never", "OnFailure"] }),
    schedulerName: str({ description: "Scheduler to dispatch the pod; defaults to default-scheduler." }),
    securityContext: describe(podSecurityContext, "Pod-level security attributes and common container settings."),
    serviceAccount: str({ description: "Deprecated alias of serviceAccountName." }),
    serviceAccountName: str({ description: "ServiceAccount the pod runs as." }),
    shareProcessNamespace: bool({ description: "Put all containers in one process namespace." }),
    subdomain: str({ description: "Makes the FQDN <hostname>.<subdomain>.<namespace>.svc.<cluster domain>." }),
    terminationGracePeriodSeconds: int64({ description: "Seconds between the termination signal and the kill on deletion. Defaults to 30." }),
    tolerations: arr(toleration, { description: "Taints the pod tolerates." }),
    volumes: arr(volume, {
      mergeKey: "name",
      strategy: "merge,retainKeys",
      description: "Volumes the pod's containers can mount.",
    }),
    // Newer than the spec (Kubernetes 1.32):
    enableServiceLinks: bool({ description: "Inject environment variables for the Services in the namespace (docker links style). Defaults to true." }),
    ephemeralContainers: arr(ephemeralContainer, {
      mergeKey: "name",
      strategy: "merge",
      description: "Debugging containers added to the running pod (through the ephemeralcontainers subresource).",
    }),
    hostUsers: bool({ description: "Use the host's user namespace. Defaults to true." }),
    os: obj(
      { name: str({ description: "linux or windows." }) },
      { name: coreType("PodOS"), description: "Operating system the pod's containers need.", required: ["name"] },
    ),
    overhead: resourceList("Resources the runtime class adds to the pod's own, set by admission."),
    preemptionPolicy: str({ description: "PreemptLowerPriority (default) or Never." }),
    readinessGates: arr(
      obj(
        { conditionType: str({ description: "A condition type that must be True for the pod to be ready." }) },
        { name: coreType("PodReadinessGate"), description: "An extra readiness condition.", required: ["conditionType"] },
      ),
      { description: "Extra conditions the pod needs to be ready." },
    ),
    resourceClaims: arr(
      obj(
        {
          name: str({ description: "Name of the claim within the pod." }),
          resourceClaimName: str({ description: "An existing ResourceClaim in the namespace." }),
          resourceClaimTemplateName: str({ description: "A ResourceClaimTemplate to create a claim from." }),
        },
        { name: coreType("PodResourceClaim"), description: "A dynamic resource claim of the pod.", required: ["name"] },
      ),
      { mergeKey: "name", strategy: "merge,retainKeys", description: "Dynamic resources the pod needs." },
    ),
    resources: describe(resourceRequirements, "Resources for the whole pod (pod-level limits and requests)."),
    runtimeClassName: str({ description: "RuntimeClass to run the pod with." }),
    schedulingGates: arr(
      obj(
        { name: str({ description: "Name of the gate." }) },
        { name: coreType("PodSchedulingGate"), description: "A gate holding the pod back from scheduling.", required: ["name"] },
      ),
      { mergeKey: "name", strategy: "merge", description: "While any gate remains, the pod is not scheduled." },
    ),
    setHostnameAsFQDN: bool({ description: "Make the kernel hostname the pod's fully qualified domain name." }),
    topologySpreadConstraints: arr(
      obj(
        {
          labelSelector: describe(labelSelector, "Pods counted in each topology domain."),
          matchLabelKeys: arr(str(), { description: "Label keys whose values (from this pod) narrow the selector." }),
          maxSkew: int({ description: "Largest allowed difference in matching pods between domains." }),
          minDomains: int({ description: "Least number of eligible domains." }),
          nodeAffinityPolicy: str({ description: "Honor (default) or Ignore the pod's node affinity when counting." }),
          nodeTaintsPolicy: str({ description: "Honor or Ignore (default) node taints when counting." }),
          topologyKey: str({ description: "Node label defining the domains." }),
          whenUnsatisfiable: str({ description: "DoNotSchedule or ScheduleAnyway." }),
        },
        {
          name: coreType("TopologySpreadConstraint"),
          description: "How to spread matching pods across topology domains.",
          required: ["maxSkew", "topologyKey", "whenUnsatisfiable"],
        },
      ),
      {
        mergeKey: "topologyKey",
        strategy: "merge",
        listMapKeys: ["topologyKey", "whenUnsatisfiable"],
        description: "How the pod's group spreads across zones, nodes and other domains.",
      },
    ),
  },
  { name: coreType("PodSpec"), description: "Desired state of a pod.", required: ["containers"] },
);

const containerState = obj(
  {
    running: obj(
      { startedAt: time({ description: "When the container last (re)started." }) },
      { name: coreType("ContainerStateRunning"), description: "A running container." },
    ),
    terminated: obj(
      {
        containerID: str({ description: "Container ID in the runtime, <type>://<id>." }),
        exitCode: int({ description: "Exit status of the last termination." }),
        finishedAt: time({ description: "When the container last terminated." }),
        message: str({ description: "Message about the last termination." }),
        reason: str({ description: "Short reason for the last termination, e.g. Completed, Error, OOMKilled." }),
        signal: int({ description: "Signal of the last termination." }),
        startedAt: time({ description: "When the previous run started." }),
      },
      { name: coreType("ContainerStateTerminated"), description: "A terminated container.", required: ["exitCode"] },
    ),
    waiting: obj(
      {
        message: str({ description: "Why the container is not running yet." }),
        reason: str({ description: "Short reason, e.g. ContainerCreating, CrashLoopBackOff, ImagePullBackOff." }),
      },
      { name: coreType("ContainerStateWaiting"), description: "A container that is not running yet." },
    ),
  },
  { name: coreType("ContainerState"), description: "State of a container: exactly one of running, terminated, waiting." },
);

const containerStatus = obj(
  {
    containerID: str({ description: "Container ID in the runtime, <type>://<id>." }),
    image: str({ description: "Image the container runs." }),
    imageID: str({ description: "ID of the image the container runs." }),
    lastState: describe(containerState, "State of the previous termination, if any."),
    name: str({ description: "Name of the container (as in the spec)." }),
    ready: bool({ description: "Whether the container passes its readiness probe." }),
    restartCount: int({ description: "How often the container has been restarted." }),
    state: describe(containerState, "Current state of the container."),
    // Newer than the spec (Kubernetes 1.32):
    allocatedResources: resourceList("Resources the node allocated to the container."),
    allocatedResourcesStatus: arr(
      obj(
        {
          name: str({ description: "Resource name." }),
          resources: arr(
            obj(
              {
                health: str({ description: "Healthy, Unhealthy or Unknown." }),
                resourceID: str({ description: "ID of the device." }),
              },
              { name: coreType("ResourceHealth"), description: "Health of one device.", required: ["resourceID"] },
            ),
            { listType: "map", listMapKeys: ["resourceID"], description: "Health per device." },
          ),
        },
        { name: coreType("ResourceStatus"), description: "Health of the devices of one resource.", required: ["name"] },
      ),
      { mergeKey: "name", strategy: "merge", description: "Health of allocated devices." },
    ),
    resources: describe(resourceRequirements, "Resources actually configured for the running container."),
    started: bool({ description: "Whether the container has passed its startup probe." }),
    user: obj(
      {
        linux: obj(
          {
            gid: int64({ description: "Primary GID of the first process." }),
            supplementalGroups: arr(int64(), { description: "Supplementary GIDs of the first process." }),
            uid: int64({ description: "UID of the first process." }),
          },
          { name: coreType("LinuxContainerUser"), description: "Linux identity of the first process.", required: ["uid", "gid"] },
        ),
      },
      { name: coreType("ContainerUser"), description: "Identity the container's first process runs as." },
    ),
    volumeMounts: arr(
      obj(
        {
          mountPath: str({ description: "Path of the mount in the container." }),
          name: str({ description: "Name of the volume." }),
          readOnly: bool({ description: "Whether the mount is read-only." }),
          recursiveReadOnly: str({ description: "Disabled or Enabled." }),
        },
        { name: coreType("VolumeMountStatus"), description: "Status of one volume mount.", required: ["name", "mountPath"] },
      ),
      { mergeKey: "mountPath", strategy: "merge", description: "Status of the container's volume mounts." },
    ),
  },
  { name: coreType("ContainerStatus"), description: "Status of one container.", required: ["name", "ready", "restartCount", "image", "imageID"] },
);

const podIP = (type: string, description: string) =>
  obj({ ip: str({ description: "The IP address." }) }, { name: coreType(type), description, required: ["ip"] });

const podCondition = obj(
  {
    lastProbeTime: time({ description: "When the condition was last probed." }),
    lastTransitionTime: time({ description: "When the status last changed." }),
    message: str({ description: "Human-readable details of the last transition." }),
    reason: str({ description: "Short reason for the last transition." }),
    status: str({ description: "True, False or Unknown.", enum: ["False", "True", "Unknown"] }),
    type: str({ description: "Condition type: PodScheduled, Initialized, ContainersReady, Ready, ..." }),
  },
  { name: coreType("PodCondition"), description: "One condition of a pod.", required: ["type", "status"] },
);

const podStatus = obj(
  {
    conditions: arr(podCondition, { mergeKey: "type", strategy: "merge", description: "Current service state of the pod." }),
    containerStatuses: arr(containerStatus, { description: "Status of each container, one entry per container in the spec." }),
    hostIP: str({ description: "IP of the node the pod is bound to; empty until then." }),
    initContainerStatuses: arr(containerStatus, { description: "Status of each init container." }),
    message: str({ description: "Human-readable reason the pod is in its state." }),
    nominatedNodeName: str({ description: "Node the scheduler expects the pod to run on after preempting others." }),
    phase: str({
      description: "Where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.",
      enum: ["Failed", "Pending", "Running", "Succeeded", "Unknown"],
    }),
    podIP: str({ description: "IP address of the pod; empty until allocated." }),
    qosClass: str({ description: "Quality of service class from the resource requirements: Guaranteed, Burstable, BestEffort.", enum: ["BestEffort", "Burstable", "Guaranteed"] }),
    reason: str({ description: "Short reason the pod is in its state, e.g. Evicted." }),
    startTime: time({ description: "When the kubelet acknowledged the pod, before pulling images." }),
    // Newer than the spec (Kubernetes 1.32):
    ephemeralContainerStatuses: arr(containerStatus, { description: "Status of each ephemeral container." }),
    hostIPs: arr(podIP("HostIP", "An IP address of the pod's node."), {
      mergeKey: "ip",
      strategy: "merge",
      listType: "atomic",
      description: "IPs of the node; the first equals hostIP.",
    }),
    podIPs: arr(podIP("PodIP", "An IP address of the pod."), { mergeKey: "ip", strategy: "merge", description: "IPs of the pod (one per family); the first equals podIP." }),
    resize: str({ description: "State of a requested resize: Proposed, InProgress, Deferred or Infeasible." }),
    resourceClaimStatuses: arr(
      obj(
        {
          name: str({ description: "Name of the claim in spec.resourceClaims." }),
          resourceClaimName: str({ description: "Name of the ResourceClaim created for it." }),
        },
        { name: coreType("PodResourceClaimStatus"), description: "Which ResourceClaim backs a pod claim.", required: ["name"] },
      ),
      { mergeKey: "name", strategy: "merge,retainKeys", description: "ResourceClaims created for the pod's claims." },
    ),
  },
  { name: coreType("PodStatus"), description: "Most recently observed state of a pod; may lag behind reality." },
);

export const podSchema = resource(
  "Pod",
  {
    spec: describe(podSpec, "Desired behaviour of the pod."),
    status: describe(podStatus, "Most recently observed state of the pod. Read-only for clients; written through /status."),
  },
  { description: "A group of containers that run together on one host, created by clients and scheduled onto nodes." },
);

// Container shape of spec 2.13 (`spec.containers`, `spec.initContainers`) with its merge keys:
// env by name, ports by containerPort, volumeMounts by mountPath, volumeDevices by devicePath; command, args,
// envFrom, capabilities and httpHeaders are atomic.
import { coreType } from "./names";
import { arr, bool, describe, int, int64, intOrString, map, obj, quantity, str } from "./schema";

/** A map of resource name (cpu, memory, storage, ...) to a quantity. */
export const resourceList = (description: string) => map(quantity(), { description });

export const seLinuxOptions = obj(
  {
    level: str({ description: "SELinux level label." }),
    role: str({ description: "SELinux role label." }),
    type: str({ description: "SELinux type label." }),
    user: str({ description: "SELinux user label." }),
  },
  { name: coreType("SELinuxOptions"), description: "SELinux labels applied to a container." },
);

export const objectFieldSelector = obj(
  {
    apiVersion: str({ description: "Version of the schema fieldPath is written in; defaults to v1." }),
    fieldPath: str({ description: "Path of the field to select, e.g. `metadata.name` or `status.podIP`." }),
  },
  { name: coreType("ObjectFieldSelector"), description: "Selects a field of the pod.", required: ["fieldPath"] },
);

export const resourceFieldSelector = obj(
  {
    containerName: str({ description: "Container whose resources are read; required for volumes, optional for env vars." }),
    divisor: quantity({ description: "Unit the value is divided by before it is exposed; defaults to 1." }),
    resource: str({ description: "Resource to select, e.g. limits.cpu or requests.memory." }),
  },
  { name: coreType("ResourceFieldSelector"), description: "Selects a container's resource limit or request.", required: ["resource"] },
);

const keySelector = (type: string, what: string) =>
  obj(
    {
      key: str({ description: `Key in the ${what} to read.` }),
      name: str({ description: `Name of the ${what}.` }),
      optional: bool({ description: `Whether the ${what} or its key may be missing.` }),
    },
    { name: coreType(type), description: `Selects one key of a ${what}.`, required: ["key"] },
  );

export const envVar = obj(
  {
    name: str({ description: "Name of the environment variable (a C identifier)." }),
    value: str({
      description: "Value of the variable. `$(VAR)` references to earlier variables are expanded; `$$(VAR)` escapes. Defaults to \"\".",
    }),
    valueFrom: obj(
      {
        configMapKeyRef: keySelector("ConfigMapKeySelector", "ConfigMap"),
        fieldRef: describe(objectFieldSelector, "A field of the pod: metadata.name, metadata.namespace, metadata.labels['<k>'], spec.nodeName, status.podIP, ..."),
        resourceFieldRef: describe(resourceFieldSelector, "A resource limit or request of a container."),
        secretKeyRef: keySelector("SecretKeySelector", "Secret"),
      },
      { name: coreType("EnvVarSource"), description: "Where the value comes from, instead of `value`." },
    ),
  },
  { name: coreType("EnvVar"), description: "An environment variable of a container.", required: ["name"] },
);

const envSource = (type: string, what: string) =>
  obj(
    {
      name: str({ description: `Name of the ${what}.` }),
      optional: bool({ description: `Whether the ${what} may be missing.` }),
    },
    { name: coreType(type), description: `Every key of a ${what} becomes an environment variable.` },
  );

export const envFromSource = obj(
  {
    configMapRef: envSource("ConfigMapEnvSource", "ConfigMap"),
    prefix: str({ description: "Prefix added to every variable name." }),
    secretRef: envSource("SecretEnvSource", "Secret"),
  },
  { name: coreType("EnvFromSource"), description: "A source of a set of environment variables." },
);

const execAction = obj(
  {
    command: arr(str(), {
      description: "Command line to run inside the container (not in a shell); exit status 0 means success.",
    }),
  },
  { name: coreType("ExecAction"), description: "Runs a command in the container." },
);

const httpGetAction = obj(
  {
    host: str({ description: "Host to connect to; defaults to the pod IP." }),
    httpHeaders: arr(
      obj(
        { name: str({ description: "Header name." }), value: str({ description: "Header value." }) },
        { name: coreType("HTTPHeader"), description: "One HTTP header.", required: ["name", "value"] },
      ),
      { description: "Extra request headers." },
    ),
    path: str({ description: "Path to request." }),
    port: intOrString({ description: "Port number or name (IANA_SVC_NAME) to connect to." }),
    scheme: str({ description: "HTTP or HTTPS; defaults to HTTP.", enum: ["HTTP", "HTTPS"] }),
  },
  { name: coreType("HTTPGetAction"), description: "An HTTP GET request; a status from 200 to 399 means success.", required: ["port"] },
);

const tcpSocketAction = obj(
  {
    host: str({ description: "Host to connect to; defaults to the pod IP." }),
    port: intOrString({ description: "Port number or name to connect to." }),
  },
  { name: coreType("TCPSocketAction"), description: "Opens a TCP connection; success when it connects.", required: ["port"] },
);

const handlerProperties = {
  exec: execAction,
  httpGet: httpGetAction,
  tcpSocket: tcpSocketAction,
};

const lifecycleHandler = obj({
  ...handlerProperties,
  // Newer than the spec (Kubernetes 1.32):
  sleep: obj(
    { seconds: int64({ description: "Seconds to sleep." }) },
    { name: coreType("SleepAction"), description: "Sleeps for a while.", required: ["seconds"] },
  ),
}, {
  name: coreType("LifecycleHandler"),
  description: "An action run at a container lifecycle event; exactly one of exec, httpGet, tcpSocket.",
});

export const probe = obj(
  {
    ...handlerProperties,
    failureThreshold: int({ description: "Consecutive failures after which the probe counts as failed. Defaults to 3." }),
    initialDelaySeconds: int({ description: "Seconds after the container starts before the first probe." }),
    periodSeconds: int({ description: "Seconds between probes. Defaults to 10." }),
    successThreshold: int({ description: "Consecutive successes after a failure for the probe to count as passed. Defaults to 1." }),
    timeoutSeconds: int({ description: "Seconds after which one probe attempt times out. Defaults to 1." }),
    // Newer than the spec (Kubernetes 1.32):
    grpc: obj(
      {
        port: int({ description: "Port of the gRPC health service." }),
        service: str({ description: "Service name sent in the gRPC HealthCheckRequest; empty checks the server as a whole." }),
      },
      { name: coreType("GRPCAction"), description: "A gRPC health check.", required: ["port"] },
    ),
    terminationGracePeriodSeconds: int64({ description: "Grace period for a container killed because this probe failed; overrides the pod's." }),
  },
  { name: coreType("Probe"), description: "A health check run periodically against a container." },
);

export const containerPort = obj(
  {
    containerPort: int({ description: "Port the container listens on (1-65535)." }),
    hostIP: str({ description: "Host IP to bind the host port to." }),
    hostPort: int({ description: "Port on the node to expose the container port on; most pods leave it unset." }),
    name: str({ description: "Name of the port (IANA_SVC_NAME), unique within the pod; Services can refer to it." }),
    protocol: str({ description: "TCP, UDP or SCTP. Defaults to TCP.", enum: ["SCTP", "TCP", "UDP"] }),
  },
  { name: coreType("ContainerPort"), description: "A network port of a container.", required: ["containerPort"] },
);

export const resourceRequirements = obj(
  {
    limits: resourceList("Maximum amount of each resource the container may use."),
    requests: resourceList("Amount of each resource the container is guaranteed; defaults to the limits when unset."),
    // Newer than the spec (Kubernetes 1.32):
    claims: arr(
      obj(
        {
          name: str({ description: "Name of an entry in the pod's resourceClaims." }),
          request: str({ description: "One request of that claim; empty for all of it." }),
        },
        { name: coreType("ResourceClaim"), description: "A dynamic resource claim the container uses.", required: ["name"] },
      ),
      { listType: "map", listMapKeys: ["name"], description: "Dynamic resource claims (from the pod's resourceClaims) the container uses." },
    ),
  },
  { name: coreType("ResourceRequirements"), description: "Compute resources (cpu, memory, ...) of a container." },
);

const localhostProfile = str({ description: "Profile file on the node (type Localhost only)." });

export const seccompProfile = obj(
  { localhostProfile, type: str({ description: "RuntimeDefault, Unconfined or Localhost." }) },
  { name: coreType("SeccompProfile"), description: "A seccomp profile.", required: ["type"] },
);

export const appArmorProfile = obj(
  { localhostProfile, type: str({ description: "RuntimeDefault, Unconfined or Localhost." }) },
  { name: coreType("AppArmorProfile"), description: "An AppArmor profile.", required: ["type"] },
);

export const windowsSecurityContextOptions = obj(
  {
    gmsaCredentialSpec: str({ description: "Contents of the GMSA credential spec." }),
    gmsaCredentialSpecName: str({ description: "Name of the GMSA credential spec." }),
    hostProcess: bool({ description: "Run as a Windows HostProcess container." }),
    runAsUserName: str({ description: "Windows user name to run the entrypoint as." }),
  },
  { name: coreType("WindowsSecurityContextOptions"), description: "Windows-specific security settings." },
);

export const containerSecurityContext = obj(
  {
    allowPrivilegeEscalation: bool({ description: "Whether a process may gain more privileges than its parent (no_new_privs)." }),
    capabilities: obj(
      {
        add: arr(str(), { description: "Capabilities to add." }),
        drop: arr(str(), { description: "Capabilities to drop." }),
      },
      { name: coreType("Capabilities"), description: "POSIX capabilities to add to or drop from the container runtime's default set." },
    ),
    privileged: bool({ description: "Run the container privileged (root on the host, all devices). Defaults to false." }),
    readOnlyRootFilesystem: bool({ description: "Mount the container's root filesystem read-only. Defaults to false." }),
    runAsGroup: int64({ description: "GID for the container's entrypoint; overrides the pod's setting." }),
    runAsNonRoot: bool({ description: "Refuse to start the container if its image would run as UID 0." }),
    runAsUser: int64({ description: "UID for the container's entrypoint; overrides the pod's setting." }),
    seLinuxOptions: describe(seLinuxOptions, "SELinux context for the container; overrides the pod's setting."),
    // Newer than the spec (Kubernetes 1.32):
    appArmorProfile: describe(appArmorProfile, "AppArmor profile of the container; overrides the pod's."),
    procMount: str({ description: "Default or Unmasked /proc mount." }),
    seccompProfile: describe(seccompProfile, "Seccomp profile of the container; overrides the pod's."),
    windowsOptions: describe(windowsSecurityContextOptions, "Windows-specific settings; overrides the pod's."),
  },
  { name: coreType("SecurityContext"), description: "Security options of one container; they override the pod's securityContext." },
);

export const volumeMount = obj(
  {
    mountPath: str({ description: "Path inside the container to mount the volume at; may not contain ':'." }),
    mountPropagation: str({ description: "How mounts propagate between host and container: None, HostToContainer or Bidirectional." }),
    name: str({ description: "Name of the pod volume to mount." }),
    readOnly: bool({ description: "Mount read-only. Defaults to false." }),
    subPath: str({ description: "Path inside the volume to mount instead of its root." }),
    // Newer than the spec (Kubernetes 1.32):
    recursiveReadOnly: str({ description: "Disabled, IfPossible or Enabled: make a read-only mount read-only all the way down." }),
    subPathExpr: str({ description: "Like subPath, with $(VAR) references to the container's environment expanded." }),
  },
  { name: coreType("VolumeMount"), description: "Mounts a pod volume into the container.", required: ["name", "mountPath"] },
);

export const volumeDevice = obj(
  {
    devicePath: str({ description: "Path inside the container the block device appears at." }),
    name: str({ description: "Name of a persistentVolumeClaim volume of the pod." }),
  },
  { name: coreType("VolumeDevice"), description: "Maps a raw block volume into the container.", required: ["name", "devicePath"] },
);

const containerProperties = {
  args: arr(str(), {
    description: "Arguments to the entrypoint; replace the image's CMD. `$(VAR)` references to container variables are expanded.",
  }),
  command: arr(str(), {
    description: "Entrypoint array, run without a shell; replaces the image's ENTRYPOINT. `$(VAR)` references are expanded.",
  }),
  env: arr(envVar, { mergeKey: "name", strategy: "merge", description: "Environment variables to set in the container." }),
  envFrom: arr(envFromSource, {
    description: "Sources whose keys all become environment variables; `env` wins on conflicts.",
  }),
  image: str({ description: "Container image name, e.g. nginx:1.27 or registry.example.com/app@sha256:..." }),
  imagePullPolicy: str({
    description: "When to pull the image: Always, Never or IfNotPresent. Defaults to Always for the :latest tag, else IfNotPresent.",
    enum: ["Always", "IfNotPresent", "Never"],
  }),
  lifecycle: obj(
    {
      postStart: describe(lifecycleHandler, "Run right after the container is created; on failure the container is restarted."),
      preStop: describe(lifecycleHandler, "Run before the container is terminated; the grace period keeps counting."),
    },
    { name: coreType("Lifecycle"), description: "Actions the system runs at container lifecycle events." },
  ),
  livenessProbe: describe(probe, "Periodic check of container liveness; the container is restarted when it fails."),
  name: str({ description: "Name of the container (a DNS label), unique within the pod. Cannot be changed." }),
  ports: arr(containerPort, {
    mergeKey: "containerPort",
    strategy: "merge",
    listMapKeys: ["containerPort", "protocol"],
    description: "Ports the container exposes; informational (any port the process listens on is reachable).",
  }),
  readinessProbe: describe(probe, "Periodic check of readiness; a failing container is removed from Service endpoints."),
  resources: describe(resourceRequirements, "Compute resources the container needs and may use."),
  securityContext: describe(containerSecurityContext, "Security options of this container."),
  stdin: bool({ description: "Keep a stdin buffer open for the container. Defaults to false." }),
  stdinOnce: bool({ description: "Close stdin after the first attached client disconnects. Defaults to false." }),
  terminationMessagePath: str({ description: "File the container's termination message is read from. Defaults to /dev/termination-log." }),
  terminationMessagePolicy: str({
    description: "File (only the message file) or FallbackToLogsOnError (the log tail when the file is empty on error). Defaults to File.",
    enum: ["FallbackToLogsOnError", "File"],
  }),
  tty: bool({ description: "Allocate a TTY; needs stdin too. Defaults to false." }),
  volumeDevices: arr(volumeDevice, { mergeKey: "devicePath", strategy: "merge", description: "Raw block devices the container uses." }),
  volumeMounts: arr(volumeMount, { mergeKey: "mountPath", strategy: "merge", description: "Pod volumes to mount into the container's filesystem." }),
  workingDir: str({ description: "Working directory; defaults to the image's." }),
  // Newer than the spec (Kubernetes 1.32):
  resizePolicy: arr(
    obj(
      {
        resourceName: str({ description: "Resource the policy is for: cpu or memory." }),
        restartPolicy: str({ description: "NotRequired (default) or RestartContainer when the resource is resized." }),
      },
      { name: coreType("ContainerResizePolicy"), description: "What resizing a resource does to the container.", required: ["resourceName", "restartPolicy"] },
    ),
    { description: "Resize policies per resource." },
  ),
  restartPolicy: str({ description: "Init containers only: Always makes it a sidecar that keeps running next to the app containers." }),
  startupProbe: describe(probe, "Check that the container has started; other probes wait until it succeeds, and failing restarts the container."),
};

export const container = obj(containerProperties, {
  name: coreType("Container"),
  description: "A single application container run in a pod.",
  required: ["name"],
});

export const ephemeralContainer = obj(
  {
    ...containerProperties,
    targetContainerName: str({ description: "Container whose process namespace this one joins, if the runtime supports it." }),
  },
  { name: coreType("EphemeralContainer"), description: "A temporary container added to a running pod for debugging (kubectl debug).", required: ["name"] },
);

import { describe, expect, it } from "vitest";
import { pod, type Pod } from "./pod";
import type { Container } from "./shared/container";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<Pod>(pod);
const spec = (p: Pod) => p.spec!;
const c0 = (p: Pod) => p.spec!.containers[0];
const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const sidecar = (c: Partial<Container>): Container => ({ name: "init", image: "busybox", ...c });

const rows: Row<Pod>[] = [
  // Containers
  ["no containers", (p) => { spec(p).containers = []; }, { field: "spec.containers", reason: "FieldValueRequired", message: "Required value" }],
  ["a container name that is not a label", (p) => { c0(p).name = "Web_1"; },
    { field: "spec.containers[0].name", reason: "FieldValueInvalid", message: `Invalid value: "Web_1": ${labelMsg}` }],
  ["a container without a name", (p) => { c0(p).name = ""; }, { field: "spec.containers[0].name", reason: "FieldValueRequired", message: "Required value" }],
  ["two containers with one name", (p) => { spec(p).containers.push({ name: "nginx", image: "busybox" }); },
    { field: "spec.containers[1].name", reason: "FieldValueDuplicate", message: 'Duplicate value: "nginx"' }],
  ["an init container named like a container", (p) => { spec(p).initContainers = [sidecar({ name: "nginx" })]; },
    { field: "spec.initContainers[0].name", reason: "FieldValueDuplicate", message: 'Duplicate value: "nginx"' }],
  ["a container without an image", (p) => { c0(p).image = ""; }, { field: "spec.containers[0].image", reason: "FieldValueRequired", message: "Required value" }],
  ["an image with a trailing space", (p) => { c0(p).image = "nginx "; },
    { field: "spec.containers[0].image", reason: "FieldValueInvalid", message: 'Invalid value: "nginx ": must not have leading or trailing whitespace' }],
  ["an unknown pull policy", (p) => { c0(p).imagePullPolicy = "Sometimes"; },
    { field: "spec.containers[0].imagePullPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"' }],
  ["an unknown termination message policy", (p) => { c0(p).terminationMessagePolicy = "Logs"; },
    { field: "spec.containers[0].terminationMessagePolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Logs": supported values: "File", "FallbackToLogsOnError"' }],
  ["a restartPolicy on a regular container", (p) => { c0(p).restartPolicy = "Always"; },
    { field: "spec.containers[0].restartPolicy", reason: "FieldValueForbidden", message: "Forbidden: may not be set for non-init containers" }],
  // Ports
  ["a container port of 0", (p) => { c0(p).ports = [{ containerPort: 0 }]; },
    { field: "spec.containers[0].ports[0].containerPort", reason: "FieldValueRequired", message: "Required value" }],
  ["a container port out of range", (p) => { c0(p).ports = [{ containerPort: 70000 }]; },
    { field: "spec.containers[0].ports[0].containerPort", reason: "FieldValueInvalid", message: "Invalid value: 70000: must be between 1 and 65535, inclusive" }],
  ["a port name longer than 15", (p) => { c0(p).ports = [{ name: "a-very-long-port-name", containerPort: 80 }]; },
    { field: "spec.containers[0].ports[0].name", reason: "FieldValueInvalid", message: 'Invalid value: "a-very-long-port-name": must be no more than 15 characters' }],
  ["a port name without letters", (p) => { c0(p).ports = [{ name: "8080", containerPort: 80 }]; },
    { field: "spec.containers[0].ports[0].name", reason: "FieldValueInvalid", message: 'Invalid value: "8080": must contain at least one letter (a-z)' }],
  ["two ports with one name", (p) => { c0(p).ports = [{ name: "web", containerPort: 80 }, { name: "web", containerPort: 81 }]; },
    { field: "spec.containers[0].ports[1].name", reason: "FieldValueDuplicate", message: 'Duplicate value: "web"' }],
  ["an unknown port protocol", (p) => { c0(p).ports = [{ containerPort: 80, protocol: "ICMP" }]; },
    { field: "spec.containers[0].ports[0].protocol", reason: "FieldValueNotSupported", message: 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"' }],
  ["one host port used twice", (p) => {
    c0(p).ports = [{ containerPort: 80, hostPort: 8080 }];
    spec(p).containers.push({ name: "other", image: "busybox", ports: [{ containerPort: 81, hostPort: 8080 }] });
  }, { field: "spec.containers[1].ports[0].hostPort", reason: "FieldValueDuplicate", message: 'Duplicate value: "TCP//8080"' }],
  ["a host port unlike the container port on the host network", (p) => { spec(p).hostNetwork = true; c0(p).ports = [{ containerPort: 80, hostPort: 8080 }]; },
    { field: "spec.containers[0].ports[0].hostPort", reason: "FieldValueInvalid", message: "Invalid value: 8080: must match `containerPort` when `hostNetwork` is true" }],
  // Env
  ["an env var without a name", (p) => { c0(p).env = [{ name: "", value: "x" }]; },
    { field: "spec.containers[0].env[0].name", reason: "FieldValueRequired", message: "Required value" }],
  ["an env var name with '='", (p) => { c0(p).env = [{ name: "A=B" }]; },
    { field: "spec.containers[0].env[0].name", reason: "FieldValueInvalid", message: "Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='" }],
  ["an env var name with spaces and digits first (relaxed in 1.32)", (p) => { c0(p).env = [{ name: "1 MY VAR" }]; }, null],
  ["valueFrom with nothing in it", (p) => { c0(p).env = [{ name: "A", valueFrom: {} }]; },
    { field: "spec.containers[0].env[0].valueFrom", reason: "FieldValueInvalid", message: 'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`' }],
  ["valueFrom together with value", (p) => { c0(p).env = [{ name: "A", value: "x", valueFrom: { secretKeyRef: { name: "s", key: "k" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom", reason: "FieldValueInvalid", message: 'Invalid value: "": may not be specified when `value` is not empty' }],
  ["valueFrom with two sources", (p) => { c0(p).env = [{ name: "A", valueFrom: { secretKeyRef: { name: "s", key: "k" }, configMapKeyRef: { name: "c", key: "k" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom", reason: "FieldValueInvalid", message: 'Invalid value: "": may not have more than one field specified at a time' }],
  ["a secretKeyRef without a key", (p) => { c0(p).env = [{ name: "A", valueFrom: { secretKeyRef: { name: "s" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom.secretKeyRef.key", reason: "FieldValueRequired", message: "Required value" }],
  ["a configMapKeyRef without a name", (p) => { c0(p).env = [{ name: "A", valueFrom: { configMapKeyRef: { key: "k" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom.configMapKeyRef.name", reason: "FieldValueInvalid", message: `Invalid value: "": ${subdomainMsg}` }],
  ["a fieldRef to an unsupported field", (p) => { c0(p).env = [{ name: "A", valueFrom: { fieldRef: { fieldPath: "metadata.labels" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath", reason: "FieldValueNotSupported", message: 'Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"' }],
  ["a fieldRef to one label", (p) => { c0(p).env = [{ name: "A", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }]; }, null],
  ["a fieldRef the converter rejects", (p) => { c0(p).env = [{ name: "A", valueFrom: { fieldRef: { fieldPath: "spec.foo" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath", reason: "FieldValueInvalid", message: 'Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo' }],
  ["a resourceFieldRef with a bad cpu divisor", (p) => { c0(p).env = [{ name: "A", valueFrom: { resourceFieldRef: { resource: "limits.cpu", divisor: "2" } } }]; },
    { field: "spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor", reason: "FieldValueInvalid", message: 'Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource' }],
  ["envFrom with neither source", (p) => { c0(p).envFrom = [{ prefix: "X_" }]; },
    { field: "spec.containers[0].envFrom", reason: "FieldValueInvalid", message: 'Invalid value: "": must specify one of: `configMapRef` or `secretRef`' }],
  // Resources
  ["a request above the limit", (p) => { c0(p).resources = { requests: { cpu: "2" }, limits: { cpu: "1" } }; },
    { field: "spec.containers[0].resources.requests", reason: "FieldValueInvalid", message: 'Invalid value: "2": must be less than or equal to cpu limit of 1' }],
  ["a negative request", (p) => { c0(p).resources = { requests: { memory: "-1Mi" } }; },
    { field: "spec.containers[0].resources.requests[memory]", reason: "FieldValueInvalid", message: 'Invalid value: "-1Mi": must be greater than or equal to 0' }],
  ["a resource that is not for containers", (p) => { c0(p).resources = { limits: { pods: "1" } }; }, [
    { field: "spec.containers[0].resources.limits[pods]", reason: "FieldValueInvalid", message: 'Invalid value: "pods": must be a standard resource for containers' },
    { field: "spec.containers[0].resources.requests[pods]", reason: "FieldValueInvalid", message: 'Invalid value: "pods": must be a standard resource for containers' },
  ]],
  ["an unknown unprefixed resource", (p) => { c0(p).resources = { requests: { gpu: "1" } }; }, [
    { field: "spec.containers[0].resources.requests[gpu]", reason: "FieldValueInvalid", message: 'Invalid value: "gpu": must be a standard resource type or fully qualified' },
    { field: "spec.containers[0].resources.requests[gpu]", reason: "FieldValueInvalid", message: 'Invalid value: "gpu": must be a standard resource for containers' },
  ]],
  ["an extended resource request without a limit", (p) => { c0(p).resources = { requests: { "example.com/gpu": "1" } }; },
    { field: "spec.containers[0].resources.limits", reason: "FieldValueRequired", message: "Required value: Limit must be set for non overcommitable resources" }],
  ["an extended resource request below its limit", (p) => { c0(p).resources = { requests: { "example.com/gpu": "1" }, limits: { "example.com/gpu": "2" } }; },
    { field: "spec.containers[0].resources.requests", reason: "FieldValueInvalid", message: 'Invalid value: "1": must be equal to example.com/gpu limit of 2' }],
  ["a fractional extended resource", (p) => { c0(p).resources = { limits: { "example.com/gpu": "500m" } }; }, [
    { field: "spec.containers[0].resources.limits[example.com/gpu]", reason: "FieldValueInvalid", message: "Invalid value: 500m: must be an integer" },
    { field: "spec.containers[0].resources.requests[example.com/gpu]", reason: "FieldValueInvalid", message: "Invalid value: 500m: must be an integer" },
  ]],
  ["hugepages that are not a multiple of the page size", (p) => { c0(p).resources = { limits: { "hugepages-2Mi": "3Mi", memory: "1Gi" } }; }, [
    { field: "spec.containers[0].resources.limits[hugepages-2Mi]", reason: "FieldValueInvalid", message: 'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi' },
    { field: "spec.containers[0].resources.requests[hugepages-2Mi]", reason: "FieldValueInvalid", message: 'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi' },
  ]],
  ["hugepages without cpu or memory", (p) => { c0(p).resources = { limits: { "hugepages-2Mi": "2Mi" } }; },
    { field: "spec.containers[0].resources", reason: "FieldValueForbidden", message: "Forbidden: HugePages require cpu or memory" }],
  // Volumes and mounts
  ["a volume name that is not a label", (p) => { spec(p).volumes = [{ name: "Data", emptyDir: {} }]; },
    { field: "spec.volumes[0].name", reason: "FieldValueInvalid", message: `Invalid value: "Data": ${labelMsg}` }],
  ["two volumes with one name", (p) => { spec(p).volumes = [{ name: "data", emptyDir: {} }, { name: "data", emptyDir: {} }]; },
    { field: "spec.volumes[1].name", reason: "FieldValueDuplicate", message: 'Duplicate value: "data"' }],
  ["a volume with two sources", (p) => { spec(p).volumes = [{ name: "data", emptyDir: {}, hostPath: { path: "/tmp" } }]; },
    { field: "spec.volumes[0].hostPath", reason: "FieldValueForbidden", message: "Forbidden: may not specify more than 1 volume type" }],
  ["a claim volume without a claim name", (p) => { spec(p).volumes = [{ name: "data", persistentVolumeClaim: {} }]; },
    { field: "spec.volumes[0].persistentVolumeClaim.claimName", reason: "FieldValueRequired", message: "Required value" }],
  ["a secret volume without a secret name", (p) => { spec(p).volumes = [{ name: "s", secret: {} }]; },
    { field: "spec.volumes[0].secret.secretName", reason: "FieldValueRequired", message: "Required value" }],
  ["a file mode above 0777", (p) => { spec(p).volumes = [{ name: "s", secret: { secretName: "s", defaultMode: 1000 } }]; },
    { field: "spec.volumes[0].secret.defaultMode", reason: "FieldValueInvalid", message: "Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive" }],
  ["an item path with backsteps", (p) => { spec(p).volumes = [{ name: "c", configMap: { name: "c", items: [{ key: "k", path: "../x" }] } }]; },
    { field: "spec.volumes[0].configMap.items[0].path", reason: "FieldValueInvalid", message: 'Invalid value: "../x": must not contain \'..\'' }],
  ["an unknown hostPath type", (p) => { spec(p).volumes = [{ name: "h", hostPath: { path: "/var/log", type: "Dir" } }]; },
    { field: "spec.volumes[0].hostPath.type", reason: "FieldValueNotSupported", message: 'Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"' }],
  ["an NFS volume without a server", (p) => { spec(p).volumes = [{ name: "n", nfs: { path: "/exports" } }]; },
    { field: "spec.volumes[0].nfs.server", reason: "FieldValueRequired", message: "Required value" }],
  ["a mount of a volume that does not exist", (p) => { c0(p).volumeMounts = [{ name: "missing", mountPath: "/data" }]; },
    { field: "spec.containers[0].volumeMounts[0].name", reason: "FieldValueNotFound", message: 'Not found: "missing"' }],
  ["two mounts at one path", (p) => {
    spec(p).volumes = [{ name: "a", emptyDir: {} }, { name: "b", emptyDir: {} }];
    c0(p).volumeMounts = [{ name: "a", mountPath: "/data" }, { name: "b", mountPath: "/data" }];
  }, { field: "spec.containers[0].volumeMounts[1].mountPath", reason: "FieldValueInvalid", message: 'Invalid value: "/data": must be unique' }],
  ["a mount without a path", (p) => { spec(p).volumes = [{ name: "a", emptyDir: {} }]; c0(p).volumeMounts = [{ name: "a", mountPath: "" }]; },
    { field: "spec.containers[0].volumeMounts[0].mountPath", reason: "FieldValueRequired", message: "Required value" }],
  ["an absolute subPath (reported under the list)", (p) => { spec(p).volumes = [{ name: "a", emptyDir: {} }]; c0(p).volumeMounts = [{ name: "a", mountPath: "/d", subPath: "/x" }]; },
    { field: "spec.containers[0].volumeMounts.subPath", reason: "FieldValueInvalid", message: 'Invalid value: "/x": must be a relative path' }],
  ["bidirectional propagation without privilege", (p) => {
    spec(p).volumes = [{ name: "a", emptyDir: {} }];
    c0(p).volumeMounts = [{ name: "a", mountPath: "/d", mountPropagation: "Bidirectional" }];
  }, { field: "spec.containers[0].volumeMounts.mountPropagation", reason: "FieldValueForbidden", message: "Forbidden: Bidirectional mount propagation is available only to privileged containers" }],
  ["a block device from a non-claim volume", (p) => { spec(p).volumes = [{ name: "a", emptyDir: {} }]; c0(p).volumeDevices = [{ name: "a", devicePath: "/dev/xvda" }]; },
    { field: "spec.containers[0].volumeDevices[0].name", reason: "FieldValueInvalid", message: 'Invalid value: "a": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode' }],
  // Probes and hooks
  ["a probe without a handler", (p) => { c0(p).livenessProbe = { periodSeconds: 5 }; },
    { field: "spec.containers[0].livenessProbe", reason: "FieldValueRequired", message: "Required value: must specify a handler type" }],
  ["a probe with two handlers", (p) => { c0(p).readinessProbe = { exec: { command: ["true"] }, tcpSocket: { port: 80 } }; },
    { field: "spec.containers[0].readinessProbe.tcpSocket", reason: "FieldValueForbidden", message: "Forbidden: may not specify more than 1 handler type" }],
  ["a liveness probe needing two successes", (p) => { c0(p).livenessProbe = { exec: { command: ["true"] }, successThreshold: 2 }; },
    { field: "spec.containers[0].livenessProbe.successThreshold", reason: "FieldValueInvalid", message: "Invalid value: 2: must be 1" }],
  ["a negative initial delay", (p) => { c0(p).readinessProbe = { exec: { command: ["true"] }, initialDelaySeconds: -1 }; },
    { field: "spec.containers[0].readinessProbe.initialDelaySeconds", reason: "FieldValueInvalid", message: "Invalid value: -1: must be greater than or equal to 0" }],
  ["an exec probe without a command", (p) => { c0(p).readinessProbe = { exec: {} }; },
    { field: "spec.containers[0].readinessProbe.exec.command", reason: "FieldValueRequired", message: "Required value" }],
  ["an httpGet probe on a named port that is not a name", (p) => { c0(p).readinessProbe = { httpGet: { port: "HTTP" } }; }, [
    { field: "spec.containers[0].readinessProbe.httpGet.port", reason: "FieldValueInvalid", message: 'Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)' },
    { field: "spec.containers[0].readinessProbe.httpGet.port", reason: "FieldValueInvalid", message: 'Invalid value: "HTTP": must contain at least one letter (a-z)' },
  ]],
  ["a probe on an init container", (p) => { spec(p).initContainers = [sidecar({ readinessProbe: { exec: { command: ["true"] } } })]; },
    { field: "spec.initContainers[0].readinessProbe", reason: "FieldValueForbidden", message: "Forbidden: may not be set for init containers without restartPolicy=Always" }],
  ["a probe on a sidecar init container", (p) => { spec(p).initContainers = [sidecar({ restartPolicy: "Always", readinessProbe: { exec: { command: ["true"] } } })]; }, null],
  ["an init container restartPolicy other than Always", (p) => { spec(p).initContainers = [sidecar({ restartPolicy: "OnFailure" })]; },
    { field: "spec.initContainers[0].restartPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "OnFailure": supported values: "Always"' }],
  // Pod-level policies
  ["an unknown restart policy", (p) => { spec(p).restartPolicy = "Sometimes"; },
    { field: "spec.restartPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"' }],
  ["an unknown DNS policy", (p) => { spec(p).dnsPolicy = "Cluster"; },
    { field: "spec.dnsPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"' }],
  ["DNS policy None without a config", (p) => { spec(p).dnsPolicy = "None"; },
    { field: "spec.dnsConfig", reason: "FieldValueRequired", message: "Required value: must provide `dnsConfig` when `dnsPolicy` is None" }],
  ["DNS policy None with a nameserver", (p) => { spec(p).dnsPolicy = "None"; spec(p).dnsConfig = { nameservers: ["1.1.1.1"] }; }, null],
  ["four nameservers", (p) => { spec(p).dnsConfig = { nameservers: ["1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"] }; },
    { field: "spec.dnsConfig.nameservers", reason: "FieldValueInvalid", message: 'Invalid value: []string{"1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"}: must not have more than 3 nameservers' }],
  ["a nameserver that is not an IP", (p) => { spec(p).dnsConfig = { nameservers: ["dns.example.com"] }; },
    { field: "spec.dnsConfig.nameservers[0]", reason: "FieldValueInvalid", message: 'Invalid value: "dns.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' }],
  ["a DNS option without a name", (p) => { spec(p).dnsConfig = { options: [{ value: "2" }] }; },
    { field: "spec.dnsConfig.options[0]", reason: "FieldValueRequired", message: "Required value: must not be empty" }],
  ["an active deadline of 0", (p) => { spec(p).activeDeadlineSeconds = 0; },
    { field: "spec.activeDeadlineSeconds", reason: "FieldValueInvalid", message: "Invalid value: 0: must be between 1 and 2147483647, inclusive" }],
  ["a hostname that is not a label", (p) => { spec(p).hostname = "web.1"; },
    { field: "spec.hostname", reason: "FieldValueInvalid", message: 'Invalid value: "web.1": must not contain dots' }],
  ["a node name that is not a subdomain", (p) => { spec(p).nodeName = "Node_1"; },
    { field: "spec.nodeName", reason: "FieldValueInvalid", message: `Invalid value: "Node_1": ${subdomainMsg}` }],
  ["a service account name that is not a subdomain", (p) => { spec(p).serviceAccountName = "my_sa"; },
    { field: "spec.serviceAccountName", reason: "FieldValueInvalid", message: `Invalid value: "my_sa": ${subdomainMsg}` }],
  ["a node selector with a bad value", (p) => { spec(p).nodeSelector = { disk: "fast ssd" }; },
    { field: "spec.nodeSelector", reason: "FieldValueInvalid", message: "Invalid value: \"fast ssd\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')" }],
  ["a host alias with a bad IP", (p) => { spec(p).hostAliases = [{ ip: "10.0.0.256", hostnames: ["db"] }]; },
    { field: "spec.hostAliases[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "10.0.0.256": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' }],
  // Security context
  ["a negative runAsUser", (p) => { spec(p).securityContext = { runAsUser: -1 }; },
    { field: "spec.securityContext.runAsUser", reason: "FieldValueInvalid", message: "Invalid value: -1: must be between 0 and 2147483647, inclusive" }],
  ["a supplemental group out of range", (p) => { spec(p).securityContext = { supplementalGroups: [1, 4294967296] }; },
    { field: "spec.securityContext.supplementalGroups[1]", reason: "FieldValueInvalid", message: "Invalid value: 4294967296: must be between 0 and 2147483647, inclusive" }],
  ["sharing the process namespace on the host PID", (p) => { spec(p).hostPID = true; spec(p).shareProcessNamespace = true; },
    { field: "spec.securityContext.shareProcessNamespace", reason: "FieldValueInvalid", message: "Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled" }],
  ["a privileged container without privilege escalation", (p) => { c0(p).securityContext = { privileged: true, allowPrivilegeEscalation: false }; },
    { field: "spec.containers[0].securityContext", reason: "FieldValueInvalid", message: "Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(nil), Privileged:(*bool)(0xc000000000), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(nil), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0xc000000000), ProcMount:(*core.ProcMountType)(nil), SeccompProfile:(*core.SeccompProfile)(nil), AppArmorProfile:(*core.AppArmorProfile)(nil)}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true" }],
  ["a privileged container (allowed by cluster policy)", (p) => { c0(p).securityContext = { privileged: true }; }, null],
  // Scheduling
  ["a toleration without key and Equal", (p) => { spec(p).tolerations = [{ operator: "Equal", value: "x" }]; },
    { field: "spec.tolerations[0].operator", reason: "FieldValueInvalid", message: 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"' }],
  ["a toleration with seconds but not NoExecute", (p) => { spec(p).tolerations = [{ key: "k", operator: "Exists", effect: "NoSchedule", tolerationSeconds: 10 }]; },
    { field: "spec.tolerations[0].effect", reason: "FieldValueInvalid", message: "Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set" }],
  ["an Exists toleration with a value", (p) => { spec(p).tolerations = [{ key: "k", operator: "Exists", value: "v" }]; },
    { field: "spec.tolerations[0].operator", reason: "FieldValueInvalid", message: "Invalid value: \"v\": value must be empty when `operator` is 'Exists'" }],
  ["an unknown toleration effect", (p) => { spec(p).tolerations = [{ key: "k", operator: "Exists", effect: "NoRun" }]; },
    { field: "spec.tolerations[0].effect", reason: "FieldValueNotSupported", message: 'Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"' }],
  ["node affinity without terms", (p) => { spec(p).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }; },
    { field: "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", reason: "FieldValueRequired", message: "Required value: must have at least one node selector term" }],
  ["a node selector Gt with two values", (p) => {
    spec(p).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "cores", operator: "Gt", values: ["1", "2"] }] }] } } };
  }, { field: "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values", reason: "FieldValueRequired", message: "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'" }],
  ["a preferred term weighing 0", (p) => {
    spec(p).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] } };
  }, { field: "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", reason: "FieldValueInvalid", message: "Invalid value: 0: must be in the range 1-100" }],
  ["a pod affinity term without a topology key", (p) => {
    spec(p).affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: "db" } }, topologyKey: "" }] } };
  }, [
    { field: "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", reason: "FieldValueRequired", message: "Required value: can not be empty" },
    { field: "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", reason: "FieldValueInvalid", message: 'Invalid value: "": name part must be non-empty' },
    { field: "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", reason: "FieldValueInvalid", message: "Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" },
  ]],
  // Annotations
  ["a mirror pod without a node", (p) => { p.metadata.annotations = { "kubernetes.io/config.mirror": "x" }; },
    { field: "metadata.annotations[kubernetes.io/config.mirror]", reason: "FieldValueInvalid", message: 'Invalid value: "x": must set spec.nodeName if mirror pod annotation is set' }],
  ["a deletion cost that is not a 32-bit integer", (p) => { p.metadata.annotations = { "controller.kubernetes.io/pod-deletion-cost": "+1" }; },
    { field: "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]", reason: "FieldValueInvalid", message: 'Invalid value: "+1": must be a 32bit integer' }],
];

describe("Pod validation", () => {
  it("accepts its template", () => expect(create(pod, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(pod, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("refuses malformed quantities at decode time", () => {
    expect(create(pod, variant(base, (p) => { c0(p).resources = { limits: { memory: "1GB" } }; })).decodeError)
      .toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    expect(create(pod, variant(base, (p) => { spec(p).volumes = [{ name: "v", emptyDir: { sizeLimit: "1K" } }]; })).decodeError)
      .toBe("unable to parse quantity's suffix");
  });
});

describe("Pod defaults", () => {
  it("fills the spec and container defaults", () => {
    const p = created<Pod>(pod, base);
    expect(p.spec).toMatchObject({
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
      terminationGracePeriodSeconds: 30,
      schedulerName: "default-scheduler",
      securityContext: {},
      enableServiceLinks: true,
    });
    expect(c0(p)).toMatchObject({
      imagePullPolicy: "IfNotPresent",
      terminationMessagePath: "/dev/termination-log",
      terminationMessagePolicy: "File",
      ports: [{ name: "http", containerPort: 80, protocol: "TCP" }],
      resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "256Mi" } },
    });
    expect(p.status).toEqual({ phase: "Pending", qosClass: "Burstable" });
  });

  it.each([
    ["nginx", "Always"], ["nginx:latest", "Always"], ["registry.example.com:5000/team/app", "Always"], ["nginx:1.27", "IfNotPresent"],
    ["nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"], ["Not A Ref", "IfNotPresent"],
  ])("pulls %s with %s", (image, policy) => {
    expect(c0(created<Pod>(pod, variant(base, (p) => { c0(p).image = image; }))).imagePullPolicy).toBe(policy);
  });

  it("requests what it limits, canonically", () => {
    const p = created<Pod>(pod, variant(base, (v) => { c0(v).resources = { limits: { cpu: "0.5", memory: "1024Mi" } }; }));
    expect(c0(p).resources).toEqual({ limits: { cpu: "500m", memory: "1Gi" }, requests: { cpu: "500m", memory: "1Gi" } });
    expect(p.status?.qosClass).toBe("Guaranteed");
  });

  it("defaults probes, volumes, field refs and host-network ports", () => {
    const p = created<Pod>(pod, variant(base, (v) => {
      spec(v).hostNetwork = true;
      spec(v).serviceAccount = "builder";
      c0(v).ports = [{ containerPort: 8080 }];
      c0(v).readinessProbe = { httpGet: { port: 8080 } };
      c0(v).env = [{ name: "NS", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } }];
      spec(v).volumes = [
        { name: "scratch" },
        { name: "cfg", configMap: { name: "app" } },
        { name: "logs", hostPath: { path: "/var/log" } },
        { name: "info", downwardAPI: { items: [{ path: "labels", fieldRef: { fieldPath: "metadata.labels" } }] } },
      ];
    }));
    expect(c0(p).ports).toEqual([{ containerPort: 8080, protocol: "TCP", hostPort: 8080 }]);
    expect(c0(p).readinessProbe).toEqual({ httpGet: { port: 8080, path: "/", scheme: "HTTP" }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c0(p).env).toEqual([{ name: "NS", valueFrom: { fieldRef: { fieldPath: "metadata.namespace", apiVersion: "v1" } } }]);
    expect(spec(p).serviceAccountName).toBe("builder");
    expect(spec(p).volumes).toEqual([
      { name: "scratch", emptyDir: {} },
      { name: "cfg", configMap: { name: "app", defaultMode: 420 } },
      { name: "logs", hostPath: { path: "/var/log", type: "" } },
      { name: "info", downwardAPI: { defaultMode: 420, items: [{ path: "labels", fieldRef: { fieldPath: "metadata.labels", apiVersion: "v1" } }] } },
    ]);
  });
});

describe("Pod updates", () => {
  const old = created<Pod>(pod, variant(base, (p) => { spec(p).activeDeadlineSeconds = 600; spec(p).tolerations = [{ key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 60 }]; }));

  it("may change images, labels, lower the deadline and add tolerations", () => {
    expect(update(pod, old, variant(old, (p) => {
      c0(p).image = "nginx:1.28";
      p.metadata.labels = { app: "web", version: "2" };
      spec(p).activeDeadlineSeconds = 300;
      spec(p).tolerations!.push({ key: "other", operator: "Exists" });
      spec(p).tolerations![0].tolerationSeconds = 30;
    })).causes).toEqual([]);
  });

  it("may not add containers", () => {
    expect(update(pod, old, variant(old, (p) => { spec(p).containers.push({ name: "extra", image: "busybox" }); })).causes).toEqual([
      { field: "spec.containers", reason: "FieldValueForbidden", message: "Forbidden: pod updates may not add or remove containers" },
    ]);
  });

  it("may not raise or drop the deadline", () => {
    expect(update(pod, old, variant(old, (p) => { spec(p).activeDeadlineSeconds = 900; })).causes).toEqual([
      { field: "spec.activeDeadlineSeconds", reason: "FieldValueInvalid", message: "Invalid value: 900: must be less than or equal to previous value" },
    ]);
    expect(update(pod, old, variant(old, (p) => { delete spec(p).activeDeadlineSeconds; })).causes).toEqual([
      { field: "spec.activeDeadlineSeconds", reason: "FieldValueInvalid", message: 'Invalid value: "null": must not update from a positive integer to nil value' },
    ]);
  });

  it("may not modify an existing toleration", () => {
    expect(update(pod, old, variant(old, (p) => { spec(p).tolerations![0].effect = "NoSchedule"; delete spec(p).tolerations![0].tolerationSeconds; })).causes).toEqual([
      { field: "spec.tolerations", reason: "FieldValueForbidden", message: "Forbidden: existing toleration can not be modified except its tolerationSeconds" },
    ]);
  });

  it("may not change anything else in spec", () => {
    const causes = update(pod, old, variant(old, (p) => { spec(p).restartPolicy = "Never"; })).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: "spec", reason: "FieldValueForbidden" });
    expect(causes[0].message.startsWith(
      "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n",
    )).toBe(true);
    expect(causes[0].message).toContain('restartPolicy: "Never"');
  });
});

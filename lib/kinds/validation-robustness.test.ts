// Every kind's hooks must answer (with causes or a decode error), never throw, whatever JSON types a client
// sends: each field of each template is replaced in turn by values of every other JSON type.
import { describe, expect, it } from "vitest";
import { kinds } from "./index";
import { persistentVolume } from "./persistent-volume";
import { pod } from "./pod";
import { resourceQuota } from "./resource-quota";
import { service } from "./service";
import type { KubeObject } from "./types";
import { create, templateOf, update } from "./validation-harness";

const oddValues: unknown[] = [null, 7, -1, "x", true, [], {}, [1, "a", null], { a: 1, b: [] }];

/** Every path to a value inside `obj` (object keys and array indexes). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
  }
  return [];
}

function replaced(obj: KubeObject, path: (string | number)[], value: unknown): KubeObject {
  const copy = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
  let cursor: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  cursor[path[path.length - 1]] = value;
  return copy as KubeObject;
}

describe("hooks never throw on mistyped input", () => {
  for (const kind of kinds) {
    it(kind.kind, () => {
      const base = templateOf(kind);
      const stored = create(kind, base).object;
      for (const path of paths(base).filter((p) => p[0] !== "metadata" && p[0] !== "apiVersion" && p[0] !== "kind")) {
        for (const value of oddValues) {
          const body = replaced(base, path, value);
          expect(() => create(kind, body), `${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
          expect(() => update(kind, stored, body), `update ${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
        }
      }
    });
  }
});

/** Objects that fill most optional fields, so their mistyped variants reach every validator. */
const rich: [string, (typeof kinds)[number], Record<string, unknown>][] = [
  ["Pod", pod, {
    apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "default", annotations: { "controller.kubernetes.io/pod-deletion-cost": "1" } },
    spec: {
      hostNetwork: true, serviceAccountName: "default", activeDeadlineSeconds: 10, nodeSelector: { a: "b" }, hostAliases: [{ ip: "1.2.3.4", hostnames: ["h"] }],
      dnsPolicy: "None", dnsConfig: { nameservers: ["1.1.1.1"], searches: ["a.b"], options: [{ name: "ndots", value: "2" }] },
      securityContext: { runAsUser: 1, supplementalGroups: [1], sysctls: [{ name: "kernel.shm_rmid_forced", value: "1" }], seccompProfile: { type: "RuntimeDefault" } },
      tolerations: [{ key: "k", operator: "Exists", effect: "NoExecute", tolerationSeconds: 1 }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "a", operator: "In", values: ["b"] }], matchFields: [{ key: "metadata.name", operator: "In", values: ["n"] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: "a", operator: "Exists" }] } }],
        },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { labelSelector: { matchLabels: { a: "b" }, matchExpressions: [{ key: "a", operator: "In", values: ["b"] }] }, namespaces: ["x"], topologyKey: "t" } }] },
      },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: "t", whenUnsatisfiable: "DoNotSchedule", labelSelector: { matchLabels: { a: "b" } } }],
      readinessGates: [{ conditionType: "a.b/c" }], schedulingGates: [{ name: "g" }],
      volumes: [
        { name: "a", secret: { secretName: "s", items: [{ key: "k", path: "p", mode: 1 }] } },
        { name: "b", projected: { sources: [{ secret: { name: "s", items: [{ key: "k", path: "q" }] } }, { downwardAPI: { items: [{ path: "r", fieldRef: { fieldPath: "metadata.name" } }] } }, { serviceAccountToken: { path: "t" } }] } },
        { name: "c", downwardAPI: { items: [{ path: "l", resourceFieldRef: { containerName: "c", resource: "limits.cpu", divisor: "1m" } }] } },
        { name: "d", iscsi: { targetPortal: "1.2.3.4:3260", iqn: "iqn.2001-04.com.example:storage", lun: 0, initiatorName: "iqn.2001-04.com.example:node" } },
        { name: "e", fc: { targetWWNs: ["50060e801049cfd1"], lun: 0 } }, { name: "f", azureDisk: { diskName: "d", diskURI: "https://x/y.vhd" } },
        { name: "g", persistentVolumeClaim: { claimName: "c" } }, { name: "h", flexVolume: { driver: "d", options: { a: "b" } } },
        { name: "i", quobyte: { registry: "h:1", volume: "v" } }, { name: "j", emptyDir: { sizeLimit: "1Gi" } },
      ],
      initContainers: [{ name: "i", image: "busybox", restartPolicy: "Always", startupProbe: { grpc: { port: 1 } } }],
      containers: [{
        name: "c", image: "nginx", ports: [{ name: "web", containerPort: 80, hostPort: 80 }],
        env: [{ name: "A", valueFrom: { resourceFieldRef: { resource: "limits.memory", divisor: "1Mi" } } }, { name: "B", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } }],
        envFrom: [{ prefix: "P_", secretRef: { name: "s" } }],
        resources: { limits: { cpu: "1", "hugepages-2Mi": "2Mi", "example.com/gpu": "1" } },
        volumeMounts: [{ name: "a", mountPath: "/a", subPath: "x", mountPropagation: "None" }], volumeDevices: [{ name: "g", devicePath: "/dev/g" }],
        livenessProbe: { httpGet: { port: "web", httpHeaders: [{ name: "X", value: "1" }] } }, readinessProbe: { tcpSocket: { port: 80 } },
        lifecycle: { preStop: { exec: { command: ["x"] } }, postStart: { sleep: { seconds: 1 } } },
        securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ["NET_ADMIN"] }, procMount: "Default", runAsGroup: 1 },
      }],
    },
  }],
  ["Service", service, {
    apiVersion: "v1", kind: "Service", metadata: { name: "s", namespace: "default", annotations: { "service.beta.kubernetes.io/load-balancer-source-ranges": "10.0.0.0/8" } },
    spec: {
      type: "LoadBalancer", clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
      externalIPs: ["1.2.3.4"], externalTrafficPolicy: "Local", healthCheckNodePort: 30001, sessionAffinity: "ClientIP",
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } }, loadBalancerSourceRanges: ["10.0.0.0/8"], loadBalancerClass: "a/b",
      ports: [{ name: "a", port: 80, targetPort: "web", nodePort: 30080, appProtocol: "http" }, { name: "b", port: 81, protocol: "UDP" }],
      selector: { a: "b" },
    },
  }],
  ["PersistentVolume", persistentVolume, {
    apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "pv" },
    spec: {
      capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], claimRef: { name: "c", namespace: "n" }, storageClassName: "s",
      local: { path: "/mnt" }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "a", operator: "In", values: ["b"] }] }] } },
    },
  }],
  ["ResourceQuota", resourceQuota, {
    apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "q", namespace: "default" },
    spec: { hard: { pods: "1" }, scopes: ["NotTerminating"], scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }] } },
  }],
];

describe("hooks never throw on mistyped input in rich objects", () => {
  for (const [name, kind, object] of rich) {
    it(name, () => {
      const base = object as KubeObject;
      const stored = create(kind, base).object;
      for (const path of paths(base).filter((p) => p[0] !== "metadata" && p[0] !== "apiVersion" && p[0] !== "kind")) {
        for (const value of oddValues) {
          const body = replaced(base, path, value);
          expect(() => create(kind, body), `${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
          expect(() => update(kind, stored, body), `update ${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
        }
      }
    });
  }

  it("the rich objects themselves are valid", () => {
    for (const [name, kind, object] of rich) expect(create(kind, object as KubeObject).causes, name).toEqual([]);
  });
});

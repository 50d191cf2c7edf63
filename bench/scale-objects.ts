// The objects the scale benchmark (bench/scale.ts) creates: realistic Deployment-style pods (~2.5 KB of JSON
// once the server has stored them with a kubelet-style status) and small ConfigMaps, spread over namespaces.
// Everything is derived from the object's index (no Math.random), so two runs store the same objects.
import { createHash } from "node:crypto";

/** A label every scale pod carries once (its value is the index): a marker a client can count in a stream. */
export const SCALE_LABEL = "scale.bench/index";

/** The namespace layout: the first namespace holds `refSize` objects (the same-run 10k reference list), the rest `perNamespace` each. */
export interface Layout {
  prefix: string;
  refSize: number;
  perNamespace: number;
}

export const POD_LAYOUT: Layout = { prefix: "scale", refSize: 10_000, perNamespace: 1_000 };
export const CONFIGMAP_LAYOUT: Layout = { prefix: "scale-cm", refSize: 10_000, perNamespace: 10_000 };

/** Namespace of the object with index i. */
export function namespaceOf(layout: Layout, i: number): string {
  const n = i < layout.refSize ? 0 : 1 + Math.floor((i - layout.refSize) / layout.perNamespace);
  return `${layout.prefix}-${String(n).padStart(3, "0")}`;
}

/** Every namespace holding at least one of N objects, in order. */
export function namespacesFor(layout: Layout, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i = i < layout.refSize ? layout.refSize : i + layout.perNamespace) out.push(namespaceOf(layout, i));
  return out;
}

const hex = (seed: string, len: number) => createHash("sha256").update(seed).digest("hex").slice(0, len);
/** kube's names.SimpleNameGenerator alphabet, for pod-template hashes and name suffixes. */
const ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
const suffix = (seed: string, len: number) => {
  const h = createHash("sha256").update(seed).digest();
  let s = "";
  for (let k = 0; k < len; k++) s += ALPHABET[h[k] % ALPHABET.length];
  return s;
};
const uuid = (seed: string) => {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const APPS = ["checkout", "catalog", "payments", "search", "accounts", "notifications", "inventory", "gateway"];
const TEAMS = ["shop", "platform", "data", "identity"];
/** Pods per ReplicaSet: objects i..i+9 share an owner, labels and template. */
const REPLICAS = 10;
const T0 = Date.UTC(2026, 10, 1, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

export interface ScalePod {
  namespace: string;
  /** What a ReplicaSet controller would POST. */
  body: Record<string, unknown>;
  /** What the kubelet then writes to the status subresource (a strategic merge patch body). */
  status: Record<string, unknown>;
}

/** Pod number i: what a ReplicaSet controller creates, and the status a kubelet reports for it. */
export function scalePod(i: number): ScalePod {
  const namespace = namespaceOf(POD_LAYOUT, i);
  const rs = Math.floor(i / REPLICAS);
  const app = APPS[rs % APPS.length];
  const team = TEAMS[rs % TEAMS.length];
  const hash = suffix(`rs-${rs}`, 10);
  const name = `${app}-${hash}-${suffix(`pod-${i}`, 5)}`;
  const image = `registry.example.com/${team}/${app}:1.${rs % 40}.${rs % 7}`;
  const node = `node-${String(i % 5000).padStart(4, "0")}`;
  const created = T0 + i * 1000;
  const body = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      generateName: `${app}-${hash}-`,
      labels: { app, "pod-template-hash": hash, team, [SCALE_LABEL]: String(i) },
      ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: `${app}-${hash}`, uid: uuid(`rs-${rs}`), controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      nodeName: node,
      containers: [{
        name: app,
        image,
        ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }],
        env: [
          { name: "LOG_LEVEL", value: "info" },
          { name: "DATABASE_URL", value: `postgres://${app}-db:5432/${app}` },
          { name: "POD_IP", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "status.podIP" } } },
        ],
        resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "512Mi" } },
        volumeMounts: [{ name: "config", mountPath: "/etc/app", readOnly: true }],
      }],
      volumes: [{ name: "config", configMap: { name: `${app}-config` } }],
    },
  };
  const started = created + 2000;
  const containerId = (c: string) => `containerd://${hex(`${c}-${i}`, 64)}`;
  const podIp = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const hostIp = `192.168.${Math.floor((i % 5000) / 250)}.${(i % 250) + 1}`;
  const condition = (type: string, at: number) => ({ type, status: "True", lastProbeTime: null, lastTransitionTime: iso(at) });
  const running = (c: string, img: string) => ({
    name: c, state: { running: { startedAt: iso(started) } }, ready: true, restartCount: 0, image: img,
    imageID: `${img.split(":")[0]}@sha256:${hex(img, 64)}`, containerID: containerId(c), started: true,
  });
  const status = {
    status: {
      phase: "Running",
      conditions: [
        condition("PodReadyToStartContainers", started), condition("Initialized", created + 500),
        condition("Ready", started + 3000), condition("ContainersReady", started + 3000), condition("PodScheduled", created),
      ],
      hostIP: hostIp, hostIPs: [{ ip: hostIp }], podIP: podIp, podIPs: [{ ip: podIp }],
      startTime: iso(created + 500),
      containerStatuses: [running(app, image)],
      qosClass: "Burstable",
    },
  };
  return { namespace, body, status };
}

export interface ScaleConfigMap {
  namespace: string;
  body: Record<string, unknown>;
}

/** ConfigMap number i: a small one (~400 bytes stored), as clusters hold by the hundred thousand. */
export function scaleConfigMap(i: number): ScaleConfigMap {
  const namespace = namespaceOf(CONFIGMAP_LAYOUT, i);
  const app = APPS[i % APPS.length];
  return {
    namespace,
    body: {
      apiVersion: "v1", kind: "ConfigMap",
      metadata: { name: `${app}-settings-${String(i).padStart(7, "0")}`, labels: { app, [SCALE_LABEL]: String(i) } },
      data: { "log-level": "info", "feature-flags": `search=${i % 2 ? "on" : "off"},beta=off`, endpoint: `https://${app}.${namespace}.svc:8443/v1` },
    },
  };
}

// `kubectl patch` with the three patch types. Per kind: a strategic merge patch (the default), a JSON merge
// patch and a JSON patch each change one of the kind's own fields. Strategic merge patch semantics are
// checked against results worked out by hand from kube-apiserver's rules (merge keys per field, new list
// items first unless $setElementOrder says otherwise, $patch: delete, $retainKeys,
// $deleteFromPrimitiveList, scalar-set finalizers); pod updates may only change images, so list merges on
// a pod are checked through that rule (a merge that lost an item would be a forbidden change). Refused
// patches (failed JSON patch test, invalid result) write nothing. One server for the whole file.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, rv, startServer, stopAll, type Server } from "./harness";
import { KINDS, expectStatus, loadFixture, type KindCase } from "./kinds";

const NS = "e2e-kubectl-patch";

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const nsArgs = (k: KindCase) => (k.namespaced ? ["-n", NS] : []);
const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

function apiPath(k: KindCase, name: string, sub = ""): string {
  const base = k.namespaced ? `/api/v1/namespaces/${NS}/${k.plural}` : `/api/v1/${k.plural}`;
  return `${base}/${name}${sub ? `/${sub}` : ""}`;
}

async function create(k: KindCase, obj: any): Promise<any> {
  const base = k.namespaced ? `/api/v1/namespaces/${NS}/${k.plural}` : `/api/v1/${k.plural}`;
  const res = await server.request("POST", base, { body: obj });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function get(k: KindCase, name: string): Promise<any> {
  const res = await server.request("GET", apiPath(k, name));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** `kubectl patch` (type strategic unless given); returns the stored object afterwards. */
async function patch(k: KindCase, name: string, body: unknown, type?: "strategic" | "merge" | "json", extra: string[] = []): Promise<any> {
  const r = await server.kubectl([
    "patch", k.plural, name, ...nsArgs(k), ...(type ? ["--type", type] : []), "-p", JSON.stringify(body), ...extra,
  ]);
  expect(r.stdout.trim()).toMatch(new RegExp(`^${k.kind.toLowerCase()}/${name.replace(/\./g, "\\.")} patched( \\(no change\\))?$`));
  return get(k, name);
}

/** A patch kubectl must fail with; returns stderr. The object must be left exactly as it was. */
async function refusedPatch(k: KindCase, name: string, body: unknown, type?: "strategic" | "merge" | "json"): Promise<string> {
  const before = await get(k, name);
  const r = await server.kubectl(
    ["patch", k.plural, name, ...nsArgs(k), ...(type ? ["--type", type] : []), "-p", JSON.stringify(body)],
    { allowFail: true },
  );
  expect(r.code, `kubectl patch unexpectedly succeeded: ${r.stdout}`).not.toBe(0);
  const after = await get(k, name);
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(after).toEqual(before);
  return r.stderr.trim();
}

// ---------------------------------------------------------------------------------------------------------
// Per kind: one field changed by each of the three patch types, each with the expected stored value.

interface PatchCase {
  strategic: { patch: unknown; check: (o: any) => void };
  merge: { patch: unknown; check: (o: any) => void };
  json: { patch: unknown[]; check: (o: any) => void };
}

const PER_KIND: Record<string, PatchCase> = {
  ConfigMap: {
    strategic: { patch: { data: { LOG_LEVEL: "warn", NEW_KEY: "1" } }, check: (o) => expect(o.data).toMatchObject({ LOG_LEVEL: "warn", NEW_KEY: "1", FEATURE_FLAGS: "search,recommendations" }) },
    merge: { patch: { data: { NEW_KEY: null } }, check: (o) => expect(Object.keys(o.data).sort()).toEqual(["FEATURE_FLAGS", "LOG_LEVEL", "nginx.conf"]) },
    json: { patch: [{ op: "remove", path: "/data/nginx.conf" }], check: (o) => expect(o.data).toEqual({ LOG_LEVEL: "warn", FEATURE_FLAGS: "search,recommendations" }) },
  },
  Secret: {
    // stringData is write-only: it lands in data (base64) and is never returned
    strategic: { patch: { stringData: { token: "abc" } }, check: (o) => { expect(o.data.token).toBe("YWJj"); expect(o.stringData).toBeUndefined(); } },
    merge: { patch: { data: { password: null } }, check: (o) => expect(Object.keys(o.data).sort()).toEqual(["DATABASE_URL", "token", "username"]) },
    json: { patch: [{ op: "replace", path: "/data/username", value: "YWRtaW4=" }], check: (o) => expect(o.data.username).toBe("YWRtaW4=") },
  },
  Endpoints: {
    // subsets carry no merge key: a strategic patch replaces the list like a merge patch does
    strategic: {
      patch: { subsets: [{ addresses: [{ ip: "10.20.30.50" }], ports: [{ name: "https", port: 8443 }] }] },
      check: (o) => expect(o.subsets).toEqual([{ addresses: [{ ip: "10.20.30.50" }], ports: [{ name: "https", port: 8443, protocol: "TCP" }] }]),
    },
    merge: {
      patch: { subsets: [{ addresses: [{ ip: "10.20.30.51" }], ports: [{ port: 9443, protocol: "UDP" }] }] },
      check: (o) => expect(o.subsets).toEqual([{ addresses: [{ ip: "10.20.30.51" }], ports: [{ port: 9443, protocol: "UDP" }] }]),
    },
    json: { patch: [{ op: "add", path: "/subsets/0/addresses/-", value: { ip: "10.20.30.52" } }], check: (o) => expect(o.subsets[0].addresses.map((a: any) => a.ip)).toEqual(["10.20.30.51", "10.20.30.52"]) },
  },
  Event: {
    strategic: { patch: { count: 3, source: { host: "worker-2" } }, check: (o) => { expect(o.count).toBe(3); expect(o.source).toEqual({ component: "kubelet", host: "worker-2" }); } },
    merge: { patch: { reason: "Pulling", source: { host: null } }, check: (o) => { expect(o.reason).toBe("Pulling"); expect(o.source).toEqual({ component: "kubelet" }); } },
    json: { patch: [{ op: "replace", path: "/type", value: "Warning" }], check: (o) => expect(o.type).toBe("Warning") },
  },
  LimitRange: {
    // spec.limits is atomic: the patch's list is the new list
    strategic: {
      patch: { spec: { limits: [{ type: "Container", max: { cpu: "3" } }] } },
      check: (o) => expect(o.spec.limits).toEqual([{ type: "Container", max: { cpu: "3" }, default: { cpu: "3" }, defaultRequest: { cpu: "3" } }]),
    },
    merge: {
      patch: { spec: { limits: [{ type: "PersistentVolumeClaim", max: { storage: "20Gi" } }] } },
      check: (o) => expect(o.spec.limits).toEqual([{ type: "PersistentVolumeClaim", max: { storage: "20Gi" } }]),
    },
    json: { patch: [{ op: "add", path: "/spec/limits/0/min", value: { storage: "1Gi" } }], check: (o) => expect(o.spec.limits[0].min).toEqual({ storage: "1Gi" }) },
  },
  ResourceQuota: {
    strategic: { patch: { spec: { hard: { secrets: "10", pods: null } } }, check: (o) => { expect(o.spec.hard.secrets).toBe("10"); expect(o.spec.hard.pods).toBeUndefined(); expect(o.spec.hard.configmaps).toBe("30"); } },
    merge: { patch: { spec: { hard: { configmaps: "31" } } }, check: (o) => expect(o.spec.hard.configmaps).toBe("31") },
    json: { patch: [{ op: "remove", path: "/spec/hard/secrets" }], check: (o) => expect(Object.keys(o.spec.hard).sort()).toEqual(["configmaps", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"]) },
  },
  Pod: {
    strategic: { patch: { spec: { containers: [{ name: "web", image: "nginx:1.27.3" }] } }, check: (o) => expect(o.spec.containers.map((c: any) => c.image)).toEqual(["nginx:1.27.3"]) },
    merge: { patch: { spec: { activeDeadlineSeconds: 3600 } }, check: (o) => expect(o.spec.activeDeadlineSeconds).toBe(3600) },
    json: { patch: [{ op: "add", path: "/spec/tolerations", value: [{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }] }], check: (o) => expect(o.spec.tolerations).toEqual([{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }]) },
  },
  PersistentVolumeClaim: {
    strategic: { patch: { metadata: { labels: { "shop.example.com/tier": "gold" } } }, check: (o) => expect(o.metadata.labels).toMatchObject({ "shop.example.com/tier": "gold", "app.kubernetes.io/part-of": "shop" }) },
    merge: { patch: { metadata: { labels: { "app.kubernetes.io/component": null } } }, check: (o) => expect(o.metadata.labels["app.kubernetes.io/component"]).toBeUndefined() },
    json: { patch: [{ op: "add", path: "/metadata/annotations", value: { "shop.example.com/backup": "nightly" } }], check: (o) => expect(o.metadata.annotations).toEqual({ "shop.example.com/backup": "nightly" }) },
  },
  Service: {
    // ports merge by port: only port 80 changes
    strategic: {
      patch: { spec: { ports: [{ port: 80, targetPort: 8081 }] } },
      check: (o) => expect(o.spec.ports).toEqual([
        { name: "http", port: 80, targetPort: 8081, protocol: "TCP" },
        { name: "metrics", port: 9113, targetPort: "metrics", protocol: "TCP" },
      ]),
    },
    // a merge patch replaces the list; the single remaining port is defaulted
    merge: { patch: { spec: { ports: [{ port: 8080 }] } }, check: (o) => expect(o.spec.ports).toEqual([{ port: 8080, targetPort: 8080, protocol: "TCP" }]) },
    json: { patch: [{ op: "replace", path: "/spec/sessionAffinity", value: "ClientIP" }], check: (o) => { expect(o.spec.sessionAffinity).toBe("ClientIP"); expect(o.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } }); } },
  },
  ServiceAccount: {
    // secrets merge by name (the new one first); imagePullSecrets is atomic
    strategic: {
      patch: { secrets: [{ name: "extra-token" }], imagePullSecrets: [{ name: "mirror-credentials" }] },
      check: (o) => {
        expect(o.secrets).toEqual([{ name: "extra-token" }, { name: "storefront-deployer-token" }]);
        expect(o.imagePullSecrets).toEqual([{ name: "mirror-credentials" }]);
      },
    },
    merge: { patch: { secrets: [{ name: "only-token" }] }, check: (o) => expect(o.secrets).toEqual([{ name: "only-token" }]) },
    json: { patch: [{ op: "remove", path: "/imagePullSecrets" }], check: (o) => expect(o.imagePullSecrets).toBeUndefined() },
  },
  PersistentVolume: {
    strategic: { patch: { spec: { capacity: { storage: "15Gi" }, mountOptions: ["hard"] } }, check: (o) => { expect(o.spec.capacity).toEqual({ storage: "15Gi" }); expect(o.spec.mountOptions).toEqual(["hard"]); } },
    merge: { patch: { spec: { mountOptions: ["nfsvers=4.1"] } }, check: (o) => expect(o.spec.mountOptions).toEqual(["nfsvers=4.1"]) },
    json: { patch: [{ op: "replace", path: "/spec/persistentVolumeReclaimPolicy", value: "Delete" }], check: (o) => expect(o.spec.persistentVolumeReclaimPolicy).toBe("Delete") },
  },
  SecurityContextConstraints: {
    // no merge keys on SCC lists: replaced whole
    strategic: { patch: { requiredDropCapabilities: ["ALL"], priority: 6 }, check: (o) => { expect(o.requiredDropCapabilities).toEqual(["ALL"]); expect(o.priority).toBe(6); } },
    merge: { patch: { users: ["system:serviceaccount:shop:deployer"] }, check: (o) => expect(o.users).toEqual(["system:serviceaccount:shop:deployer"]) },
    json: { patch: [{ op: "replace", path: "/allowHostPorts", value: true }], check: (o) => expect(o.allowHostPorts).toBe(true) },
  },
};

describe("kubectl patch per kind: strategic (default), merge, json", { timeout: 120_000 }, () => {
  test("every kind has a patch case", () => {
    expect(Object.keys(PER_KIND).sort()).toEqual(KINDS.map((k) => k.kind).sort());
  });

  test.each(KINDS.map((k) => [k.kind, k] as const))("%s", async (_, k) => {
    const c = PER_KIND[k.kind];
    const created = await create(k, loadFixture(k, NS));
    const name = created.metadata.name;

    const s = await patch(k, name, c.strategic.patch);
    c.strategic.check(s);
    expect(rv(s.metadata.resourceVersion)).toBeGreaterThan(rv(created.metadata.resourceVersion));

    const m = await patch(k, name, c.merge.patch, "merge");
    c.merge.check(m);
    expect(rv(m.metadata.resourceVersion)).toBeGreaterThan(rv(s.metadata.resourceVersion));

    const j = await patch(k, name, c.json.patch, "json");
    c.json.check(j);
    expect(rv(j.metadata.resourceVersion)).toBeGreaterThan(rv(m.metadata.resourceVersion));
    expect(j.metadata.uid).toBe(created.metadata.uid);
  });
});

// ---------------------------------------------------------------------------------------------------------

const POD = kind("Pod");
const SVC = kind("Service");
const SA = kind("ServiceAccount");
const CM = kind("ConfigMap");

// The per-kind cases leave the compute-quota fixture (limits.cpu, requests.memory, ...) in this namespace, so
// quota admission refuses a container that does not state its requests and limits, as a real cluster would.
const resources = { requests: { cpu: "50m", memory: "32Mi" }, limits: { cpu: "100m", memory: "64Mi" } };

const twoContainerPod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, labels: { app: "smp" } },
  spec: {
    containers: [
      {
        name: "web",
        image: "nginx:1.27.0",
        env: [
          { name: "LOG_LEVEL", value: "info" },
          { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
        ],
        volumeMounts: [{ name: "config", mountPath: "/etc/nginx/conf.d" }],
        resources,
      },
      { name: "sidecar", image: "busybox:1.36", command: ["sleep", "3600"], volumeMounts: [{ name: "cache", mountPath: "/cache" }], resources },
    ],
    volumes: [
      { name: "config", configMap: { name: "storefront-config" } },
      { name: "cache", emptyDir: {} },
    ],
  },
});

const images = (o: any) => o.spec.containers.map((c: any) => [c.name, c.image]);

describe("strategic merge patch on a pod", { timeout: 120_000 }, () => {
  const name = "smp-pod";

  beforeAll(async () => {
    await create(POD, twoContainerPod(name));
  });

  test("containers merge by name: patching one container's image keeps the other container whole", async () => {
    const before = await get(POD, name);
    const after = await patch(POD, name, { spec: { containers: [{ name: "sidecar", image: "busybox:1.37" }] } });
    expect(images(after)).toEqual([["web", "nginx:1.27.0"], ["sidecar", "busybox:1.37"]]);
    expect(after.spec.containers[1].command).toEqual(["sleep", "3600"]);
    expect(after.spec.containers[0]).toEqual(before.spec.containers[0]);
  });

  test("env merges by name: a patch naming one variable keeps the other (else the pod update is forbidden)", async () => {
    const after = await patch(POD, name, {
      spec: { containers: [{ name: "web", image: "nginx:1.27.1", env: [{ name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }] }] },
    });
    expect(images(after)).toEqual([["web", "nginx:1.27.1"], ["sidecar", "busybox:1.37"]]);
    expect(after.spec.containers[0].env).toEqual([
      { name: "LOG_LEVEL", value: "info" },
      { name: "POD_NAME", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } } },
    ]);
  });

  test("volumes merge by name and honour $retainKeys (as kubectl apply sends it)", async () => {
    const after = await patch(POD, name, {
      spec: {
        volumes: [{ name: "cache", $retainKeys: ["emptyDir", "name"], emptyDir: {} }],
        containers: [{ name: "web", image: "nginx:1.27.2" }],
      },
    });
    // the third volume is the projected service account token the ServiceAccount admission adds at create
    expect(after.spec.volumes.map((v: any) => v.name)).toEqual(["config", "cache", expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/)]);
    expect(after.spec.volumes[1]).toEqual({ name: "cache", emptyDir: {} });
    expect(images(after)).toEqual([["web", "nginx:1.27.2"], ["sidecar", "busybox:1.37"]]);
  });

  test("$retainKeys clears the old volume source: the only error left is the pod update rule", async () => {
    // Without $retainKeys the volume would hold emptyDir and configMap (`may not specify more than 1 volume
    // type`); with it, emptyDir is dropped and the one complaint is that a pod's volumes cannot change.
    const res = await server.request("PATCH", apiPath(POD, name), {
      contentType: "application/strategic-merge-patch+json",
      body: { spec: { volumes: [{ name: "cache", $retainKeys: ["configMap", "name"], configMap: { name: "storefront-config" } }] } },
    });
    expectStatus(res, 422, "Invalid");
    expect(res.body.details.causes, res.text).toHaveLength(1);
    expect(res.body.details.causes[0].field).toBe("spec");
    expect(res.body.details.causes[0].reason).toBe("FieldValueForbidden");
    expect(res.body.details.causes[0].message).toMatch(/^Forbidden: pod updates may not change fields other than/);
  });

  test("$patch: delete removes a container, which a pod update may not do", async () => {
    const stderr = await refusedPatch(POD, name, { spec: { containers: [{ name: "sidecar", $patch: "delete" }] } });
    expect(stderr).toBe('The Pod "smp-pod" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
  });

  test("$setElementOrder/containers: the listed order wins", async () => {
    // kubectl's form: the full order plus the changed element; same order as live, so only the image changes
    const kept = await patch(POD, name, {
      spec: { "$setElementOrder/containers": [{ name: "web" }, { name: "sidecar" }], containers: [{ name: "sidecar", image: "busybox:1.37.1" }] },
    });
    expect(images(kept)).toEqual([["web", "nginx:1.27.2"], ["sidecar", "busybox:1.37.1"]]);
    // a reversed order reorders the containers, which a pod update may not do
    const stderr = await refusedPatch(POD, name, { spec: { "$setElementOrder/containers": [{ name: "sidecar" }, { name: "web" }] } });
    expect(stderr).toMatch(/^The Pod "smp-pod" is invalid: spec: Forbidden: pod updates may not change fields other than /);
  });

  test("status conditions merge by type via /status: a new type goes first, $setElementOrder reorders", async () => {
    const status = async (body: unknown) => {
      const r = await server.kubectl(["patch", "pod", name, "-n", NS, "--subresource=status", "-p", JSON.stringify(body)]);
      expect(r.stdout.trim()).toBe(`pod/${name} patched`);
      return get(POD, name);
    };
    const types = (o: any) => o.status.conditions.map((c: any) => [c.type, c.status]);
    expect(types(await status({ status: { conditions: [{ type: "PodScheduled", status: "False" }] } }))).toEqual([["PodScheduled", "False"]]);
    expect(types(await status({ status: { conditions: [{ type: "Ready", status: "False" }] } }))).toEqual([["Ready", "False"], ["PodScheduled", "False"]]);
    expect(types(await status({ status: { conditions: [{ type: "PodScheduled", status: "True" }] } }))).toEqual([["Ready", "False"], ["PodScheduled", "True"]]);
    expect(types(await status({ status: { "$setElementOrder/conditions": [{ type: "PodScheduled" }, { type: "Ready" }] } }))).toEqual([["PodScheduled", "True"], ["Ready", "False"]]);
  });

  test("a patch that empties an image is 422 with the cause, nothing written", async () => {
    const stderr = await refusedPatch(POD, name, { spec: { containers: [{ name: "web", image: "" }] } });
    expect(stderr).toBe('The Pod "smp-pod" is invalid: spec.containers[0].image: Required value');
  });
});

describe("strategic merge patch on service ports, service account secrets and metadata", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const svc = loadFixture(SVC, NS);
    svc.metadata.name = "smp-svc";
    await create(SVC, svc);
    const sa = loadFixture(SA, NS);
    sa.metadata.name = "smp-sa";
    await create(SA, sa);
    const cm = loadFixture(CM, NS);
    cm.metadata.name = "smp-cm";
    cm.metadata.finalizers = ["shop.example.com/a"];
    await create(CM, cm);
  });

  const ports = (o: any) => o.spec.ports.map((p: any) => [p.name, p.port, p.targetPort]);

  test("Service ports merge by port; a new port goes first; $setElementOrder reorders; $patch: delete removes", async () => {
    let o = await patch(SVC, "smp-svc", { spec: { ports: [{ port: 80, targetPort: 8081 }] } });
    expect(ports(o)).toEqual([["http", 80, 8081], ["metrics", 9113, "metrics"]]);

    o = await patch(SVC, "smp-svc", { spec: { ports: [{ name: "https", port: 443, targetPort: 8443 }] } });
    expect(ports(o)).toEqual([["https", 443, 8443], ["http", 80, 8081], ["metrics", 9113, "metrics"]]);
    expect(o.spec.ports[0].protocol).toBe("TCP");

    o = await patch(SVC, "smp-svc", { spec: { "$setElementOrder/ports": [{ port: 80 }, { port: 9113 }, { port: 443 }] } });
    expect(ports(o)).toEqual([["http", 80, 8081], ["metrics", 9113, "metrics"], ["https", 443, 8443]]);

    o = await patch(SVC, "smp-svc", { spec: { ports: [{ port: 9113, $patch: "delete" }] } });
    expect(ports(o)).toEqual([["http", 80, 8081], ["https", 443, 8443]]);

    // selector is a map: null removes one key
    o = await patch(SVC, "smp-svc", { spec: { selector: { "app.kubernetes.io/component": null } } });
    expect(o.spec.selector).toEqual({ "app.kubernetes.io/name": "storefront" });
  });

  test("ServiceAccount secrets merge by name and $patch: delete removes one; imagePullSecrets is replaced", async () => {
    let o = await patch(SA, "smp-sa", { secrets: [{ name: "extra-token" }] });
    expect(o.secrets).toEqual([{ name: "extra-token" }, { name: "storefront-deployer-token" }]);

    o = await patch(SA, "smp-sa", { secrets: [{ name: "storefront-deployer-token", $patch: "delete" }] });
    expect(o.secrets).toEqual([{ name: "extra-token" }]);

    o = await patch(SA, "smp-sa", { imagePullSecrets: [{ name: "mirror-credentials" }] });
    expect(o.imagePullSecrets).toEqual([{ name: "mirror-credentials" }]);
  });

  test("finalizers are a set: a patch adds (new first), $deleteFromPrimitiveList removes", async () => {
    let o = await patch(CM, "smp-cm", { metadata: { finalizers: ["shop.example.com/b", "shop.example.com/a"] } });
    expect(o.metadata.finalizers).toEqual(["shop.example.com/b", "shop.example.com/a"]);

    o = await patch(CM, "smp-cm", { metadata: { finalizers: ["shop.example.com/c"] } });
    expect(o.metadata.finalizers).toEqual(["shop.example.com/c", "shop.example.com/b", "shop.example.com/a"]);

    o = await patch(CM, "smp-cm", { metadata: { "$deleteFromPrimitiveList/finalizers": ["shop.example.com/b"] } });
    expect(o.metadata.finalizers).toEqual(["shop.example.com/c", "shop.example.com/a"]);

    // a merge patch replaces the list
    o = await patch(CM, "smp-cm", { metadata: { finalizers: null } }, "merge");
    expect(o.metadata.finalizers).toBeUndefined();
  });

  test("$retainKeys on a map keeps only the listed keys; $patch: replace replaces the map", async () => {
    let o = await patch(CM, "smp-cm", { data: { $retainKeys: ["LOG_LEVEL", "MODE"], MODE: "fast" } });
    expect(o.data).toEqual({ LOG_LEVEL: "info", MODE: "fast" });

    o = await patch(CM, "smp-cm", { data: { $patch: "replace", ONLY: "this" } });
    expect(o.data).toEqual({ ONLY: "this" });
  });
});

describe("refused patches write nothing", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const cm = loadFixture(CM, NS);
    cm.metadata.name = "refused-cm";
    await create(CM, cm);
    const svc = loadFixture(SVC, NS);
    svc.metadata.name = "refused-svc";
    await create(SVC, svc);
  });

  test("a JSON patch whose test op fails is 422 and the object keeps its resourceVersion", async () => {
    const ops = [
      { op: "test", path: "/data/LOG_LEVEL", value: "debug" },
      { op: "replace", path: "/data/LOG_LEVEL", value: "trace" },
    ];
    const stderr = await refusedPatch(CM, "refused-cm", ops, "json");
    expect(stderr).toBe("The request is invalid: the server rejected our request due to an error in our request");

    const res = await server.request("PATCH", apiPath(CM, "refused-cm"), { contentType: "application/json-patch+json", body: ops });
    expectStatus(res, 422, "Invalid", "the server rejected our request due to an error in our request");
    expect(res.body.details).toEqual({});

    // the same patch with a passing test applies
    const ok = await patch(CM, "refused-cm", [{ ...ops[0], value: "info" }, ops[1]], "json");
    expect(ok.data.LOG_LEVEL).toBe("trace");
  });

  test("a JSON patch on a missing path is 422, nothing written", async () => {
    const stderr = await refusedPatch(CM, "refused-cm", [{ op: "replace", path: "/data/NOPE", value: "x" }], "json");
    expect(stderr).toBe("The request is invalid: the server rejected our request due to an error in our request");
  });

  test("patches producing an invalid object are 422 with the causes, for each patch type", async () => {
    const unsupported = 'spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"';
    expect(await refusedPatch(SVC, "refused-svc", { spec: { type: "Bogus" } })).toBe(`The Service "refused-svc" is invalid: ${unsupported}`);
    expect(await refusedPatch(SVC, "refused-svc", { spec: { type: "Bogus" } }, "merge")).toBe(`The Service "refused-svc" is invalid: ${unsupported}`);
    expect(await refusedPatch(SVC, "refused-svc", [{ op: "replace", path: "/spec/type", value: "Bogus" }], "json")).toBe(
      `The Service "refused-svc" is invalid: ${unsupported}`,
    );
    expect(await refusedPatch(SVC, "refused-svc", { spec: { ports: [{ port: 80, protocol: "SCTPX" }] } })).toBe(
      'The Service "refused-svc" is invalid: spec.ports[0].protocol: Unsupported value: "SCTPX": supported values: "SCTP", "TCP", "UDP"',
    );

    const res = await server.request("PATCH", apiPath(SVC, "refused-svc"), {
      contentType: "application/merge-patch+json",
      body: { spec: { sessionAffinity: "Sometimes" } },
    });
    expectStatus(res, 422, "Invalid", 'Service "refused-svc" is invalid: spec.sessionAffinity: Unsupported value: "Sometimes": supported values: "ClientIP", "None"');
    expect(res.body.details).toEqual({
      name: "refused-svc",
      kind: "Service",
      causes: [{ reason: "FieldValueNotSupported", message: 'Unsupported value: "Sometimes": supported values: "ClientIP", "None"', field: "spec.sessionAffinity" }],
    });
  });

  test("a patch whose result has a value of the wrong type is 422 on `patch` (kube's test/cmd: cannot restore map from string)", async () => {
    // kube-apiserver converts a strategic merge patch's result with its unstructured converter, and decodes
    // a JSON or merge patch's result as JSON: either refusal is an Invalid on the field `patch`.
    const stderr = await refusedPatch(CM, "refused-cm", { metadata: { labels: "invalid" } });
    expect(stderr).toBe('The request is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string');
    const res = await server.request("PATCH", apiPath(CM, "refused-cm"), { contentType: "application/strategic-merge-patch+json", body: { data: { a: 1 } } });
    expectStatus(res, 422, "Invalid", ' "" is invalid: patch: Invalid value: "map[data:map[a:1]]": cannot convert int64 to string');
    expect(res.body.details.causes).toEqual([{ reason: "FieldValueInvalid", message: 'Invalid value: "map[data:map[a:1]]": cannot convert int64 to string', field: "patch" }]);
    const merge = await server.request("PATCH", apiPath(CM, "refused-cm"), { contentType: "application/merge-patch+json", body: { metadata: { labels: "invalid" } } });
    expectStatus(merge, 422, "Invalid", /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map\[string\]string$/);
  });

  test("a strategic merge list element without its merge key is refused, nothing written", async () => {
    const before = await get(SVC, "refused-svc");
    const res = await server.request("PATCH", apiPath(SVC, "refused-svc"), {
      contentType: "application/strategic-merge-patch+json",
      body: { spec: { ports: [{ targetPort: 9999 }] } },
    });
    // kube-apiserver lets this through as a 500; the fault is the client's, so it is a 400 here.
    expect(res.status, res.text).toBe(400);
    expect(res.body.reason).toBe("BadRequest");
    expect(res.body.message).toBe("map: map[targetPort:9999] does not contain declared merge key: port");
    expect(await get(SVC, "refused-svc")).toEqual(before);
  });
});

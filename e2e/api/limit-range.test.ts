// LimitRanger and ServiceAccount admission and the root CA publisher, driven as a user would with kubectl and
// raw HTTP: LimitRange defaults and their annotation, kube's 403s for max, min and ratio (containers, pods,
// claims), the default ServiceAccount with its projected token volume, a missing account refused, and
// kube-root-ca.crt in every namespace, also after a restart.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import YAML from "yaml";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";

const NS = "e2e-limits";
let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS, "e2e-claims", "e2e-accounts");
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const yaml = (...docs: object[]) => docs.map((d) => YAML.stringify(d)).join("---\n");
const podManifest = (name: string, containers: object[], extra: object = {}) =>
  ({ apiVersion: "v1", kind: "Pod", metadata: { name }, spec: { containers, ...extra } });
const c = (name: string, resources?: object) => ({ name, image: "nginx:1.27", ...(resources ? { resources } : {}) });

async function getPod(ns: string, name: string): Promise<any> {
  const r = await server.kubectl(["get", "pod", name, "-n", ns, "-o", "json"]);
  return JSON.parse(r.stdout);
}

describe("LimitRanger", () => {
  beforeAll(async () => {
    const created = await server.kubectl(["create", "-n", NS, "-f", "-"], {
      input: yaml({
        apiVersion: "v1", kind: "LimitRange", metadata: { name: "limits" },
        spec: {
          limits: [
            { type: "Container", default: { cpu: "500m", memory: "256Mi" }, defaultRequest: { cpu: "100m", memory: "128Mi" },
              max: { cpu: "1", memory: "1Gi" }, min: { memory: "64Mi" }, maxLimitRequestRatio: { cpu: "5" } },
            { type: "Pod", max: { cpu: "1500m" } },
          ],
        },
      }),
    });
    expect(created.stdout.trim()).toBe("limitrange/limits created");
  });

  test("kubectl run gets the LimitRange's defaults and kube's annotation", async () => {
    expect((await server.kubectl(["run", "plain", "--image=nginx:1.27", "-n", NS])).stdout.trim()).toBe("pod/plain created");
    const pod = await getPod(NS, "plain");
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: "500m", memory: "256Mi" }, requests: { cpu: "100m", memory: "128Mi" } });
    expect(pod.metadata.annotations["kubernetes.io/limit-ranger"]).toBe(
      "LimitRanger plugin set: cpu, memory request for container plain; cpu, memory limit for container plain");
    const desc = await server.kubectl(["describe", "limitrange", "limits", "-n", NS]);
    expect(desc.stdout).toMatch(/Container\s+cpu\s+-\s+1\s+100m\s+500m\s+5/);
  });

  test("a server-side dry run shows the defaults and stores nothing", async () => {
    const r = await server.kubectl(["create", "-n", NS, "--dry-run=server", "-o", "json", "-f", "-"], { input: yaml(podManifest("dry", [c("app")])) });
    expect(JSON.parse(r.stdout).spec.containers[0].resources.limits).toEqual({ cpu: "500m", memory: "256Mi" });
    expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/dry`)).status).toBe(404);
  });

  test("a container over the max is refused 403 with every reason, the Pod max's included", async () => {
    const r = await server.kubectl(["create", "-n", NS, "-f", "-"], {
      input: yaml(podManifest("big", [c("app", { limits: { cpu: "2", memory: "2Gi" } })])), allowFail: true,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: '
      + "[maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, "
      + "maximum cpu usage per Pod is 1500m, but limit is 2]");
    const raw = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, { body: podManifest("big", [c("app", { limits: { cpu: "1200m" } })]) });
    expect(raw.status).toBe(403);
    expect(raw.body).toMatchObject({
      kind: "Status", status: "Failure", reason: "Forbidden", code: 403, details: { name: "big", kind: "pods" },
      message: 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 1200m',
    });
    expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/big`)).status).toBe(404);
  });

  test("a request under the min and a ratio over maxLimitRequestRatio are refused with kube's text", async () => {
    const low = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, {
      body: podManifest("low", [c("app", { requests: { memory: "32Mi", cpu: "250m" } })]),
    });
    expect(low.status).toBe(403);
    expect(low.body.message).toBe('pods "low" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi');
    const ratio = await server.kubectl(["create", "-n", NS, "-f", "-"], {
      input: yaml(podManifest("greedy", [c("app", { requests: { cpu: "100m" }, limits: { cpu: "1" } })])), allowFail: true,
    });
    expect(ratio.stderr).toContain('pods "greedy" is forbidden: cpu max limit to request ratio per Container is 5, but provided ratio is 10.000000');
  });

  test("the Pod max holds the sum over containers", async () => {
    const r = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, {
      body: podManifest("pair", [c("a", { limits: { cpu: "1" } }), c("b", { limits: { cpu: "800m" } })]),
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "pair" is forbidden: maximum cpu usage per Pod is 1500m, but limit is 1800m');
    const fits = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, {
      body: podManifest("pair", [c("a", { limits: { cpu: "1" } }), c("b", { limits: { cpu: "500m" } })]),
    });
    expect(fits.status, fits.text).toBe(201);
  });

  test("claims are held to the PersistentVolumeClaim min and max of requests.storage", async () => {
    await server.kubectl(["create", "-n", "e2e-claims", "-f", "-"], {
      input: yaml({ apiVersion: "v1", kind: "LimitRange", metadata: { name: "storage" },
        spec: { limits: [{ type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "5Gi" } }] } }),
    });
    const claim = (name: string, storage: string) => ({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } } });
    const small = await server.kubectl(["create", "-n", "e2e-claims", "-f", "-"], { input: yaml(claim("small", "500Mi")), allowFail: true });
    expect(small.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": persistentvolumeclaims "small" is forbidden: '
      + "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi");
    const big = await server.request("POST", "/api/v1/namespaces/e2e-claims/persistentvolumeclaims", { body: claim("big", "10Gi") });
    expect(big.status).toBe(403);
    expect(big.body.message).toBe('persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi');
    expect((await server.kubectl(["create", "-n", "e2e-claims", "-f", "-"], { input: yaml(claim("fine", "2Gi")) })).stdout.trim())
      .toBe("persistentvolumeclaim/fine created");
  });
});

describe("ServiceAccount admission", () => {
  test("a pod gets the default account and kube's projected token volume in every container", async () => {
    await server.kubectl(["create", "-n", "e2e-accounts", "-f", "-"], {
      input: yaml(podManifest("web", [c("app"), c("log")], { initContainers: [c("init")] })),
    });
    const pod = await getPod("e2e-accounts", "web");
    expect(pod.spec.serviceAccountName).toBe("default");
    expect(pod.spec.serviceAccount).toBe("default");
    const volume = pod.spec.volumes.find((v: any) => v.name.startsWith("kube-api-access-"));
    expect(volume.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(volume.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
    });
    for (const container of [...pod.spec.containers, ...pod.spec.initContainers]) {
      expect(container.volumeMounts, container.name).toEqual([{ name: volume.name, mountPath: "/var/run/secrets/kubernetes.io/serviceaccount", readOnly: true }]);
    }
    const jsonpath = await server.kubectl(["get", "pod", "web", "-n", "e2e-accounts", "-o", "jsonpath={.spec.serviceAccountName}"]);
    expect(jsonpath.stdout).toBe("default");
  });

  test("a pod naming a missing account is refused with kube's message", async () => {
    const r = await server.kubectl(["create", "-n", "e2e-accounts", "-f", "-"], {
      input: yaml(podManifest("ghostly", [c("app")], { serviceAccountName: "ghost" })), allowFail: true,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "ghostly" is forbidden: '
      + 'error looking up service account e2e-accounts/ghost: serviceaccount "ghost" not found');
    await server.kubectl(["create", "serviceaccount", "ghost", "-n", "e2e-accounts"]);
    const ok = await server.kubectl(["create", "-n", "e2e-accounts", "-f", "-"], { input: yaml(podManifest("ghostly", [c("app")], { serviceAccountName: "ghost" })) });
    expect(ok.stdout.trim()).toBe("pod/ghostly created");
  });

  test("automountServiceAccountToken: false on the account or the pod leaves the token out", async () => {
    await server.kubectl(["create", "-n", "e2e-accounts", "-f", "-"], {
      input: yaml({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "bot" }, automountServiceAccountToken: false }),
    });
    await server.kubectl(["create", "-n", "e2e-accounts", "-f", "-"], {
      input: yaml(podManifest("quiet", [c("app")], { serviceAccountName: "bot" }), podManifest("muted", [c("app")], { automountServiceAccountToken: false })),
    });
    for (const name of ["quiet", "muted"]) {
      const pod = await getPod("e2e-accounts", name);
      expect(pod.spec.volumes, name).toBeUndefined();
      expect(pod.spec.containers[0].volumeMounts, name).toBeUndefined();
    }
  });

  test("a pod created right after its namespace waits for the default account instead of failing", async () => {
    const ns = await server.request("POST", "/api/v1/namespaces", { body: { apiVersion: "v1", kind: "Namespace", metadata: { name: "e2e-fresh" } } });
    expect(ns.status).toBe(201);
    const pods = await Promise.all([1, 2, 3].map((i) => server.request("POST", "/api/v1/namespaces/e2e-fresh/pods", { body: podManifest(`p${i}`, [c("app")]) })));
    for (const p of pods) {
      expect(p.status, p.text).toBe(201);
      expect(p.body.spec.serviceAccountName).toBe("default");
    }
  });
});

describe("kube-root-ca.crt", () => {
  test("every namespace gets the cluster CA, and gets it back when it is deleted", async () => {
    await server.kubectl(["create", "ns", "e2e-ca"]);
    const cm = await waitFor("kube-root-ca.crt", async () => {
      const r = await server.request("GET", "/api/v1/namespaces/e2e-ca/configmaps/kube-root-ca.crt");
      return r.status === 200 ? r.body : undefined;
    });
    expect(cm.data).toEqual({ "ca.crt": server.ca });
    expect(cm.metadata.annotations["kubernetes.io/description"]).toMatch(/^Contains a CA bundle that can be used to verify the kube-apiserver/);
    for (const ns of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      expect((await server.request("GET", `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status, ns).toBe(200);
    }
    expect((await server.kubectl(["delete", "configmap", "kube-root-ca.crt", "-n", "e2e-ca"])).stdout).toContain("deleted");
    const back = await waitFor("recreated kube-root-ca.crt", async () => {
      const r = await server.request("GET", "/api/v1/namespaces/e2e-ca/configmaps/kube-root-ca.crt");
      return r.status === 200 && r.body.metadata.uid !== cm.metadata.uid ? r.body : undefined;
    });
    expect(back.data).toEqual({ "ca.crt": server.ca });
  });

  test("after a restart, limits and accounts still govern and the CA is still published", async () => {
    server = await server.restart();
    const big = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, { body: podManifest("after", [c("app", { limits: { cpu: "1100m" } })]) });
    expect(big.status).toBe(403);
    expect(big.body.message).toBe('pods "after" is forbidden: maximum cpu usage per Container is 1, but limit is 1100m');
    const ok = await server.request("POST", `/api/v1/namespaces/${NS}/pods`, { body: podManifest("after", [c("app")]) });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.metadata.annotations["kubernetes.io/limit-ranger"]).toContain("cpu, memory limit for container app");
    expect(ok.body.spec.volumes[0].name).toMatch(/^kube-api-access-/);
    await server.kubectl(["create", "ns", "e2e-after"]);
    await waitFor("kube-root-ca.crt after restart", async () =>
      (await server.request("GET", "/api/v1/namespaces/e2e-after/configmaps/kube-root-ca.crt")).status === 200 || undefined);
  }, 90_000);
});

// Volume binding and protection through kubectl, as kube-controller-manager's persistentvolume-binder and the
// protection controllers do it: a claim binds the smallest volume that fits, an unmatched claim waits Pending
// with kube's Event, deleting a claim reclaims its volume by policy, and the protection finalizers keep a claim
// in use by a pod, and a Bound volume, Terminating until what holds them goes.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

let server: Server;

beforeAll(async () => {
  server = await startServer({ env: { CLUSTER_CORE_CONSOLE: "off" } });
  await createNamespaces(server, "shop");
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const volumeYaml = (name: string, size: string, policy = "Retain", labels: Record<string, string> = {}) => `
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${name}
  labels: ${JSON.stringify(labels)}
spec:
  capacity: { storage: ${size} }
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: ${policy}
  hostPath: { path: /data/${name} }
`;
const claimYaml = (name: string, size: string, selector?: Record<string, string>) => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: ${name}, namespace: shop }
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: ${size} } }
${selector ? `  selector: { matchLabels: ${JSON.stringify(selector)} }` : ""}
`;

const create = (yaml: string) => server.kubectl(["create", "-f", "-"], { input: yaml });
const getClaim = async (name: string) => (await server.request("GET", `/api/v1/namespaces/shop/persistentvolumeclaims/${name}`)).body;
const getVolume = async (name: string) => {
  const r = await server.request("GET", `/api/v1/persistentvolumes/${name}`);
  return r.status === 200 ? r.body : undefined;
};
const volumePhase = (name: string, phase: string) => async () => {
  const pv = await getVolume(name);
  return pv?.status?.phase === phase && pv;
};
const claimPhase = (name: string, phase: string) => async () => {
  const pvc = await getClaim(name);
  return pvc?.status?.phase === phase && pvc;
};
const claimEvents = async (name: string) => {
  const list = (await server.request("GET", "/api/v1/namespaces/shop/events")).body;
  return (list.items as any[]).filter((e) => e.involvedObject?.kind === "PersistentVolumeClaim" && e.involvedObject?.name === name);
};

describe("volume binding", () => {
  test("a 3Gi claim binds the 5Gi volume of 1Gi/5Gi/10Gi, both sides annotated and Bound", async () => {
    await create([volumeYaml("pv-1g", "1Gi"), volumeYaml("pv-5g", "5Gi"), volumeYaml("pv-10g", "10Gi")].join("---"));
    await waitFor("volumes Available", volumePhase("pv-10g", "Available"));
    expect((await getVolume("pv-1g")).metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
    expect((await create(claimYaml("data", "3Gi"))).stdout.trim()).toBe("persistentvolumeclaim/data created");

    const pvc = await waitFor("claim Bound", claimPhase("data", "Bound"));
    expect(pvc.spec.volumeName).toBe("pv-5g");
    expect(pvc.status).toEqual({ phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "5Gi" } });
    expect(pvc.metadata.annotations).toEqual({ "pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes" });
    expect(pvc.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
    const pv = await waitFor("volume Bound", volumePhase("pv-5g", "Bound"));
    expect(pv.spec.claimRef).toEqual({ kind: "PersistentVolumeClaim", namespace: "shop", name: "data", uid: pvc.metadata.uid, apiVersion: "v1", resourceVersion: expect.any(String) });
    expect(pv.metadata.annotations).toEqual({ "pv.kubernetes.io/bound-by-controller": "yes" });

    const table = (await server.kubectl(["get", "pvc", "data", "-n", "shop"])).stdout;
    expect(table).toMatch(/data\s+Bound\s+pv-5g\s+5Gi\s+RWO/);
    const volumes = (await server.kubectl(["get", "pv"])).stdout;
    expect(volumes).toMatch(/pv-5g\s+5Gi\s+RWO\s+Retain\s+Bound\s+shop\/data/);
    expect(volumes).toMatch(/pv-1g\s+1Gi\s+RWO\s+Retain\s+Available/);
  });

  test("a claim nothing fits stays Pending with kube's FailedBinding Event, and binds once a volume fits", async () => {
    await create(claimYaml("huge", "50Gi"));
    const [event] = await waitFor("FailedBinding event", async () => {
      const events = await claimEvents("huge");
      return events.length > 0 && events;
    });
    expect(event).toMatchObject({
      type: "Normal", reason: "FailedBinding",
      message: "no persistent volumes available for this claim and no storage class is set",
      source: { component: "persistentvolume-controller" },
    });
    expect((await getClaim("huge")).status).toEqual({ phase: "Pending" });
    const described = (await server.kubectl(["describe", "pvc", "huge", "-n", "shop"])).stdout;
    expect(described).toMatch(/Normal\s+FailedBinding\s+.*persistentvolume-controller\s+no persistent volumes available for this claim and no storage class is set/);

    await create(volumeYaml("pv-64g", "64Gi"));
    expect((await waitFor("claim Bound", claimPhase("huge", "Bound"))).spec.volumeName).toBe("pv-64g");
  });

  test("deleting a claim reclaims its volume: Retain -> Released with its claimRef, Delete -> removed", async () => {
    await create([volumeYaml("kept", "1Gi", "Retain", { for: "kept" }), volumeYaml("dropped", "1Gi", "Delete", { for: "dropped" })].join("---"));
    await create([claimYaml("keep-me", "1Gi", { for: "kept" }), claimYaml("drop-me", "1Gi", { for: "dropped" })].join("---"));
    await waitFor("kept Bound", volumePhase("kept", "Bound"));
    await waitFor("dropped Bound", volumePhase("dropped", "Bound"));
    const ref = (await getVolume("kept")).spec.claimRef;

    const deleted = await server.kubectl(["delete", "pvc", "keep-me", "drop-me", "-n", "shop", "--timeout=30s"]);
    expect(deleted.stdout).toContain(`persistentvolumeclaim "keep-me" deleted`);
    const released = await waitFor("kept Released", volumePhase("kept", "Released"));
    expect(released.spec.claimRef).toEqual(ref);
    await waitFor("dropped removed", async () => (await getVolume("dropped")) === undefined);
    expect((await server.kubectl(["get", "pv", "kept"])).stdout).toMatch(/kept\s+1Gi\s+RWO\s+Retain\s+Released\s+shop\/keep-me/);
  });

  test("a claim used by a scheduled pod keeps its finalizer (Terminating) until the pod is deleted", async () => {
    await create(volumeYaml("pod-vol", "2Gi", "Retain", { for: "pod" }));
    await create(claimYaml("in-use", "2Gi", { for: "pod" }));
    await waitFor("claim Bound", claimPhase("in-use", "Bound"));
    await waitFor("default ServiceAccount", async () => (await server.request("GET", "/api/v1/namespaces/shop/serviceaccounts/default")).status === 200);
    const pod = await server.request("POST", "/api/v1/namespaces/shop/pods", {
      body: {
        apiVersion: "v1", kind: "Pod", metadata: { name: "user" },
        spec: { nodeName: "node-1", containers: [{ name: "app", image: "nginx" }], volumes: [{ name: "data", persistentVolumeClaim: { claimName: "in-use" } }] },
      },
    });
    expect(pod.status, pod.text).toBe(201);

    await server.kubectl(["delete", "pvc", "in-use", "-n", "shop", "--wait=false"]);
    await new Promise((r) => setTimeout(r, 500));
    const held = await getClaim("in-use");
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    expect(held.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
    expect((await server.kubectl(["get", "pvc", "in-use", "-n", "shop"])).stdout).toMatch(/in-use\s+Terminating\s+pod-vol/);
    expect((await getVolume("pod-vol")).status.phase).toBe("Bound");

    await server.kubectl(["delete", "pod", "user", "-n", "shop", "--grace-period=0", "--force"]);
    await waitFor("claim removed", async () => (await server.request("GET", "/api/v1/namespaces/shop/persistentvolumeclaims/in-use")).status === 404);
    await waitFor("volume Released", volumePhase("pod-vol", "Released"));
  });

  test("kubectl delete pv of a Bound volume waits, Terminating, until its claim goes", async () => {
    await create(volumeYaml("held", "3Gi", "Retain", { for: "held" }));
    await create(claimYaml("holder", "3Gi", { for: "held" }));
    await waitFor("volume Bound", volumePhase("held", "Bound"));

    let finished = false;
    const deleting = server.kubectl(["delete", "pv", "held", "--timeout=60s"]).then((r) => { finished = true; return r; });
    const terminating = await waitFor("volume Terminating", async () => {
      const pv = await getVolume("held");
      return pv?.metadata.deletionTimestamp && pv;
    });
    expect(terminating.metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
    expect((await server.kubectl(["get", "pv", "held"])).stdout).toMatch(/held\s+3Gi\s+RWO\s+Retain\s+Terminating\s+shop\/holder/);
    await new Promise((r) => setTimeout(r, 1000));
    expect(finished).toBe(false);

    await server.kubectl(["delete", "pvc", "holder", "-n", "shop"]);
    const result = await deleting;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`persistentvolume "held" deleted`);
    expect(await getVolume("held")).toBeUndefined();
  });
});

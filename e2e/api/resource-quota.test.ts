// ResourceQuota as a user meets it through kubectl and raw HTTP: status.hard and status.used kept current,
// creates past the limit refused with kube's message, pods that leave tracked compute undeclared refused,
// concurrent creates never taking more than is left, dry runs not charged, failed writes and deletes given
// back, and usage measured again after a restart.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "quota-a", "quota-b", "quota-race", "quota-dry");
}, 120_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const quotaPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/resourcequotas/${name}`;

async function usedBecomes(ns: string, name: string, used: Record<string, string>, timeoutMs = 10_000): Promise<any> {
  let last: unknown;
  try {
    return await waitFor(`${ns}/${name} used ${JSON.stringify(used)}`, async () => {
      const r = await server.request("GET", quotaPath(ns, name));
      last = r.body?.status?.used;
      return JSON.stringify(last) === JSON.stringify(used) ? r.body : undefined;
    }, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}; last seen ${JSON.stringify(last)}`);
  }
}

/** Every namespace gets `kube-root-ca.crt`; counts below include it. */
const rootCA = (ns: string) => waitFor(`kube-root-ca.crt in ${ns}`, async () =>
  (await server.request("GET", `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status === 200 || undefined);

const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });

describe("resource quota", () => {
  test("kubectl create quota; status.hard and status.used follow creates and deletes", async () => {
    await rootCA("quota-a");
    expect((await server.kubectl(["create", "quota", "q", "-n", "quota-a", "--hard=pods=2,configmaps=3"])).stdout.trim()).toBe("resourcequota/q created");
    const q = await usedBecomes("quota-a", "q", { configmaps: "1", pods: "0" });
    expect(q.status.hard).toEqual({ configmaps: "3", pods: "2" });
    expect(q.spec.hard).toEqual({ configmaps: "3", pods: "2" });

    await server.kubectl(["create", "configmap", "one", "-n", "quota-a", "--from-literal=a=b"]);
    expect((await server.kubectl(["get", "quota", "q", "-n", "quota-a", "-o", "jsonpath={.status.used.configmaps}"])).stdout).toBe("2");
    for (const p of ["p1", "p2"]) {
      expect((await server.kubectl(["run", p, "-n", "quota-a", "--image=nginx"])).stdout.trim()).toBe(`pod/${p} created`);
    }
    expect((await server.request("GET", quotaPath("quota-a", "q"))).body.status.used).toEqual({ configmaps: "2", pods: "2" });

    const third = await server.kubectl(["run", "p3", "-n", "quota-a", "--image=nginx"], { allowFail: true });
    expect(third.code).not.toBe(0);
    expect(third.stderr.trim()).toBe(`Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`);
    const raw = await server.request("POST", "/api/v1/namespaces/quota-a/configmaps", { body: configMap("two") });
    expect(raw.status).toBe(201);
    const over = await server.request("POST", "/api/v1/namespaces/quota-a/configmaps", { body: configMap("three") });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      kind: "Status", status: "Failure", reason: "Forbidden", code: 403, details: { name: "three", kind: "configmaps" },
      message: `configmaps "three" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=3, limited: configmaps=3`,
    });

    await server.kubectl(["delete", "pod", "p1", "-n", "quota-a"]);
    await server.kubectl(["delete", "configmap", "one", "-n", "quota-a"]);
    await usedBecomes("quota-a", "q", { configmaps: "2", pods: "1" });
    expect((await server.kubectl(["run", "p3", "-n", "quota-a", "--image=nginx"])).stdout.trim()).toBe("pod/p3 created");
  });

  test("a pod that leaves tracked cpu and memory undeclared is refused with kube's message; finished pods stop counting", async () => {
    await server.kubectl(["create", "quota", "compute", "-n", "quota-b", "--hard=limits.cpu=1,requests.memory=1Gi,pods=2"]);
    await usedBecomes("quota-b", "compute", { "limits.cpu": "0", pods: "0", "requests.memory": "0" });
    const bare = await server.kubectl(["run", "bare", "-n", "quota-b", "--image=nginx"], { allowFail: true });
    expect(bare.stderr.trim()).toBe(`Error from server (Forbidden): pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: bare; requests.memory for: bare`);

    const pod = (name: string, cpu: string) => ({
      apiVersion: "v1", kind: "Pod", metadata: { name },
      spec: { containers: [{ name: "app", image: "nginx", resources: { limits: { cpu, memory: "512Mi" } } }] },
    });
    expect((await server.request("POST", "/api/v1/namespaces/quota-b/pods", { body: pod("a", "600m") })).status).toBe(201);
    expect((await server.request("GET", quotaPath("quota-b", "compute"))).body.status.used).toEqual({ "limits.cpu": "600m", pods: "1", "requests.memory": "512Mi" });
    const tooMuch = await server.request("POST", "/api/v1/namespaces/quota-b/pods", { body: pod("b", "500m") });
    expect(tooMuch.body.message).toBe(`pods "b" is forbidden: exceeded quota: compute, requested: limits.cpu=500m, used: limits.cpu=600m, limited: limits.cpu=1`);

    // Playing the kubelet: the pod finishes, and its compute is given back.
    const current = (await server.request("GET", "/api/v1/namespaces/quota-b/pods/a")).body;
    const done = await server.request("PUT", "/api/v1/namespaces/quota-b/pods/a/status", { body: { ...current, status: { ...current.status, phase: "Succeeded" } } });
    expect(done.status).toBe(200);
    await usedBecomes("quota-b", "compute", { "limits.cpu": "0", pods: "0", "requests.memory": "0" });
    expect((await server.request("POST", "/api/v1/namespaces/quota-b/pods", { body: pod("b", "500m") })).status).toBe(201);
  });

  test("ten concurrent creates for the last unit: exactly one is admitted", async () => {
    await rootCA("quota-race");
    await server.kubectl(["create", "quota", "last", "-n", "quota-race", "--hard=configmaps=2"]);
    await usedBecomes("quota-race", "last", { configmaps: "1" });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      server.request("POST", "/api/v1/namespaces/quota-race/configmaps", { body: configMap(`racer-${i}`) })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(403)]);
    for (const a of answers.filter((x) => x.status === 403)) {
      expect(a.body.message).toMatch(/^configmaps "racer-\d" is forbidden: exceeded quota: last, requested: configmaps=1, used: configmaps=2, limited: configmaps=2$/);
    }
    const list = await server.request("GET", "/api/v1/namespaces/quota-race/configmaps");
    expect(list.body.items).toHaveLength(2);
    expect((await server.request("GET", quotaPath("quota-race", "last"))).body.status.used).toEqual({ configmaps: "2" });
  });

  test("dry runs are checked but not charged; a charge whose write failed is given back", async () => {
    await rootCA("quota-dry");
    await server.kubectl(["create", "quota", "q", "-n", "quota-dry", "--hard=configmaps=2"]);
    await usedBecomes("quota-dry", "q", { configmaps: "1" });
    for (const name of ["d1", "d2", "d3"]) {
      const dry = await server.kubectl(["create", "configmap", name, "-n", "quota-dry", "--from-literal=a=b", "--dry-run=server"]);
      expect(dry.stdout.trim()).toBe(`configmap/${name} created (server dry run)`);
    }
    expect((await server.request("GET", quotaPath("quota-dry", "q"))).body.status.used).toEqual({ configmaps: "1" });

    expect((await server.request("POST", "/api/v1/namespaces/quota-dry/configmaps", { body: configMap("real") })).status).toBe(201);
    const full = await server.request("POST", "/api/v1/namespaces/quota-dry/configmaps?dryRun=All", { body: configMap("more") });
    expect(full.status).toBe(403);

    // Deleting one and then creating a duplicate name: the duplicate is charged, refused by the store (409), and
    // the charge comes back once the controller measures again.
    await server.request("DELETE", "/api/v1/namespaces/quota-dry/configmaps/real");
    await usedBecomes("quota-dry", "q", { configmaps: "1" });
    expect((await server.request("POST", "/api/v1/namespaces/quota-dry/configmaps", { body: configMap("kube-root-ca.crt") })).status).toBe(409);
    await usedBecomes("quota-dry", "q", { configmaps: "1" });
    expect((await server.request("POST", "/api/v1/namespaces/quota-dry/configmaps", { body: configMap("again") })).status).toBe(201);
  });

  test("a restart measures usage again", { timeout: 90_000 }, async () => {
    const q = (await server.request("GET", quotaPath("quota-a", "q"))).body;
    const wrong = await server.request("PUT", `${quotaPath("quota-a", "q")}/status`, { body: { ...q, status: { hard: q.status.hard, used: { configmaps: "3", pods: "0" } } } });
    expect(wrong.status).toBe(200);
    // Killed before it could correct the value: the new process measures it again once it holds the
    // controllers' Lease (the dead holder's Lease must expire first, 15 s).
    await server.kill9();
    server = await server.restart();
    // Two configmaps (kube-root-ca.crt, two) and two pods (p2, p3) are really there.
    await usedBecomes("quota-a", "q", { configmaps: "2", pods: "2" }, 45_000);
    expect((await server.kubectl(["get", "quota", "q", "-n", "quota-a"])).stdout).toMatch(/q\s+\S+\s+configmaps: 2\/3, pods: 2\/2/);
  });
});

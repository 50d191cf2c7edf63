// The endpoints controller as a user meets it: Services created with kubectl get Endpoints listing their pods,
// kept current within a second as the "kubelet" (this test, writing pod status) reports IPs and readiness, as
// selectors change and pods go; removed with the Service; a selectorless Service's Endpoints are the user's.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "ep-web", "ep-manual", "ep-restart");
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const apply = async (ns: string, manifest: object) => {
  const r = await server.kubectl(["apply", "-n", ns, "-f", "-"], { input: JSON.stringify(manifest) });
  expect(r.code, r.stderr).toBe(0);
};

const pod = (name: string, labels: Record<string, string>, ports: { name: string; containerPort: number }[]) => ({
  apiVersion: "v1", kind: "Pod",
  metadata: { name, labels },
  // No scheduler here: the pod names its node as a scheduled one would.
  spec: { nodeName: "node-1", containers: [{ name: "app", image: "nginx", ports }] },
});

/** Plays the kubelet: PUT .../pods/<name>/status with an IP and the Ready condition. */
async function report(ns: string, name: string, ip: string, ready: boolean): Promise<number> {
  const current = await server.request("GET", `/api/v1/namespaces/${ns}/pods/${name}`);
  expect(current.status).toBe(200);
  const status = {
    ...current.body.status,
    phase: "Running",
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, "Z") }],
  };
  const r = await server.request("PUT", `/api/v1/namespaces/${ns}/pods/${name}/status`, { body: { ...current.body, status } });
  expect(r.status, r.text).toBe(200);
  return Date.now();
}

interface Address { ip: string; nodeName?: string; hostname?: string; targetRef?: { kind: string; namespace: string; name: string; uid: string } }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: { name?: string; port: number; protocol: string }[] }

/** Polls the Endpoints until `check` holds; fails when that takes longer than `withinMs` after `since`. */
async function endpointsWithin(ns: string, name: string, check: (ep: any) => boolean, since: number, withinMs = 1000): Promise<any> {
  for (;;) {
    const r = await server.request("GET", `/api/v1/namespaces/${ns}/endpoints/${name}`);
    if (r.status === 200 && check(r.body)) return r.body;
    if (Date.now() - since > withinMs) {
      throw new Error(`endpoints ${ns}/${name} not as expected ${withinMs} ms after the change: ${r.status} ${JSON.stringify(r.body)}`);
    }
    await new Promise((res) => setTimeout(res, 20));
  }
}

const kubectlEndpoints = async (ns: string, name: string) => {
  const r = await server.kubectl(["get", "endpoints", name, "-n", ns, "-o", "json"]);
  return JSON.parse(r.stdout);
};

const readyIPs = (ep: { subsets?: Subset[] }) => (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();
const notReadyIPs = (ep: { subsets?: Subset[] }) => (ep.subsets ?? []).flatMap((s) => (s.notReadyAddresses ?? []).map((a) => a.ip)).sort();

describe("endpoints controller", () => {
  test("a Service's Endpoints list its pods with IPs: ready, not ready, named ports resolved per pod", async () => {
    const ns = "ep-web";
    await apply(ns, {
      apiVersion: "v1", kind: "Service",
      metadata: { name: "web", labels: { app: "web", team: "shop" } },
      spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] },
    });
    await apply(ns, pod("web-a", { app: "web" }, [{ name: "http", containerPort: 8080 }]));
    await apply(ns, pod("web-b", { app: "web" }, [{ name: "http", containerPort: 8080 }]));
    await apply(ns, pod("web-c", { app: "web" }, [{ name: "admin", containerPort: 9000 }]));
    await apply(ns, pod("db", { app: "db" }, [{ name: "http", containerPort: 8080 }]));

    // Created at once, empty: no pod has an IP yet.
    const empty = await endpointsWithin(ns, "web", () => true, Date.now());
    expect(empty.subsets).toBeUndefined();

    await report(ns, "web-a", "10.244.0.11", true);
    await report(ns, "web-c", "10.244.0.13", true);
    await report(ns, "db", "10.244.0.20", true);
    const t = await report(ns, "web-b", "10.244.0.12", false);
    await endpointsWithin(ns, "web", (ep) => notReadyIPs(ep).length === 1, t);

    const ep = await kubectlEndpoints(ns, "web");
    const uid = async (name: string) => (await server.request("GET", `/api/v1/namespaces/${ns}/pods/${name}`)).body.metadata.uid;
    // web-c has no port named "http": it serves no port of this service, so it is not listed.
    expect(ep.subsets).toEqual([{
      addresses: [{ ip: "10.244.0.11", nodeName: "node-1", targetRef: { kind: "Pod", namespace: ns, name: "web-a", uid: await uid("web-a") } }],
      notReadyAddresses: [{ ip: "10.244.0.12", nodeName: "node-1", targetRef: { kind: "Pod", namespace: ns, name: "web-b", uid: await uid("web-b") } }],
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    }]);
    expect(ep.metadata.labels).toMatchObject({ app: "web", team: "shop" });
    expect(ep.metadata.annotations["endpoints.kubernetes.io/last-change-trigger-time"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const table = await server.kubectl(["get", "endpoints", "web", "-n", ns]);
    expect(table.stdout).toMatch(/^web\s+10\.244\.0\.11:8080\s+/m);

    // Readiness both ways.
    let since = await report(ns, "web-b", "10.244.0.12", true);
    await endpointsWithin(ns, "web", (e) => readyIPs(e).join() === "10.244.0.11,10.244.0.12" && notReadyIPs(e).length === 0, since);
    since = await report(ns, "web-a", "10.244.0.11", false);
    await endpointsWithin(ns, "web", (e) => readyIPs(e).join() === "10.244.0.12" && notReadyIPs(e).join() === "10.244.0.11", since);
  });

  test("selector changes, label changes and pod deletion move the addresses within a second", async () => {
    const ns = "ep-web";
    await server.kubectl(["patch", "service", "web", "-n", ns, "-p", JSON.stringify({ spec: { selector: { app: "db" } } })]);
    let since = Date.now();
    await endpointsWithin(ns, "web", (e) => readyIPs(e).join() === "10.244.0.20" && notReadyIPs(e).length === 0, since);

    await server.kubectl(["label", "pod", "web-b", "-n", ns, "app=db", "--overwrite"]);
    since = Date.now();
    await endpointsWithin(ns, "web", (e) => readyIPs(e).join() === "10.244.0.12,10.244.0.20", since);

    // A scheduled pod deletes gracefully; once it is terminating it serves no more.
    const del = await server.kubectl(["delete", "pod", "db", "-n", ns, "--wait=false"]);
    expect(del.code, del.stderr).toBe(0);
    since = Date.now();
    await endpointsWithin(ns, "web", (e) => readyIPs(e).join() === "10.244.0.12", since);
  });

  test("deleting the Service deletes its Endpoints", async () => {
    const ns = "ep-web";
    const r = await server.kubectl(["delete", "service", "web", "-n", ns]);
    expect(r.code, r.stderr).toBe(0);
    const since = Date.now();
    while ((await server.request("GET", `/api/v1/namespaces/${ns}/endpoints/web`)).status !== 404) {
      if (Date.now() - since > 1000) throw new Error("endpoints still there a second after the Service was deleted");
      await new Promise((res) => setTimeout(res, 20));
    }
    const got = await server.kubectl(["get", "endpoints", "web", "-n", ns], { allowFail: true });
    expect(got.stderr).toContain(`endpoints "web" not found`);
  });

  test("a selectorless Service's Endpoints are left to the user", async () => {
    const ns = "ep-manual";
    await apply(ns, { apiVersion: "v1", kind: "Service", metadata: { name: "external-db" }, spec: { ports: [{ name: "pg", port: 5432 }] } });
    await apply(ns, {
      apiVersion: "v1", kind: "Endpoints", metadata: { name: "external-db" },
      subsets: [{ addresses: [{ ip: "192.168.10.21" }], ports: [{ name: "pg", port: 5432 }] }],
    });
    await apply(ns, pod("db", { app: "db" }, [{ name: "pg", containerPort: 5432 }]));
    await report(ns, "db", "10.244.1.5", true);
    const before = await kubectlEndpoints(ns, "external-db");
    // Touch the service too: still nothing for the controller to do.
    await server.kubectl(["label", "service", "external-db", "-n", ns, "tier=data"]);
    await new Promise((r) => setTimeout(r, 500));
    const after = await kubectlEndpoints(ns, "external-db");
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.subsets).toEqual([{ addresses: [{ ip: "192.168.10.21" }], ports: [{ name: "pg", port: 5432, protocol: "TCP" }] }]);
    expect(after.metadata.labels).toBeUndefined();
  });

  test("after a restart the controller resyncs: Endpoints match, orphans go, changes are followed again", async () => {
    const ns = "ep-restart";
    await apply(ns, { apiVersion: "v1", kind: "Service", metadata: { name: "api" }, spec: { selector: { app: "api" }, ports: [{ port: 80, targetPort: 8080 }] } });
    await apply(ns, pod("api-0", { app: "api" }, []));
    await apply(ns, pod("api-1", { app: "api" }, []));
    await report(ns, "api-0", "10.244.2.1", true);
    await report(ns, "api-1", "10.244.2.2", false);
    // An Endpoints object with no Service: kube's controller removes such leftovers when it starts.
    await apply(ns, { apiVersion: "v1", kind: "Endpoints", metadata: { name: "orphan" }, subsets: [{ addresses: [{ ip: "10.9.9.9" }] }] });

    server = await server.restart();
    const ep = await endpointsWithin(ns, "api", (e) => readyIPs(e).join() === "10.244.2.1" && notReadyIPs(e).join() === "10.244.2.2", Date.now(), 30_000);
    expect(ep.subsets[0].ports).toEqual([{ port: 8080, protocol: "TCP" }]);
    for (const since = Date.now(); ;) {
      if ((await server.request("GET", `/api/v1/namespaces/${ns}/endpoints/orphan`)).status === 404) break;
      if (Date.now() - since > 30_000) throw new Error("the orphaned Endpoints survived the restart");
      await new Promise((r) => setTimeout(r, 50));
    }

    const since = await report(ns, "api-1", "10.244.2.2", true);
    await endpointsWithin(ns, "api", (e) => readyIPs(e).join() === "10.244.2.1,10.244.2.2", since);
  }, 120_000);
});

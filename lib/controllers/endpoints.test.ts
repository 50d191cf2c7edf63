import { afterEach, describe, expect, it } from "vitest";
import type { AdmissionPlugin } from "../admission/admission-chain";
import type { EventRecorder } from "../events/recorder";
import { kindByPlural } from "../kinds";
import type { EndpointSubset, Endpoints } from "../kinds/endpoints";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import {
  ENDPOINT_CONTROLLER_USER, EndpointsController, HEADLESS_SERVICE_LABEL, LAST_CHANGE_TRIGGER_TIME_ANNOTATION,
  OVER_CAPACITY_ANNOTATION, repackSubsets, rfc3339Nano, truncateSubsets,
} from "./endpoints";
import { Informer } from "./informer";
import { cached, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "./test-cluster";

const pods = kindByPlural("pods")!;
const services = kindByPlural("services")!;
const endpoints = kindByPlural("endpoints")!;

interface Recorded { object: KubeObject; type: string; reason: string; message: string; component: string }

let c: TestCluster;
let stopEndpoints: (() => void) | undefined;
let recorded: Recorded[] = [];

afterEach(async () => {
  stopEndpoints?.();
  stopEndpoints = undefined;
  recorded = [];
  await c?.close();
  c = undefined as unknown as TestCluster;
});

/** Opens a cluster running only this controller, with a recorder that keeps every Event (and more admission when given). */
async function open(file?: string, admission?: (registry: Registry) => AdmissionPlugin[]): Promise<EndpointsController> {
  c = await openCluster(file, { controllers: false, admission });
  return startEndpoints();
}

function startEndpoints(): EndpointsController {
  const recorder: EventRecorder = { event: (object, type, reason, message, component) => recorded.push({ object, type, reason, message, component }) };
  const informer = new Informer(c.store.objects);
  const controller = new EndpointsController({ registry: c.registry, informer, recorder });
  informer.start();
  stopEndpoints = () => { controller.stop(); informer.stop(); };
  return controller;
}

async function createPod(ns: string, name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}): Promise<KubeObject> {
  const { ports, ...spec } = extra as { ports?: unknown[] };
  return objectOf(await c.registry.create(pods, ns, {
    metadata: { name, labels },
    spec: { nodeName: "node-1", containers: [{ name: "app", image: "nginx", ports: ports ?? [{ name: "http", containerPort: 8080 }] }], ...spec },
  }, write));
}

/** Plays the kubelet: the pod's IP and Ready condition. */
async function setStatus(ns: string, name: string, ip: string | undefined, ready: boolean, transition = "2024-05-01T10:00:00Z"): Promise<void> {
  await c.registry.patch(pods, ns, name, (p) => ({
    ...p,
    status: {
      phase: "Running",
      ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
      conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: transition }],
    },
  }), { ...write, subresource: "status" });
}

async function createService(ns: string, name: string, spec: Record<string, unknown>, labels?: Record<string, string>): Promise<KubeObject> {
  return objectOf(await c.registry.create(services, ns, { metadata: { name, labels }, spec }, write));
}

const ep = (ns: string, name: string) => cached(c, "endpoints", ns, name) as Endpoints | undefined;

/** Waits until the Endpoints satisfy `check` (the controller is asynchronous). */
const waitEndpoints = (ns: string, name: string, check: (e: Endpoints) => boolean, what: string) =>
  eventually(() => { const e = ep(ns, name); return e && check(e) && e; }, 2000, what);

const ips = (list: { ip: string }[] | undefined) => (list ?? []).map((a) => a.ip);

describe("repackSubsets", () => {
  const addr = (ip: string, uid: string) => ({ ip, targetRef: { kind: "Pod", name: uid, uid } });
  const http = { name: "http", port: 80, protocol: "TCP" };
  const metrics = { name: "metrics", port: 9090, protocol: "TCP" };

  it("puts addresses offering the same ports together, and splits those missing a port", () => {
    const subsets: EndpointSubset[] = [
      { addresses: [addr("10.0.0.2", "b")], ports: [http] },
      { addresses: [addr("10.0.0.2", "b")], ports: [metrics] },
      { addresses: [addr("10.0.0.10", "a")], ports: [http] },
    ];
    expect(repackSubsets(subsets)).toEqual([
      // kube sorts addresses by the bytes of the IP: "10.0.0.10" before "10.0.0.2".
      { addresses: [addr("10.0.0.10", "a"), addr("10.0.0.2", "b")], ports: [http] },
      { addresses: [addr("10.0.0.2", "b")], ports: [metrics] },
    ]);
  });

  it("an address not ready for one of its ports is not ready there; portless addresses keep a subset", () => {
    expect(repackSubsets([
      { addresses: [addr("10.0.0.1", "a")], ports: [http] },
      { notReadyAddresses: [addr("10.0.0.1", "a")], ports: [http] },
    ])).toEqual([{ notReadyAddresses: [addr("10.0.0.1", "a")], ports: [http] }]);
    expect(repackSubsets([{ addresses: [addr("10.0.0.1", "a")] }, { notReadyAddresses: [addr("10.0.0.2", "b")] }]))
      .toEqual([{ addresses: [addr("10.0.0.1", "a")], notReadyAddresses: [addr("10.0.0.2", "b")] }]);
  });

  it("truncates not-ready addresses first, then ready ones in proportion", () => {
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => addr(`10.0.${from}.${i}`, `${from}-${i}`));
    const notReadyFirst: EndpointSubset[] = [{ addresses: many(3, 1), notReadyAddresses: many(4, 2), ports: [http] }];
    expect(truncateSubsets(notReadyFirst, 5)).toBe(true);
    expect([notReadyFirst[0].addresses?.length, notReadyFirst[0].notReadyAddresses?.length]).toEqual([3, 2]);
    const readyToo: EndpointSubset[] = [{ addresses: many(6, 1), notReadyAddresses: many(1, 2), ports: [http] }, { addresses: many(2, 3), ports: [metrics] }];
    expect(truncateSubsets(readyToo, 4)).toBe(true);
    expect(readyToo.map((s) => [s.addresses?.length, s.notReadyAddresses?.length])).toEqual([[3, undefined], [1, undefined]]);
    expect(truncateSubsets([{ addresses: many(2, 1) }], 4)).toBe(false);
  });

  it("formats trigger times as Go's RFC3339Nano", () => {
    expect(rfc3339Nano(Date.parse("2024-05-01T10:00:00Z"))).toBe("2024-05-01T10:00:00Z");
    expect(rfc3339Nano(Date.parse("2024-05-01T10:00:00.120Z"))).toBe("2024-05-01T10:00:00.12Z");
  });
});

describe("endpoints controller", () => {
  it("lists ready pods in addresses and the others in notReadyAddresses, with node and target", async () => {
    await open();
    await createNamespace(c, "shop");
    const svc = await createService("shop", "web", { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] }, { tier: "front" });
    const a = await createPod("shop", "a", { app: "web" });
    const b = await createPod("shop", "b", { app: "web" });
    await createPod("shop", "other", { app: "db" });
    await createPod("shop", "no-ip", { app: "web" });
    await setStatus("shop", "a", "10.1.0.1", true);
    await setStatus("shop", "b", "10.1.0.2", false);
    await setStatus("shop", "other", "10.1.0.3", true);
    await setStatus("shop", "no-ip", undefined, true);
    const e = await waitEndpoints("shop", "web", (e) => e.subsets?.length === 1 && ips(e.subsets[0].notReadyAddresses).length === 1, "endpoints");
    expect(e.subsets).toEqual([{
      addresses: [{ ip: "10.1.0.1", nodeName: "node-1", targetRef: { kind: "Pod", namespace: "shop", name: "a", uid: a.metadata.uid } }],
      notReadyAddresses: [{ ip: "10.1.0.2", nodeName: "node-1", targetRef: { kind: "Pod", namespace: "shop", name: "b", uid: b.metadata.uid } }],
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    }]);
    // The service's labels, and the headless label as the service has no cluster IP here.
    expect(e.metadata.labels).toEqual({ tier: "front", [HEADLESS_SERVICE_LABEL]: "" });
    // The pods' readiness transition is the change this write reflects.
    expect(e.metadata.annotations?.[LAST_CHANGE_TRIGGER_TIME_ANNOTATION]).toBe("2024-05-01T10:00:00Z");
    void svc;
    expect(e.metadata.ownerReferences).toBeUndefined();
  });

  it("follows readiness both ways and records the readiness transition as the trigger time", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await createPod("shop", "a", { app: "web" });
    await setStatus("shop", "a", "10.1.0.1", false);
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.notReadyAddresses).length === 1, "not ready");
    await setStatus("shop", "a", "10.1.0.1", true, "2030-01-01T00:00:05Z");
    const e = await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).length === 1, "ready");
    expect(e.subsets?.[0].notReadyAddresses).toBeUndefined();
    expect(e.subsets?.[0].ports).toEqual([{ port: 80, protocol: "TCP" }]);
    expect(e.metadata.annotations?.[LAST_CHANGE_TRIGGER_TIME_ANNOTATION]).toBe("2030-01-01T00:00:05Z");
  });

  it("resolves named target ports per pod and skips a pod lacking the port for that port only", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", {
      selector: { app: "web" },
      ports: [{ name: "http", port: 80, targetPort: "web" }, { name: "metrics", port: 9090, targetPort: "metrics" }, { name: "dns", port: 53, protocol: "UDP", targetPort: "web" }],
    });
    await createPod("shop", "a", { app: "web" }, { ports: [{ name: "web", containerPort: 8080 }, { name: "metrics", containerPort: 9100 }] });
    await createPod("shop", "b", { app: "web" }, { ports: [{ name: "web", containerPort: 8081 }] });
    // A sidecar (an init container that keeps running) offers its ports too.
    await createPod("shop", "c", { app: "web" }, {
      ports: [],
      initContainers: [{ name: "proxy", image: "envoy", restartPolicy: "Always", ports: [{ name: "web", containerPort: 15001 }] }],
    });
    for (const [name, ip] of [["a", "10.1.0.1"], ["b", "10.1.0.2"], ["c", "10.1.0.3"]]) await setStatus("shop", name, ip, true);
    const e = await waitEndpoints("shop", "web", (e) => (e.subsets ?? []).flatMap((s) => s.addresses ?? []).length === 3, "endpoints");
    // Different container ports are different endpoint ports: one subset per pod here.
    expect(e.subsets).toHaveLength(3);
    const portsOf = (ip: string) => (e.subsets ?? []).filter((s) => ips(s.addresses).includes(ip)).flatMap((s) => s.ports ?? []).map((p) => `${p.name}:${p.port}`).sort();
    expect(portsOf("10.1.0.1")).toEqual(["http:8080", "metrics:9100"]);
    expect(portsOf("10.1.0.2")).toEqual(["http:8081"]);
    expect(portsOf("10.1.0.3")).toEqual(["http:15001"]);
    // The UDP port names a TCP container port: no pod offers it.
    expect(JSON.stringify(e.subsets)).not.toContain("dns");
  });

  it("drops terminating and finished pods, unless the service publishes not-ready addresses", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await createService("shop", "peers", { selector: { app: "web" }, ports: [{ port: 80 }], publishNotReadyAddresses: true });
    for (const [name, ip, ready] of [["a", "10.1.0.1", true], ["b", "10.1.0.2", false], ["done", "10.1.0.3", true]] as const) {
      await createPod("shop", name, { app: "web" });
      await setStatus("shop", name, ip, ready);
    }
    await c.registry.patch(pods, "shop", "done", (p) => ({ ...p, status: { ...(p as KubeObject & { status?: object }).status, phase: "Succeeded" } }), { ...write, subresource: "status" });
    const peers = await waitEndpoints("shop", "peers", (e) => ips(e.subsets?.[0]?.addresses).length === 2, "peers");
    expect(ips(peers.subsets?.[0].addresses)).toEqual(["10.1.0.1", "10.1.0.2"]);
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.1", "web");
    // A scheduled pod deletes gracefully: it keeps existing with a deletionTimestamp.
    await c.registry.delete(pods, "shop", "a", del);
    expect(cached(c, "pods", "shop", "a")?.metadata.deletionTimestamp).toBeTruthy();
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).length === 0, "web without a");
    expect(ep("shop", "web")?.subsets).toEqual([{ notReadyAddresses: [expect.objectContaining({ ip: "10.1.0.2" })], ports: [{ port: 80, protocol: "TCP" }] }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(ips(ep("shop", "peers")?.subsets?.[0].addresses)).toEqual(["10.1.0.1", "10.1.0.2"]);
  });

  it("sets the hostname of pods whose subdomain is the service; a headless service without ports lists addresses alone", async () => {
    await open();
    await createNamespace(c, "db");
    await createService("db", "cluster", { selector: { app: "db" }, clusterIP: "None" });
    await createPod("db", "db-0", { app: "db" }, { hostname: "db-0", subdomain: "cluster" });
    await createPod("db", "db-1", { app: "db" }, { hostname: "db-1", subdomain: "elsewhere" });
    await setStatus("db", "db-0", "10.2.0.1", true);
    await setStatus("db", "db-1", "10.2.0.2", true);
    const e = await waitEndpoints("db", "cluster", (e) => ips(e.subsets?.[0]?.addresses).length === 2, "endpoints");
    expect(e.subsets?.[0].ports).toBeUndefined();
    expect(e.subsets?.[0].addresses?.map((a) => a.hostname)).toEqual(["db-0", undefined]);
    expect(e.metadata.labels).toEqual({ [HEADLESS_SERVICE_LABEL]: "" });
  });

  it("follows selector and pod label changes, and writes nothing when nothing it lists changed", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await createPod("shop", "a", { app: "web" });
    await createPod("shop", "b", { app: "api" });
    await setStatus("shop", "a", "10.1.0.1", true);
    await setStatus("shop", "b", "10.1.0.2", true);
    const first = await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.1", "a only");

    // Irrelevant pod changes leave the object alone.
    await c.registry.patch(pods, "shop", "a", (p) => ({ ...p, metadata: { ...p.metadata, annotations: { note: "x" } } }), write);
    await new Promise((r) => setTimeout(r, 150));
    expect(ep("shop", "web")?.metadata.resourceVersion).toBe(first.metadata.resourceVersion);

    await c.registry.patch(services, "shop", "web", (s) => ({ ...s, spec: { ...(s as KubeObject & { spec?: object }).spec, selector: { app: "api" } } }), write);
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.2", "b only");
    await c.registry.patch(pods, "shop", "a", (p) => ({ ...p, metadata: { ...p.metadata, labels: { app: "api" } } }), write);
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.1,10.1.0.2", "both");
    await c.registry.delete(pods, "shop", "b", { ...del, gracePeriodSeconds: 0 });
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.1", "b gone");
    // Service labels are copied on change too.
    await c.registry.patch(services, "shop", "web", (s) => ({ ...s, metadata: { ...s.metadata, labels: { team: "x" } } }), write);
    await waitEndpoints("shop", "web", (e) => e.metadata.labels?.team === "x", "labels");
  });

  it("deletes the Endpoints with the Service, and writes them again when someone deletes them", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    const first = await waitEndpoints("shop", "web", () => true, "endpoints");
    expect(first.subsets).toBeUndefined();
    // The first write for a service reflects its creation.
    expect(first.metadata.annotations?.[LAST_CHANGE_TRIGGER_TIME_ANNOTATION]).toBe(cached(c, "services", "shop", "web")?.metadata.creationTimestamp);
    await c.registry.delete(endpoints, "shop", "web", del);
    await eventually(() => { const e = ep("shop", "web"); return e && e.metadata.uid !== first.metadata.uid; }, 2000, "recreated");
    await c.registry.delete(services, "shop", "web", del);
    await eventually(() => !ep("shop", "web"), 2000, "endpoints deleted");
  });

  it("never touches the Endpoints of a selectorless or ExternalName service (until the service goes)", async () => {
    await open();
    await createNamespace(c, "shop");
    await createService("shop", "external-db", { ports: [{ port: 5432 }] });
    await createService("shop", "alias", { type: "ExternalName", externalName: "db.example.com", selector: { app: "db" } });
    const mine = { subsets: [{ addresses: [{ ip: "192.168.10.21" }], ports: [{ port: 5432 }] }] };
    const user = objectOf(await c.registry.create(endpoints, "shop", { metadata: { name: "external-db" }, ...mine }, write));
    await createPod("shop", "db", { app: "db" });
    await setStatus("shop", "db", "10.1.0.9", true);
    await new Promise((r) => setTimeout(r, 150));
    expect(ep("shop", "external-db")?.metadata.resourceVersion).toBe(user.metadata.resourceVersion);
    expect(ep("shop", "alias")).toBeUndefined();
    // kube's controller deletes the Endpoints of any deleted Service, user-written ones included.
    await c.registry.delete(services, "shop", "external-db", del);
    await eventually(() => !ep("shop", "external-db"), 2000, "endpoints deleted");
  });

  it("resyncs at start: Endpoints are written for what changed while stopped, and orphans are removed", async () => {
    c = await openCluster(undefined, { controllers: false });
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await createPod("shop", "a", { app: "web" });
    await setStatus("shop", "a", "10.1.0.1", true);
    await c.registry.create(endpoints, "shop", { metadata: { name: "orphan" }, subsets: [{ addresses: [{ ip: "10.9.9.9" }] }] }, write);
    await c.registry.create(endpoints, "kube-system", { metadata: { name: "lock", annotations: { "control-plane.alpha.kubernetes.io/leader": "{}" } } }, write).catch(async () => {
      await createNamespace(c, "kube-system");
      await c.registry.create(endpoints, "kube-system", { metadata: { name: "lock", annotations: { "control-plane.alpha.kubernetes.io/leader": "{}" } } }, write);
    });
    const file = c.file;
    await c.close();
    await open(file);
    await waitEndpoints("shop", "web", (e) => ips(e.subsets?.[0]?.addresses).join() === "10.1.0.1", "endpoints after restart");
    await eventually(() => !ep("shop", "orphan"), 2000, "orphan removed");
    expect(cached(c, "endpoints", "kube-system", "lock")).toBeDefined();
  });

  it("records FailedToCreateEndpoint / FailedToUpdateEndpoint when the write is refused, as kube does", async () => {
    const controller = await open();
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await waitEndpoints("shop", "web", () => true, "endpoints");
    // kube sends a pod's node name even when empty, which Endpoints validation refuses.
    await createPod("shop", "unscheduled", { app: "web" }, { nodeName: undefined });
    await setStatus("shop", "unscheduled", "10.1.0.5", true);
    const update = await eventually(() => recorded.find((r) => r.reason === "FailedToUpdateEndpoint"), 2000, "update event");
    expect(update).toMatchObject({ type: "Warning", component: "endpoint-controller", object: { kind: "Endpoints", metadata: { name: "web", namespace: "shop" } } });
    expect(update.message).toMatch(/^Failed to update endpoint shop\/web: Endpoints "web" is invalid: subsets\[0\]\.addresses\[0\]\.nodeName: Invalid value: ""/);

    await createService("shop", "api", { selector: { app: "web" }, ports: [{ port: 81 }] });
    const create = await eventually(() => recorded.find((r) => r.reason === "FailedToCreateEndpoint"), 2000, "create event");
    expect(create.message).toMatch(/^Failed to create endpoint for service shop\/api: Endpoints "api" is invalid/);
    // The object of a failed create has no namespace (so kube's recorder files the Event in `default`).
    expect(create.object.metadata.namespace).toBeUndefined();
    expect(ep("shop", "api")).toBeUndefined();

    // Once the pod is gone the next sync succeeds.
    await c.registry.delete(pods, "shop", "unscheduled", del);
    await waitEndpoints("shop", "api", () => true, "api endpoints");
    void controller;
  });

  it("writes as the endpoint-controller, and gives up quietly on a namespace being terminated", async () => {
    const seen: { user?: string; name: string }[] = [];
    const controller = await open(undefined, () => [
      { name: "Spy", validate: (req) => { if (req.kind.kind === "Endpoints") seen.push({ user: req.user?.username, name: req.name }); } },
    ]);
    await createNamespace(c, "shop");
    await createService("shop", "web", { selector: { app: "web" }, ports: [{ port: 80 }] });
    await waitEndpoints("shop", "web", () => true, "endpoints");
    expect(seen[0]).toEqual({ user: ENDPOINT_CONTROLLER_USER.username, name: "web" });

    // Without the namespace deleter running, the namespace stays Terminating with its content.
    await c.registry.delete(namespaceKind, "", "shop", del);
    await c.registry.delete(endpoints, "shop", "web", del);
    await controller.queue.idle();
    await controller.sync("shop/web");
    expect(ep("shop", "web")).toBeUndefined();
    expect(recorded).toEqual([]);
  });

  it("keeps at most 1000 addresses and says so", async () => {
    const controller = await open();
    await createNamespace(c, "big");
    await createService("big", "web", { selector: { app: "web" }, ports: [{ port: 80 }], clusterIP: "10.96.0.10" });
    stopEndpoints?.();
    // Batched so the store's group commit takes them together.
    for (let from = 0; from < 1002; from += 200) {
      await Promise.all(Array.from({ length: Math.min(200, 1002 - from) }, async (_, j) => {
        const i = from + j;
        await createPod("big", `p${i}`, { app: "web" });
        await setStatus("big", `p${i}`, `10.3.${Math.floor(i / 250)}.${i % 250}`, true);
      }));
    }
    await controller.sync("big/web");
    const e = ep("big", "web")!;
    expect(e.subsets?.[0].addresses).toHaveLength(1000);
    expect(e.metadata.annotations?.[OVER_CAPACITY_ANNOTATION]).toBe("truncated");
    expect(e.metadata.labels?.[HEADLESS_SERVICE_LABEL]).toBeUndefined();
  }, 60_000);
});


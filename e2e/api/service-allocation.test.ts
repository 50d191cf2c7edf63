// Service addresses as kube-apiserver assigns them: cluster IPs from SERVICE_CLUSTER_IP_RANGE, node ports from
// SERVICE_NODE_PORT_RANGE, kube's refusals for taken and out-of-range values, release on delete, allocations that
// survive a restart, no collisions under concurrent creates, and kube's message when the range is exhausted.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

const NS = "e2e-svc-alloc";
const SVC = `/api/v1/namespaces/${NS}/services`;

const service = (name: string, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec } });

const inRange = (ip: string, prefix: string) => ip.startsWith(prefix);

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 120_000);

afterAll(async () => {
  await stopAll();
});

describe("service addresses", { timeout: 180_000 }, () => {
  test("kubectl create service clusterip gets an address from 10.96.0.0/12 and single-stack IPv4", async () => {
    const out = await server.kubectl(["create", "service", "clusterip", "web", "-n", NS, "--tcp=80:8080", "-o", "json"]);
    const spec = JSON.parse(out.stdout).spec;
    const [a, b] = spec.clusterIP.split(".").map(Number);
    expect(a === 10 && b >= 96 && b <= 111).toBe(true);
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(spec.ipFamilies).toEqual(["IPv4"]);
    expect(spec.ipFamilyPolicy).toBe("SingleStack");
    const get = await server.kubectl(["get", "svc", "web", "-n", NS]);
    expect(get.stdout).toContain(spec.clusterIP);
  });

  test("kubectl create service nodeport honours a requested node port and refuses it to the next service", async () => {
    const out = await server.kubectl(["create", "service", "nodeport", "np", "-n", NS, "--tcp=80:8080", "--node-port=30080", "-o", "json"]);
    expect(JSON.parse(out.stdout).spec.ports[0].nodePort).toBe(30080);
    const auto = await server.kubectl(["create", "service", "nodeport", "np-auto", "-n", NS, "--tcp=80:8080", "-o", "json"]);
    const nodePort = JSON.parse(auto.stdout).spec.ports[0].nodePort;
    expect(nodePort >= 30000 && nodePort <= 32767 && nodePort !== 30080).toBe(true);
    const taken = await server.kubectl(["create", "service", "nodeport", "np2", "-n", NS, "--tcp=80:8080", "--node-port=30080"], { allowFail: true });
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
  });

  test("a requested IP is honoured; a taken or out-of-range one is refused with kube's 422 causes", async () => {
    const ok = await server.request("POST", SVC, { body: service("fixed", { clusterIP: "10.96.0.50" }) });
    expect(ok.status).toBe(201);
    expect(ok.body.spec.clusterIPs).toEqual(["10.96.0.50"]);
    const taken = await server.request("POST", SVC, { body: service("fixed2", { clusterIP: "10.96.0.50" }) });
    expect(taken.status).toBe(422);
    expect(taken.body.details.causes).toEqual([{ reason: "FieldValueInvalid", field: "spec.clusterIPs",
      message: 'Invalid value: []string{"10.96.0.50"}: failed to allocate IP 10.96.0.50: provided IP is already allocated' }]);
    const outside = await server.kubectl(["create", "service", "clusterip", "outside", "-n", NS, "--tcp=80", "--clusterip=1.1.1.1"], { allowFail: true });
    expect(outside.stderr).toContain("failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12");
  });

  test("a dry run reports the address without taking it", async () => {
    const dry = await server.request("POST", `${SVC}?dryRun=All`, { body: service("dry", { clusterIP: "10.96.0.60" }) });
    expect(dry.status).toBe(201);
    expect(dry.body.spec.clusterIP).toBe("10.96.0.60");
    const real = await server.request("POST", SVC, { body: service("real", { clusterIP: "10.96.0.60" }) });
    expect(real.status).toBe(201);
  });

  test("headless keeps None, ExternalName gets no address, LoadBalancer Local gets a health-check node port", async () => {
    const headless = await server.kubectl(["create", "service", "clusterip", "headless", "-n", NS, "--clusterip=None", "-o", "json"]);
    expect(JSON.parse(headless.stdout).spec.clusterIP).toBe("None");
    const ext = await server.kubectl(["create", "service", "externalname", "ext", "-n", NS, "--external-name=example.com", "-o", "json"]);
    expect(JSON.parse(ext.stdout).spec.clusterIP).toBeUndefined();
    const lb = await server.request("POST", SVC, { body: service("lb", { type: "LoadBalancer", externalTrafficPolicy: "Local" }) });
    expect(lb.status).toBe(201);
    expect(lb.body.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(lb.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
  });

  test("delete releases: the same IP and node port can be taken again right away", async () => {
    const body = service("recycle", { type: "NodePort", clusterIP: "10.96.0.70", ports: [{ port: 80, nodePort: 30070 }] });
    expect((await server.request("POST", SVC, { body })).status).toBe(201);
    await server.kubectl(["delete", "svc", "recycle", "-n", NS]);
    const deadline = Date.now() + 10_000;
    let again;
    do {
      again = await server.request("POST", SVC, { body: { ...body, metadata: { name: "recycled" } } });
      if (again.status === 201) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(again.status).toBe(201);
    expect(again.body.spec.clusterIP).toBe("10.96.0.70");
    expect(again.body.spec.ports[0].nodePort).toBe(30070);
  });

  test("20 concurrent creates get 20 distinct addresses", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => server.request("POST", SVC, { body: service(`many-${i}`) })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.spec.clusterIP)).size).toBe(20);
  });

  test("allocations survive a restart", async () => {
    server = await server.restart();
    const taken = await server.request("POST", SVC, { body: service("after-restart", { clusterIP: "10.96.0.50" }) });
    expect(taken.status).toBe(422);
    const np = await server.request("POST", SVC, { body: service("np-after", { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] }) });
    expect(np.status).toBe(422);
    const fixed = await server.request("GET", `${SVC}/fixed`);
    expect(fixed.body.spec.clusterIP).toBe("10.96.0.50");
  });

  test("a tiny range is exhausted with kube's message", async () => {
    const tiny = await startServer({ env: { SERVICE_CLUSTER_IP_RANGE: "10.0.0.0/29" } });
    await createNamespaces(tiny, NS);
    const ips: string[] = [];
    for (let i = 0; i < 5; i++) {
      const out = await tiny.kubectl(["create", "service", "clusterip", `t${i}`, "-n", NS, "--tcp=80", "-o", "json"]);
      ips.push(JSON.parse(out.stdout).spec.clusterIP);
    }
    expect(ips.every((ip) => inRange(ip, "10.0.0.") && Number(ip.split(".")[3]) >= 2 && Number(ip.split(".")[3]) <= 6)).toBe(true);
    expect(new Set(ips).size).toBe(5);
    const full = await tiny.kubectl(["create", "service", "clusterip", "t5", "-n", NS, "--tcp=80"], { allowFail: true });
    expect(full.code).not.toBe(0);
    expect(full.stderr).toContain("Internal error occurred: failed to allocate a serviceIP: range is full");
    await tiny.stop();
  });
});

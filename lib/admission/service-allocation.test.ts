import { afterEach, describe, expect, it } from "vitest";
import { isStatusError, type StatusError } from "../status";
import { serviceAllocatorFor, type ServiceAllocator } from "../allocators/service-allocator";
import { namespace as namespaceKind } from "../kinds/namespace";
import { service as serviceKind } from "../kinds/service";
import type { KubeObject } from "../kinds/types";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { kinds } from "../kinds";
import { tempDatabase, objectOf, write } from "../controllers/test-cluster";
import { AdmissionChain } from "./admission-chain";
import { NamespaceLifecycle } from "./namespace-lifecycle";
import { ServiceAllocation } from "./service-allocation";

interface Setup { store: Store; registry: Registry; allocator: ServiceAllocator }
const open: Setup[] = [];

async function setup(file = tempDatabase(), range = "10.96.0.0/12", settleMs?: number): Promise<Setup> {
  const store = await openStore({ databaseUrl: file, compactionWindowSeconds: 300, pollIntervalMs: 50 });
  const allocator = serviceAllocatorFor(store, { serviceClusterIPRange: range, serviceNodePortRange: { base: 30000, size: 2768 } }, { settleMs });
  const registry = new Registry(store, kinds, {
    admission: new AdmissionChain([
      new NamespaceLifecycle((name) => store.objects.get({ resource: "namespaces", namespace: "", name })?.object),
      new ServiceAllocation(allocator, (ns, name) => !!store.objects.get({ resource: "services", namespace: ns, name })),
    ]),
  });
  const s = { store, registry, allocator };
  open.push(s);
  if (!store.objects.get({ resource: "namespaces", namespace: "", name: "default" })) {
    await registry.create(namespaceKind, undefined, { metadata: { name: "default" } }, write);
  }
  return s;
}

afterEach(async () => {
  for (const s of open.splice(0)) { s.allocator.close(); s.registry.close(); await s.store.close(); }
});

const svc = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec } });

async function create(s: Setup, body: KubeObject, dryRun = false): Promise<Record<string, any>> {
  return objectOf(await s.registry.create(serviceKind, "default", body, { ...write, dryRun })).spec as Record<string, any>;
}

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (isStatusError(e)) return e; throw e; }
  throw new Error("expected a refusal");
}

describe("ServiceAllocation", () => {
  it("gives a ClusterIP service an address from the range and kube's single-stack family fields", async () => {
    const s = await setup();
    const spec = await create(s, svc("a"));
    expect(s.allocator.ipRange.offsetOf(spec.clusterIP)).toBeGreaterThanOrEqual(256);
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(spec.ipFamilies).toEqual(["IPv4"]);
    expect(spec.ipFamilyPolicy).toBe("SingleStack");
  });

  it("keeps headless services headless and gives ExternalName services nothing", async () => {
    const s = await setup();
    const headless = await create(s, svc("h", { clusterIP: "None" }));
    expect(headless.clusterIPs).toEqual(["None"]);
    expect(headless.ipFamilyPolicy).toBe("SingleStack");
    const selectorless = await create(s, svc("hs", { clusterIP: "None", selector: undefined }));
    expect(selectorless.ipFamilyPolicy).toBe("RequireDualStack");
    expect(selectorless.ipFamilies).toEqual(["IPv4", "IPv6"]);
    const ext = await create(s, { apiVersion: "v1", kind: "Service", metadata: { name: "e" }, spec: { type: "ExternalName", externalName: "example.com" } });
    expect(ext.clusterIP).toBeUndefined();
    expect(ext.ipFamilies).toBeUndefined();
  });

  it("honours a free requested IP and refuses a taken or out-of-range one with kube's causes", async () => {
    const s = await setup();
    expect((await create(s, svc("a", { clusterIP: "10.96.0.5" }))).clusterIP).toBe("10.96.0.5");
    const taken = await refusal(create(s, svc("b", { clusterIP: "10.96.0.5" })));
    expect(taken.code).toBe(422);
    expect(taken.message).toBe('Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.5"}: failed to allocate IP 10.96.0.5: provided IP is already allocated');
    const outside = await refusal(create(s, svc("c", { clusterIP: "10.200.0.5" })));
    expect(outside.message).toContain("failed to allocate IP 10.200.0.5: the provided IP (10.200.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12");
    const first = await refusal(create(s, svc("d", { clusterIP: "10.96.0.1" })));
    expect(first.message).toContain("provided IP is already allocated");
  });

  it("allocates node ports per port, shares one between ports of the same number, and refuses a taken one", async () => {
    const s = await setup();
    const spec = await create(s, svc("np", { type: "NodePort", ports: [{ name: "a", port: 80, nodePort: 30080 }, { name: "b", port: 443 }] }));
    expect(spec.ports[0].nodePort).toBe(30080);
    expect(spec.ports[1].nodePort).toBeGreaterThanOrEqual(30000 + 86);
    const dns = await create(s, svc("dns", { type: "NodePort", ports: [{ name: "u", port: 53, protocol: "UDP" }, { name: "t", port: 53, protocol: "TCP" }] }));
    expect(dns.ports[0].nodePort).toBe(dns.ports[1].nodePort);
    const taken = await refusal(create(s, svc("np2", { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] })));
    expect(taken.message).toBe('Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await refusal(create(s, svc("np3", { type: "NodePort", ports: [{ port: 80, nodePort: 40000 }] })));
    expect(outside.message).toContain("spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767");
  });

  it("gives a LoadBalancer with externalTrafficPolicy Local a health-check node port", async () => {
    const s = await setup();
    const spec = await create(s, svc("lb", { type: "LoadBalancer", externalTrafficPolicy: "Local" }));
    expect(spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(spec.healthCheckNodePort).not.toBe(spec.ports[0].nodePort);
  });

  it("takes nothing on a dry run", async () => {
    const s = await setup();
    const spec = await create(s, svc("a", { clusterIP: "10.96.0.9", type: "NodePort", ports: [{ port: 80, nodePort: 30090 }] }), true);
    expect(spec.clusterIP).toBe("10.96.0.9");
    expect(s.allocator.records("ip")).toHaveLength(0);
    expect(s.allocator.records("port")).toHaveLength(0);
    expect((await create(s, svc("b", { clusterIP: "10.96.0.9" }))).clusterIP).toBe("10.96.0.9");
  });

  it("leaves nothing behind when the write is invalid or the name exists", async () => {
    const s = await setup();
    const bad = await refusal(create(s, svc("a", { clusterIP: "10.96.0.7", sessionAffinity: "Sticky" })));
    expect(bad.code).toBe(422);
    expect(s.allocator.record("ip", "10.96.0.7")).toBeUndefined();
    await create(s, svc("x"));
    const dup = await refusal(create(s, svc("x", { clusterIP: "10.96.0.8" })));
    expect(dup.code).toBe(409);
    expect(s.allocator.record("ip", "10.96.0.8")).toBeUndefined();
  });

  it("gives 20 concurrent creates 20 distinct addresses", async () => {
    const s = await setup(tempDatabase(), "10.0.0.0/27");
    const specs = await Promise.all(Array.from({ length: 20 }, (_, i) => create(s, svc(`s${i}`))));
    expect(new Set(specs.map((x) => x.clusterIP)).size).toBe(20);
    expect(s.allocator.records("ip")).toHaveLength(20);
  });

  it("answers a full range with kube's internal error", async () => {
    const s = await setup(tempDatabase(), "10.0.0.0/29");
    for (let i = 0; i < 5; i++) await create(s, svc(`s${i}`));
    const full = await refusal(create(s, svc("s5")));
    expect(full.code).toBe(500);
    expect(full.message).toBe("Internal error occurred: failed to allocate a serviceIP: range is full");
  });

  it("never hands out one address twice across two server processes on one store", async () => {
    const file = tempDatabase();
    const one = await setup(file, "10.0.0.0/27");
    const two = await setup(file, "10.0.0.0/27");
    const specs = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 ? one : two, svc(`p${i}`))));
    expect(new Set(specs.map((x) => x.clusterIP)).size).toBe(12);
    await two.store.objects.catchUp();
    const racers = await Promise.allSettled([create(one, svc("r1", { clusterIP: "10.0.0.5" })), create(two, svc("r2", { clusterIP: "10.0.0.5" }))]);
    expect(racers.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = racers.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(lost.reason.message)).toContain("provided IP is already allocated");
  });

  it("allocates on a type change and keeps allocated values across an update that omits them", async () => {
    const s = await setup();
    const first = await create(s, svc("t"));
    const updated = objectOf(await s.registry.update(serviceKind, "default", "t", svc("t", { type: "NodePort" }), write)).spec as Record<string, any>;
    expect(updated.clusterIP).toBe(first.clusterIP);
    expect(updated.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(s.allocator.record("port", String(updated.ports[0].nodePort))).toBeDefined();
    const changed = await refusal(s.registry.update(serviceKind, "default", "t", svc("t", { type: "NodePort", clusterIP: "10.96.0.77" }), write));
    expect(changed.message).toContain("spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.77\"}: may not change once set");
  });

  it("lets the same service retry at once a value a failed create left behind", async () => {
    const s = await setup();
    // A leftover as a create that failed after taking the IP would leave it.
    await s.allocator.allocateIP("10.96.0.40", { namespace: "default", name: "retry", uid: "lost" }, false);
    expect((await create(s, svc("retry", { clusterIP: "10.96.0.40" }))).clusterIP).toBe("10.96.0.40");
    await s.allocator.allocateIP("10.96.0.41", { namespace: "default", name: "other", uid: "lost" }, false);
    expect((await refusal(create(s, svc("someone", { clusterIP: "10.96.0.41" })))).code).toBe(422);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { AdmissionChain } from "../admission/admission-chain";
import { ServiceAllocation } from "../admission/service-allocation";
import { serviceAllocatorFor, type ServiceAllocator } from "../allocators/service-allocator";
import { kinds } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import { service as serviceKind } from "../kinds/service";
import type { KubeObject } from "../kinds/types";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { Informer } from "./informer";
import { ServiceAllocationRepair } from "./service-allocation-repair";
import { del, eventually, objectOf, tempDatabase, write } from "./test-cluster";

interface Setup { store: Store; registry: Registry; allocator: ServiceAllocator; repair: ServiceAllocationRepair; events: string[] }
const open: Setup[] = [];

async function setup(settleMs = 30_000): Promise<Setup> {
  const store = await openStore({ databaseUrl: tempDatabase(), compactionWindowSeconds: 300, pollIntervalMs: 50 });
  const config = { serviceClusterIPRange: "10.96.0.0/24", serviceNodePortRange: { base: 30000, size: 2768 } };
  const allocator = serviceAllocatorFor(store, config, { settleMs });
  const registry = new Registry(store, kinds, { admission: new AdmissionChain([new ServiceAllocation(allocator)]) });
  await registry.create(namespaceKind, undefined, { metadata: { name: "default" } }, write);
  const events: string[] = [];
  const informer = new Informer(store.objects);
  const repair = new ServiceAllocationRepair({
    allocator: serviceAllocatorFor(store, config, { settleMs }), informer,
    recorder: { event: (o, type, reason, message) => events.push(`${o.metadata.name} ${type} ${reason} ${message}`) },
  });
  informer.start();
  const s = { store, registry, allocator, repair, events };
  open.push(s);
  return s;
}

afterEach(async () => {
  for (const s of open.splice(0)) { s.repair.stop(); s.allocator.close(); s.registry.close(); await s.store.close(); }
});

const svc = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

describe("ServiceAllocationRepair", () => {
  it("releases what a deleted service held, so the same address and port can be taken again", async () => {
    const s = await setup();
    await s.registry.create(serviceKind, "default", svc("a", { clusterIP: "10.96.0.5", type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] }), write);
    await s.registry.delete(serviceKind, "default", "a", del);
    await eventually(() => !s.allocator.record("ip", "10.96.0.5") && !s.allocator.record("port", "30080"), 5000, "release");
    const again = objectOf(await s.registry.create(serviceKind, "default", svc("b", { clusterIP: "10.96.0.5", type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] }), write));
    expect((again.spec as { clusterIP: string }).clusterIP).toBe("10.96.0.5");
  });

  it("releases node ports an update to ClusterIP gave up", async () => {
    const s = await setup();
    await s.registry.create(serviceKind, "default", svc("a", { type: "NodePort", ports: [{ port: 80, nodePort: 30081 }] }), write);
    await s.registry.update(serviceKind, "default", "a", svc("a", { type: "ClusterIP" }), write);
    await eventually(() => !s.allocator.record("port", "30081"), 5000, "port release");
    expect(s.allocator.records("ip")).toHaveLength(1);
  });

  it("records values a service holds without a record and releases settled leftovers nobody holds", async () => {
    const s = await setup(0);
    const created = objectOf(await s.registry.create(serviceKind, "default", svc("a"), write));
    const ip = (created.spec as { clusterIP: string }).clusterIP;
    const rec = s.allocator.record("ip", ip)!;
    await s.store.writer.commit({ type: "delete", key: rec.key, object: rec.object, expectRev: rec.rev });
    await s.allocator.allocatePort(30500, { namespace: "default", name: "gone", uid: "x" }, false);
    await s.repair.fullPass();
    expect(s.allocator.record("ip", ip)).toBeDefined();
    expect(s.events).toContain(`a Warning ClusterIPNotAllocated Cluster IP [IPv4]:${ip} is not allocated; repairing`);
    expect(s.allocator.record("port", "30500")).toBeUndefined();
  });
});

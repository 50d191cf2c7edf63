import { afterEach, describe, expect, it } from "vitest";
import { ServiceAllocation } from "../admission/service-allocation";
import { serviceAllocatorFor, type ServiceAllocator } from "../allocators/service-allocator";
import { isStatusError } from "../status";
import { kindByPlural } from "../kinds";
import type { KubeObject } from "../kinds/types";
import {
  IDENTITY_LABEL, IDENTITY_LEASE_GC_AFTER_MS, KUBE_APISERVER, PEER_ADDRESS_ANNOTATION,
} from "./apiserver-identity-lease";
import { EndpointsController } from "./endpoints";
import { Informer } from "./informer";
import { KubernetesServiceController, SKIP_MIRROR_LABEL } from "./kubernetes-service";
import { cached, createNamespace, del, objectOf, openCluster, write, type TestCluster } from "./test-cluster";

const services = kindByPlural("services")!;
const endpoints = kindByPlural("endpoints")!;
const leases = kindByPlural("leases")!;

let c: TestCluster;
let allocator: ServiceAllocator;
const stops: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  allocator?.close();
  await c?.close();
});

/** A store with the system namespaces and kube's service address allocation, as the server runs it. */
async function open(): Promise<void> {
  c = await openCluster(undefined, {
    controllers: false,
    admission: (registry) => {
      allocator = serviceAllocatorFor(registry.store, { serviceClusterIPRange: "10.96.0.0/12", serviceNodePortRange: { base: 30000, size: 2768 } });
      return [new ServiceAllocation(allocator, (ns, name) => !!registry.store.objects.get({ resource: "services", namespace: ns, name }))];
    },
  });
  await createNamespace(c, "default");
  await createNamespace(c, "kube-system");
}

/** One replica's controller on its own informer; `clock.offsetMs` moves its idea of now. */
function replica(advertiseAddress: string, port = 6443, clock = { offsetMs: 0 }): KubernetesServiceController {
  const informer = new Informer(c.store.objects);
  const controller = new KubernetesServiceController({
    registry: c.registry, informer, clusterIP: "10.96.0.1", port, advertiseAddress, leaseDurationSeconds: 15,
    hostname: "node-1", now: () => Date.now() + clock.offsetMs,
  });
  informer.start();
  stops.push(async () => { await controller.stop(); informer.stop(); });
  return controller;
}

const get = (resource: string, ns: string, name: string) => cached(c, resource, ns, name) as any;
const kubernetesEndpoints = () => get("endpoints", "default", "kubernetes");
const addressesOf = (ep: any) => (ep?.subsets ?? []).flatMap((s: any) => s.addresses.map((a: any) => `${a.ip}:${s.ports[0].port}`));

async function settled(...controllers: KubernetesServiceController[]): Promise<void> {
  for (let i = 0; i < 3; i++) for (const k of controllers) await k.queue.idle();
}

describe("the kubernetes Service", () => {
  it("is created as kube-apiserver creates it, with Endpoints naming this replica and its identity Lease", async () => {
    await open();
    const k = replica("192.0.2.2", 6443);
    await settled(k);
    const svc = get("services", "default", "kubernetes");
    expect(svc.metadata.labels).toEqual({ component: "apiserver", provider: "kubernetes" });
    expect(svc.spec).toMatchObject({
      clusterIP: "10.96.0.1", clusterIPs: ["10.96.0.1"], ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4"],
      ports: [{ name: "https", protocol: "TCP", port: 443, targetPort: 6443 }], sessionAffinity: "None", type: "ClusterIP",
    });
    expect(svc.spec.selector).toBeUndefined();
    const ep = kubernetesEndpoints();
    expect(ep.metadata.labels).toEqual({ [SKIP_MIRROR_LABEL]: "true" });
    expect(ep.subsets).toEqual([{ addresses: [{ ip: "192.0.2.2" }], ports: [{ name: "https", port: 6443, protocol: "TCP" }] }]);
    const lease = get("leases", "kube-system", k.lease!.name);
    expect(lease.metadata.labels).toEqual({ [IDENTITY_LABEL]: KUBE_APISERVER, "kubernetes.io/hostname": "node-1" });
    expect(lease.metadata.annotations).toEqual({ [PEER_ADDRESS_ANNOTATION]: "192.0.2.2:6443" });
    expect(lease.spec).toMatchObject({ holderIdentity: k.lease!.holderIdentity, leaseDurationSeconds: 15 });
    expect(lease.spec.holderIdentity).toMatch(new RegExp(`^${k.lease!.name}_[0-9a-f-]{36}$`));

    // The first address is the kubernetes Service's: nobody else may ask for it.
    const err = await c.registry.create(services, "default", { metadata: { name: "other" }, spec: { clusterIP: "10.96.0.1", ports: [{ port: 80 }] } }, write).catch((e) => e);
    expect(isStatusError(err) && err.message).toContain("failed to allocate IP 10.96.0.1: provided IP is already allocated");
  });

  it("comes back when deleted, and so do its Endpoints; an admin's change to the Service stays, to the Endpoints' addresses not", async () => {
    await open();
    const k = replica("192.0.2.2");
    await settled(k);
    const first = get("services", "default", "kubernetes");
    await c.registry.delete(services, "default", "kubernetes", del);
    await c.registry.delete(endpoints, "default", "kubernetes", del);
    await settled(k);
    const again = get("services", "default", "kubernetes");
    expect(again.metadata.uid).not.toBe(first.metadata.uid);
    expect(again.spec.clusterIP).toBe("10.96.0.1");
    expect(addressesOf(kubernetesEndpoints())).toEqual(["192.0.2.2:6443"]);

    await c.registry.update(services, "default", "kubernetes", { ...again, metadata: { ...again.metadata, labels: { ...again.metadata.labels, team: "platform" } }, spec: { ...again.spec, ports: [{ name: "https", protocol: "TCP", port: 443, targetPort: 7443 }] } }, write);
    const ep = kubernetesEndpoints();
    await c.registry.update(endpoints, "default", "kubernetes", { ...ep, metadata: { ...ep.metadata, labels: { mine: "yes" }, annotations: { note: "kept" } }, subsets: [{ addresses: [{ ip: "198.51.100.1" }], ports: [{ name: "https", port: 1, protocol: "TCP" }] }] }, write);
    await settled(k);
    expect(get("services", "default", "kubernetes").spec.ports[0].targetPort).toBe(7443);
    expect(get("services", "default", "kubernetes").metadata.labels.team).toBe("platform");
    const fixed = kubernetesEndpoints();
    expect(addressesOf(fixed)).toEqual(["192.0.2.2:6443"]);
    expect(fixed.metadata.labels).toEqual({ mine: "yes", [SKIP_MIRROR_LABEL]: "true" });
    expect(fixed.metadata.annotations).toEqual({ note: "kept" });
  });

  it("does not fight the endpoints controller, which leaves a selectorless Service's Endpoints alone", async () => {
    await open();
    const informer = new Informer(c.store.objects);
    const ec = new EndpointsController({ registry: c.registry, informer });
    informer.start();
    stops.push(() => { ec.stop(); informer.stop(); });
    const k = replica("192.0.2.2");
    await settled(k);
    await ec.queue.idle();
    const rv = kubernetesEndpoints().metadata.resourceVersion;
    ec.checkLeftoverEndpoints();
    ec.queue.add("default/kubernetes");
    await ec.queue.idle();
    k.queue.add("default/kubernetes");
    await settled(k);
    expect(kubernetesEndpoints().metadata.resourceVersion).toBe(rv);
  });

  it("lists every live replica, sorted, one subset per port; drops one whose Lease ran out, or at once one that stopped", async () => {
    await open();
    const clock = { offsetMs: 0 };
    const a = replica("192.0.2.20", 6443, clock);
    await settled(a);
    const b = replica("192.0.2.3", 6443);
    const d = replica("192.0.2.3", 7443);
    await settled(a, b, d);
    a.queue.add("default/kubernetes");
    await settled(a, b, d);
    expect(kubernetesEndpoints().subsets).toEqual([
      { addresses: [{ ip: "192.0.2.20" }, { ip: "192.0.2.3" }], ports: [{ name: "https", port: 6443, protocol: "TCP" }] },
      { addresses: [{ ip: "192.0.2.3" }], ports: [{ name: "https", port: 7443, protocol: "TCP" }] },
    ]);

    // b stops cleanly: its Lease and address go at once.
    const bLease = b.lease!.name;
    await b.stop();
    expect(get("leases", "kube-system", bLease)).toBeUndefined();
    expect(addressesOf(kubernetesEndpoints())).toEqual(["192.0.2.20:6443", "192.0.2.3:7443"]);

    // d is "killed": it renews no more. Past its Lease's 15 s (as a's clock sees it), a's next pass drops it.
    d.queue.stop();
    clock.offsetMs = 14_000;
    a.tick();
    await settled(a);
    expect(addressesOf(kubernetesEndpoints())).toEqual(["192.0.2.20:6443", "192.0.2.3:7443"]);
    clock.offsetMs = 16_000;
    a.tick();
    await settled(a);
    expect(addressesOf(kubernetesEndpoints())).toEqual(["192.0.2.20:6443"]);
  });

  it("never empties the Endpoints, and collects identity Leases expired for longer than kube's GC period", async () => {
    await open();
    const clock = { offsetMs: 0 };
    const a = replica("192.0.2.2", 6443, clock);
    await settled(a);
    const stale = (name: string, renewedAgoMs: number) => c.registry.create(leases, "kube-system", {
      metadata: { name, labels: { [IDENTITY_LABEL]: KUBE_APISERVER }, annotations: { [PEER_ADDRESS_ANNOTATION]: "192.0.2.99:6443" } },
      spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 15, renewTime: new Date(Date.now() - renewedAgoMs).toISOString().replace("Z", "000Z") },
    }, write).then(objectOf);
    await stale("apiserver-old", IDENTITY_LEASE_GC_AFTER_MS + 60_000);
    await stale("apiserver-recent", 60_000);
    const other = (await c.registry.create(leases, "kube-system", { metadata: { name: "not-an-apiserver" }, spec: { renewTime: "2020-01-01T00:00:00.000000Z", leaseDurationSeconds: 1 } }, write).then(objectOf)) as KubeObject;
    // The next renewal runs the collection.
    a.tick();
    await settled(a);
    expect(get("leases", "kube-system", "apiserver-old")).toBeUndefined();
    expect(get("leases", "kube-system", "apiserver-recent")).toBeDefined();
    expect(get("leases", "kube-system", other.metadata.name!)).toBeDefined();

    // Even a's own Lease seen as expired (its clock far ahead) leaves the last addresses in place.
    clock.offsetMs = 60_000;
    await c.registry.delete(leases, "kube-system", a.lease!.name, del);
    a.queue.add("default/kubernetes");
    await settled(a);
    expect(addressesOf(kubernetesEndpoints())).toEqual(["192.0.2.2:6443"]);
  });
});

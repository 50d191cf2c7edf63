// The `kubernetes` Service in `default`, as kube-apiserver keeps it and as Kubernetes' test/cmd checks first of
// all: ClusterIP the first address of the service range (never handed to another Service), port `https` 443 to
// the server's port, kube's labels, and Endpoints naming the server's advertised address and port; both come
// back after `kubectl delete`. With two replicas on PostgreSQL the Endpoints list both, a SIGKILLed one drops out
// once its identity Lease has run out (IDENTITY_LEASE_DURATION_SECONDS, short here), a stopped one at once.
import { afterAll, describe, expect, test } from "vitest";
import { freshPostgresDatabase, skipPostgres } from "../../lib/storage/test-databases";
import { advertiseAddress } from "../../lib/server/advertise-address";
import { startServer, stopAll, waitFor, type Server } from "./harness";

afterAll(async () => {
  await stopAll();
}, 60_000);

const json = async (s: Server, args: string[]) => JSON.parse((await s.kubectl([...args, "-o", "json"])).stdout);
const present = async (s: Server, path: string) => {
  const r = await s.request("GET", path);
  return r.status === 200 ? r.body : undefined;
};
const SVC = "/api/v1/namespaces/default/services/kubernetes";
const EP = "/api/v1/namespaces/default/endpoints/kubernetes";
const LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver";
const addresses = (ep: any): string[] => (ep?.subsets ?? []).flatMap((s: any) => (s.addresses ?? []).map((a: any) => `${a.ip}:${s.ports?.[0]?.port}`)).sort();

describe("the kubernetes Service (one server)", () => {
  // A range of six addresses: the first is the kubernetes Service's, five are left for everyone else.
  const RANGE = "10.100.0.0/29";

  test("kubectl shows kube's Service and Endpoints; both come back when deleted; nobody else gets the first address", { timeout: 120_000 }, async () => {
    const server = await startServer({ env: { SERVICE_CLUSTER_IP_RANGE: RANGE } });
    // HOST is 127.0.0.1 here: as kube, the server advertises its host's default-route address instead.
    const ip = advertiseAddress({ bindHost: "127.0.0.1", family: "IPv4" });
    expect(ip, "this host has an address to advertise").toBeDefined();
    await waitFor("the kubernetes Endpoints", () => present(server, EP), 10_000);

    const svc = await json(server, ["get", "svc", "kubernetes", "-n", "default"]);
    expect(svc.metadata.labels).toEqual({ component: "apiserver", provider: "kubernetes" });
    expect(svc.spec).toEqual({
      clusterIP: "10.100.0.1", clusterIPs: ["10.100.0.1"], internalTrafficPolicy: "Cluster", ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack",
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: server.port }], sessionAffinity: "None", type: "ClusterIP",
    });
    const table = (await server.kubectl(["get", "svc", "-n", "default"])).stdout.trim().split("\n");
    expect(table[1].split(/\s+/).slice(0, 5)).toEqual(["kubernetes", "ClusterIP", "10.100.0.1", "<none>", "443/TCP"]);

    const ep = await json(server, ["get", "endpoints", "kubernetes", "-n", "default"]);
    expect(ep.metadata.labels).toEqual({ "endpointslice.kubernetes.io/skip-mirror": "true" });
    expect(ep.subsets).toEqual([{ addresses: [{ ip }], ports: [{ name: "https", port: server.port, protocol: "TCP" }] }]);
    const leases = (await server.request("GET", LEASES)).body.items;
    expect(leases.map((l: any) => l.metadata.annotations["kubernetes.io/peer-advertise-address"])).toEqual([`${ip}:${server.port}`]);
    expect(leases[0].metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);

    // Deleted, the Service comes back with the same address; so do the Endpoints.
    await server.kubectl(["delete", "svc", "kubernetes", "-n", "default"]);
    const back = await waitFor("the Service back", async () => {
      const s = await present(server, SVC);
      return s && s.metadata.uid !== svc.metadata.uid ? s : undefined;
    }, 10_000);
    expect(back.spec.clusterIP).toBe("10.100.0.1");
    await waitFor("its Endpoints back", async () => addresses(await present(server, EP)).length === 1 || undefined, 10_000);
    await server.kubectl(["delete", "endpoints", "kubernetes", "-n", "default"]);
    const epBack = await waitFor("the Endpoints back", async () => {
      const e = await present(server, EP);
      return e && e.metadata.uid !== ep.metadata.uid ? e : undefined;
    }, 10_000);
    expect(epBack.subsets).toEqual(ep.subsets);

    // The first address is never another Service's: not on request, not when the range runs out.
    const asked = await server.kubectl(["create", "service", "clusterip", "wants-first", "-n", "default", "--clusterip=10.100.0.1", "--tcp=80"], { allowFail: true });
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toContain("failed to allocate IP 10.100.0.1: provided IP is already allocated");
    const given: string[] = [];
    for (let i = 0; i < 5; i++) {
      await server.kubectl(["create", "service", "clusterip", `svc-${i}`, "-n", "default", "--tcp=80"]);
      given.push((await json(server, ["get", "svc", `svc-${i}`, "-n", "default"])).spec.clusterIP);
    }
    expect(given.sort()).toEqual(["10.100.0.2", "10.100.0.3", "10.100.0.4", "10.100.0.5", "10.100.0.6"]);
    const full = await server.kubectl(["create", "service", "clusterip", "one-too-many", "-n", "default", "--tcp=80"], { allowFail: true });
    expect(full.stderr).toContain("range is full");
    await server.stop();
  });
});

describe.skipIf(skipPostgres)("the kubernetes Endpoints with two replicas on one PostgreSQL database", () => {
  test("list both replicas; a SIGKILLed one drops out after its Lease duration, a stopped one at once", { timeout: 150_000 }, async () => {
    const database = await freshPostgresDatabase();
    const env = (ip: string) => ({ DATABASE_URL: database, ADVERTISE_ADDRESS: ip, IDENTITY_LEASE_DURATION_SECONDS: "3" });
    // The first replica creates the schema before the second starts.
    const a = await startServer({ env: env("198.51.100.1") });
    let b = await startServer({ env: env("198.51.100.2") });
    const both = [`198.51.100.1:${a.port}`, `198.51.100.2:${b.port}`].sort();
    for (const s of [a, b]) {
      await waitFor(`both replicas in the Endpoints, read on ${s.port}`, async () => (JSON.stringify(addresses(await present(s, EP))) === JSON.stringify(both) ? true : undefined), 15_000);
    }
    const ep = await present(a, EP);
    expect(ep.subsets.every((s: any) => s.ports[0].name === "https" && s.ports[0].protocol === "TCP")).toBe(true);

    await b.kill9();
    const killedAt = Date.now();
    await waitFor("the killed replica to drop out", async () => (JSON.stringify(addresses(await present(a, EP))) === JSON.stringify([`198.51.100.1:${a.port}`]) ? true : undefined), 20_000, 100);
    const waited = Date.now() - killedAt;
    // Its Lease was renewed at most two thirds of 3 s before the kill, and is judged every two seconds.
    expect(waited, "not before its Lease ran out").toBeGreaterThan(500);
    expect(waited, "within the Lease duration and one renewal period (and a busy machine's slack)").toBeLessThan(10_000);

    b = await b.restart();
    await waitFor("the restarted replica back in the Endpoints", async () => (JSON.stringify(addresses(await present(a, EP))) === JSON.stringify(both) ? true : undefined), 15_000);
    await b.stop();
    const after = addresses(await present(a, EP));
    expect(after, "a replica that stops takes its address out on the way").toEqual([`198.51.100.1:${a.port}`]);
    await a.stop();
  });
});

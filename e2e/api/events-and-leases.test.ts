// Events and the controllers' Lease, through kubectl and raw HTTP: Events expire after EVENT_TTL_SECONDS; the
// controllers' Lease (coordination.k8s.io/v1, kube-system/cluster-core-controllers) names its holder; with two
// server processes on one store exactly one holds it, a killed holder is replaced once its lease runs out, and a
// stopped one hands over at once.
import { afterAll, describe, expect, test } from "vitest";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";

afterAll(async () => {
  await stopAll();
}, 60_000);

const LEASE = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/cluster-core-controllers";

async function lease(server: Server): Promise<any> {
  const r = await server.request("GET", LEASE);
  return r.status === 200 ? r.body : undefined;
}

const holderOf = async (server: Server) => (await lease(server))?.spec?.holderIdentity as string | undefined;

describe("the controllers' Lease", () => {
  test("kubectl shows the Lease and its holder; a stopped server hands over at once on restart", { timeout: 120_000 }, async () => {
    let server = await startServer();
    const holder = await waitFor("a holder", () => holderOf(server));
    expect(holder).toMatch(/^[^_]+_[0-9a-f-]{36}$/);
    const table = await server.kubectl(["get", "leases", "-n", "kube-system"]);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0].split(/\s{2,}/)).toEqual(["NAME", "HOLDER", "AGE"]);
    expect(lines.find((l) => l.startsWith("cluster-core-controllers"))?.split(/\s+/)[1]).toBe(holder);
    const body = await lease(server);
    expect(body).toMatchObject({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", spec: { leaseDurationSeconds: 15, leaseTransitions: 0 } });

    server = await server.restart();
    const started = Date.now();
    const next = await waitFor("the restarted server to hold the Lease", async () => {
      const h = await holderOf(server);
      return h && h !== holder ? h : undefined;
    }, 5_000);
    expect(Date.now() - started, "released on shutdown: no wait for expiry").toBeLessThan(5_000);
    expect(next).not.toBe(holder);
    expect((await lease(server)).spec.leaseTransitions).toBe(1);
    // Its controllers run: a new namespace gets its default ServiceAccount.
    await createNamespaces(server, "lease-restart");
    await waitFor("the default ServiceAccount", async () =>
      (await server.request("GET", "/api/v1/namespaces/lease-restart/serviceaccounts/default")).status === 200 || undefined);
    await server.stop();
  });

  test("two processes on one store: exactly one holder; kill -9 it and the other takes over", { timeout: 120_000 }, async () => {
    // The first process takes the Lease before the second one starts.
    const databaseUrl = `file:${path.join(await fs.mkdtemp(path.join(os.tmpdir(), "cluster-core-lease-db-")), "cluster-core.db")}`;
    const a = await startServer({ env: { DATABASE_URL: databaseUrl } });
    const first = await waitFor("a holder", () => holderOf(a));
    const b = await startServer({ env: { DATABASE_URL: databaseUrl } });
    // Both processes see one holder, which keeps renewing while the other waits.
    const renewals = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const [la, lb] = [await lease(a), await lease(b)];
      expect(la.spec.holderIdentity).toBe(first);
      expect(lb.spec.holderIdentity).toBe(first);
      renewals.add(la.spec.renewTime);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(renewals.size, "the holder renews every 2 s").toBeGreaterThanOrEqual(2);
    const standby = b;
    await a.kill9();
    const killedAt = Date.now();
    const next = await waitFor("the standby to take over", async () => {
      const h = await holderOf(standby);
      return h && h !== first ? h : undefined;
    }, 25_000);
    const waited = Date.now() - killedAt;
    expect(waited, "not before the killed holder's lease ran out").toBeGreaterThan(10_000);
    expect(waited, "within the lease duration plus a retry period").toBeLessThan(22_000);
    expect(next).not.toBe(first);
    await createNamespaces(standby, "lease-failover");
    await waitFor("the default ServiceAccount", async () =>
      (await standby.request("GET", "/api/v1/namespaces/lease-failover/serviceaccounts/default")).status === 200 || undefined);
    await standby.stop();
  });
});

describe("Events", () => {
  test("an Event created with kubectl disappears after EVENT_TTL_SECONDS", { timeout: 60_000 }, async () => {
    const server = await startServer({ env: { EVENT_TTL_SECONDS: "2" } });
    await createNamespaces(server, "ev-ttl");
    const manifest = `apiVersion: v1
kind: Event
metadata:
  name: web.17a3c2f1b6d84e20
  namespace: ev-ttl
involvedObject:
  apiVersion: v1
  kind: Pod
  name: web
  namespace: ev-ttl
reason: Scheduled
message: Successfully assigned ev-ttl/web to node-1
type: Normal
source:
  component: default-scheduler
count: 1
`;
    await server.kubectl(["create", "-f", "-"], { input: manifest });
    const created = Date.now();
    const listed = await server.kubectl(["get", "events", "-n", "ev-ttl", "-o", "name"]);
    expect(listed.stdout.trim()).toBe("event/web.17a3c2f1b6d84e20");
    await waitFor("the Event to expire", async () => {
      const r = await server.kubectl(["get", "events", "-n", "ev-ttl", "-o", "name"]);
      return r.stdout.trim() === "" || undefined;
    }, 10_000);
    const lived = Date.now() - created;
    expect(lived).toBeGreaterThanOrEqual(1_000);
    expect(lived).toBeLessThan(8_000);
    const gone = await server.request("GET", "/api/v1/namespaces/ev-ttl/events/web.17a3c2f1b6d84e20");
    expect(gone.status).toBe(404);
    await server.stop();
  });

  test("the garbage collector leaves Events alone: an owned Event outlives its owner (kube's DefaultIgnoredResources)", { timeout: 60_000 }, async () => {
    const server = await startServer();
    await createNamespaces(server, "ev-gc");
    const base = "/api/v1/namespaces/ev-gc";
    const owner = (await server.request("POST", `${base}/configmaps`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "owner" } } })).body;
    const ownerReferences = [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid }];
    const event = await server.request("POST", `${base}/events`, { body: {
      apiVersion: "v1", kind: "Event", metadata: { name: "owner.1", ownerReferences },
      involvedObject: { apiVersion: "v1", kind: "ConfigMap", name: "owner", namespace: "ev-gc" }, reason: "Test", message: "owned", type: "Normal", count: 1,
    } });
    expect(event.status).toBe(201);
    expect((await server.request("POST", `${base}/configmaps`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "child", ownerReferences } } })).status).toBe(201);
    expect((await server.request("DELETE", `${base}/configmaps/owner`)).status).toBe(200);
    await waitFor("the ConfigMap dependent to be collected", async () => (await server.request("GET", `${base}/configmaps/child`)).status === 404 || undefined, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await server.request("GET", `${base}/events/owner.1`)).status).toBe(200);
    await server.stop();
  });
});

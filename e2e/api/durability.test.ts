// Durability: every write the server acknowledged must survive `kill -9` and come back with the
// acknowledged resourceVersion; deleted objects stay deleted; the token, CA and kubeconfig are reused. On
// SQLite and on PostgreSQL (lib/storage/test-databases.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backendEnv } from "./cluster";
import { createNamespaces, rv, startServer, stopAll, waitFor, type ApiResponse, type Server } from "./harness";
import { expectStatus } from "./kinds";
import { testBackends } from "../../lib/storage/test-databases";

const NS = "e2e-durability";
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const PV = "/api/v1/persistentvolumes";

interface Ack {
  path: string;
  deleted: boolean;
  resourceVersion?: string;
  /** The body field that must read back unchanged (data / spec). */
  content?: unknown;
  contentKey?: "data" | "spec";
}

describe.each(testBackends)("on %s", (backend) => {
let server: Server;
let firstStart: { token: string; ca: string; kubeconfig: string; dataDir: string; port: number };
let env: Record<string, string>;

beforeAll(async () => {
  env = await backendEnv(backend);
  server = await startServer({ env });
  await createNamespaces(server, NS);
  firstStart = {
    token: server.token,
    ca: readFileSync(path.join(server.dataDir, "pki", "ca.crt"), "utf8"),
    kubeconfig: readFileSync(server.kubeconfig, "utf8"),
    dataDir: server.dataDir,
    port: server.port,
  };
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const b64 = (s: string) => Buffer.from(s).toString("base64");

function pv(name: string) {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, labels: { suite: "durability" } },
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Retain",
      nfs: { server: "10.0.0.20", path: `/exports/${name}` },
    },
  };
}

/** Runs writes concurrently; records each acknowledged one. Unacknowledged writes are returned as failures. */
async function runAll(
  ops: { key: string; run: () => Promise<ApiResponse>; expect: number; record: (res: ApiResponse) => Ack }[],
  acks: Map<string, Ack>,
): Promise<string[]> {
  const failures: string[] = [];
  await Promise.all(
    ops.map(async (op) => {
      try {
        const res = await op.run();
        if (res.status === op.expect) acks.set(op.key, op.record(res));
        else failures.push(`${op.key}: ${res.status} ${res.text.slice(0, 200)}`);
      } catch (err) {
        failures.push(`${op.key}: ${(err as Error).message}`);
      }
    }),
  );
  return failures;
}

const created = (p: string, key: "data" | "spec") => (res: ApiResponse): Ack => ({
  path: p,
  deleted: false,
  resourceVersion: res.body.metadata.resourceVersion,
  content: res.body[key],
  contentKey: key,
});

async function verify(srv: Server, acks: Map<string, Ack>): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    [...acks.entries()].map(async ([key, ack]) => {
      const res = await srv.request("GET", ack.path);
      if (ack.deleted) {
        if (res.status !== 404) problems.push(`${key}: deleted but GET answered ${res.status}`);
        return;
      }
      if (res.status !== 200) {
        problems.push(`${key}: acknowledged but GET answered ${res.status} ${res.text.slice(0, 120)}`);
        return;
      }
      if (res.body.metadata.resourceVersion !== ack.resourceVersion) {
        problems.push(`${key}: resourceVersion ${res.body.metadata.resourceVersion}, acknowledged ${ack.resourceVersion}`);
      }
      if (JSON.stringify(res.body[ack.contentKey!]) !== JSON.stringify(ack.content)) {
        problems.push(`${key}: ${ack.contentKey} ${JSON.stringify(res.body[ack.contentKey!])}, acknowledged ${JSON.stringify(ack.content)}`);
      }
    }),
  );
  return problems;
}

describe("durability across restarts", { timeout: 180_000 }, () => {
  const acks = new Map<string, Ack>();

  test("every acknowledged create, update and delete survives kill -9", async () => {
    // Phase 1: 220 concurrent creates over three kinds (one namespaced pair, one cluster-scoped).
    const phase1 = [
      ...Array.from({ length: 150 }, (_, i) => ({
        key: `cm-${i}`,
        run: () => server.request("POST", CM, {
          body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}` }, data: { index: String(i), phase: "created" } },
        }),
        expect: 201,
        record: created(`${CM}/cm-${i}`, "data"),
      })),
      ...Array.from({ length: 50 }, (_, i) => ({
        key: `secret-${i}`,
        run: () => server.request("POST", SECRETS, {
          body: { apiVersion: "v1", kind: "Secret", metadata: { name: `secret-${i}` }, type: "Opaque", data: { token: b64(`t-${i}`) } },
        }),
        expect: 201,
        record: created(`${SECRETS}/secret-${i}`, "data"),
      })),
      ...Array.from({ length: 20 }, (_, i) => ({
        key: `pv-${i}`,
        run: () => server.request("POST", PV, { body: pv(`durable-pv-${i}`) }),
        expect: 201,
        record: created(`${PV}/durable-pv-${i}`, "spec"),
      })),
    ];
    expect(await runAll(phase1, acks)).toEqual([]);

    // Phase 2, all at once: updates (PUT with the acknowledged version), merge patches, deletes, new creates.
    const phase2 = [
      ...Array.from({ length: 60 }, (_, i) => ({
        key: `cm-${i}`,
        run: () => server.request("PUT", `${CM}/cm-${i}`, {
          body: {
            apiVersion: "v1", kind: "ConfigMap",
            metadata: { name: `cm-${i}`, namespace: NS, resourceVersion: acks.get(`cm-${i}`)!.resourceVersion },
            data: { index: String(i), phase: "updated" },
          },
        }),
        expect: 200,
        record: created(`${CM}/cm-${i}`, "data"),
      })),
      ...Array.from({ length: 40 }, (_, j) => {
        const i = 100 + j;
        return {
          key: `cm-${i}`,
          run: () => server.request("DELETE", `${CM}/cm-${i}`),
          expect: 200,
          record: (): Ack => ({ path: `${CM}/cm-${i}`, deleted: true }),
        };
      }),
      ...Array.from({ length: 40 }, (_, j) => {
        const i = 200 + j;
        return {
          key: `cm-${i}`,
          run: () => server.request("POST", CM, {
            body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}` }, data: { index: String(i), phase: "late" } },
          }),
          expect: 201,
          record: created(`${CM}/cm-${i}`, "data"),
        };
      }),
      ...Array.from({ length: 20 }, (_, i) => ({
        key: `secret-${i}`,
        run: () => server.request("PATCH", `${SECRETS}/secret-${i}`, {
          body: { data: { extra: b64(`x-${i}`) } },
          contentType: "application/merge-patch+json",
        }),
        expect: 200,
        record: created(`${SECRETS}/secret-${i}`, "data"),
      })),
      ...Array.from({ length: 5 }, (_, i) => ({
        key: `pv-${i}`,
        run: () => server.request("DELETE", `${PV}/durable-pv-${i}`),
        expect: 200,
        record: (): Ack => ({ path: `${PV}/durable-pv-${i}`, deleted: true }),
      })),
    ];
    expect(await runAll(phase2, acks)).toEqual([]);

    // The PersistentVolume binder writes `status.phase: Available` on every new PV, as kube's does. That
    // write, acknowledged to the controller, is each PV's latest: wait for it (the spec we wrote must be
    // untouched) and hold the restart to its resourceVersion.
    for (const [key, ack] of acks) {
      if (!key.startsWith("pv-") || ack.deleted) continue;
      const bound = await waitFor(`${key} to be Available`, async () => {
        const res = await server.request("GET", ack.path);
        return res.status === 200 && res.body.status?.phase === "Available" ? res.body : undefined;
      }, 30_000);
      expect(bound.spec, key).toEqual(ack.content);
      ack.resourceVersion = bound.metadata.resourceVersion;
    }

    // Sanity: the acknowledged state is what the running server serves.
    expect(await verify(server, acks)).toEqual([]);
    const maxAcked = [...acks.values()].filter((a) => !a.deleted).reduce((m, a) => (rv(a.resourceVersion) > m ? rv(a.resourceVersion) : m), 0n);

    await server.kill9();
    server = await startServer({ env, dataDir: firstStart.dataDir, port: firstStart.port });

    expect(await verify(server, acks)).toEqual([]);
    const cms = await server.request("GET", CM);
    // ours, and the root CA ConfigMap the root-ca-cert-publisher puts in every namespace
    expect(cms.body.items.length).toBe(151);
    expect(cms.body.items.map((o: any) => o.metadata.name)).toContain("kube-root-ca.crt");
    const secrets = await server.request("GET", SECRETS);
    expect(secrets.body.items.length).toBe(50);
    const pvs = await server.request("GET", `${PV}?labelSelector=suite%3Ddurability`);
    expect(pvs.body.items.length).toBe(15);
    expect(rv(cms.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(maxAcked);

    // The revision counter continues after the restart; it never goes back.
    const after = await server.request("POST", CM, {
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "after-restart" }, data: { a: "b" } },
    });
    expect(after.status, after.text).toBe(201);
    expect(rv(after.body.metadata.resourceVersion)).toBeGreaterThan(maxAcked);
    acks.set("after-restart", created(`${CM}/after-restart`, "data")(after));

    // Re-creating a deleted name works and an old name is still taken.
    expectStatus(
      await server.request("POST", CM, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm-0" } } }),
      409,
      "AlreadyExists",
    );
  });

  test("the token, CA and kubeconfig are reused across restarts", async () => {
    expect(server.token).toBe(firstStart.token);
    expect(readFileSync(path.join(server.dataDir, "admin-token"), "utf8").trim()).toBe(firstStart.token);
    expect(server.ca).toBe(firstStart.ca);
    expect(readFileSync(server.kubeconfig, "utf8")).toBe(firstStart.kubeconfig);

    // kubectl with the kubeconfig written at first start (its CA and token) still works.
    const r = await server.kubectl(["get", "configmaps", "-n", NS, "-o", "name"]);
    // 150 of ours, after-restart, and kube-root-ca.crt
    expect(r.stdout.trim().split("\n").length).toBe(152);

    // A graceful restart keeps everything too.
    server = await server.restart();
    expect(server.ca).toBe(firstStart.ca);
    expect(server.token).toBe(firstStart.token);
    expect(await verify(server, acks)).toEqual([]);
    const again = await server.kubectl(["get", "persistentvolumes", "-l", "suite=durability", "-o", "name"]);
    expect(again.stdout.trim().split("\n").sort()).toEqual(
      Array.from({ length: 15 }, (_, i) => `persistentvolume/durable-pv-${i + 5}`).sort(),
    );
  });

  test("CLUSTER_ADMIN_TOKEN sets the admin token", async () => {
    const token = "e2e-fixed-admin-token-0123456789abcdef";
    const fixed = await startServer({ env: { ...(await backendEnv(backend)), CLUSTER_ADMIN_TOKEN: token } });
    try {
      expect(fixed.token).toBe(token);
      expect((await fixed.request("GET", CM)).status).toBe(200);
      expectStatus(await fixed.request("GET", CM, { token: firstStart.token }), 401, "Unauthorized");
      const r = await fixed.kubectl(["get", "configmaps", "-n", NS, "-o", "name"]);
      expect(r.code).toBe(0);
    } finally {
      await fixed.stop();
    }
  });
});
});

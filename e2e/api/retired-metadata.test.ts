// A data directory written before issue 21 keeps opening, and what it holds is served as kube 1.32 would:
// those versions stored `metadata.selfLink` and a `metadata.generation` on every object; neither comes back
// from any read (get, the stored-JSON list splice, watch history and events, protobuf). A generation a client
// set (stored without a selfLink) is kept, as kube keeps it.
import fs from "node:fs/promises";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessage } from "../../lib/codec/protobuf/decode";
import { openEnvelope } from "../../lib/codec/protobuf/fixtures/envelope";
import { openStore } from "../../lib/storage";
import { startServer, stopAll, type Server } from "./harness";

const NS = "old";
const link = (plural: string, name: string) => `/api/v1/namespaces/${NS}/${plural}/${name}`;
let dataDir: string;
let server: Server;
/** The revision before the old version's last write: a watch from it replays that write from the log. */
let beforeUpdate: string;

/** Writes objects the way the old version did: straight through the store, selfLink and generation included. */
async function writeAsTheOldVersion(dir: string): Promise<void> {
  const store = await openStore({ databaseUrl: `file:${path.join(dir, "cluster-core.db")}`, compactionWindowSeconds: 300 });
  try {
    const meta = (plural: string, name: string, generation: number) => ({
      name, namespace: NS, uid: `uid-${name}`, creationTimestamp: "2025-01-02T03:04:05Z", generation, selfLink: link(plural, name),
    });
    const put = async (plural: string, object: Record<string, unknown> & { metadata: { name: string; [k: string]: unknown } }) => {
      const result = await store.writer.commit({ type: "create", key: { resource: plural, namespace: NS, name: object.metadata.name }, object });
      if (!result.ok) throw new Error(`old write of ${object.metadata.name}: ${result.reason}`);
      return result.event.rev;
    };
    const rev = await put("configmaps", { apiVersion: "v1", kind: "ConfigMap", metadata: meta("configmaps", "legacy", 1), data: { a: "1" } });
    await put("pods", {
      apiVersion: "v1", kind: "Pod", metadata: meta("pods", "legacy-pod", 1),
      spec: { containers: [{ name: "app", image: "nginx" }] }, status: { phase: "Pending" },
    });
    // A client's own generation, as today's server stores it: no selfLink.
    await put("configmaps", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "client-set", namespace: NS, uid: "uid-c", creationTimestamp: "2025-01-02T03:04:05Z", generation: 5 } });
    beforeUpdate = String(rev);
    const updated = await store.writer.commit({
      type: "update", key: { resource: "configmaps", namespace: NS, name: "legacy" }, expectRev: rev,
      object: { apiVersion: "v1", kind: "ConfigMap", metadata: meta("configmaps", "legacy", 2), data: { a: "2" } },
    });
    if (!updated.ok) throw new Error(`old update: ${updated.reason}`);
  } finally {
    await store.close();
  }
}

function get(urlPath: string, accept = "application/json"): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: "127.0.0.1", port: server.port, path: urlPath, ca: server.ca, agent: false, headers: { Accept: accept, Authorization: `Bearer ${server.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cluster-core-old-data-"));
  await writeAsTheOldVersion(dataDir);
  server = await startServer({ dataDir });
}, 120_000);
afterAll(async () => {
  await stopAll();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("objects an older version stored with selfLink and generation", () => {
  test("get and list (the stored-JSON splice) serve neither", async () => {
    for (const p of [link("configmaps", "legacy"), link("pods", "legacy-pod")]) {
      const res = await server.request("GET", p);
      expect(res.status, res.text).toBe(200);
      expect(res.body.metadata).not.toHaveProperty("selfLink");
      expect(res.body.metadata).not.toHaveProperty("generation");
    }
    for (const p of [`/api/v1/namespaces/${NS}/configmaps`, "/api/v1/pods", `/api/v1/namespaces/${NS}/pods?limit=1`]) {
      const res = await server.request("GET", p);
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length, p).toBeGreaterThan(0);
      expect(res.text, p).not.toContain("selfLink");
    }
  });

  test("a generation a client set is kept", async () => {
    const res = await server.request("GET", link("configmaps", "client-set"));
    expect(res.body.metadata.generation).toBe(5);
  });

  test("watch: initial state and the history replayed from the log", async () => {
    for (const q of ["resourceVersion=0", `resourceVersion=${beforeUpdate}`]) {
      const res = await get(`/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=1&${q}`);
      const events = res.body.toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(events.length, q).toBeGreaterThan(0);
      for (const e of events) {
        expect(e.object.metadata, q).not.toHaveProperty("selfLink");
        if (e.object.metadata.name === "legacy") expect(e.object.metadata, q).not.toHaveProperty("generation");
      }
    }
  });

  test("protobuf", async () => {
    const res = await get(link("configmaps", "legacy"), "application/vnd.kubernetes.protobuf");
    expect(res.status).toBe(200);
    const env = openEnvelope(res.body);
    const object = decodeMessage(env.kind, env.raw) as { metadata: Record<string, unknown> };
    expect(object.metadata.name).toBe("legacy");
    expect(object.metadata.selfLink ?? "").toBe("");
    expect(object.metadata.generation ?? 0).toBe(0);
  });

  test("an update of such an object stores neither", async () => {
    const current = await server.request("GET", link("configmaps", "legacy"));
    const res = await server.request("PUT", link("configmaps", "legacy"), { body: { ...current.body, data: { a: "3" } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata).not.toHaveProperty("generation");
    expect(res.body.metadata).not.toHaveProperty("selfLink");
  });
});

// The scale benchmark's objects (bench/scale-objects.ts) are what a cluster would hold: the real server accepts
// the pods a ReplicaSet controller would create and the status a kubelet would report, and stores them at the
// size the benchmark says it measures; the namespace layout puts the same-run reference list in one namespace.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, stopAll, type Server } from "../e2e/api/harness";
import { CONFIGMAP_LAYOUT, namespaceOf, namespacesFor, POD_LAYOUT, SCALE_LABEL, scaleConfigMap, scalePod } from "./scale-objects";

let server: Server;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => { await stopAll(); });

describe("scale benchmark objects", () => {
  test("the first 10,000 objects share one namespace, the rest fill namespaces of 1,000 pods or 10,000 ConfigMaps", () => {
    expect(namespaceOf(POD_LAYOUT, 9_999)).toBe("scale-000");
    expect(namespaceOf(POD_LAYOUT, 10_000)).toBe("scale-001");
    expect(namespaceOf(POD_LAYOUT, 149_999)).toBe("scale-140");
    expect(namespacesFor(POD_LAYOUT, 150_000)).toHaveLength(141);
    expect(namespacesFor(POD_LAYOUT, 2_000)).toEqual(["scale-000"]);
    expect(namespacesFor(CONFIGMAP_LAYOUT, 1_000_000)).toHaveLength(100);
    // Two runs store the same objects.
    expect(scalePod(12_345)).toEqual(scalePod(12_345));
  });

  test("pods are created and take a kubelet status through the API, and are stored at realistic sizes", async () => {
    const sizes: number[] = [];
    for (const i of [0, 1, 10_000]) {
      const p = scalePod(i);
      const name = (p.body.metadata as { name: string }).name;
      const ns = await server.request("POST", "/api/v1/namespaces", { body: { apiVersion: "v1", kind: "Namespace", metadata: { name: p.namespace } } });
      expect([201, 409]).toContain(ns.status);
      const created = await server.request("POST", `/api/v1/namespaces/${p.namespace}/pods`, { body: p.body });
      expect(created.status, created.text).toBe(201);
      const patched = await server.request("PATCH", `/api/v1/namespaces/${p.namespace}/pods/${name}/status`, { body: p.status, contentType: "application/strategic-merge-patch+json" });
      expect(patched.status, patched.text).toBe(200);
      const got = await server.request("GET", `/api/v1/namespaces/${p.namespace}/pods/${name}`);
      expect(got.body.status.phase).toBe("Running");
      expect(got.body.status.conditions.map((c: { type: string }) => c.type)).toContain("Ready");
      expect(got.body.metadata.labels[SCALE_LABEL]).toBe(String(i));
      expect(got.body.spec.containers[0].resources.requests.cpu).toBe("100m");
      sizes.push(Buffer.byteLength(JSON.stringify(got.body)));
    }
    // What the client writes is ~2.2 KB (spec ~1 KB, status ~1.1 KB); the server adds defaults, the
    // ServiceAccount token volume and managedFields for both writers (~2.4 KB of the stored size).
    for (const size of sizes) {
      expect(size).toBeGreaterThan(4_500);
      expect(size).toBeLessThan(7_000);
    }
  });

  test("small ConfigMaps are accepted and stay small", async () => {
    const c = scaleConfigMap(42);
    await server.request("POST", "/api/v1/namespaces", { body: { apiVersion: "v1", kind: "Namespace", metadata: { name: c.namespace } } });
    const created = await server.request("POST", `/api/v1/namespaces/${c.namespace}/configmaps`, { body: c.body });
    expect(created.status, created.text).toBe(201);
    const size = Buffer.byteLength(JSON.stringify(created.body));
    expect(size).toBeGreaterThan(300);
    expect(size).toBeLessThan(1_000);
  });
});

// The same API through the Next.js route handlers (what `next start` serves): server.ts normally answers API
// paths itself; API_VIA_NEXT=1 sends them through app/api, app/apis, app/version ... instead. Needs the
// production build (`npm test` builds before running this).
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWatch } from "./cluster";
import { createNamespaces, REPO_ROOT, startServer, stopAll, type Server } from "./harness";

let server: Server;
beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, ".next", "BUILD_ID"))) throw new Error("no production build: run `npx next build` first");
  server = await startServer({ env: { CLUSTER_CORE_CONSOLE: "on", API_VIA_NEXT: "1" } });
  // Returns once the namespace holds its root CA ConfigMap, so the namespace's list below is deterministic.
  await createNamespaces(server, "next");
}, 120_000);
afterAll(async () => { await stopAll(); }, 60_000);

describe("API through the Next.js route handlers", () => {
  test("discovery, create, get, NotFound Status, list, watch, patch, delete", async () => {
    expect((await server.request("GET", "/version")).status).toBe(200);
    expect((await server.request("GET", "/apis")).status).toBe(200);
    const created = await server.kubectl(["create", "configmap", "via-next", "-n", "next", "--from-literal=a=b"]);
    expect(created.code, created.stderr).toBe(0);
    const missing = await server.request("GET", "/api/v1/namespaces/next/configmaps/nope");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: "Status", reason: "NotFound", message: 'configmaps "nope" not found' });
    const list = await server.request("GET", "/api/v1/namespaces/next/configmaps");
    expect((list.body as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(["kube-root-ca.crt", "via-next"]);
    const watch = await openWatch(server, `/api/v1/namespaces/next/configmaps?watch=true&resourceVersion=${(list.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion}`);
    const patched = await server.kubectl(["patch", "configmap", "via-next", "-n", "next", "-p", '{"data":{"c":"d"}}']);
    expect(patched.code, patched.stderr).toBe(0);
    const ev = await watch.waitForEvent((e) => e.type === "MODIFIED");
    expect(ev.object.data).toEqual({ a: "b", c: "d" });
    watch.close();
    const deleted = await server.kubectl(["delete", "configmap", "via-next", "-n", "next"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await server.request("GET", "/api/v1/namespaces/next/configmaps/via-next")).status).toBe(404);
  });
});

// The same API through the Next.js route handlers (what `next start` serves): server.ts normally answers API
// paths itself; API_VIA_NEXT=1 sends them through app/api, app/apis, app/version ... instead. Needs the
// production build (`npm test` builds before running this).
import { existsSync } from "node:fs";
import http2 from "node:http2";
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

  test("over HTTP/2, the console's pages and Next's route handlers are still served by Next (through node's compatibility layer)", async () => {
    const session = await new Promise<http2.ClientHttp2Session>((resolve, reject) => {
      const s = http2.connect(`https://127.0.0.1:${server.port}`, { ca: server.ca, servername: "localhost" });
      s.once("connect", () => resolve(s));
      s.once("error", reject);
    });
    const get = (target: string, headers: http2.OutgoingHttpHeaders = {}) => new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const stream = session.request({ ":path": target, ...headers });
      let status = 0;
      let type = "";
      let text = "";
      stream.setEncoding("utf8");
      stream.on("response", (h) => { status = Number(h[":status"]); type = String(h["content-type"]); });
      stream.on("data", (c: string) => (text += c));
      stream.on("end", () => resolve({ status, type, text }));
      stream.on("error", reject);
    });
    try {
      const page = await get("/signin");
      expect([page.status, page.type]).toEqual([200, "text/html; charset=utf-8"]);
      expect(page.text).toContain("Sign in to Cluster Core");
      const csrf = await get("/api/auth/csrf");
      expect(csrf.status).toBe(200);
      expect(JSON.parse(csrf.text).csrfToken).toMatch(/\w+/);
      // With API_VIA_NEXT=1 the API goes through Next too, over the same connection.
      const list = await get("/api/v1/namespaces/next/configmaps", { authorization: `Bearer ${server.token}` });
      expect(list.status).toBe(200);
      expect(JSON.parse(list.text).kind).toBe("ConfigMapList");
    } finally {
      session.close();
    }
  });
});

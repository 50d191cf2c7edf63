// Watchers cost nothing once gone: closed connections free their watcher at once, and a watcher that stops
// reading is cut off when its backlog passes the bound instead of growing the server without limit.
import https from "node:https";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWatch, sleep } from "./cluster";
import { startServer, stopAll, type Server } from "./harness";

let server: Server;
beforeAll(async () => { server = await startServer(); }, 90_000);
afterAll(async () => { await stopAll(); }, 60_000);

async function watchers(): Promise<number> {
  const r = await server.request("GET", "/metrics");
  expect(r.status).toBe(200);
  return Number(/^cluster_core_watchers (\d+)$/m.exec(r.text)![1]);
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) { if (await check()) return; await sleep(100); }
  throw new Error(`timed out waiting for ${what}`);
}

describe("watch resources", () => {
  test("closing connections frees their watchers", async () => {
    const base = await watchers();
    const streams = await Promise.all(Array.from({ length: 40 }, () => openWatch(server, "/api/v1/namespaces/free/configmaps?watch=true")));
    await eventually(async () => (await watchers()) === base + 40, "40 open watchers");
    for (const s of streams) s.close();
    await eventually(async () => (await watchers()) === base, "watchers back to the baseline");
  });

  test("a watcher that stops reading is closed once its backlog passes the bound", async () => {
    const base = await watchers();
    // A client that reads nothing: pause the response right away.
    const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      const req = https.request({ host: "127.0.0.1", port: server.port, path: "/api/v1/namespaces/slow/configmaps?watch=true", ca: server.ca, agent: false, headers: { Authorization: `Bearer ${server.token}` } }, (r) => {
        r.pause();
        r.on("error", () => { /* the server may reset the connection of a watcher it cuts off */ });
        resolve(r);
      });
      req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    await eventually(async () => (await watchers()) === base + 1, "the slow watcher to open");
    const big = "x".repeat(512 * 1024);
    for (let i = 0; i < 48; i++) {
      const r = await server.request("POST", "/api/v1/namespaces/slow/configmaps", { body: { metadata: { name: `big-${i}` }, data: { v: big } } });
      expect(r.status).toBe(201);
    }
    await eventually(async () => (await watchers()) === base, "the slow watcher to be dropped", 20_000);
    res.destroy();
    // The server is still fine for everyone else.
    expect((await server.request("GET", "/api/v1/namespaces/slow/configmaps?limit=1")).status).toBe(200);
  });
});

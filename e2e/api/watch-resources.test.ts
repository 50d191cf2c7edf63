// Watchers cost nothing once gone: closed connections free their watcher at once.
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
});

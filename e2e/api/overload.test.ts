// Overload protection through the real server: seats per kind of request (MAX_REQUESTS_INFLIGHT,
// MAX_MUTATING_REQUESTS_INFLIGHT), a full queue answered 429 with Retry-After, fair turns between users so
// one token's flood does not starve another's reads, and request deadlines (REQUEST_TIMEOUT_SECONDS and
// `?timeout=`) answered with kube's 504.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type ApiResponse, type Server } from "./harness";
import { expectStatus } from "./kinds";

const QUIET = "quiet-user-token-0123456789";
const dir = mkdtempSync(path.join(os.tmpdir(), "cc-overload-"));
let server: Server;

beforeAll(async () => {
  const tokens = path.join(dir, "tokens.csv");
  writeFileSync(tokens, `${QUIET},quiet,uid-quiet,"system:masters"\n`);
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens, MAX_REQUESTS_INFLIGHT: "2", MAX_MUTATING_REQUESTS_INFLIGHT: "1" } });
  await createNamespaces(server, "load");
  await server.request("POST", "/api/v1/namespaces/load/configmaps", { body: { metadata: { name: "c" } } });
}, 90_000);
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

let future = "";

/** A GET on its own connection (the harness's pool has 64 sockets; a flood must not queue in the client). */
function ownConnectionGet(urlPath: string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: "127.0.0.1", port: server.port, path: urlPath, ca: server.ca, agent: false,
      headers: { Accept: "application/json", Authorization: `Bearer ${server.token}` },
    }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => {
        let body: any;
        try { body = JSON.parse(text); } catch { body = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A GET that holds its read seat for about 3 s: it waits for a revision far in the future (then 504s). */
async function blockingGet(): Promise<ApiResponse> {
  if (!future) {
    const list = await server.request("GET", "/api/v1/namespaces/load/configmaps");
    future = String(BigInt(list.body.metadata.resourceVersion) + 1_000_000n);
  }
  return ownConnectionGet(`/api/v1/namespaces/load/configmaps/c?resourceVersion=${future}`);
}

describe("overload", () => {
  test("seats full and a user's queue full: 429 TooManyRequests with Retry-After; another user still gets served", async () => {
    // Two blocking reads take both read seats; 100 more wait in the admin's queue; the rest are refused.
    await blockingGet();
    const flood = Array.from({ length: 110 }, () => blockingGet());
    await new Promise((r) => setTimeout(r, 500));
    const quietStarted = Date.now();
    const quiet = await server.request("GET", "/api/v1/namespaces/load/configmaps/c", { token: QUIET });
    const quietWaited = Date.now() - quietStarted;
    const answers = await Promise.all(flood);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    expectStatus(refused[0], 429, "TooManyRequests", "Too many requests, please try again later.");
    expect(refused[0].headers["retry-after"]).toBe("1");
    expect(refused[0].body.details).toEqual({ retryAfterSeconds: 1 });
    // The quiet user's turn came with the first free seat, not after the admin's hundred queued requests.
    expect(quiet.status, quiet.text).toBe(200);
    expect(quietWaited).toBeLessThan(8_000);
    expect(answers.every((a) => a.status < 500 || a.status === 504)).toBe(true);
  }, 60_000);

  test("writes have their own seats: a read flood does not hold up a write", async () => {
    const readers = [blockingGet(), blockingGet()];
    await new Promise((r) => setTimeout(r, 300));
    const write = await server.request("POST", "/api/v1/namespaces/load/configmaps", { body: { metadata: { name: "during-flood" } } });
    expect(write.status, write.text).toBe(201);
    await Promise.all(readers);
  }, 30_000);

  test("a request past its deadline gets kube's 504; a malformed ?timeout= is a 400", async () => {
    const list = await server.request("GET", "/api/v1/namespaces/load/configmaps");
    const future = BigInt(list.body.metadata.resourceVersion) + 1_000_000n;
    const started = Date.now();
    const late = await server.request("GET", `/api/v1/namespaces/load/configmaps/c?resourceVersion=${future}&timeout=1s`);
    expect(Date.now() - started).toBeLessThan(2_500);
    expectStatus(late, 504, "Timeout", "Timeout: request did not complete within requested timeout - context deadline exceeded");
    const bad = await server.request("GET", "/api/v1/namespaces/load/configmaps?timeout=soon");
    expectStatus(bad, 400, "BadRequest", "invalid timeout specified in the request URL");
  }, 30_000);

  test("REQUEST_TIMEOUT_SECONDS bounds every request that is not a watch; watches are not cut by it", async () => {
    const s = await startServer({ env: { REQUEST_TIMEOUT_SECONDS: "1" } });
    try {
      await createNamespaces(s, "load");
      const list = await s.request("GET", "/api/v1/namespaces/load/configmaps");
      const future = BigInt(list.body.metadata.resourceVersion) + 1_000_000n;
      const late = await s.request("GET", `/api/v1/namespaces/load/configmaps/x?resourceVersion=${future}`);
      expectStatus(late, 504, "Timeout", "Timeout: request did not complete within requested timeout - context deadline exceeded");
      const started = Date.now();
      const watch = await s.request("GET", `/api/v1/namespaces/load/configmaps?watch=true&timeoutSeconds=2&resourceVersion=${list.body.metadata.resourceVersion}`);
      expect(watch.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    } finally {
      await s.stop();
    }
  }, 90_000);
});

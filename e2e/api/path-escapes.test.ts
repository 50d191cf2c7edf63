// Request targets with odd escapes are answered as kube-apiserver answers them (issue 21). Go's server refuses
// only an escape that is not `%` and two hex digits (`%zz`: a plain-text 400 over HTTP/1.1, a PROTOCOL_ERROR
// stream reset over HTTP/2); any escaped byte is valid, so `%ff%fe` reaches the API and is answered with a v1
// Status naming it (`\xff\xfe` in the message as Go's %q writes it, U+FFFD in details as json.Marshal does).
// The path is decoded before it is split, as Go's URL.Path, and `%2e%2e` is a name (kube's key check: 400),
// never a `..` that climbs. Requests go out raw (node:https, node:http2) so no client normalises the path.
// The Next.js route handlers read the same target (lib/api/fetch-adapter.test.ts).
import http2 from "node:http2";
import https from "node:https";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

const NS = "esc";
let server: Server;

interface Raw { status: number; contentType: string; text: string; body: any }

function raw(s: Server, method: string, urlPath: string, body?: unknown): Promise<Raw> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${s.token}` };
  if (payload) Object.assign(headers, { "Content-Type": method === "PATCH" ? "application/merge-patch+json" : "application/json", "Content-Length": String(payload.length) });
  return new Promise((resolve, reject) => {
    const req = https.request({ host: "127.0.0.1", port: s.port, method, path: urlPath, ca: s.ca, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const contentType = String(res.headers["content-type"] ?? "");
        resolve({ status: res.statusCode ?? 0, contentType, text, body: contentType.startsWith("application/json") ? JSON.parse(text) : undefined });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** One HTTP/2 request: its status and body, or the code of the stream reset that ended it. */
function h2(s: Server, urlPath: string): Promise<{ status?: number; text: string; resetCode?: number }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${s.port}`, { ca: s.ca, servername: "localhost" });
    session.on("error", reject);
    const stream = session.request({ ":method": "GET", ":path": urlPath, accept: "application/json", authorization: `Bearer ${s.token}` });
    let status: number | undefined;
    let text = "";
    stream.on("response", (h) => { status = Number(h[":status"]); });
    stream.on("data", (c: Buffer) => { text += c.toString("utf8"); });
    stream.on("close", () => { const resetCode = stream.rstCode; session.close(); resolve({ status, text, resetCode: resetCode || undefined }); });
    stream.on("error", () => { /* the reset is read at close */ });
    stream.end();
  });
}

function expectStatus(res: Raw, code: number, reason: string, message: string): void {
  expect(res.status, res.text).toBe(code);
  expect(res.contentType).toBe("application/json");
  expect(res.body).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason, message });
}

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);
afterAll(stopAll, 60_000);

describe("escaped bytes that are not UTF-8", () => {
  test("GET and DELETE answer a 404 Status naming the bytes; PUT the name mismatch", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await raw(server, method, `/api/v1/namespaces/${NS}/pods/%ff%fe`);
      expectStatus(res, 404, "NotFound", 'pods "\\xff\\xfe" not found');
      expect(res.body.details).toEqual({ name: "\ufffd\ufffd", kind: "pods" });
    }
    const put = await raw(server, "PUT", `/api/v1/namespaces/${NS}/configmaps/%ff`, { metadata: { name: "x" } });
    expectStatus(put, 400, "BadRequest", "the name of the object (x) does not match the name on the URL (\ufffd)");
  });

  test("over HTTP/2 too", async () => {
    const res = await h2(server, `/api/v1/namespaces/${NS}/pods/%ff%fe`);
    expect(res.status, res.text).toBe(404);
    expect(JSON.parse(res.text).message).toBe('pods "\\xff\\xfe" not found');
  });
});

describe("malformed escapes stay Go's front-door refusals", () => {
  test("HTTP/1.1: a plain-text 400", async () => {
    const res = await raw(server, "GET", `/api/v1/namespaces/${NS}/pods/%zz`);
    expect(res.status).toBe(400);
    expect(res.contentType).toBe("text/plain; charset=utf-8");
    expect(res.text).toBe("400 Bad Request");
  });

  test("HTTP/2: the stream is reset with PROTOCOL_ERROR", async () => {
    const res = await h2(server, `/api/v1/namespaces/${NS}/pods/%zz`);
    expect(res.status).toBeUndefined();
    expect(res.resetCode).toBe(http2.constants.NGHTTP2_PROTOCOL_ERROR);
  });
});

describe("odd names", () => {
  test("%2e and %2e%2e are names kube's key check refuses (400), never a climb to the namespace", async () => {
    for (const method of ["GET", "DELETE", "PATCH"]) {
      const dots = await raw(server, method, `/api/v1/namespaces/${NS}/configmaps/%2e%2e`, method === "PATCH" ? {} : undefined);
      expectStatus(dots, 400, "BadRequest", `Name parameter invalid: "..": may not be '..'`);
    }
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/%2E`), 400, "BadRequest", `Name parameter invalid: ".": may not be '.'`);
    const ns = await raw(server, "GET", `/api/v1/namespaces/${NS}`);
    expect(ns.status, ns.text).toBe(200);
    expect(ns.body.metadata.deletionTimestamp).toBeUndefined();
  });

  test("%25 in a name is refused by the key check; %00 and a backslash are names that do not exist", async () => {
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/a%25b`), 400, "BadRequest", `Name parameter invalid: "a%b": may not contain '%'`);
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/%00`), 404, "NotFound", 'configmaps "\\x00" not found');
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/a\\b`), 404, "NotFound", 'configmaps "a\\\\b" not found');
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/a%22b`), 404, "NotFound", 'configmaps "a\\"b" not found');
  });

  test("%2F separates segments as in Go's URL.Path: a subresource nothing serves", async () => {
    expectStatus(await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps/a%2Fb`), 404, "NotFound", "the server could not find the requested resource");
  });

  test("a very long name is looked up like any other", async () => {
    const name = "a".repeat(8000);
    expectStatus(await raw(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps/${name}`), 404, "NotFound", `configmaps "${name}" not found`);
  });
});

describe("query strings", () => {
  test("a pair with a malformed escape is left out, as Go's URL.Query() does", async () => {
    const res = await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps?labelSelector=%zz&limit=%zz`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.kind).toBe("ConfigMapList");
  });

  test("a selector of bytes that are not UTF-8 is a 400 Status, not a crash", async () => {
    const res = await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps?labelSelector=%ff`);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ kind: "Status", reason: "BadRequest" });
  });
});

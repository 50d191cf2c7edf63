// Client mistakes get a 4xx, never a 5xx (issue 13): odd request targets, resourceVersions that are not
// unsigned 64-bit integers, YAML alias tricks, strategic merge patches that do not fit the schema, and a
// body whose thousands of unknown fields would otherwise make a response header too large to read.
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";
import { expectStatus } from "./kinds";

let server: Server;
beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "oops");
}, 90_000);
afterAll(stopAll);

/** Sends a hand-written request line (targets node's clients would refuse to send) and returns the status line. */
function rawStatusLine(s: Server, requestLine: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: "127.0.0.1", port: s.port, ca: s.ca, servername: "localhost" }, () => {
      socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.token}\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.on("data", (d) => { data += d.toString("latin1"); });
    socket.on("end", () => resolve(data.split("\r\n", 1)[0]));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => { socket.destroy(); reject(new Error("timeout")); });
  });
}

describe("request targets", () => {
  test("`*` is 200 for OPTIONS and 400 otherwise; a climbing path is redirected to its clean form", async () => {
    expect(await rawStatusLine(server, "OPTIONS * HTTP/1.1")).toBe("HTTP/1.1 200 OK");
    expect(await rawStatusLine(server, "GET * HTTP/1.1")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawStatusLine(server, "TRACE /_next/../api/v1/namespaces HTTP/1.1")).toBe("HTTP/1.1 301 Moved Permanently");
    const res = await server.request("GET", "/api/./v1/../v1/namespaces/oops/configmaps?limit=1");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/api/v1/namespaces/oops/configmaps?limit=1");
  });
});

describe("resourceVersion", () => {
  const cases: [string, string][] = [
    ["1e5", "invalid syntax"],
    ["-1", "invalid syntax"],
    ["18446744073709551616", "value out of range"],
    ["99999999999999999999999", "value out of range"],
  ];
  test.each(cases)("%s is a 400 at once on get, list and watch", async (rv, why) => {
    const message = `invalid resource version: strconv.ParseUint: parsing "${rv}": ${why}`;
    await server.request("POST", "/api/v1/namespaces/oops/configmaps", { body: { metadata: { name: "rv" } } });
    for (const path of [
      `/api/v1/namespaces/oops/configmaps/rv?resourceVersion=${rv}`,
      `/api/v1/namespaces/oops/configmaps?resourceVersion=${rv}`,
      `/api/v1/namespaces/oops/configmaps?watch=true&resourceVersion=${rv}`,
    ]) {
      const started = Date.now();
      const res = await server.request("GET", path);
      expectStatus(res, 400, "BadRequest", message);
      expect(Date.now() - started, path).toBeLessThan(2500);
    }
  });
});

describe("bodies", () => {
  test("YAML with an unresolved alias or an alias bomb is 400, nothing written", async () => {
    const unresolved = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alias\ndata: *nowhere\n";
    const res = await server.request("POST", "/api/v1/namespaces/oops/configmaps", { body: unresolved, contentType: "application/yaml" });
    expect(res.status, res.text).toBe(400);
    expect(res.body.reason).toBe("BadRequest");
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (let i = 0; i < 8; i++) bomb += `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]\n`;
    const bombed = await server.request("POST", "/api/v1/namespaces/oops/configmaps", {
      body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  annotations:\n    x: y\nextra:\n${bomb.split("\n").map((l) => `  ${l}`).join("\n")}`,
      contentType: "application/yaml",
    });
    expect(bombed.status, bombed.text).toBe(400);
    expect((await server.request("GET", "/api/v1/namespaces/oops/configmaps/alias")).status).toBe(404);
    expect((await server.request("GET", "/api/v1/namespaces/oops/configmaps/bomb")).status).toBe(404);
  });

  test("strategic merge patches that do not fit the schema are 400 with kube's message", async () => {
    await server.request("POST", "/api/v1/namespaces/oops/pods", {
      body: { metadata: { name: "p" }, spec: { containers: [{ name: "app", image: "nginx" }] } },
    });
    const path = "/api/v1/namespaces/oops/pods/p";
    const smp = "application/strategic-merge-patch+json";
    const wrongType = await server.request("PATCH", path, { body: { spec: { "$setElementOrder/containers": "nginx" } }, contentType: smp });
    expectStatus(wrongType, 400, "BadRequest", "expected a []interface {}, but received a string");
    const noKey = await server.request("PATCH", path, { body: { spec: { containers: [{ image: "x" }] } }, contentType: smp });
    expectStatus(noKey, 400, "BadRequest", "map: map[image:x] does not contain declared merge key: name");
    const bogus = await server.request("PATCH", path, { body: { metadata: { labels: { $patch: "bogus", a: "b" } } }, contentType: smp });
    expectStatus(bogus, 400, "BadRequest", "unknown patch type: bogus in map: map[$patch:bogus a:b]");
  });

  test("50,000 unknown fields: the warnings are capped as kube caps them and the answer stays readable", async () => {
    const data: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) data[`unknown${i}`] = i;
    const res = await server.request("POST", "/api/v1/namespaces/oops/configmaps?fieldValidation=Warn", {
      body: { metadata: { name: "many-unknowns" }, ...data },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    // Node joins repeated headers with ", ".
    const warnings = ([] as string[]).concat(res.headers.warning ?? []).join(", ");
    expect(warnings.startsWith('299 - "unknown field \\"unknown0\\"", 299 - "unknown field \\"unknown1\\""')).toBe(true);
    expect(warnings.length).toBeLessThan(8 * 1024);
  });
});

// HTTP/2 on the API port: node's http2 client negotiates h2 by ALPN and gets, lists and watches over it,
// many watches share one connection, a watch the client resets (RST_STREAM) frees its server resources at
// once, a watcher that stops reading is reset without disturbing its connection's other streams, whole
// answers carry Content-Length, the front door and the paths outside the API still answer over h2, the audit
// log names the client's address, HTTP/1.1 still works on the same port, and kubectl (client-go) speaks h2 to it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";

let server: Server;
const NS = "h2";
const auditDir = mkdtempSync(path.join(os.tmpdir(), "h2-audit-"));
const auditPath = path.join(auditDir, "audit.log");

beforeAll(async () => {
  server = await startServer({ env: { AUDIT_LOG_PATH: auditPath } });
  await createNamespaces(server, NS);
}, 90_000);
afterAll(async () => {
  await stopAll();
  rmSync(auditDir, { recursive: true, force: true });
});

function connect(s: Server): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${s.port}`, { ca: s.ca, servername: "localhost" });
    session.once("connect", () => resolve(session));
    session.once("error", reject);
  });
}

interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  text: string;
}

function request(session: http2.ClientHttp2Session, method: string, path: string, body?: unknown): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": method,
      ":path": path,
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    });
    let status = 0;
    let headers: http2.IncomingHttpHeaders = {};
    let text = "";
    stream.setEncoding("utf8");
    stream.on("response", (h) => { headers = h; status = Number(h[":status"]); });
    stream.on("data", (c: string) => (text += c));
    stream.on("end", () => resolve({ status, headers, text }));
    stream.on("error", reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

interface H2Watch {
  stream: http2.ClientHttp2Stream;
  status: Promise<number>;
  events: { type: string; object: any }[];
  until(pred: (events: { type: string; object: any }[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
}

function watch(session: http2.ClientHttp2Session, path: string): H2Watch {
  const stream = session.request({ ":method": "GET", ":path": path, authorization: `Bearer ${server.token}`, accept: "application/json" });
  const events: { type: string; object: any }[] = [];
  let pending = "";
  const waiters = new Set<() => void>();
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) events.push(JSON.parse(line));
    }
    for (const w of [...waiters]) w();
  });
  stream.on("error", () => {});
  const status = new Promise<number>((resolve) => stream.once("response", (h) => resolve(Number(h[":status"]))));
  return {
    stream,
    status,
    events,
    until: (pred, what, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pred(events)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`timed out waiting for ${what}; got ${events.map((e) => `${e.type} ${e.object?.metadata?.name}`).join(", ")}`)); }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

async function openWatches(resource: string): Promise<number> {
  const text = (await server.request("GET", "/metrics")).text;
  let n = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("apiserver_longrunning_requests{") && line.includes(`resource="${resource}"`) && line.includes('verb="WATCH"')) {
      n += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return n;
}

/** kubectl with Go's HTTP/2 debug log on (stderr), which names the transport each request used. */
function kubectlH2(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.env.KUBECTL ?? "/usr/bin/kubectl", [`--kubeconfig=${server.kubeconfig}`, "--cache-dir=/dev/null/none", ...args], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", GODEBUG: "http2debug=1" } as unknown as NodeJS.ProcessEnv,
      timeout: 30_000,
      encoding: "utf8",
    }, (err: Error | null, stdout: string, stderr: string) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const configMap = (name: string, data: Record<string, string> = { k: "v" }) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data });

describe("HTTP/2", () => {
  test("ALPN offers h2 and http/1.1; node's http2 client creates, gets and lists over h2", async () => {
    const offered = await new Promise<string | false | null>((resolve, reject) => {
      const socket = tls.connect({ host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost", ALPNProtocols: ["h2", "http/1.1"] }, () => {
        resolve(socket.alpnProtocol);
        socket.end();
      });
      socket.on("error", reject);
    });
    expect(offered).toBe("h2");

    const session = await connect(server);
    try {
      expect(session.alpnProtocol).toBe("h2");
      const created = await request(session, "POST", `/api/v1/namespaces/${NS}/configmaps`, configMap("over-h2"));
      expect(created.status).toBe(201);
      // No HTTP/1-only header may reach an HTTP/2 answer (node's client would have failed on it anyway).
      expect(created.headers.connection).toBeUndefined();
      const got = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/over-h2`);
      expect(got.status).toBe(200);
      expect(JSON.parse(got.text).data).toEqual({ k: "v" });
      const list = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps`);
      expect(JSON.parse(list.text).items.map((i: any) => i.metadata.name)).toContain("over-h2");
      // Errors keep kube's Status over h2, and a malformed target is still refused.
      const missing = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/nope`);
      expect([missing.status, JSON.parse(missing.text).reason]).toEqual([404, "NotFound"]);
      const tooLarge = await request(session, "POST", `/api/v1/namespaces/${NS}/configmaps`, configMap("huge", { k: "x".repeat(4 * 1024 * 1024) }));
      expect(tooLarge.status).toBe(413);
      // The session survives a 413: the next request on it works.
      expect((await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/over-h2`)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  test("whole answers carry Content-Length over h2 and HTTP/1.1, as kube-apiserver's do; lists stream without", async () => {
    const session = await connect(server);
    try {
      expect((await request(session, "POST", `/api/v1/namespaces/${NS}/configmaps`, configMap("sized", { k: "é" }))).status).toBe(201);
      const got = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/sized`);
      expect(got.status).toBe(200);
      expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(got.text)));
      const missing = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/nope`);
      expect(missing.headers["content-length"]).toBe(String(Buffer.byteLength(missing.text)));
      const list = await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps`);
      expect([list.status, list.headers["content-length"]]).toEqual([200, undefined]);
    } finally {
      session.close();
    }
    const h1 = await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/sized`);
    expect(h1.headers["content-length"]).toBe(String(Buffer.byteLength(h1.text)));
    expect(h1.headers["transfer-encoding"]).toBeUndefined();
    const h1List = await server.request("GET", `/api/v1/namespaces/${NS}/configmaps`);
    expect([h1List.headers["transfer-encoding"], h1List.headers["content-length"]]).toEqual(["chunked", undefined]);
  });

  test("over h2 the front door still answers first, and paths outside the API still reach the console's listener", async () => {
    const session = await connect(server);
    try {
      const climbing = await request(session, "GET", `/api/v1/namespaces/${NS}/../${NS}/configmaps?limit=1`);
      expect([climbing.status, climbing.headers.location]).toEqual([301, `/api/v1/namespaces/${NS}/configmaps?limit=1`]);
      expect(climbing.headers["content-length"]).toBe(String(Buffer.byteLength(climbing.text)));
      // With the console off, server.ts answers every other path itself, through node's compatibility layer.
      const outside = await request(session, "GET", "/some/console/page");
      expect([outside.status, outside.text]).toEqual([404, "404 page not found\n"]);
      // The API on the same connection afterwards.
      expect((await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/sized`)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  test("the audit log names the client's address over h2 as over HTTP/1.1", async () => {
    const session = await connect(server);
    try {
      expect((await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/audited-h2`)).status).toBe(404);
    } finally {
      session.close();
    }
    expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/audited-h1`)).status).toBe(404);
    await waitFor("both requests in the audit log", async () => {
      const lines = readFileSync(auditPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { objectRef?: { name?: string }; sourceIPs?: string[] });
      const [h2, h1] = ["audited-h2", "audited-h1"].map((name) => lines.find((l) => l.objectRef?.name === name));
      if (!h2 || !h1) return undefined;
      expect([h2.sourceIPs, h1.sourceIPs]).toEqual([["127.0.0.1"], ["127.0.0.1"]]);
      return true;
    });
  });

  test("twenty watches share one connection and each gets its own events", async () => {
    const session = await connect(server);
    try {
      const kinds = ["configmaps", "secrets", "services", "serviceaccounts", "pods", "events", "endpoints", "limitranges", "resourcequotas", "persistentvolumeclaims"];
      const watches = kinds.flatMap((k) => [watch(session, `/api/v1/namespaces/${NS}/${k}?watch=true&allowWatchBookmarks=true`), watch(session, `/api/v1/${k}?watch=true`)]);
      expect(await Promise.all(watches.map((w) => w.status))).toEqual(watches.map(() => 200));
      await waitFor("20 open watches", async () => ((await Promise.all(kinds.map(openWatches))).reduce((a, b) => a + b, 0) >= 20 ? true : undefined));
      const before = watches[0].events.length;
      expect((await request(session, "POST", `/api/v1/namespaces/${NS}/configmaps`, configMap("seen-by-watch"))).status).toBe(201);
      await watches[0].until((e) => e.slice(before).some((x) => x.type === "ADDED" && x.object.metadata.name === "seen-by-watch"), "the namespaced ConfigMap watch to see the create");
      await watches[1].until((e) => e.some((x) => x.type === "ADDED" && x.object.metadata.name === "seen-by-watch"), "the cluster-wide ConfigMap watch to see the create");
      // The Secret watches saw nothing of it.
      expect(watches[2].events.filter((x) => x.object?.metadata?.name === "seen-by-watch")).toEqual([]);
      for (const w of watches) w.stream.close(http2.constants.NGHTTP2_CANCEL);
    } finally {
      session.close();
    }
  });

  test("a watch the client resets (RST_STREAM) is freed on the server at once; its connection stays usable", async () => {
    const session = await connect(server);
    try {
      await waitFor("no secret watches left over", async () => ((await openWatches("secrets")) === 0 ? true : undefined));
      const watches = Array.from({ length: 5 }, () => watch(session, `/api/v1/namespaces/${NS}/secrets?watch=true`));
      expect(await Promise.all(watches.map((w) => w.status))).toEqual([200, 200, 200, 200, 200]);
      await waitFor("5 open secret watches", async () => ((await openWatches("secrets")) === 5 ? true : undefined));
      for (const w of watches.slice(0, 3)) w.stream.close(http2.constants.NGHTTP2_CANCEL);
      await waitFor("the 3 reset watches to be gone", async () => ((await openWatches("secrets")) === 2 ? true : undefined), 3_000);
      // The connection is intact: the other two watches still deliver, and requests still work.
      const s = { apiVersion: "v1", kind: "Secret", metadata: { name: "after-reset", namespace: NS }, stringData: { a: "b" } };
      expect((await request(session, "POST", `/api/v1/namespaces/${NS}/secrets`, s)).status).toBe(201);
      await watches[3].until((e) => e.some((x) => x.object.metadata.name === "after-reset"), "a surviving watch to see the create");
      for (const w of watches.slice(3)) w.stream.close(http2.constants.NGHTTP2_CANCEL);
      await waitFor("every secret watch gone", async () => ((await openWatches("secrets")) === 0 ? true : undefined), 3_000);
    } finally {
      session.close();
    }
  });

  test("a watcher that stops reading is reset while its connection's other streams carry on", async () => {
    const session = await connect(server);
    const value = "x".repeat(200 * 1024);
    try {
      const stuck = watch(session, `/api/v1/namespaces/${NS}/configmaps?watch=true&labelSelector=big%3D1`);
      const healthy = watch(session, `/api/v1/namespaces/${NS}/services?watch=true`);
      expect([await stuck.status, await healthy.status]).toEqual([200, 200]);
      // The client stops reading: node stops acknowledging the stream's data, so the server's bytes queue up.
      stuck.stream.pause();
      const reset = new Promise<number>((resolve) => stuck.stream.once("close", () => resolve(stuck.stream.rstCode ?? -1)));
      for (let i = 0; i < 30; i++) {
        const cm = { ...configMap(`big-${i}`, { v: value }), metadata: { name: `big-${i}`, namespace: NS, labels: { big: "1" } } };
        expect((await request(session, "POST", `/api/v1/namespaces/${NS}/configmaps`, cm)).status).toBe(201);
      }
      // Reset with an error code (not a clean end), within the stall time plus a sweep or two.
      expect(await Promise.race([reset, new Promise<number>((r) => setTimeout(() => r(-2), 20_000))])).toBe(http2.constants.NGHTTP2_INTERNAL_ERROR);
      const svc = { apiVersion: "v1", kind: "Service", metadata: { name: "still-live", namespace: NS }, spec: { ports: [{ port: 80 }] } };
      expect((await request(session, "POST", `/api/v1/namespaces/${NS}/services`, svc)).status).toBe(201);
      await healthy.until((e) => e.some((x) => x.object.metadata.name === "still-live"), "the healthy watch on the same connection to see the create");
      healthy.stream.close(http2.constants.NGHTTP2_CANCEL);
    } finally {
      session.close();
    }
  }, 60_000);

  test("HTTP/1.1 still works on the same port (no ALPN, and ALPN http/1.1)", async () => {
    const res = await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/over-h2`);
    expect(res.status).toBe(200);
    const viaAlpn = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost", ALPNProtocols: ["http/1.1"] }, () => {
        expect(socket.alpnProtocol).toBe("http/1.1");
        socket.write(`GET /api/v1/namespaces/${NS}/configmaps/over-h2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`);
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (c: string) => (text += c));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(viaAlpn).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(viaAlpn).toContain('"name":"over-h2"');
    // HTTP/1.1 without Host is still refused, as node:https did (and Go does).
    const noHost = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost" }, () => {
        socket.write(`GET /api/v1/namespaces/${NS}/configmaps/over-h2 HTTP/1.1\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`);
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (c: string) => (text += c));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
  });

  test("an upload cut off midway is never applied, over HTTP/2 and HTTP/1.1", async () => {
    // A server-side apply in YAML: cut after `a: one`, what arrived still parses as a smaller manifest.
    const manifest = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${NS}\ndata:\n  a: one\n  b: two\n`;
    const path = (name: string) => `/api/v1/namespaces/${NS}/configmaps/${name}?fieldManager=cut-test`;
    const partial = (name: string) => manifest(name).slice(0, manifest(name).indexOf("  b: two"));

    const session = await connect(server);
    const stream = session.request({
      ":method": "PATCH",
      ":path": path("cut-h2"),
      authorization: `Bearer ${server.token}`,
      "content-type": "application/apply-patch+yaml",
      "content-length": String(Buffer.byteLength(manifest("cut-h2"))),
    });
    stream.on("error", () => {});
    stream.write(partial("cut-h2"));
    await new Promise((r) => setTimeout(r, 300));
    stream.close(http2.constants.NGHTTP2_CANCEL);

    await new Promise<void>((resolve, reject) => {
      const socket = tls.connect({ host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost", ALPNProtocols: ["http/1.1"] }, () => {
        socket.write(`PATCH ${path("cut-h1")} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.token}\r\n` +
          `Content-Type: application/apply-patch+yaml\r\nContent-Length: ${Buffer.byteLength(manifest("cut-h1"))}\r\n\r\n${partial("cut-h1")}`);
        setTimeout(() => { socket.destroy(); resolve(); }, 300);
      });
      socket.on("error", reject);
    });

    // Give the server time to have applied what it got, had it taken the part for the whole.
    await new Promise((r) => setTimeout(r, 1_000));
    for (const name of ["cut-h2", "cut-h1"]) expect((await request(session, "GET", `/api/v1/namespaces/${NS}/configmaps/${name}`)).status).toBe(404);
    // The same upload sent whole is applied.
    const whole = await new Promise<number>((resolve, reject) => {
      const s2 = session.request({ ":method": "PATCH", ":path": path("cut-h2"), authorization: `Bearer ${server.token}`, "content-type": "application/apply-patch+yaml" });
      s2.on("response", (h) => resolve(Number(h[":status"])));
      s2.on("error", reject);
      s2.resume();
      s2.end(manifest("cut-h2"));
    });
    expect(whole).toBe(201);
    session.close();
  });

  test("HTTP/1.1 keep-alive: large uploads right after large answers are all applied", async () => {
    // client-node speaks HTTP/1.1 over keep-alive: each upload goes out as soon as the previous large answer
    // is read, often before the server has seen that answer drain. node:http's native reading then fed the
    // upload to its paused parser (HPE_PAUSED) and reset the connection: the write was lost.
    await createNamespaces(server, "h1-uploads");
    const value = "x".repeat(200_000);
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(async (c) => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await server.request("POST", "/api/v1/namespaces/h1-uploads/configmaps", { body: { metadata: { name: `big-${c}-${i}` }, data: { v: value } } });
        statuses.push(res.status);
      }
      return statuses;
    }));
    expect(results.flat()).toEqual(new Array(240).fill(201));
  }, 120_000);

  test("kubectl (client-go) talks h2 to the server: get, apply and a watch", async () => {
    const got = await kubectlH2(["get", "configmap", "over-h2", "-n", NS, "-o", "jsonpath={.data.k}"]);
    expect(got.stdout).toBe("v");
    // Go's http2 debug log names the transport it used: proof the answer came over h2.
    expect(got.stderr).toMatch(/http2: Transport creating client conn/);
    expect(got.stderr).toMatch(/http2: Transport received HEADERS flags=END_HEADERS/);
    const applied = await server.kubectl(["apply", "-f", "-"], { input: JSON.stringify(configMap("kubectl-h2", { a: "1" })) });
    expect(applied.stdout).toContain("configmap/kubectl-h2 created");
    const watching = kubectlH2(["get", "configmaps", "-n", NS, "--watch-only", "-o", "name", "--request-timeout=4s"]);
    await new Promise((r) => setTimeout(r, 1_500));
    await server.kubectl(["label", "configmap", "kubectl-h2", "-n", NS, "seen=yes"]);
    const watched = await watching;
    expect(watched.stdout).toContain("configmap/kubectl-h2");
    expect(watched.stderr).toMatch(/http2: Transport encoding header ":path" = "\/api\/v1\/namespaces\/h2\/configmaps\?.*watch=true/);
  });
});

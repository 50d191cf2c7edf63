import { EventEmitter } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { ApiRequest, ApiResponse } from "./types";
import { nodeApiHandler, toApiRequest, toHttp2ApiRequest, writeApiResponse, writeHttp2Response } from "./node-adapter";
import { testRuntime } from "./test-support";

type NodeRequest = IncomingMessage;
type NodeResponse = ServerResponse;

/** An HTTP/1.1 response whose client is connected or already gone, recording what was done to it. */
function response(gone: boolean) {
  const res = Object.assign(new EventEmitter(), {
    destroyed: gone,
    writableLength: 0,
    ended: false,
    writeHead() {},
    flushHeaders() {},
    write: () => true,
    end() { res.ended = true; },
    destroy() {},
  });
  const req = { httpVersionMajor: 1, socket: { destroyed: gone } };
  return { req: req as unknown as NodeRequest, res };
}

function watchAnswer() {
  const seen = { started: 0, stopped: 0 };
  const answer: ApiResponse = {
    status: 200,
    headers: { "content-type": "application/json" },
    stream: {
      timeoutMs: 60_000,
      start: () => {
        seen.started++;
        return () => void seen.stopped++;
      },
    },
  } as ApiResponse;
  return { answer, seen };
}

describe("a watch answer", () => {
  it("whose client went while the request was authorized is stopped at once (its seat and audit settled)", () => {
    const { req, res } = response(true);
    const { answer, seen } = watchAnswer();
    writeApiResponse(req, res as unknown as NodeResponse, answer);
    expect(seen).toEqual({ started: 1, stopped: 1 });
    expect(res.ended).toBe(true);
  });

  it("to a connected client runs until the client goes", () => {
    const { req, res } = response(false);
    const { answer, seen } = watchAnswer();
    writeApiResponse(req, res as unknown as NodeResponse, answer);
    expect(seen).toEqual({ started: 1, stopped: 0 });
    res.emit("close");
    expect(seen).toEqual({ started: 1, stopped: 1 });
  });
});

describe("the request target", () => {
  it("is read as sent: a `%2e%2e` name is not resolved as `..`, a backslash is not a slash", () => {
    const api = toApiRequest({ url: "/api/v1/namespaces/esc/configmaps/%2e%2e/a\\b?labelSelector=%zz&limit=1", method: "GET", headers: {}, httpVersionMajor: 1 } as unknown as NodeRequest);
    expect(api.path).toBe("/api/v1/namespaces/esc/configmaps/%2e%2e/a\\b");
    expect([...api.query]).toEqual([["limit", "1"]]);
  });

  it("without a query has an empty one that cannot be changed (one shared by every such request)", () => {
    const read = (url: string) => toApiRequest({ url, method: "GET", headers: {}, httpVersionMajor: 1 } as unknown as NodeRequest);
    const api = read("/api/v1/namespaces/a/configmaps/b");
    expect(api.path).toBe("/api/v1/namespaces/a/configmaps/b");
    expect([...api.query]).toEqual([]);
    expect(api.query.get("resourceVersion")).toBeNull();
    expect(() => api.query.set("watch", "1")).toThrow(TypeError);
    expect(() => api.query.append("watch", "1")).toThrow(TypeError);
    expect(read("/api/v1/namespaces/a/configmaps/c").query.has("watch")).toBe(false);
  });
});

// The two transports on real node servers in this process (plain TCP: what the adapter writes does not depend on TLS).

/** An HTTP/1.1 server answering every request with `answer()`; `seen` gets each request as the pipeline reads it. */
async function http1Server(answer: () => ApiResponse, seen?: (req: ApiRequest) => void) {
  const server = http.createServer((req, res) => {
    const api = toApiRequest(req);
    seen?.(api);
    writeApiResponse(req, res, answer());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The raw HTTP/1.1 answer to `request` sent on its own connection (closed by the client's `Connection: close`). */
function rawHttp1(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (c: string) => (text += c));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

/** An HTTP/2 (h2c) server handing each stream to `handle`. */
async function http2Server(handle: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, raw: string[]) => void) {
  const server = http2.createServer();
  // node passes the raw header list as the fourth argument (its types name three).
  server.on("stream", ((stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, _flags: number, raw: string[]) => handle(stream, headers, raw)) as (stream: http2.ServerHttp2Stream) => void);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { server, session, close: () => { session.close(); server.close(); } };
}

interface H2Answer { headers: http2.IncomingHttpHeaders; body: Buffer; trailers: boolean; interim: number[] }

function h2Request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined });
    const out: H2Answer = { headers: {}, body: Buffer.alloc(0), trailers: false, interim: [] };
    const chunks: Buffer[] = [];
    stream.on("headers", (h) => out.interim.push(Number(h[":status"])));
    stream.on("response", (h) => (out.headers = h));
    stream.on("trailers", () => (out.trailers = true));
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve({ ...out, body: Buffer.concat(chunks) }));
    stream.on("error", reject);
    if (body !== undefined) stream.end(body);
  });
}

const whole = (status: number, body?: string): ApiResponse => ({ status, headers: { "content-type": "application/json", "cache-control": "no-cache, private" }, body });

describe("a whole answer", () => {
  // Bytes, not characters: the UTF-8 of `é` is two.
  const body = '{"kind":"ConfigMap","data":{"k":"é"}}\n';

  it("over HTTP/1.1 carries Content-Length (head and body in one go), not chunks", async () => {
    const { server, port } = await http1Server(() => whole(200, body));
    try {
      const text = await rawHttp1(port, "GET /api/v1/namespaces/a/configmaps/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const [head, rest] = text.split("\r\n\r\n");
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head.toLowerCase()).toContain(`content-length: ${Buffer.byteLength(body)}\r\n`);
      expect(head.toLowerCase()).not.toContain("transfer-encoding");
      expect(Buffer.from(rest, "latin1").toString()).toBe(body);
    } finally {
      server.close();
    }
  });

  it("over HTTP/1.1: a 413 closes the connection, a 304 has no length, a HEAD the length of what a GET gets", async () => {
    let next = whole(413, "{}\n");
    const { server, port } = await http1Server(() => next);
    try {
      const tooLarge = await rawHttp1(port, "POST /api/v1/namespaces/a/configmaps HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
      expect(tooLarge.toLowerCase()).toContain("connection: close\r\n");
      expect(tooLarge.toLowerCase()).toContain("content-length: 3\r\n");
      next = { status: 304, headers: { etag: '"a"' } };
      const notModified = await rawHttp1(port, "GET /openapi/v2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      expect(notModified).toMatch(/^HTTP\/1\.1 304 /);
      expect(notModified.toLowerCase()).not.toMatch(/content-length|transfer-encoding/);
      next = whole(200, body);
      const head = await rawHttp1(port, "HEAD /api/v1/namespaces/a/configmaps/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      expect(head.toLowerCase()).toContain(`content-length: ${Buffer.byteLength(body)}\r\n`);
      expect(head.endsWith("\r\n\r\n")).toBe(true);
    } finally {
      server.close();
    }
  });

  it("over HTTP/2 carries Content-Length and no trailers, with no HTTP/1 header", async () => {
    const h = await http2Server((stream, headers, raw) => {
      void toHttp2ApiRequest(stream, headers, raw);
      writeHttp2Response(stream, whole(200, body));
    });
    try {
      const got = await h2Request(h.session, { ":path": "/api/v1/namespaces/a/configmaps/b" });
      expect(got.headers[":status"]).toBe(200);
      expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
      expect(got.headers["content-type"]).toBe("application/json");
      expect(got.headers.date).toBeDefined();
      expect(got.headers.connection).toBeUndefined();
      expect(got.headers["transfer-encoding"]).toBeUndefined();
      expect(got.body.toString()).toBe(body);
      expect(got.trailers).toBe(false);
      const head = await h2Request(h.session, { ":method": "HEAD", ":path": "/api/v1/namespaces/a/configmaps/b" });
      expect([head.headers[":status"], head.headers["content-length"], head.body.length]).toEqual([200, String(Buffer.byteLength(body)), 0]);
    } finally {
      h.close();
    }
  });
});

describe("a list in chunks", () => {
  const chunks = () => [Buffer.from('{"items":['), Buffer.from("1,".repeat(100_000)), Buffer.from("2]}\n")];
  const list = (): ApiResponse => ({ status: 200, headers: { "content-type": "application/json" }, chunks: chunks() });
  const whole = Buffer.concat(chunks()).toString();

  it("over HTTP/1.1 goes out chunked, whole", async () => {
    const { server, port } = await http1Server(list);
    try {
      const text = await rawHttp1(port, "GET /api/v1/configmaps HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const head = text.slice(0, text.indexOf("\r\n\r\n")).toLowerCase();
      expect(head).toContain("transfer-encoding: chunked");
      expect(head).not.toContain("content-length");
      const res = await new Promise<string>((resolve, reject) => {
        http.get({ host: "127.0.0.1", port, path: "/api/v1/configmaps" }, (r) => { let t = ""; r.setEncoding("utf8"); r.on("data", (c: string) => (t += c)); r.on("end", () => resolve(t)); }).on("error", reject);
      });
      expect(res).toBe(whole);
    } finally {
      server.close();
    }
  });

  it("over HTTP/2 is streamed without a length, to a reader that pauses", async () => {
    const h = await http2Server((stream) => writeHttp2Response(stream, list()));
    try {
      const stream = h.session.request({ ":path": "/api/v1/configmaps" });
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once("response", resolve));
      expect(headers["content-length"]).toBeUndefined();
      stream.pause();
      await new Promise((r) => setTimeout(r, 100));
      const parts: Buffer[] = [];
      stream.on("data", (c: Buffer) => parts.push(c));
      stream.resume();
      await new Promise((resolve) => stream.on("end", resolve));
      expect(Buffer.concat(parts).toString()).toBe(whole);
    } finally {
      h.close();
    }
  });
});

describe("an HTTP/2 request", () => {
  it("reads its headers (repeated ones apart, no pseudo-headers), its target as sent and its connection", async () => {
    const seen: ApiRequest[] = [];
    const addresses: (string | undefined)[] = [];
    const h = await http2Server((stream, headers, raw) => {
      seen.push(toHttp2ApiRequest(stream, headers, raw));
      addresses.push(seen.at(-1)!.remoteAddress);
      writeHttp2Response(stream, whole(200, "{}\n"));
    });
    try {
      const ask = () => h2Request(h.session, { ":path": "/api/v1/namespaces/a/configmaps/%2e%2e?limit=1", "impersonate-group": ["a", "b"], "user-agent": "test" });
      await ask();
      await ask();
      const [first, second] = seen;
      expect([first.method, first.path, [...first.query]]).toEqual(["GET", "/api/v1/namespaces/a/configmaps/%2e%2e", [["limit", "1"]]]);
      expect(first.headerValues("impersonate-group")).toEqual(["a", "b"]);
      expect(first.header("user-agent")).toBe("test");
      expect(first.headerNamesWith("").some((n) => n.startsWith(":"))).toBe(false);
      expect(first.headerNamesWith("impersonate-")).toEqual(["impersonate-group"]);
      expect(addresses).toEqual(["127.0.0.1", "127.0.0.1"]);
      // Both streams came on one connection: one memo key.
      expect(first.connection).toBeDefined();
      expect(second.connection).toBe(first.connection);
    } finally {
      h.close();
    }
  });

  it("takes a whole body, and never a body cut off by a stream reset", async () => {
    const bodies: Promise<string>[] = [];
    const h = await http2Server((stream, headers, raw) => {
      stream.on("error", () => {});
      const read = toHttp2ApiRequest(stream, headers, raw).body(1024 * 1024).then((b) => b.toString());
      bodies.push(read);
      void read.then(() => writeHttp2Response(stream, whole(201, "{}\n")), () => {});
    });
    try {
      const done = await h2Request(h.session, { ":method": "POST", ":path": "/api/v1/namespaces/a/configmaps", "content-length": "7" }, '{"a":1}');
      expect(done.headers[":status"]).toBe(201);
      await expect(bodies[0]).resolves.toBe('{"a":1}');
      const cut = h.session.request({ ":method": "POST", ":path": "/api/v1/namespaces/a/configmaps", "content-length": "100" });
      cut.on("error", () => {});
      cut.write('{"a":');
      await new Promise((r) => setTimeout(r, 100));
      cut.close(http2.constants.NGHTTP2_CANCEL);
      await expect(bodies[1]).rejects.toMatchObject({ code: 400 });
    } finally {
      h.close();
    }
  });
});

describe("an HTTP/1.1 request", () => {
  it("reads a repeated header's values apart, and none of a header not sent", async () => {
    const seen: ApiRequest[] = [];
    const values: string[][] = [];
    const { server, port } = await http1Server(() => whole(200, "{}\n"), (r) => { seen.push(r); values.push(r.headerValues("impersonate-group"), r.headerValues("impersonate-user")); });
    try {
      await rawHttp1(port, "GET /api HTTP/1.1\r\nHost: x\r\nImpersonate-Group: a\r\nImpersonate-Group: b, c\r\nConnection: close\r\n\r\n");
      expect(values).toEqual([["a", "b, c"], []]);
      expect(seen[0].header("impersonate-group")).toBe("a, b, c");
    } finally {
      server.close();
    }
  });

  it("names its connection: the same for requests kept alive on it, another for another connection", async () => {
    const seen: ApiRequest[] = [];
    const { server, port } = await http1Server(() => whole(200, "{}\n"), (r) => seen.push(r));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (a: http.Agent | false) => new Promise<void>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/api", agent: a }, (r) => { r.resume(); r.on("end", resolve); }).on("error", reject);
    });
    try {
      await get(agent);
      await get(agent);
      await get(false);
      expect(seen[0].connection).toBeDefined();
      expect(seen[1].connection).toBe(seen[0].connection);
      expect(seen[2].connection).not.toBe(seen[0].connection);
    } finally {
      agent.destroy();
      server.close();
    }
  });
});

describe("the API's HTTP/2 streams", () => {
  it("are answered together when they arrive in one turn of the event loop (one callback: one read of the store's change signal)", async () => {
    // Which callback a request is handled in: the count moves at the end of each (node drains nextTicks there).
    let callback = 0;
    let scheduled = false;
    const currentCallback = () => {
      if (!scheduled) { scheduled = true; process.nextTick(() => { scheduled = false; callback++; }); }
      return callback;
    };
    const handledIn: number[] = [];
    const rt = testRuntime(() => true, {
      authenticate: async () => { handledIn.push(currentCallback()); return { username: "alice", groups: ["system:authenticated"] }; },
    });
    const api = nodeApiHandler(async () => rt);
    const h = await http2Server((stream, headers, raw) => api.http2(stream, headers, raw, headers[":path"] ?? "/", -1));
    try {
      const ask = () => h2Request(h.session, { ":path": "/api/v1/namespaces/a/configmaps/b", authorization: "Bearer good" });
      await ask(); // the first one waits for the runtime to boot
      handledIn.length = 0;
      const answers = await Promise.all(Array.from({ length: 5 }, ask));
      expect(answers.every((a) => typeof a.headers[":status"] === "number")).toBe(true);
      expect(handledIn).toHaveLength(5);
      // Sent at once, they reach the server in one read; node gives each stream a callback of its own.
      expect(new Set(handledIn).size).toBe(1);
    } finally {
      h.close();
    }
  });

  it("grant `Expect: 100-continue` and refuse other expectations with 417, as node's servers do", async () => {
    const api = nodeApiHandler(() => Promise.reject(new Error("no runtime in this test")));
    const h = await http2Server((stream, headers, raw) => api.http2(stream, headers, raw, headers[":path"] ?? "/", -1));
    try {
      const refused = await h2Request(h.session, { ":path": "/version", expect: "something-else" });
      expect(refused.headers[":status"]).toBe(417);
      // Granted, then answered (here a 500 Status: the runtime would not boot).
      const granted = await h2Request(h.session, { ":method": "POST", ":path": "/version", expect: "100-continue" }, "{}");
      expect(granted.interim).toEqual([100]);
      expect(granted.headers[":status"]).toBe(500);
      expect(JSON.parse(granted.body.toString())).toMatchObject({ kind: "Status", code: 500 });
      expect(granted.headers["content-length"]).toBe(String(granted.body.length));
    } finally {
      h.close();
    }
  });
});

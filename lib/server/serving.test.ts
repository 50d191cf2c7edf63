import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServingCertificate, type ServingCertificate } from "../tls/certificates";
import { createServing, type Serving, type ServingRequest } from "./serving";

// The listener over TLS, as server.ts sets it up: HTTP/2 streams are offered to the stream listener first, on
// node's core API; the ones it leaves, and every HTTP/1.1 request, reach the request listener.

let dir: string;
let pki: ServingCertificate;
let serving: Serving;
let port: number;
/** What reached the request listener: the path and the kind of request object. */
const requests: { path: string; kind: string }[] = [];
const streams: string[] = [];
const IDLE_MS = 1_500;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "serving-test-"));
  pki = await ensureServingCertificate({ dataDir: dir });
  serving = createServing(
    { tls: pki, requestTimeoutSeconds: 1, http2IdleTimeoutMs: IDLE_MS },
    (req: ServingRequest, res) => {
      requests.push({ path: req.url ?? "", kind: req instanceof http2.Http2ServerRequest ? "compat" : req instanceof http.IncomingMessage ? "http1" : "?" });
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("from the listener\n"));
    },
    (stream, headers) => {
      const target = headers[":path"] ?? "";
      if (!target.startsWith("/core")) return false;
      if (target === "/core/throws") throw new Error("a handler's bug");
      if (target === "/core/hold") {
        // Answered, and kept open until the client resets it (a watch).
        streams.push(target);
        stream.on("error", () => {});
        stream.respond({ ":status": 200 });
        stream.write("held\n");
        return true;
      }
      streams.push(target);
      stream.on("error", () => {});
      stream.resume();
      stream.on("end", () => {
        if (stream.closed) return; // reset (a reset stream still ends its readable side)
        stream.respond({ ":status": 200, "content-type": "text/plain" });
        stream.end("from the stream listener\n");
      });
      return true;
    },
  );
  await new Promise<void>((resolve) => serving.server.listen(0, "127.0.0.1", resolve));
  port = (serving.server.address() as AddressInfo).port;
});

afterAll(() => {
  serving?.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

function connect(): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca: pki.ca, servername: "localhost" });
    session.once("connect", () => resolve(session));
    session.once("error", reject);
  });
}

function get(session: http2.ClientHttp2Session, target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":path": target });
    let status = 0;
    let text = "";
    stream.setEncoding("utf8");
    stream.on("response", (h) => (status = Number(h[":status"])));
    stream.on("data", (c: string) => (text += c));
    stream.on("end", () => resolve({ status, text }));
    stream.on("error", reject);
  });
}

describe("createServing over TLS", () => {
  it("hands HTTP/2 streams the stream listener takes to it alone; the rest reach the listener as compatibility requests", async () => {
    const session = await connect();
    try {
      expect(await get(session, "/core/a")).toEqual({ status: 200, text: "from the stream listener\n" });
      expect(await get(session, "/console/b")).toEqual({ status: 200, text: "from the listener\n" });
      expect(await get(session, "/core/c")).toEqual({ status: 200, text: "from the stream listener\n" });
    } finally {
      session.close();
    }
    expect(streams).toEqual(["/core/a", "/core/c"]);
    expect(requests).toEqual([{ path: "/console/b", kind: "compat" }]);
  });

  it("gives HTTP/1.1 clients (no ALPN h2) to the listener", async () => {
    requests.length = 0;
    const text = await new Promise<string>((resolve, reject) => {
      https.get({ host: "127.0.0.1", port, path: "/core/h1", ca: pki.ca, servername: "localhost" }, (res) => {
        let t = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (t += c));
        res.on("end", () => resolve(t));
      }).on("error", reject);
    });
    expect(text).toBe("from the listener\n");
    expect(requests).toEqual([{ path: "/core/h1", kind: "http1" }]);
  });

  it("resets an HTTP/2 stream whose body is still arriving at the request timeout, on both paths", async () => {
    const session = await connect();
    try {
      const codes = await Promise.all(["/core/slow", "/console/slow"].map((target) => new Promise<number>((resolve) => {
        const stream = session.request({ ":method": "POST", ":path": target });
        stream.on("error", () => {});
        stream.write("a body that never ends");
        stream.on("close", () => resolve(stream.rstCode ?? -1));
      })));
      expect(codes).toEqual([http2.constants.NGHTTP2_CANCEL, http2.constants.NGHTTP2_CANCEL]);
      // The connection carries on.
      expect((await get(session, "/core/after")).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("resets a stream whose stream listener throws, and goes on serving", async () => {
    const session = await connect();
    try {
      const closed = await new Promise<boolean>((resolve) => {
        const stream = session.request({ ":path": "/core/throws" });
        let answered = false;
        stream.on("error", () => {});
        stream.on("response", () => (answered = true));
        stream.on("close", () => resolve(answered));
        stream.resume();
      });
      expect(closed).toBe(false);
      expect((await get(session, "/core/after-throw")).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("closes an HTTP/2 connection that has had no stream for the idle time, never one with a stream open", async () => {
    const idle = await connect();
    const busy = await connect();
    try {
      const goaway = (session: http2.ClientHttp2Session) => new Promise<number>((resolve) => {
        const started = Date.now();
        session.once("goaway", () => resolve(Date.now() - started));
        session.once("close", () => resolve(Date.now() - started));
      });
      // Requests keep a connection from being idle; the time counts from the last stream's close.
      await new Promise((r) => setTimeout(r, IDLE_MS / 2));
      expect((await get(idle, "/core/keep")).status).toBe(200);
      const idleGone = goaway(idle);
      const held = busy.request({ ":path": "/core/hold" });
      held.on("error", () => {});
      held.resume();
      const busyGone = Promise.race([goaway(busy), new Promise<number>((r) => setTimeout(() => r(-1), IDLE_MS * 2))]);
      const after = await idleGone;
      expect(after).toBeGreaterThanOrEqual(IDLE_MS - 100);
      expect(after).toBeLessThan(IDLE_MS * 2);
      // The connection with a stream open was left alone.
      expect(await busyGone).toBe(-1);
      held.close(http2.constants.NGHTTP2_CANCEL);
    } finally {
      idle.close();
      busy.close();
    }
  });
});

// Next.js's request handler breaks on HTTP/2's compatibility objects (null-prototype headers, no
// `_implicitHeader`...). Console requests that arrive over HTTP/2 therefore reach Next as genuine HTTP/1.1
// ones: each is replayed on an in-memory socket pair into a private node:http server that never listens,
// and the answer is streamed back on the HTTP/2 stream (backpressure both ways, the stream's reset aborts
// Next's response). API paths never take this hop; they are served over HTTP/2 directly (lib/api/node-adapter.ts).
import http from "node:http";
import type http2 from "node:http2";
import { Duplex } from "node:stream";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Headers HTTP/2 forbids in an answer (RFC 9113 §8.2.2); node's compat layer throws on them. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "http2-settings"]);

/** Two connected in-memory sockets: what one writes, the other reads (a write waits while the reader is full). */
export function socketPair(): [Duplex, Duplex] {
  const sides: Duplex[] = [];
  const waiting: ((() => void) | undefined)[] = [undefined, undefined];
  for (const i of [0, 1]) {
    const peer = 1 - i;
    sides[i] = new Duplex({
      read() {
        // The reader wants more: let the peer's held write go on.
        const go = waiting[peer];
        waiting[peer] = undefined;
        go?.();
      },
      write(chunk: Buffer, _encoding, callback) {
        if (sides[peer].destroyed) return callback(new Error("socket closed"));
        if (sides[peer].push(chunk)) callback();
        else waiting[i] = () => callback();
      },
      final(callback) {
        sides[peer].push(null);
        callback();
      },
      destroy(err, callback) {
        waiting[i] = undefined;
        if (!sides[peer].destroyed) sides[peer].destroy();
        callback(err);
      },
    });
  }
  return [sides[0], sides[1]];
}

/** Serves `handler` (which expects node:http objects) to HTTP/2 requests. */
export function http1Bridge(handler: Handler): (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void {
  const inner = http.createServer(handler);
  return (req, res) => {
    const [serverSide, clientSide] = socketPair();
    // What Next reads off the socket: the scheme (`encrypted`) and the peer.
    Object.assign(serverSide, { encrypted: true, remoteAddress: req.socket?.remoteAddress, remotePort: req.socket?.remotePort });
    inner.emit("connection", serverSide);

    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name.startsWith(":") || HOP_BY_HOP.has(name)) continue;
      headers[name] = value;
    }
    headers.host = req.authority ?? req.headers[":authority"] ?? "localhost";
    headers.connection = "close";

    const forward = http.request({ createConnection: () => clientSide, method: req.method, path: req.url, headers, setHost: false });
    let answered = false;
    forward.on("response", (answer) => {
      answered = true;
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res as unknown as NodeJS.WritableStream);
      answer.on("error", () => res.stream.destroy());
    });
    forward.on("error", () => {
      if (!answered && !res.headersSent && !res.stream.destroyed) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end("502 Bad Gateway\n");
      else res.stream.destroy();
    });
    // The browser went away (stream reset or connection lost): abort Next's side too.
    res.on("close", () => {
      if (!res.writableFinished) forward.destroy();
      if (!clientSide.destroyed && res.writableFinished) clientSide.end();
    });
    req.pipe(forward);
  };
}

// The listening server: HTTPS that speaks HTTP/2 and HTTP/1.1 on one port (ALPN picks; a client that offers
// nothing gets HTTP/1.1), or plain HTTP/1.1 with INSECURE_HTTP=1. HTTP/2 lets a browser multiplex every watch
// of a page on one connection (HTTP/1.1 gives it six per host); kubectl and client-go negotiate h2 too, as
// they do with kube-apiserver. The HTTP/2 settings follow kube-apiserver's (secure_serving.go): 100
// concurrent streams per connection, 256 KiB stream upload windows and frames, a connection window of
// both multiplied, a connection without streams closed (GOAWAY) after 90 s.
import http from "node:http";
import http2 from "node:http2";
import type { Socket } from "node:net";

export type ServingRequest = http.IncomingMessage | http2.Http2ServerRequest;
export type ServingResponse = http.ServerResponse | http2.Http2ServerResponse;
export type Listener = (req: ServingRequest, res: ServingResponse) => void;
/**
 * Offered every HTTP/2 stream first, on node's core API (the stream, its headers, the raw `[name, value, ...]`
 * list): returns true when it takes the stream, false to leave it to `Listener` (through node's compatibility
 * request and response objects).
 */
export type StreamListener = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, rawHeaders: string[]) => boolean;
type NodeStreamListener = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

/** kube-apiserver's default --http2-max-streams-per-connection (0 there means this). */
export const HTTP2_MAX_CONCURRENT_STREAMS = 100;
/** kube's resourceBody99Percentile: the per-stream upload window and largest frame we read. */
export const HTTP2_STREAM_WINDOW_BYTES = 256 * 1024;
/** An HTTP/2 connection with no open stream for this long is closed gracefully (kube's IdleTimeout). */
export const HTTP2_IDLE_TIMEOUT_MS = 90_000;
/** An idle HTTP/1.1 keep-alive connection is closed after this. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** kube's ReadHeaderTimeout: request headers must arrive within this (never more than the request timeout). */
export const HEADERS_TIMEOUT_MS = 32_000;

export interface ServingOptions {
  tls?: { key: string | Buffer; cert: string | Buffer };
  requestTimeoutSeconds: number;
  /** HTTP2_IDLE_TIMEOUT_MS unless given (tests shorten it). */
  http2IdleTimeoutMs?: number;
}

export interface Serving {
  server: http.Server | http2.Http2SecureServer;
  /** Stops accepting and drops every open connection (watches included). */
  closeAll(): void;
}

export function createServing(options: ServingOptions, listener: Listener, streamListener?: StreamListener): Serving {
  const requestTimeoutMs = options.requestTimeoutSeconds * 1000;
  const headersTimeoutMs = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  if (!options.tls) {
    const server = http.createServer(listener);
    // A slow client cannot hold a connection forever: headers within 32 s (kube's ReadHeaderTimeout), the
    // whole request within REQUEST_TIMEOUT_SECONDS. Bodies are read before a request takes its flow-control seat.
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = headersTimeoutMs;
    server.requestTimeout = requestTimeoutMs;
    return { server, closeAll: () => { server.close(); server.closeAllConnections(); } };
  }

  const server = http2.createSecureServer(
    {
      key: options.tls.key,
      cert: options.tls.cert,
      allowHTTP1: true,
      // As node:https does: small writes (a watch event) leave at once instead of waiting behind Nagle.
      noDelay: true,
      settings: {
        maxConcurrentStreams: HTTP2_MAX_CONCURRENT_STREAMS,
        initialWindowSize: HTTP2_STREAM_WINDOW_BYTES,
        maxFrameSize: HTTP2_STREAM_WINDOW_BYTES,
      },
      // Data queued for slow readers counts here; the watch backlog rules (lib/api/watch-backlog.ts) bound
      // each stream at 8 MiB, so a connection carrying a few busy watches must not refuse new streams at
      // node's default of 10 MB.
      maxSessionMemory: 64,
    },
    listener,
  );
  // Giving the server a `request` listener made node add its compatibility layer's `stream` listener, which
  // wraps every HTTP/2 stream in an Http2ServerRequest and Http2ServerResponse and emits `request`: taken off
  // here, it is called only for the streams `streamListener` leaves (the console's, for Next.js), so the API's
  // streams are served on the core API without those objects.
  const compat = server.listeners("stream") as NodeStreamListener[];
  if (compat.length !== 1) throw new Error(`node:http2 set up ${compat.length} stream listeners for its compatibility layer, where one was expected`);
  server.removeAllListeners("stream");
  server.on("stream", ((stream, headers, flags, rawHeaders) => {
    if (!stream.endAfterHeaders) limitBodyTime(stream, requestTimeoutMs);
    let taken: boolean | undefined;
    try {
      taken = streamListener?.(stream, headers, rawHeaders);
    } catch {
      // One stream's failure is never the process's (an exception here would leave node's event loop).
      stream.destroy();
      return;
    }
    if (!taken) compat[0].call(server, stream, headers, flags, rawHeaders);
  }) as NodeStreamListener);
  // These apply to the HTTP/1.1 connections (allowHTTP1 hands them to node:http's connection handling, which
  // reads its options off this server; node:https would have set requireHostHeader itself).
  const h1 = server as unknown as { keepAliveTimeout: number; headersTimeout: number; requestTimeout: number; requireHostHeader: boolean };
  h1.requireHostHeader = true;
  h1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  h1.headersTimeout = headersTimeoutMs;
  h1.requestTimeout = requestTimeoutMs;

  server.on("session", (session) => {
    session.setLocalWindowSize(HTTP2_STREAM_WINDOW_BYTES * HTTP2_MAX_CONCURRENT_STREAMS);
    closeWhenIdle(session, options.http2IdleTimeoutMs ?? HTTP2_IDLE_TIMEOUT_MS);
  });
  const sockets = new Set<Socket>();
  server.on("secureConnection", (socket) => {
    if (socket.alpnProtocol !== "h2") readHttp1InJsOnceBacklogged(socket);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  return {
    server,
    closeAll: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * node:http reads an HTTP/1.1 connection natively into its parser, and pauses that parser when a request
 * arrives while the previous answer is still draining. Over TLS, bytes the native read already holds (one read
 * hands over several decrypted records) then reach the paused parser, which fails with HPE_PAUSED and the
 * connection is reset: under load, a large upload sent right after a large answer on a keep-alive connection
 * (client-node does this) was lost. A `data` listener makes node:http read the socket through the stream
 * instead, whose pause holds the bytes back until the answer has drained. (Plain TCP reads stop at the pause:
 * the INSECURE_HTTP server never showed it.)
 *
 * Reading through the stream costs every request of the connection (about a third of a small GET's transport
 * time here), and only a connection whose answer backs up can pause: so the switch is made at the first write
 * the socket refuses to take whole (`write` returns false, which is what the parser's pause waits on). A
 * client that does not pipeline sends its next request only after reading that answer, so the switch always
 * comes before the bytes it guards against.
 */
function readHttp1InJsOnceBacklogged(socket: Socket): void {
  const write = socket.write as (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
  // Every answer passes here: the arguments are handed on as they are (no array made per write).
  const watched = function (this: Socket, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const taken = write.call(this, chunk, encoding, callback);
    if (!taken && socket.write === watched) {
      socket.write = write as Socket["write"];
      socket.on("data", () => {});
    }
    return taken;
  };
  socket.write = watched as Socket["write"];
}

/** HTTP/2 has no request timeout of its own: a stream whose body is still arriving at the deadline is reset. */
function limitBodyTime(stream: http2.ServerHttp2Stream, ms: number): void {
  const timer = setTimeout(() => {
    if (!stream.destroyed && !stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  // 'end' fires once the last DATA frame is read; 'close' when the stream goes (answered or reset).
  stream.once("end", clear);
  stream.once("close", clear);
}

/**
 * Closes (GOAWAY, open streams finish) a session that has had no stream for `idleMs`. One timer
 * per session, looking at when the last stream closed: a client that sends one request at a time goes idle
 * between every two, and a timer made and cleared per request cost every request.
 */
function closeWhenIdle(session: http2.ServerHttp2Session, idleMs: number): void {
  let open = 0;
  let idleSince = Date.now();
  let timer: NodeJS.Timeout;
  const check = () => {
    if (session.closed || session.destroyed) return;
    const idleFor = open === 0 ? Date.now() - idleSince : 0;
    if (idleFor >= idleMs) return void session.close();
    timer = setTimeout(check, idleMs - idleFor);
    timer.unref();
  };
  timer = setTimeout(check, idleMs);
  timer.unref();
  // One function per session, not a closure per stream (`close` comes once per stream).
  const closed = () => {
    if (--open === 0) idleSince = Date.now();
  };
  session.on("stream", (stream) => {
    open++;
    stream.on("close", closed);
  });
  session.once("close", () => clearTimeout(timer));
}

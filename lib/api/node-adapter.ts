// Serves the pipeline on node:http(s) and node:http2 directly (server.ts's fast path, ~30x cheaper than a
// Next.js route). One code path for both: HTTP/1.1's IncomingMessage/ServerResponse and HTTP/2's
// compatibility objects (Http2ServerRequest/Http2ServerResponse). What differs over HTTP/2: no
// connection-specific headers (`Connection`, `Transfer-Encoding`: the compat layer throws on them), no
// `headersDistinct` (repeated headers are read from `rawHeaders`), pseudo-headers (`:path`...) are not
// headers, and a watch that must be cut is reset (RST_STREAM) rather than its connection closed, since the
// connection carries the client's other streams.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { constants as h2, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import { errors, isStatusError } from "../status";
import { parseQuery } from "../request/url-escapes";
import { handleApi } from "./chain";
import { CHUNK_BYTES } from "./encode/chunked-body";
import { statusResponse } from "./encode/status";
import { chunkFrame, directSocket, writeFrame } from "./http1-chunks";
import type { WatchSink } from "../storage";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";
/** A watcher whose unsent bytes exceed this is closed; its client re-watches from its last revision. */
import { MAX_WATCH_BACKLOG_BYTES, watchBacklogs, type TrackedStream } from "./watch-backlog";
import { timerWheel } from "../timer-wheel/timer-wheel";

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;

export const isHttp2 = (req: NodeRequest): req is Http2ServerRequest => req.httpVersionMajor === 2;

/** The response methods both kinds share (their declared overloads differ, so each call is typed here once). */
interface Writer {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  end(body?: string | Buffer): unknown;
  write(chunk: Buffer): boolean;
  flushHeaders(): void;
  destroy(): void;
  readonly writableLength: number;
  on(event: "close", listener: () => void): unknown;
}

/**
 * A body over the limit is still read (and dropped) up to this many bytes before the 413 goes out: a client
 * that is still writing would otherwise see its connection closed (EPIPE) and never read the answer.
 */
const MAX_DRAINED_BYTES = 32 * 1024 * 1024;

function readBody(req: NodeRequest, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_DRAINED_BYTES) return Promise.reject(errors.tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limit;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0; // nothing of an oversized body is kept
        if (size > MAX_DRAINED_BYTES) { req.removeAllListeners("data"); req.resume(); reject(errors.tooLarge(limit)); }
        return;
      }
      chunks.push(c);
    });
    // A body cut off midway (the client went, or its stream was reset) must never be taken for the whole
    // one: over HTTP/2 the request only says `aborted` and then ends as if complete.
    const incomplete = () => errors.badRequest("the request body was cut off before its end");
    req.on("aborted", () => reject(incomplete()));
    req.on("end", () => {
      if (tooLarge) reject(errors.tooLarge(limit));
      else if ((req as { aborted?: boolean }).aborted || (req.headers["content-length"] !== undefined && size !== declared)) reject(incomplete());
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

/** Every value of a header, repeated headers apart, from `[name, value, name, value, ...]` (HTTP/2 names are lower-case). */
function rawValues(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i] === name) out.push(raw[i + 1]);
  return out;
}

/**
 * The request as the pipeline reads it: the target split once, headers read from node's objects on demand. A
 * class, not an object of closures: the request path makes one per request.
 */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly remoteAddress: string | undefined;
  private bodyRead: Promise<Buffer> | undefined;

  constructor(private readonly req: NodeRequest) {
    // The target as sent, not a WHATWG URL: that would resolve `%2e%2e` as a `..` segment (climbing to another
    // path) and turn `\` into `/`, where Go leaves both to the router as a name's bytes.
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    this.method = req.method ?? "GET";
    this.path = q < 0 ? target : target.slice(0, q);
    this.query = parseQuery(q < 0 ? "" : target.slice(q + 1));
    this.remoteAddress = req.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(", ") : v;
  }

  // HTTP/2's compat request has no headersDistinct, and its header names include the `:path`-style pseudo-headers.
  headerValues(name: string): string[] {
    if (isHttp2(this.req)) return rawValues(this.req.rawHeaders, name);
    const v = (this.req as IncomingMessage).headersDistinct[name];
    return v ? [...v] : [];
  }

  headerNames(): string[] {
    const names = Object.keys(this.req.headers);
    return isHttp2(this.req) ? names.filter((n) => !n.startsWith(":")) : names;
  }

  body(limit: number): Promise<Buffer> {
    return (this.bodyRead ??= readBody(this.req, limit));
  }
}

export function toApiRequest(req: NodeRequest): ApiRequest {
  return new NodeApiRequest(req);
}

export function writeApiResponse(req: NodeRequest, response: NodeResponse, answer: ApiResponse): void {
  const res = response as unknown as Writer;
  const http2 = isHttp2(req);
  if (answer.chunks) {
    res.writeHead(answer.status, answer.headers);
    void writeChunks(req, response, answer.chunks);
    return;
  }
  if (!answer.stream) {
    // HTTP/1.1: a client may still be sending the oversized body, so the connection goes. HTTP/2 resets
    // only the stream once the answer is out (the compat layer does), and may not send `Connection`.
    if (answer.status === 413 && !http2) answer.headers.connection = "close";
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  const stream = answer.stream;
  res.writeHead(answer.status, http2 ? answer.headers : { ...answer.headers, "transfer-encoding": "chunked" });
  // HTTP/1.1: the headers and the events the watch starts with (initial events, or the first of a resumed
  // watch) leave in one write; afterwards each event's chunk goes straight to the connection (http1-chunks.ts).
  const corked = http2 ? undefined : (response as ServerResponse).socket ?? undefined;
  corked?.cork();
  res.flushHeaders();
  const w = new WatchWriter(response, http2, http2 ? undefined : directSocket(response as ServerResponse));
  w.cancelTimeout = timerWheel.schedule(stream.timeoutMs, () => w.end());
  w.untrack = watchBacklogs.track(w);
  res.on("close", () => w.end());
  // The client may have gone while the request was authorized and admitted: its `close` has passed already,
  // so the watch is started (its seat, audit and metrics are settled by stopping it) and stopped at once.
  const gone = clientGone(req, response);
  try {
    w.stop = stream.start(w);
  } finally {
    corked?.uncork();
  }
  if (w.ended) w.stop();
  else if (gone) w.end();
}

type Emitter = { off(e: string, l: () => void): unknown; once(e: string, l: () => void): unknown };

/**
 * One watch answer being written: the sink its events are sent to and the stream the backlog rules follow.
 * One object per watcher with methods, rather than a closure per role: thousands of watchers hold it for
 * minutes (and the TypeScript loader names every closure, giving each its own property storage).
 */
class WatchWriter implements WatchSink, TrackedStream {
  ended = false;
  /** Bytes handed to the connection (frames included). */
  written = 0;
  stop?: (reason?: "cut") => void;
  cancelTimeout?: () => void;
  untrack?: () => void;
  private drained?: Promise<void>;
  private readonly res: Writer;

  constructor(private readonly response: NodeResponse, private readonly http2: boolean, private readonly socket: Socket | undefined) {
    this.res = response as unknown as Writer;
  }

  send(chunk: Buffer): boolean {
    if (this.ended) return false;
    if (this.socket) {
      const frame = chunkFrame(chunk);
      this.written += frame.length;
      writeFrame(this.socket, frame);
    } else {
      this.written += chunk.length;
      this.res.write(chunk);
    }
    return this.res.writableLength <= MAX_WATCH_BACKLOG_BYTES;
  }

  close(): void {
    queueMicrotask(() => this.end());
  }

  /** Initial events wait while more than a chunk is unsent, until the response drains (or the watch ends). */
  ready(): Promise<void> | undefined {
    if (this.ended || this.res.writableLength <= CHUNK_BYTES) return undefined;
    return (this.drained ??= new Promise<void>((resolve) => {
      const own = this.response as unknown as Emitter;
      // Chunks written to the socket directly drain there (the response emits `drain` only for its own writes).
      const w: Emitter = this.socket ?? own;
      const done = () => { this.drained = undefined; w.off("drain", done); own.off("close", done); clearInterval(poll); resolve(); };
      w.once("drain", done);
      own.once("close", done);
      // end() may come from the timer without a close event on a kept-alive connection.
      const poll = setInterval(() => { if (this.ended) done(); }, 1000);
    }));
  }

  backlog(): number {
    return this.res.writableLength;
  }

  progress(): number {
    return this.written - this.res.writableLength;
  }

  cut(): void {
    this.end(true);
  }

  end(stalled = false): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelTimeout?.();
    this.untrack?.();
    // A consumer that stopped reading would hold its backlog forever: drop the connection (HTTP/1.1) or
    // reset the stream (HTTP/2: the client sees an error, not a clean end, and re-watches) to free it now.
    const cut = stalled || this.res.writableLength > MAX_WATCH_BACKLOG_BYTES;
    this.stop?.(cut ? "cut" : undefined);
    if (cut) {
      if (this.http2) (this.response as Http2ServerResponse).stream.close(h2.NGHTTP2_INTERNAL_ERROR);
      else this.res.destroy();
    } else this.res.end();
  }
}

/** Whether the client went (its connection closed, or its HTTP/2 stream reset). */
function clientGone(req: NodeRequest, response: NodeResponse): boolean {
  if (isHttp2(req)) {
    const stream = (response as Http2ServerResponse).stream;
    return stream.destroyed || stream.closed;
  }
  return (response as ServerResponse).destroyed || !!req.socket?.destroyed;
}

/**
 * A chunked body (a list) written as the client takes it: the next chunk is made only once the response's
 * buffer has drained, so a slow reader holds about one chunk plus the socket's buffers, never the whole answer.
 * A client that goes stops the writing; a chunk that throws (nothing should, by then) cuts the connection.
 */
async function writeChunks(req: NodeRequest, response: NodeResponse, chunks: Iterable<Buffer>): Promise<void> {
  const res = response as unknown as Writer & { once(event: "drain" | "close", listener: () => void): unknown; off(event: "drain" | "close", listener: () => void): unknown; destroyed?: boolean };
  let gone = clientGone(req, response);
  const onClose = () => { gone = true; };
  res.on("close", onClose);
  const iterator = chunks[Symbol.iterator]();
  try {
    for (;;) {
      const next = iterator.next();
      if (next.done) break;
      if (gone) return;
      if (!res.write(next.value)) {
        if (clientGone(req, response)) return;
        await new Promise<void>((resolve) => {
          const done = () => { res.off("drain", done); res.off("close", done); resolve(); };
          res.once("drain", done);
          res.once("close", done);
        });
        if (gone) return;
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off("close", onClose);
    iterator.return?.();
  }
}

export function nodeApiHandler(runtime: () => Promise<ApiRuntime>) {
  // Once booted, the runtime is called directly: no promise per request to reach it.
  let booted: ApiRuntime | undefined;
  const boot = () => runtime().then((rt) => (booted = rt));
  return (req: NodeRequest, res: NodeResponse): void => {
    let answer: Promise<ApiResponse>;
    try {
      const apiReq = toApiRequest(req);
      answer = booted ? handleApi(booted, apiReq) : boot().then((rt) => handleApi(rt, apiReq));
    } catch (err) {
      answer = Promise.reject(err);
    }
    answer
      .then(
        (a) => writeApiResponse(req, res, a),
        (err) => writeApiResponse(req, res, statusResponse(isStatusError(err) ? err : errors.internal(String(err)))),
      )
      .catch(() => (res as unknown as Writer).destroy());
  };
}

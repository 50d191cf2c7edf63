// Serves the pipeline on node's own servers (server.ts's fast path, ~30x cheaper than a Next.js route):
// HTTP/1.1 through node:http's IncomingMessage/ServerResponse, HTTP/2 on the core stream API (the
// ServerHttp2Stream and its headers: `respond`, `write`/`end`, `close`), without the compatibility layer's
// request and response objects per stream. What differs over HTTP/2: no connection-specific headers
// (`Connection`, `Transfer-Encoding`), pseudo-headers (`:path`...) are not headers, repeated headers are read
// from the raw list, no trailers, and a watch that must be cut is reset (RST_STREAM) rather than its
// connection closed, since the connection carries the client's other streams. A whole answer carries
// Content-Length on both (as kube-apiserver's do); lists and watches are streamed.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { constants as h2, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream } from "node:http2";
import type { Readable } from "node:stream";
import { errors, isStatusError } from "../status";
import { parseQuery } from "../request/url-escapes";
import { answerApi } from "./chain";
import { CHUNK_BYTES } from "./encode/chunked-body";
import { statusResponse } from "./encode/status";
import { chunkFrame, directSocket, writeFrame } from "./http1-chunks";
import type { WatchSink } from "../storage";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";
/** A watcher whose unsent bytes exceed this is closed; its client re-watches from its last revision. */
import { MAX_WATCH_BACKLOG_BYTES, watchBacklogs, type TrackedStream } from "./watch-backlog";
import { timerWheel } from "../timer-wheel/timer-wheel";

/** What an answer is written to: node:http's response, or an HTTP/2 stream (their shared writable side). */
type Out = ServerResponse | ServerHttp2Stream;
interface Writer {
  write(chunk: Buffer): boolean;
  end(): unknown;
  destroy(): unknown;
  readonly writableLength: number;
  on(event: "close", listener: () => void): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}
const writer = (out: Out) => out as unknown as Writer;

/**
 * A body over the limit is still read (and dropped) up to this many bytes before the 413 goes out: a client
 * that is still writing would otherwise see its connection closed (EPIPE) and never read the answer.
 */
const MAX_DRAINED_BYTES = 32 * 1024 * 1024;

/** The request body of an IncomingMessage or an HTTP/2 stream (both say `aborted` when cut off). */
function readBody(src: Readable & { aborted?: boolean }, contentLength: string | string[] | undefined, limit: number): Promise<Buffer> {
  const declared = typeof contentLength === "string" ? Number(contentLength) : 0;
  if (declared > MAX_DRAINED_BYTES) return Promise.reject(errors.tooLarge(limit));
  // A body cut off midway (the client went, or its stream was reset) must never be taken for the whole one.
  const incomplete = () => errors.badRequest("the request body was cut off before its end");
  if (src.destroyed || src.aborted) return Promise.reject(incomplete());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limit;
    src.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0; // nothing of an oversized body is kept
        if (size > MAX_DRAINED_BYTES) { src.removeAllListeners("data"); src.resume(); reject(errors.tooLarge(limit)); }
        return;
      }
      chunks.push(c);
    });
    // An HTTP/2 stream reset by the client says `aborted` and closes without an `end`.
    src.on("aborted", () => reject(incomplete()));
    src.on("close", () => reject(incomplete()));
    src.on("end", () => {
      if (tooLarge) reject(errors.tooLarge(limit));
      else if (src.aborted || (typeof contentLength === "string" && size !== declared)) reject(incomplete());
      else resolve(Buffer.concat(chunks));
    });
    src.on("error", reject);
  });
}

/** Every value of a header, repeated headers apart, from `[name, value, name, value, ...]` (HTTP/2 names are lower-case). */
function rawValues(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i] === name) out.push(raw[i + 1]);
  return out;
}

const NO_NAMES = Object.freeze([]) as unknown as string[];

/** The names in `headers` that start with `prefix`, pseudo-headers (`:path` and the like) left out; no array made for none. */
function namesWith(headers: IncomingHttpHeaders, prefix: string): string[] {
  let out: string[] | undefined;
  for (const name in headers) {
    if (name.startsWith(prefix) && name.charCodeAt(0) !== 0x3a) (out ??= []).push(name);
  }
  return out ?? NO_NAMES;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);

/** The query of every request without one: shared, so it refuses to be changed. */
class NoQuery extends URLSearchParams {
  override append(): void { throw new TypeError("a request's query cannot be changed"); }
  override set(): void { throw new TypeError("a request's query cannot be changed"); }
  override delete(): void { throw new TypeError("a request's query cannot be changed"); }
  override sort(): void { throw new TypeError("a request's query cannot be changed"); }
}
const NO_QUERY: URLSearchParams = new NoQuery();

/**
 * The request target as sent, not a WHATWG URL: that would resolve `%2e%2e` as a `..` segment (climbing to
 * another path) and turn `\` into `/`, where Go leaves both to the router as a name's bytes. Split once by
 * the front door (server.ts); the query is parsed when first read. A class, not an object of closures: the
 * request path makes one per request.
 */
abstract class TargetRequest {
  readonly path: string;
  private parsedQuery: URLSearchParams | undefined;
  protected bodyRead: Promise<Buffer> | undefined;

  constructor(readonly method: string, private readonly target: string, private readonly q: number) {
    this.path = q < 0 ? target : target.slice(0, q);
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= this.q < 0 ? NO_QUERY : parseQuery(this.target.slice(this.q + 1)));
  }
}

/** An HTTP/1.1 request (node:http's IncomingMessage). */
class Http1ApiRequest extends TargetRequest implements ApiRequest {
  readonly connection: object | undefined;

  /** `res`: where the answer goes (the node adapter's requests; none for one only read). */
  constructor(readonly req: IncomingMessage, target: string, q: number, readonly res?: ServerResponse) {
    super(req.method ?? "GET", target, q);
    this.connection = req.socket ?? undefined;
  }

  get remoteAddress(): string | undefined {
    return this.req.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    return joined(this.req.headers[name]);
  }

  headerValues(name: string): string[] {
    // node builds `headersDistinct` on first use: not for a header that was not sent (the usual question).
    if (this.req.headers[name] === undefined) return [];
    const v = this.req.headersDistinct[name];
    return v ? [...v] : [];
  }

  headerNamesWith(prefix: string): string[] {
    return namesWith(this.req.headers, prefix);
  }

  body(limit: number): Promise<Buffer> {
    return (this.bodyRead ??= readBody(this.req, this.req.headers["content-length"], limit));
  }
}

/** An HTTP/2 request: its stream, the headers node parsed (pseudo-headers included) and the raw list. */
class Http2ApiRequest extends TargetRequest implements ApiRequest {
  readonly connection: object | undefined;

  constructor(readonly stream: ServerHttp2Stream, private readonly headers: IncomingHttpHeaders, private readonly raw: string[], target: string, q: number) {
    super(headers[":method"] ?? "GET", target, q);
    this.connection = stream.session;
  }

  get remoteAddress(): string | undefined {
    return (this.connection as ServerHttp2Session | undefined)?.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    return joined(this.headers[name]);
  }

  headerValues(name: string): string[] {
    return this.headers[name] === undefined ? [] : rawValues(this.raw, name);
  }

  headerNamesWith(prefix: string): string[] {
    return namesWith(this.headers, prefix);
  }

  body(limit: number): Promise<Buffer> {
    return (this.bodyRead ??= readBody(this.stream, this.headers["content-length"], limit));
  }
}

/** An HTTP/1.1 request as the pipeline reads it (its target split here; the front door passes it split). */
export function toApiRequest(req: IncomingMessage, target = req.url ?? "/", q = target.indexOf("?")): ApiRequest {
  return new Http1ApiRequest(req, target, q);
}

/** An HTTP/2 stream's request as the pipeline reads it. */
export function toHttp2ApiRequest(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: string[], target = headers[":path"] ?? "/", q = target.indexOf("?")): ApiRequest {
  return new Http2ApiRequest(stream, headers, rawHeaders, target, q);
}

/** Statuses that never carry a body (RFC 9110), so no Content-Length either. */
const bodiless = (status: number) => status === 204 || status === 304 || status < 200;
const byteLength = (body: string | Buffer | undefined) => (body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.length);

/** Writes the answer to an HTTP/1.1 request. */
export function writeApiResponse(req: IncomingMessage, res: ServerResponse, answer: ApiResponse): void {
  // The answer's headers are its own (made for this request): the adapter completes them in place.
  const headers = answer.headers;
  if (answer.chunks) {
    res.writeHead(answer.status, headers);
    void writeChunks(res, () => http1Gone(req, res), answer.chunks);
    return;
  }
  if (!answer.stream) {
    // Content-Length, not chunks: node can frame the head and the body in one write.
    if (!bodiless(answer.status)) headers["content-length"] = String(byteLength(answer.body));
    // A client may still be sending the oversized body, so the connection goes.
    if (answer.status === 413) headers.connection = "close";
    res.writeHead(answer.status, headers);
    res.end(answer.body);
    return;
  }
  headers["transfer-encoding"] = "chunked";
  res.writeHead(answer.status, headers);
  // The headers and the events the watch starts with (initial events, or the first of a resumed watch) leave
  // in one write; afterwards each event's chunk goes straight to the connection (http1-chunks.ts).
  const corked = res.socket ?? undefined;
  corked?.cork();
  res.flushHeaders();
  startWatch(answer.stream, res, undefined, directSocket(res), () => http1Gone(req, res), corked);
}

/** Writes the answer to an HTTP/2 request on its stream. */
export function writeHttp2Response(stream: ServerHttp2Stream, answer: ApiResponse): void {
  const open = !http2Gone(stream);
  const headers: OutgoingHttpHeaders = { ":status": answer.status };
  for (const name in answer.headers) headers[name] = answer.headers[name];
  if (answer.chunks) {
    if (open) stream.respond(headers);
    void writeChunks(stream, () => http2Gone(stream), answer.chunks);
    return;
  }
  if (!answer.stream) {
    if (!open) return;
    if (!bodiless(answer.status)) headers["content-length"] = byteLength(answer.body);
    // A HEAD request, 204 and 304 end with the headers (respond ends the stream itself).
    stream.respond(headers);
    if (!stream.writableEnded) {
      if (answer.body === undefined) stream.end();
      else stream.end(answer.body);
    }
    return;
  }
  if (open) stream.respond(headers);
  startWatch(answer.stream, stream, stream, undefined, () => http2Gone(stream));
}

/** Starts a watch answer whose headers are out (or whose client is gone: then it is stopped at once). */
function startWatch(watch: NonNullable<ApiResponse["stream"]>, out: Out, stream: ServerHttp2Stream | undefined, socket: Socket | undefined, gone: () => boolean, corked?: Socket): void {
  const w = new WatchWriter(out, stream, socket);
  w.cancelTimeout = timerWheel.schedule(watch.timeoutMs, () => w.end());
  w.untrack = watchBacklogs.track(w);
  writer(out).on("close", () => w.end());
  // The client may have gone while the request was authorized and admitted: its `close` has passed already,
  // so the watch is started (its seat, audit and metrics are settled by stopping it) and stopped at once.
  const wentAway = gone();
  try {
    w.stop = watch.start(w);
  } finally {
    corked?.uncork();
  }
  if (w.ended) w.stop();
  else if (wentAway) w.end();
}

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
  private readonly out: Writer;

  /** `stream`: the HTTP/2 stream (reset to cut); `socket`: an HTTP/1.1 connection its chunks go to directly. */
  constructor(out: Out, private readonly stream: ServerHttp2Stream | undefined, private readonly socket: Socket | undefined) {
    this.out = writer(out);
  }

  send(chunk: Buffer): boolean {
    if (this.ended) return false;
    if (this.socket) {
      const frame = chunkFrame(chunk);
      this.written += frame.length;
      writeFrame(this.socket, frame);
    } else {
      this.written += chunk.length;
      this.out.write(chunk);
    }
    return this.out.writableLength <= MAX_WATCH_BACKLOG_BYTES;
  }

  close(): void {
    queueMicrotask(() => this.end());
  }

  /** Initial events wait while more than a chunk is unsent, until the answer drains (or the watch ends). */
  ready(): Promise<void> | undefined {
    if (this.ended || this.out.writableLength <= CHUNK_BYTES) return undefined;
    return (this.drained ??= new Promise<void>((resolve) => {
      const own = this.out;
      // Chunks written to the socket directly drain there (the response emits `drain` only for its own writes).
      const w: Pick<Writer, "once" | "off"> = this.socket ?? own;
      const done = () => { this.drained = undefined; w.off("drain", done); own.off("close", done); clearInterval(poll); resolve(); };
      w.once("drain", done);
      own.once("close", done);
      // end() may come from the timer without a close event on a kept-alive connection.
      const poll = setInterval(() => { if (this.ended) done(); }, 1000);
    }));
  }

  backlog(): number {
    return this.out.writableLength;
  }

  progress(): number {
    return this.written - this.out.writableLength;
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
    const cut = stalled || this.out.writableLength > MAX_WATCH_BACKLOG_BYTES;
    this.stop?.(cut ? "cut" : undefined);
    if (cut) {
      if (this.stream) this.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
      else this.out.destroy();
    } else this.out.end();
  }
}

/** Whether the HTTP/1.1 client went (its connection closed). */
const http1Gone = (req: IncomingMessage, res: ServerResponse) => res.destroyed || !!req.socket?.destroyed;
/** Whether the HTTP/2 client went (its stream reset, or its connection closed). */
const http2Gone = (stream: ServerHttp2Stream) => stream.destroyed || stream.closed;

/**
 * A chunked body (a list) written as the client takes it: the next chunk is made only once the answer's
 * buffer has drained, so a slow reader holds about one chunk plus the socket's buffers, never the whole answer.
 * A client that goes stops the writing; a chunk that throws (nothing should, by then) cuts the connection.
 */
async function writeChunks(out: Out, clientGone: () => boolean, chunks: Iterable<Buffer>): Promise<void> {
  const res = writer(out);
  let gone = clientGone();
  const onClose = () => { gone = true; };
  res.on("close", onClose);
  const iterator = chunks[Symbol.iterator]();
  try {
    for (;;) {
      const next = iterator.next();
      if (next.done) break;
      if (gone) return;
      if (!res.write(next.value)) {
        if (clientGone()) return;
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

const failed = (err: unknown) => statusResponse(isStatusError(err) ? err : errors.internal(String(err)));
const ignore = () => {};

export interface NodeApiHandler {
  /** An HTTP/1.1 request whose target (`req.url`) has its `?` at `q` (-1: none). */
  http1(req: IncomingMessage, res: ServerResponse, target: string, q: number): void;
  /** An HTTP/2 stream whose target (`:path`) has its `?` at `q` (-1: none). */
  http2(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: string[], target: string, q: number): void;
}

export function nodeApiHandler(runtime: () => Promise<ApiRuntime>): NodeApiHandler {
  // Once booted, the runtime is used directly: no promise per request to reach it.
  let booted: ApiRuntime | undefined;
  const batch = new Batch();
  return {
    http1(req, res, target, q) {
      const request = new Http1ApiRequest(req, target, q, res);
      if (booted) return batch.add(booted, request);
      runtime().then((rt) => { booted = rt; serve(rt, request); }, (err) => http1Answer(req, res, failed(err)));
    },
    http2(stream, headers, rawHeaders, target, q) {
      // The compatibility layer ignored a stream's errors (a reset is seen as `aborted` and `close`); unheard,
      // an `error` event would end the process.
      stream.on("error", ignore);
      try {
        if (!continued(stream, headers.expect)) return;
      } catch (err) {
        return http2Answer(stream, failed(err));
      }
      const request = new Http2ApiRequest(stream, headers, rawHeaders, target, q);
      if (booted) return batch.add(booted, request);
      runtime().then((rt) => { booted = rt; serve(rt, request); }, (err) => http2Answer(stream, failed(err)));
    },
  };
}

/**
 * The requests that arrived in this turn of the event loop, answered together once its I/O callbacks ran (one
 * setImmediate per turn, not per request). Node runs each connection's read, and each HTTP/2 stream's headers,
 * as a callback of its own; answered in one, the turn's requests share what is read once per callback, above
 * all the store's change signal (lib/storage: one read of SQLite's wal-index header for all of them, sound
 * because every one of them was read from its socket before it). A request waits only for the rest of the
 * turn's callbacks: microseconds, and under load the requests a busy server would have queued anyway.
 */
class Batch {
  private pending: (Http1ApiRequest | Http2ApiRequest)[] = [];
  private rt: ApiRuntime | undefined;
  private readonly drain = () => {
    const rt = this.rt!;
    const requests = this.pending;
    this.pending = [];
    for (let i = 0; i < requests.length; i++) {
      const request = requests[i];
      // serve answers its own failures; should it ever throw, that request's client is cut off, not the rest.
      try {
        serve(rt, request);
      } catch {
        if (request instanceof Http2ApiRequest) request.stream.destroy();
        else request.res?.destroy();
      }
    }
  };

  add(rt: ApiRuntime, request: Http1ApiRequest | Http2ApiRequest): void {
    this.rt = rt;
    if (this.pending.push(request) === 1) setImmediate(this.drain);
  }
}

/** Serves one request: a synchronous answer (a GET the cache answers at once) is written at once, with no promise or microtask. */
function serve(rt: ApiRuntime, request: Http1ApiRequest | Http2ApiRequest): void {
  let answer: ApiResponse | Promise<ApiResponse>;
  try {
    answer = answerApi(rt, request);
  } catch (err) {
    answer = failed(err);
  }
  if (answer instanceof Promise) answer.then((a) => written(request, a), (err) => written(request, failed(err)));
  else written(request, answer);
}

function written(request: Http1ApiRequest | Http2ApiRequest, answer: ApiResponse): void {
  if (request instanceof Http2ApiRequest) http2Answer(request.stream, answer);
  else http1Answer(request.req, request.res!, answer);
}

function http1Answer(req: IncomingMessage, res: ServerResponse, answer: ApiResponse): void {
  try {
    writeApiResponse(req, res, answer);
  } catch {
    res.destroy();
  }
}

function http2Answer(stream: ServerHttp2Stream, answer: ApiResponse): void {
  try {
    writeHttp2Response(stream, answer);
  } catch {
    stream.destroy();
  }
}

/**
 * `Expect` as node's HTTP/1.1 server and HTTP/2 compatibility layer answer it: 100-continue is granted at once
 * (an interim 100), any other expectation is refused with 417 (false: answered).
 */
function continued(stream: ServerHttp2Stream, expect: string | undefined): boolean {
  if (expect === undefined || http2Gone(stream)) return true;
  if (expect.toLowerCase() === "100-continue") {
    stream.additionalHeaders({ ":status": 100 });
    return true;
  }
  stream.respond({ ":status": 417 }, { endStream: true });
  return false;
}

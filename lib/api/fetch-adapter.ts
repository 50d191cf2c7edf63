// Serves the pipeline from Next.js route handlers (Request in, Response out), for `next start`/`next dev`.
import { PROTOBUF_MEDIA_TYPE } from "../codec/protobuf/magic";
import { errors, isStatusError, StatusError } from "../status";
import { parseQuery } from "../request/url-escapes";
import { handleApi } from "./chain";
import { CHUNK_BYTES } from "./encode/chunked-body";
import { statusResponse } from "./encode/status";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";

import { MAX_WATCH_BACKLOG_BYTES, watchBacklogs } from "./watch-backlog";
import { timerWheel } from "../timer-wheel/timer-wheel";

async function readBody(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw errors.tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) { await reader.cancel(); throw errors.tooLarge(limit); }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * The request target as the client sent it, set by server.ts's front door on what it hands Next.js: a fetch
 * Request's URL is WHATWG-parsed, which resolves `%2e%2e` as `..` (a DELETE of a name `..` would climb to
 * the namespace) and turns `\` into `/`. A client that reaches Next.js without the front door (`next dev`)
 * can only name, through it, a path it could have requested anyway: routing, authorization and audit all
 * read this one target.
 */
export const REQUEST_TARGET_HEADER = "x-cluster-core-request-target";

export function toApiRequest(request: Request): ApiRequest {
  const sent = request.headers.get(REQUEST_TARGET_HEADER);
  const target = sent?.startsWith("/") ? sent : request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, "") || "/";
  const q = target.indexOf("?");
  let body: Promise<Buffer> | undefined;
  return {
    method: request.method,
    path: q < 0 ? target : target.slice(0, q),
    query: parseQuery(q < 0 ? "" : target.slice(q + 1)),
    header: (name) => request.headers.get(name) ?? undefined,
    // Fetch joins repeated headers with ", "; impersonation headers are the only ones read per value.
    headerValues: (name) => {
      const v = request.headers.get(name);
      return v === null ? [] : v.split(",").map((s) => s.trim());
    },
    headerNamesWith: (prefix) => [...request.headers.keys()].filter((n) => n !== REQUEST_TARGET_HEADER && n.startsWith(prefix)),
    body: (limit) => (body ??= readBody(request, limit)),
    remoteAddress: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim(),
  };
}

/** An answer as a fetch Response (a chunked body pulled as the client reads, a watch streamed). */
export function toResponse(request: Request, answer: ApiResponse): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(answer.headers)) for (const one of [v].flat()) headers.append(k, one);
  if (answer.chunks) return new Response(pulled(answer.chunks), { status: answer.status, headers });
  if (!answer.stream) return new Response(answer.body === undefined ? null : typeof answer.body === "string" ? answer.body : new Uint8Array(answer.body), { status: answer.status, headers });
  const source = answer.stream;
  let stop: ((reason?: "cut") => void) | undefined;
  let cancelTimeout = () => {};
  let ended = false;
  let untrack = () => {};
  // Initial events that wait for the client to read (WatchSink.ready): settled by its next read, or the end.
  let waiting: (() => void)[] = [];
  const wake = () => { const w = waiting; waiting = []; for (const r of w) r(); };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let written = 0;
      const backlog = () => Math.max(0, -(controller.desiredSize ?? 0));
      const end = (cut = false) => {
        if (ended) return;
        ended = true;
        cancelTimeout();
        untrack();
        wake();
        const dropped = cut || backlog() >= MAX_WATCH_BACKLOG_BYTES;
        stop?.(dropped ? "cut" : undefined);
        try {
          // A consumer that stopped reading would hold its backlog: abort the response to free it now.
          if (dropped) controller.error(new Error("watch backlog exceeded"));
          else controller.close();
        } catch { /* already closed */ }
      };
      untrack = watchBacklogs.track({ backlog, progress: () => written - backlog(), cut: () => end(true) });
      cancelTimeout = timerWheel.schedule(source.timeoutMs, () => end());
      request.signal.addEventListener("abort", () => end());
      // A streaming response sends no headers before its first chunk: start with a newline so quiet watches
      // do not hang their clients (JSON stream decoders skip whitespace). Protobuf frames have no such
      // filler: a protobuf watch's headers go out with its first frame.
      if (!String(answer.headers["content-type"]).startsWith(PROTOBUF_MEDIA_TYPE)) controller.enqueue(new TextEncoder().encode("\n"));
      stop = source.start({
        send: (chunk) => {
          if (ended) return false;
          written += chunk.length;
          controller.enqueue(new Uint8Array(chunk));
          return (controller.desiredSize ?? 0) > -MAX_WATCH_BACKLOG_BYTES;
        },
        close: () => queueMicrotask(() => end()),
        ready: () => (ended || backlog() <= CHUNK_BYTES ? undefined : new Promise<void>((resolve) => waiting.push(resolve))),
      });
      if (ended) stop();
    },
    pull() {
      wake();
    },
    cancel() {
      wake();
      ended = true;
      cancelTimeout();
      untrack();
      stop?.();
    },
  }, { highWaterMark: 0, size: (c) => c?.byteLength ?? 0 });
  return new Response(body, { status: answer.status, headers });
}

/** A chunked body (a list) as a stream that makes the next chunk only when the client reads: bounded memory. */
function pulled(chunks: Iterable<Buffer>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
    },
    cancel() {
      iterator.return?.();
    },
  }, { highWaterMark: 0 });
}

/** A route handler for every method: `export const GET = routeHandler(getRuntime)`. */
export function routeHandler(runtime: () => Promise<ApiRuntime>) {
  return async (request: Request): Promise<Response> => {
    let answer: ApiResponse;
    try {
      answer = await handleApi(await runtime(), toApiRequest(request));
    } catch (err) {
      answer = statusResponse(isStatusError(err) ? err : errors.internal(String(err)));
    }
    return toResponse(request, answer);
  };
}

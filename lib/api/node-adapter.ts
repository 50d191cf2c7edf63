// Serves the pipeline on node:http(s) directly (server.ts's fast path, ~30x cheaper than a Next.js route).
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, isStatusError, StatusError } from "./errors";
import { handleApi, statusResponse, type ApiRequest, type ApiResponse, type ApiRuntime } from "./handler";

/** A watcher whose unsent bytes exceed this is closed; its client re-watches from its last revision. */
import { MAX_WATCH_BACKLOG_BYTES, watchBacklogs } from "./watch-backlog";


/**
 * A body over the limit is still read (and dropped) up to this many bytes before the 413 goes out: a client
 * that is still writing would otherwise see its connection closed (EPIPE) and never read the answer.
 */
const MAX_DRAINED_BYTES = 32 * 1024 * 1024;

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
    req.on("end", () => (tooLarge ? reject(errors.tooLarge(limit)) : resolve(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

export function toApiRequest(req: IncomingMessage): ApiRequest {
  const url = new URL(req.url ?? "/", "http://localhost");
  let body: Promise<Buffer> | undefined;
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: url.searchParams,
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(", ") : v;
    },
    headerValues: (name) => {
      const v = req.headersDistinct[name];
      return v ? [...v] : [];
    },
    headerNames: () => Object.keys(req.headers),
    body: (limit) => (body ??= readBody(req, limit)),
    remoteAddress: req.socket.remoteAddress,
  };
}

export function writeApiResponse(req: IncomingMessage, res: ServerResponse, answer: ApiResponse): void {
  if (!answer.stream) {
    if (answer.status === 413) answer.headers.connection = "close";
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  const stream = answer.stream;
  res.writeHead(answer.status, { ...answer.headers, "transfer-encoding": "chunked" });
  res.flushHeaders();
  let stop: (() => void) | undefined;
  let ended = false;
  let written = 0;
  const end = (cut = false) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    untrack();
    stop?.();
    // A consumer that stopped reading would hold its backlog forever: drop the connection to free it now.
    if (cut || res.writableLength > MAX_WATCH_BACKLOG_BYTES) res.destroy(); else res.end();
  };
  const timer = setTimeout(end, stream.timeoutMs);
  const untrack = watchBacklogs.track({
    backlog: () => res.writableLength,
    progress: () => written - res.writableLength,
    cut: () => end(true),
  });
  res.on("close", () => end());
  stop = stream.start({
    send: (chunk) => {
      if (ended) return false;
      written += chunk.length;
      res.write(chunk);
      return res.writableLength <= MAX_WATCH_BACKLOG_BYTES;
    },
    close: () => queueMicrotask(() => end()),
  });
  if (ended) stop();
}

export function nodeApiHandler(runtime: () => Promise<ApiRuntime>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const apiReq = toApiRequest(req);
    runtime()
      .then((rt) => handleApi(rt, apiReq))
      .catch((err) => statusResponse(isStatusError(err) ? err : errors.internal(String(err))))
      .then((answer) => writeApiResponse(req, res, answer))
      .catch(() => res.destroy());
  };
}

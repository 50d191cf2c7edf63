// The front door's check of the request target, before any routing (what Go's net/http does for
// kube-apiserver): `*` is only for `OPTIONS *` (200) and otherwise 400; a malformed %-escape (`%zz`, not any
// escaped byte: `%ff` is valid) is 400 in plain text over HTTP/1.1 and a PROTOCOL_ERROR stream reset over
// HTTP/2, as Go's two servers answer url.ParseRequestURI's error; a path with `.`/`..` segments or doubled slashes is answered 301 to its
// cleaned form, so no router ever sees a path that climbs.
import type http from "node:http";
import http2 from "node:http2";
import { posix } from "node:path";
import { validEscapes } from "../request/url-escapes";

type Request = http.IncomingMessage | http2.Http2ServerRequest;
interface Response {
  writeHead(status: number, headers: Record<string, string>): { end(body?: string): unknown };
}

/** What the front door answers instead of routing: a status, or over HTTP/2 a stream reset. */
type TargetAnswer = { status: number; headers: Record<string, string>; body: string } | "reset";

/**
 * Whether a target's path (before any `?`) needs no check: an absolute path with no escape, no `.` segment,
 * no `//`. The common case, answered without allocating; only other paths go to the answering functions.
 */
export function isPlainPath(path: string): boolean {
  return path.charCodeAt(0) === 0x2f && !path.includes("%") && !path.includes("/.") && !path.includes("//");
}

/** The front door's answer to a target that is not a clean absolute path; undefined when it goes on to routing. */
function uncleanTargetAnswer(method: string | undefined, target: string, overHttp2: boolean): TargetAnswer | undefined {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (isPlainPath(path)) return undefined;
  // HTTP/1.1 closes the connection after a 400 (as Go does); HTTP/2 forbids the header and keeps the connection.
  const badRequest = whole(400, overHttp2 ? { "content-type": "text/plain; charset=utf-8" } : { "content-type": "text/plain; charset=utf-8", connection: "close" }, "400 Bad Request");
  if (!target.startsWith("/")) {
    if (target === "*" && method === "OPTIONS") return whole(200, {}, "");
    return badRequest;
  }
  if (!validEscapes(path)) return overHttp2 ? "reset" : badRequest;
  const cleaned = cleanPath(path);
  if (cleaned === path) return undefined;
  const location = cleaned + (q < 0 ? "" : target.slice(q));
  return whole(301, { location, "content-type": "text/html; charset=utf-8" }, `<a href="${escapeHtml(cleaned)}">Moved Permanently</a>.\n`);
}

/** An answer with its Content-Length, as Go's server sends for a whole body. */
function whole(status: number, headers: Record<string, string>, body: string): TargetAnswer {
  return { status, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, body };
}

/** Handles the request when its target is not a clean absolute path; returns true if it did. */
export function answerUncleanTarget(req: Request, response: http.ServerResponse | http2.Http2ServerResponse): boolean {
  const answer = uncleanTargetAnswer(req.method, req.url ?? "/", req.httpVersionMajor === 2);
  if (answer === undefined) return false;
  if (answer === "reset") (req as http2.Http2ServerRequest).stream.close(http2.constants.NGHTTP2_PROTOCOL_ERROR);
  else (response as unknown as Response).writeHead(answer.status, answer.headers).end(answer.body);
  return true;
}

/** The same, for an HTTP/2 stream served on node's core API (its `:method` and `:path` headers). */
export function answerUncleanTargetOnStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): boolean {
  const answer = uncleanTargetAnswer(headers[":method"], headers[":path"] ?? "/", true);
  if (answer === undefined) return false;
  stream.on("error", () => {}); // a reset, as in the compatibility layer, is no error of the process
  if (stream.destroyed || stream.closed) return true;
  if (answer === "reset") stream.close(http2.constants.NGHTTP2_PROTOCOL_ERROR);
  else {
    stream.respond({ ":status": answer.status, ...answer.headers });
    if (!stream.writableEnded) stream.end(answer.body);
  }
  return true;
}

/** Go's path.Clean for a URL path, keeping a trailing slash (as net/http's cleanPath does). */
export function cleanPath(path: string): string {
  let cleaned = posix.normalize(path);
  if (path.endsWith("/") && cleaned !== "/" && !cleaned.endsWith("/")) cleaned += "/";
  return cleaned;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

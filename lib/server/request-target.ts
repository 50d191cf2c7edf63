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

/** Handles the request when its target is not a clean absolute path; returns true if it did. */
export function answerUncleanTarget(req: Request, response: http.ServerResponse | http2.Http2ServerResponse): boolean {
  const res = response as unknown as Response;
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  // The common case first, without allocating: an absolute path with no escape, no `.` segment, no `//`.
  if (path.charCodeAt(0) === 0x2f && !path.includes("%") && !path.includes("/.") && !path.includes("//")) return false;
  // HTTP/1.1 closes the connection after a 400 (as Go does); HTTP/2 forbids the header and keeps the connection.
  const badRequest: Record<string, string> = req.httpVersionMajor === 2 ? { "content-type": "text/plain; charset=utf-8" } : { "content-type": "text/plain; charset=utf-8", connection: "close" };
  if (!target.startsWith("/")) {
    if (target === "*" && req.method === "OPTIONS") res.writeHead(200, { "content-length": "0" }).end();
    else res.writeHead(400, badRequest).end("400 Bad Request");
    return true;
  }
  if (!validEscapes(path)) {
    if (req.httpVersionMajor === 2) (req as http2.Http2ServerRequest).stream.close(http2.constants.NGHTTP2_PROTOCOL_ERROR);
    else res.writeHead(400, badRequest).end("400 Bad Request");
    return true;
  }
  const cleaned = cleanPath(path);
  if (cleaned === path) return false;
  res.writeHead(301, { location: cleaned + (q < 0 ? "" : target.slice(q)), "content-type": "text/html; charset=utf-8" })
    .end(`<a href="${escapeHtml(cleaned)}">Moved Permanently</a>.\n`);
  return true;
}

/** Go's path.Clean for a URL path, keeping a trailing slash (as net/http's cleanPath does). */
export function cleanPath(path: string): string {
  let cleaned = posix.normalize(path);
  if (path.endsWith("/") && cleaned !== "/" && !cleaned.endsWith("/")) cleaned += "/";
  return cleaned;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// Serving /openapi/v2 as kube-apiserver does (kube-openapi's OpenAPIService): JSON or gnostic protobuf by
// `Accept`, one ETag for both (the SHA-512 of the JSON), `Vary: Accept`, `Last-Modified`, and 304 for a matching
// `If-None-Match` (or, without it, an `If-Modified-Since` not older than the document), 406 when nothing fits.
import { createHash } from "node:crypto";
import type { ApiResponse } from "../types";

/**
 * Serves an OpenAPI document: version "v2" or "v3", and for v3 the sub-path ("" = the index, "api/v1"). `format`
 * "protobuf" asks v2 for gnostic's Document message (bytes); other combinations answer undefined.
 */
export type OpenApiDocuments = (version: "v2" | "v3", path: string, format?: "json" | "protobuf") => unknown | undefined;

/** The media type kube answers protobuf with (the `@` spelling is accepted as a deprecated alias). */
export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

const OFFERED: { subtype: string; format: "json" | "protobuf" }[] = [
  { subtype: "json", format: "json" },
  { subtype: "com.github.proto-openapi.spec.v2@v1.0+protobuf", format: "protobuf" },
  { subtype: "com.github.proto-openapi.spec.v2.v1.0+protobuf", format: "protobuf" },
];

interface Clause { type: string; subtype: string; q: number; order: number }

/** goautoneg's reading of `Accept`: q-values, then concrete before wildcard, then header order. */
function clauses(accept: string): Clause[] {
  const out: Clause[] = [];
  accept.split(",").forEach((part, order) => {
    const [mime, ...params] = part.split(";").map((x) => x.trim());
    if (!mime) return;
    const [type, subtype = type === "*" ? "*" : ""] = mime.toLowerCase().split("/", 2);
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split("=", 2).map((x) => x.trim());
      if (k === "q") q = Number(v);
    }
    if (subtype && Number.isFinite(q) && q > 0) out.push({ type, subtype, q, order });
  });
  const wild = (c: Clause) => (c.type === "*" ? 2 : c.subtype === "*" ? 1 : 0);
  return out.sort((a, b) => b.q - a.q || wild(a) - wild(b) || a.order - b.order);
}

/** The format to answer `/openapi/v2` with, or undefined (406). An absent `Accept` is `*\/*` (JSON). */
export function negotiateOpenApiV2(accept: string | undefined): "json" | "protobuf" | undefined {
  for (const c of clauses(accept?.trim() ? accept : "*/*")) {
    if (c.type !== "application" && c.type !== "*") continue;
    const hit = OFFERED.find((o) => c.subtype === "*" || c.subtype === o.subtype);
    if (hit) return hit.format;
  }
  return undefined;
}

interface Prepared { json: string; etag: string; lastModified: Date; protobuf?: Buffer }

const prepared = new WeakMap<object, Prepared>();

function prepare(docs: OpenApiDocuments): Prepared | undefined {
  const doc = docs("v2", "");
  if (typeof doc !== "object" || doc === null) return undefined;
  let p = prepared.get(doc);
  if (!p) {
    const json = JSON.stringify(doc);
    // Whole seconds: HTTP dates carry no more, and If-Modified-Since compares at that precision.
    const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);
    p = { json, etag: `"${createHash("sha512").update(json).digest("hex").toUpperCase()}"`, lastModified };
    prepared.set(doc, p);
  }
  if (!p.protobuf) {
    const bytes = docs("v2", "", "protobuf");
    if (bytes instanceof Uint8Array) p.protobuf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return p;
}

/** Go's checkIfNoneMatch: any listed tag (weak comparison) or `*` matches. */
function noneMatchHits(header: string, etag: string): boolean {
  const strip = (t: string) => (t.startsWith("W/") ? t.slice(2) : t);
  return header.split(",").map((t) => t.trim()).some((t) => t === "*" || strip(t) === strip(etag));
}

export interface OpenApiV2Request {
  accept?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/** The answer at `/openapi/v2`; undefined when no documents are served (the caller answers 404). */
export function openapiV2Response(docs: OpenApiDocuments | undefined, req: OpenApiV2Request): ApiResponse | undefined {
  const p = docs && prepare(docs);
  if (!p) return undefined;
  const format = negotiateOpenApiV2(req.accept);
  if (!format || (format === "protobuf" && !p.protobuf)) return { status: 406, headers: { vary: "Accept" } };
  const headers: Record<string, string> = {
    "cache-control": "no-cache, private",
    vary: "Accept",
    etag: p.etag,
    "last-modified": p.lastModified.toUTCString(),
  };
  const notModified = req.ifNoneMatch !== undefined
    ? noneMatchHits(req.ifNoneMatch, p.etag)
    : req.ifModifiedSince !== undefined && !Number.isNaN(Date.parse(req.ifModifiedSince)) && p.lastModified.getTime() <= Date.parse(req.ifModifiedSince);
  if (notModified) {
    // As Go's ServeContent: no body headers, and no Last-Modified next to an ETag.
    delete headers["last-modified"];
    return { status: 304, headers };
  }
  headers["content-type"] = format === "protobuf" ? OPENAPI_V2_PROTOBUF : "application/json";
  return { status: 200, headers, body: format === "protobuf" ? p.protobuf! : p.json };
}

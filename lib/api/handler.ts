// The request pipeline, one transport-neutral entry for every API request (server.ts's fast path and the
// Next.js route handlers both call it): parse the path, authenticate, negotiate, decode, call the
// registry, encode the answer or the Status error. No kind is named here.
import { stringify as toYaml } from "yaml";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Registry, Answer, ListAnswer } from "../registry/registry";
import { parseDeleteOptions, parseListOptions, parseWriteOptions } from "../registry/options";
import type { EventType, WatchSink } from "../storage";
import { apiGroupList, apiResourceList, apiVersions, versionInfo } from "./discovery";
import { errors, isStatusError, StatusError } from "./errors";
import { bodyType, decodeBody, negotiate, unsupportedBody, type OutputFormat } from "./media";
import { applyPatch, shownPatch } from "./patch";
import { checkFields, duplicateFields, warningHeader, type FieldCheck } from "./field-validation";
import { parseRequestPath, type ResourceRequest } from "./request-info";
import { partialMetadata, table, tableRow, columnDefinitions, type IncludeObject } from "./table";
import type { OpenApiDocuments } from "./openapi";
import { namespaceList, namespaceObject, namespaceTable } from "./namespaces";

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header value by lower-case name. */
  header(name: string): string | undefined;
  /** The body, at most `limit` bytes (throws a 413 StatusError beyond). */
  body(limit: number): Promise<Buffer>;
}

export interface WatchStream {
  /** Start streaming into `sink`; returns a function that stops and frees everything. */
  start(sink: WatchSink): () => void;
  timeoutMs: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  stream?: WatchStream;
}

export interface ApiRuntime {
  registry: Registry;
  authenticate(token: string): { user: string; groups: string[] } | undefined;
  /** The bearer token held by a console session cookie, if any. */
  sessionBearer?(cookieHeader: string): Promise<string | undefined>;
  openapi?: OpenApiDocuments;
  serverAddress: string;
  isReady(): boolean;
}

const BASE_HEADERS = { "cache-control": "no-cache, private" };
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function isPretty(req: ApiRequest): boolean {
  const p = req.query.get("pretty");
  if (p !== null) return p === "true" || p === "1";
  const ua = req.header("user-agent") ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget");
}

function encodeValue(value: unknown, format: OutputFormat, pretty: boolean, json?: string): ApiResponse["body"] {
  if (format === "yaml") return toYaml(json !== undefined ? JSON.parse(json) : value, { lineWidth: 0 });
  if (json !== undefined && !pretty) return `${json}\n`;
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}

function contentType(format: OutputFormat): string {
  return format === "yaml" ? "application/yaml" : "application/json";
}

export function statusResponse(err: StatusError, format: OutputFormat = "json", pretty = false): ApiResponse {
  const headers: Record<string, string> = { ...BASE_HEADERS, "content-type": contentType(format), "x-content-type-options": "nosniff" };
  if (err.details?.retryAfterSeconds) headers["retry-after"] = String(err.details.retryAfterSeconds);
  return { status: err.code, headers, body: encodeValue(err.toStatus(), format === "yaml" ? "yaml" : "json", pretty) };
}

export async function handleApi(rt: ApiRuntime, req: ApiRequest): Promise<ApiResponse> {
  let format: OutputFormat = "json";
  const pretty = isPretty(req);
  try {
    const info = parseRequestPath(req.path);
    if (info.type === "health") return health(rt, info.endpoint, info.check, req.query);
    if (info.type === "version") return json(versionInfo, pretty);
    await authenticate(rt, req);
    if (info.type === "metrics") return metrics(rt);
    if (info.type === "api") return json(apiVersions(rt.serverAddress), pretty);
    if (info.type === "apis") return json(apiGroupList, pretty);
    if (info.type === "api-v1") return json(apiResourceList(), pretty);
    if (info.type === "openapi-v2") return openapi(rt, "v2", "", pretty);
    if (info.type === "openapi-v3") return openapi(rt, "v3", "", pretty);
    if (info.type === "openapi-v3-doc") return openapi(rt, "v3", info.path, pretty);
    if (info.type === "namespace") {
      if (req.method !== "GET") throw errors.methodNotAllowed();
      const fmt = negotiate(req.header("accept"), { list: info.name === undefined, conversions: true });
      return namespaceResponse(rt, info.name, fmt, pretty);
    }
    if (info.type !== "resource") throw errors.routeNotFound();
    const list = req.method === "GET" && info.name === undefined;
    const watching = info.watchPath || (list && parseWatchFlag(req.query));
    format = negotiate(req.header("accept"), { watch: watching, list: list && !watching, conversions: req.method === "GET" || req.method === "DELETE" });
    return await resource(rt, req, info, format, pretty);
  } catch (err) {
    if (isStatusError(err)) return statusResponse(err, format === "yaml" ? "yaml" : "json", pretty);
    return statusResponse(errors.internal(err instanceof Error ? err.message : String(err)));
  }
}

function namespaceResponse(rt: ApiRuntime, name: string | undefined, format: OutputFormat, pretty: boolean): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format) };
  const value = name === undefined ? namespaceList(rt.registry.namespaces()) : namespaceObject(name);
  if (format === "table") return { status: 200, headers, body: encodeValue(namespaceTable(value), "json", pretty) };
  return { status: 200, headers, body: encodeValue(value, format === "yaml" ? "yaml" : "json", pretty) };
}

function parseWatchFlag(q: URLSearchParams): boolean {
  const v = q.get("watch");
  return v !== null && v !== "0" && v.toLowerCase() !== "false";
}

async function authenticate(rt: ApiRuntime, req: ApiRequest): Promise<void> {
  const header = req.header("authorization");
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (m && rt.authenticate(m[1].trim())) return;
    throw errors.unauthorized();
  }
  const cookie = req.header("cookie");
  if (cookie && rt.sessionBearer) {
    const token = await rt.sessionBearer(cookie);
    if (token && rt.authenticate(token)) {
      // Cross-site pages cannot send custom headers without a CORS preflight, which we never grant.
      if (UNSAFE.has(req.method) && req.header("x-csrf-protection") !== "1") {
        throw new StatusError(403, "Forbidden", "cookie-authenticated writes need the X-CSRF-Protection header", {});
      }
      return;
    }
  }
  throw errors.unauthorized();
}

function json(value: unknown, pretty: boolean, status = 200): ApiResponse {
  return { status, headers: { ...BASE_HEADERS, "content-type": "application/json" }, body: encodeValue(value, "json", pretty) };
}

function health(rt: ApiRuntime, endpoint: string, check: string | undefined, q: URLSearchParams): ApiResponse {
  const checks: [string, boolean][] = [["ping", true], ["log", true], ["storage", rt.isReady()]];
  const selected = check ? checks.filter(([n]) => n === check) : checks;
  if (check && selected.length === 0) return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "404 page not found\n" };
  const excluded = new Set(q.getAll("exclude"));
  const ok = selected.every(([n, good]) => good || excluded.has(n));
  const headers = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", ...BASE_HEADERS };
  if (!q.has("verbose") && ok) return { status: 200, headers, body: "ok" };
  const lines = selected.map(([n, good]) => excluded.has(n) ? `[+]${n} excluded: ok` : good ? `[+]${n} ok` : `[-]${n} failed: reason withheld`);
  lines.push(`${endpoint} check ${ok ? "passed" : "failed"}`);
  return { status: ok ? 200 : 500, headers, body: `${lines.join("\n")}\n` };
}

/** Prometheus text exposition of the store and watch cache. */
function metrics(rt: ApiRuntime): ApiResponse {
  const s = rt.registry.store.cache.stats();
  const lines = [
    ["cluster_core_revision", "The store's latest applied revision.", s.rev],
    ["cluster_core_history_start_revision", "Watches and continue tokens older than this get 410 Expired.", s.historyStartRev],
    ["cluster_core_history_events", "Events kept for resumable watches and consistent pages.", s.history],
    ["cluster_core_objects", "Objects held in the cache.", s.objects],
    ["cluster_core_watchers", "Open watch streams.", s.watchers],
  ].flatMap(([name, help, value]) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`]);
  return { status: 200, headers: { ...BASE_HEADERS, "content-type": "text/plain; version=0.0.4; charset=utf-8" }, body: `${lines.join("\n")}\n` };
}

function openapi(rt: ApiRuntime, version: "v2" | "v3", path: string, pretty: boolean): ApiResponse {
  const doc = rt.openapi?.(version, path);
  if (!doc) throw errors.routeNotFound();
  return json(doc, pretty);
}

async function readObjectBody(req: ApiRequest, kind: AnyKind, check: FieldCheck): Promise<unknown> {
  const type = bodyType(req.header("content-type"));
  if (type !== "json" && type !== "yaml" && type !== "protobuf") throw unsupportedBody(false);
  const raw = await req.body(MAX_BODY_BYTES);
  const value = decodeBody(raw, type, kind.kind);
  // Protobuf has no unknown or duplicate fields to report (the decoder skips unknown ones).
  if (type === "protobuf") return value;
  return checkFields(kind, value, check, check.mode === "Ignore" ? [] : duplicateFields(raw, type));
}

async function resource(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, format: OutputFormat, pretty: boolean): Promise<ApiResponse> {
  const { kind, namespace, name, subresource } = info;
  const reg = rt.registry;
  const q = req.query;
  const ns = namespace ?? "";
  const warnings: string[] = [];
  let answer: Answer;
  if (info.watchPath || (req.method === "GET" && name === undefined && parseWatchFlag(q))) {
    if (req.method !== "GET") throw errors.methodNotAllowed();
    return watch(rt, req, info, format);
  }
  switch (req.method) {
    case "GET":
      if (name === undefined) {
        const list = await reg.list(kind, namespace, parseListOptions(q));
        return listResponse(list, format, pretty, includeObject(q));
      }
      answer = await reg.get(kind, ns, name, q.get("resourceVersion") ?? "");
      break;
    case "POST": {
      if (name !== undefined) throw errors.methodNotAllowed();
      const opts = parseWriteOptions(q);
      const check = { mode: opts.fieldValidation, warnings };
      answer = await reg.create(kind, info.unscoped ? undefined : namespace, await readObjectBody(req, kind, check), opts);
      break;
    }
    case "PUT": {
      if (name === undefined) throw errors.methodNotAllowed();
      const opts = parseWriteOptions(q, "UpdateOptions");
      const check = { mode: opts.fieldValidation, warnings };
      answer = await reg.update(kind, ns, name, await readObjectBody(req, kind, check), { ...opts, subresource });
      break;
    }
    case "PATCH": {
      if (name === undefined) throw errors.methodNotAllowed();
      const type = bodyType(req.header("content-type"));
      if (type !== "json-patch" && type !== "merge-patch" && type !== "strategic-merge-patch") throw unsupportedBody(true);
      const opts = parseWriteOptions(q, "PatchOptions");
      const patch = decodeBody(await req.body(MAX_BODY_BYTES), "json", "Patch");
      answer = await reg.patch(kind, ns, name, (current) => {
        const check = { mode: opts.fieldValidation, warnings: [] as string[] };
        const result = applyPatch(kind, type, patch, current);
        const patched = checkFields(kind, result, check, [], { shown: () => shownPatch(type, patch, result) });
        warnings.splice(0, warnings.length, ...check.warnings); // only the attempt that is kept reports
        return patched;
      }, { ...opts, subresource });
      break;
    }
    case "DELETE": {
      if (subresource) throw errors.methodNotAllowed();
      const raw = await req.body(MAX_BODY_BYTES);
      const deleteType = bodyType(req.header("content-type"));
      const body = raw.length ? decodeBody(raw, deleteType === "yaml" || deleteType === "protobuf" ? deleteType : "json", "DeleteOptions") : undefined;
      const opts = parseDeleteOptions(q, body as Record<string, unknown> | undefined);
      if (name !== undefined) { answer = await reg.delete(kind, ns, name, opts); break; }
      if (info.unscoped) throw errors.methodNotAllowed();
      answer = await reg.deleteCollection(kind, namespace, parseListOptions(q), opts);
      break;
    }
    default:
      throw errors.methodNotAllowed();
  }
  const res = "list" in answer ? listResponse(answer.list, format, pretty, includeObject(q)) : objectResponse(kind, answer, format, pretty, includeObject(q));
  if (warnings.length) res.headers.warning = warnings.map(warningHeader);
  return res;
}

function includeObject(q: URLSearchParams): IncludeObject {
  const v = q.get("includeObject") ?? "";
  if (v === "" || v === "Metadata") return "Metadata";
  if (v === "Object" || v === "None") return v;
  throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: "${v}": must be 'Metadata', 'Object', 'None', or empty`);
}

function objectResponse(kind: AnyKind, a: Extract<Answer, { object: unknown }>, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format) };
  const obj = a.object as KubeObject;
  const isObject = (obj as { kind?: string }).kind === kind.kind;
  if (format === "table" && isObject) {
    return { status: a.code, headers, body: encodeValue(table(kind, [obj], { resourceVersion: obj.metadata.resourceVersion }, include), "json", pretty) };
  }
  if (format === "metadata" && isObject) return { status: a.code, headers, body: encodeValue(partialMetadata(obj), "json", pretty) };
  return { status: a.code, headers, body: encodeValue(a.object, format === "yaml" ? "yaml" : "json", pretty, a.json) };
}

function listMeta(list: ListAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}

function listResponse(list: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format) };
  const meta = listMeta(list);
  if (format === "table") {
    return { status: 200, headers, body: encodeValue(table(list.kind, list.items.map((i) => i.object), meta, include), "json", pretty) };
  }
  if (format === "metadata") {
    return { status: 200, headers, body: encodeValue({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: meta, items: list.items.map((i) => partialMetadata(i.object)) }, "json", pretty) };
  }
  const head = { kind: `${list.kind.kind}List`, apiVersion: "v1", metadata: meta };
  if (format === "yaml" || pretty) {
    return { status: 200, headers, body: encodeValue({ ...head, items: list.items.map((i) => i.object) }, format === "yaml" ? "yaml" : "json", pretty) };
  }
  // Splice the stored serialisations: no parse, no re-stringify of the items.
  const prefix = JSON.stringify(head).slice(0, -1);
  return { status: 200, headers, body: `${prefix},"items":[${list.items.map((i) => i.json).join(",")}]}\n` };
}

async function watch(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, format: OutputFormat): Promise<ApiResponse> {
  const opts = parseListOptions(req.query, true);
  const spec = await rt.registry.prepareWatch(info.kind, info.namespace, info.name, opts);
  if (format === "table" || format === "metadata") {
    const kind = info.kind;
    const include = includeObject(req.query);
    let first = true;
    spec.encode = (type: EventType, object: KubeObject) => {
      const obj = format === "metadata" ? partialMetadata(object) : {
        kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: { resourceVersion: object.metadata.resourceVersion },
        columnDefinitions: first ? columnDefinitions(kind) : null, rows: [tableRow(kind, object, include)],
      };
      first = false;
      return `${JSON.stringify({ type, object: obj })}\n`;
    };
  }
  const timeoutMs = opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0
    ? opts.timeoutSeconds * 1000
    : (1800 + Math.random() * 1800) * 1000;
  return {
    status: 200,
    headers: { ...BASE_HEADERS, "content-type": "application/json", "cache-control": "no-cache, private, no-transform", "x-accel-buffering": "no" },
    stream: { start: (sink) => rt.registry.watch(spec, sink), timeoutMs },
  };
}

// The request pipeline, one transport-neutral entry for every API request (server.ts's fast path and the
// Next.js route handlers both call it): parse the path, authenticate, negotiate, decode, call the
// registry, encode the answer or the Status error. No kind is named here.
import { stringify as toYaml } from "yaml";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Registry, Answer, ListAnswer } from "../registry/registry";
import { parseDeleteOptions, parseListOptions, parseWriteOptions } from "../registry/options";
import type { EventType, WatchSink } from "../storage";
import { ACTION_SUBRESOURCES, apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from "./discovery";
import { errors, isStatusError, StatusError } from "./errors";
import { bodyType, decodeBody, negotiate, unsupportedBody, type OutputFormat } from "./media";
import { applyPatch, shownPatch } from "./patch";
import { checkFields, duplicateFields, warningHeaders, type FieldCheck } from "./field-validation";
import { isOpenPath, parseRequestPath, type RequestInfo, type ResourceRequest, type ReviewRequest } from "./request-info";
import { partialMetadata, table, tableRow, columnDefinitions, type IncludeObject } from "./table";
import type { OpenApiDocuments } from "./openapi";
import type { UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer } from "../authz/attributes";
import { requestAttributes } from "./request-attributes";
import type { AuditRecord } from "../audit/audit-event";
import { AUDIT_ID_HEADER, auditIdFor } from "../audit/audit-id";
import { sourceIPs } from "../audit/source-ips";
import { impersonate } from "../auth/impersonation";
import { forbiddenError } from "./forbidden";
import { apiVersionOf, servedGroups } from "../kinds";

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header value by lower-case name. */
  header(name: string): string | undefined;
  /** Every value of a header (lower-case name), repeated headers kept apart. */
  headerValues(name: string): string[];
  /** Lower-case names of every header sent. */
  headerNames(): string[];
  /** The body, at most `limit` bytes (throws a 413 StatusError beyond). */
  body(limit: number): Promise<Buffer>;
  /** The client's address, for audit. */
  remoteAddress?: string;
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

/** What a create-only handler gets: a subresource (`serviceaccounts/token`) or a review (TokenReview, ...). */
export interface ActionContext {
  user: UserInfo;
  namespace: string;
  /** The object named on the path (subresources); "" for reviews. */
  name: string;
  body: unknown;
  dryRun: boolean;
}

export type ActionHandler = (ctx: ActionContext) => Promise<{ code: number; object: unknown }>;

export interface ApiRuntime {
  registry: Registry;
  /** The user a bearer token belongs to, or undefined (401). */
  authenticate(token: string): Promise<UserInfo | undefined>;
  authorizer: Authorizer;
  /** The bearer token held by a console session cookie, if any. */
  sessionBearer?(cookieHeader: string): Promise<string | undefined>;
  openapi?: OpenApiDocuments;
  serverAddress: string;
  isReady(): boolean;
  /** Create-only handlers by `<plural>/<subresource>` (core) or `<group>/<plural>` (reviews). */
  actions?: Map<string, ActionHandler>;
  /** The service-account issuer's discovery documents. */
  oidc?: { configuration(): unknown; jwks(): unknown };
  audit?(record: AuditRecord): void;
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

const kindGroups = new Set(servedGroups());
const hasGroup = (g: string) => kindGroups.has(g);

export async function handleApi(rt: ApiRuntime, req: ApiRequest): Promise<ApiResponse> {
  const record: AuditRecord = {
    auditID: rt.audit ? auditIdFor(req.header("audit-id")) : undefined,
    requestURI: req.query.size ? `${req.path}?${req.query}` : req.path,
    verb: req.method.toLowerCase(),
    sourceIPs: rt.audit ? sourceIPs((n) => req.header(n), req.remoteAddress) : [],
    userAgent: req.header("user-agent"),
    code: 0, received: new Date(), completed: new Date(),
  };
  const format: { value: OutputFormat } = { value: "json" };
  const pretty = isPretty(req);
  let res: ApiResponse;
  try {
    res = await serve(rt, req, record, format, pretty);
  } catch (err) {
    const e = isStatusError(err) ? err : errors.internal(err instanceof Error ? err.message : String(err));
    res = statusResponse(e, format.value === "yaml" ? "yaml" : "json", pretty);
    record.status = { status: "Failure", message: e.message, reason: e.reason };
  }
  record.code = res.status;
  // Health and version are answered to anyone and not audited (nobody to attribute them to).
  if (!rt.audit || isOpenPath(req.path)) return res;
  res.headers[AUDIT_ID_HEADER] = record.auditID!;
  // A request that failed authentication is logged as kube does: one ResponseStarted line, no user.
  if (!record.user) {
    rt.audit({ ...record, completed: new Date(), stage: "ResponseStarted" });
    return res;
  }
  return audited(rt.audit, record, res);
}

/** One audit line per request; a watch gets one when it starts and one when it ends, as kube's. */
function audited(audit: (r: AuditRecord) => void, record: AuditRecord, res: ApiResponse): ApiResponse {
  if (!res.stream) {
    record.completed = new Date();
    audit(record);
    return res;
  }
  const inner = res.stream;
  audit({ ...record, completed: new Date(), stage: "ResponseStarted" });
  return {
    ...res,
    stream: {
      timeoutMs: inner.timeoutMs,
      start(sink) {
        const stop = inner.start(sink);
        let done = false;
        return () => {
          stop();
          if (done) return;
          done = true;
          audit({ ...record, completed: new Date(), stage: "ResponseComplete" });
        };
      },
    },
  };
}

async function serve(rt: ApiRuntime, req: ApiRequest, record: AuditRecord, format: { value: OutputFormat }, pretty: boolean): Promise<ApiResponse> {
  if (isOpenPath(req.path)) {
    const info = parseRequestPath(req.path);
    if (info.type === "health") return health(rt, info.endpoint, info.check, req.query);
    return json(versionInfo, pretty);
  }
  // Authentication comes before routing: without credentials, every path answers 401.
  const authenticated = await authenticate(rt, req);
  record.user = authenticated;
  const user = impersonate(rt.authorizer, authenticated, req);
  if (user !== authenticated) record.impersonatedUser = user;
  const attrs = requestAttributes(user, req.method, req.path, req.query);
  record.verb = attrs.verb;
  if (attrs.type === "resource") {
    record.objectRef = {
      resource: attrs.resource, apiGroup: attrs.apiGroup, apiVersion: "v1",
      ...(attrs.namespace ? { namespace: attrs.namespace } : {}), ...(attrs.name ? { name: attrs.name } : {}),
      ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
    };
  }
  const decision = rt.authorizer.authorize(attrs);
  record.decision = decision.allowed ? "allow" : "forbid";
  record.reason = decision.reason;
  if (!decision.allowed) throw forbiddenError(attrs, decision.reason);

  const info = parseRequestPath(req.path, hasGroup);
  switch (info.type) {
    case "health": return health(rt, info.endpoint, info.check, req.query);
    case "version": return json(versionInfo, pretty);
    case "metrics": return metrics(rt);
    case "api": return json(apiVersions(rt.serverAddress), pretty);
    case "apis": return json(apiGroupList, pretty);
    case "group": return json(apiGroup(info.group) ?? notFound(), pretty);
    case "resource-list": return json(apiResourceList(info.groupVersion) ?? notFound(), pretty);
    case "openapi-v2": return openapi(rt, "v2", "", pretty);
    case "openapi-v3": return openapi(rt, "v3", "", pretty);
    case "openapi-v3-doc": return openapi(rt, "v3", info.path, pretty);
    case "oidc-configuration": return oidc(rt, "configuration");
    case "oidc-jwks": return oidc(rt, "jwks");
    case "review": return review(rt, req, info, user, pretty);
    case "resource": break;
  }
  const list = req.method === "GET" && info.name === undefined;
  const watching = info.watchPath || (list && parseWatchFlag(req.query));
  format.value = negotiate(req.header("accept"), { watch: watching, list: list && !watching, conversions: req.method === "GET" || req.method === "DELETE" });
  return await resource(rt, req, info, format.value, pretty, user, record);
}

function notFound(): never {
  throw errors.routeNotFound();
}

function oidc(rt: ApiRuntime, which: "configuration" | "jwks"): ApiResponse {
  if (!rt.oidc) throw errors.routeNotFound();
  const contentType = which === "jwks" ? "application/jwk-set+json" : "application/json";
  const body = JSON.stringify(which === "jwks" ? rt.oidc.jwks() : rt.oidc.configuration());
  return { status: 200, headers: { "content-type": contentType, "cache-control": "public, max-age=3600" }, body };
}

/** The body of a create-only request (a review, a TokenRequest): JSON, YAML or protobuf. */
async function readActionBody(req: ApiRequest, kindName: string, apiVersion: string): Promise<unknown> {
  const type = bodyType(req.header("content-type"));
  if (type !== "json" && type !== "yaml" && type !== "protobuf") throw unsupportedBody(false);
  return decodeBody(await req.body(MAX_BODY_BYTES), type, kindName, apiVersion);
}

async function review(rt: ApiRuntime, req: ApiRequest, info: ReviewRequest, user: UserInfo, pretty: boolean): Promise<ApiResponse> {
  if (req.method !== "POST") throw errors.methodNotAllowed();
  const handler = rt.actions?.get(`${info.review.group}/${info.review.plural}`);
  if (!handler) throw errors.routeNotFound();
  const opts = parseWriteOptions(req.query);
  const body = await readActionBody(req, info.review.kind, `${info.review.group}/v1`);
  const answer = await handler({ user, namespace: info.namespace ?? "", name: "", body, dryRun: opts.dryRun });
  return json(answer.object, pretty, answer.code);
}

function parseWatchFlag(q: URLSearchParams): boolean {
  const v = q.get("watch");
  return v !== null && v !== "0" && v.toLowerCase() !== "false";
}

async function authenticate(rt: ApiRuntime, req: ApiRequest): Promise<UserInfo> {
  const header = req.header("authorization");
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    const user = m ? await rt.authenticate(m[1].trim()) : undefined;
    if (user) return user;
    throw errors.unauthorized();
  }
  const cookie = req.header("cookie");
  if (cookie && rt.sessionBearer) {
    const token = await rt.sessionBearer(cookie);
    const user = token ? await rt.authenticate(token) : undefined;
    if (user) {
      // Cross-site pages cannot send custom headers without a CORS preflight, which we never grant.
      if (UNSAFE.has(req.method) && req.header("x-csrf-protection") !== "1") {
        throw new StatusError(403, "Forbidden", "cookie-authenticated writes need the X-CSRF-Protection header", {});
      }
      return user;
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
  const value = decodeBody(raw, type, kind.kind, apiVersionOf(kind));
  // Protobuf has no unknown or duplicate fields to report (the decoder skips unknown ones).
  if (type === "protobuf") return value;
  return checkFields(kind, value, check, check.mode === "Ignore" ? [] : duplicateFields(raw, type));
}

async function resource(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, format: OutputFormat, pretty: boolean, user: UserInfo, record: AuditRecord): Promise<ApiResponse> {
  const { kind, namespace, name, subresource } = info;
  if (subresource && kind.actionSubresources?.includes(subresource)) return action(rt, req, info, user, pretty);
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
      const opts = { ...parseWriteOptions(q), user };
      const check = { mode: opts.fieldValidation, warnings };
      answer = await reg.create(kind, info.unscoped ? undefined : namespace, await readObjectBody(req, kind, check), opts);
      // As kube's audit does, a create's objectRef names the object it made.
      const made = (answer as { object?: KubeObject }).object?.metadata;
      if (record.objectRef && made?.name) record.objectRef = { ...record.objectRef, name: made.name, ...(made.namespace ? { namespace: made.namespace } : {}) };
      break;
    }
    case "PUT": {
      if (name === undefined) throw errors.methodNotAllowed();
      const opts = { ...parseWriteOptions(q, "UpdateOptions"), user };
      const check = { mode: opts.fieldValidation, warnings };
      answer = await reg.update(kind, ns, name, await readObjectBody(req, kind, check), { ...opts, subresource });
      break;
    }
    case "PATCH": {
      if (name === undefined) throw errors.methodNotAllowed();
      const type = bodyType(req.header("content-type"));
      if (type !== "json-patch" && type !== "merge-patch" && type !== "strategic-merge-patch") throw unsupportedBody(true);
      const opts = { ...parseWriteOptions(q, "PatchOptions"), user };
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
      const opts = { ...parseDeleteOptions(q, body as Record<string, unknown> | undefined), user };
      if (name !== undefined) { answer = await reg.delete(kind, ns, name, opts); break; }
      if (info.unscoped || kind.deleteCollection === false) throw errors.methodNotAllowed();
      answer = await reg.deleteCollection(kind, namespace, parseListOptions(q), opts);
      break;
    }
    default:
      throw errors.methodNotAllowed();
  }
  const res = "list" in answer ? listResponse(answer.list, format, pretty, includeObject(q)) : objectResponse(kind, answer, format, pretty, includeObject(q));
  if (warnings.length) res.headers.warning = warningHeaders(warnings);
  return res;
}

async function action(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, user: UserInfo, pretty: boolean): Promise<ApiResponse> {
  if (req.method !== "POST" || info.name === undefined) throw errors.methodNotAllowed();
  const handler = rt.actions?.get(`${info.kind.plural}/${info.subresource}`);
  if (!handler) throw errors.routeNotFound();
  const opts = parseWriteOptions(req.query);
  const made = ACTION_SUBRESOURCES[info.subresource!];
  const body = await readActionBody(req, made?.kind ?? "", made ? `${made.group}/${made.version}` : "v1");
  const answer = await handler({ user, namespace: info.namespace ?? "", name: info.name, body, dryRun: opts.dryRun });
  return json(answer.object, pretty, answer.code);
}

function includeObject(q: URLSearchParams): IncludeObject {
  const v = q.get("includeObject") ?? "";
  if (v === "" || v === "Metadata") return "Metadata";
  if (v === "Object" || v === "None") return v;
  throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: "${v}": must be 'Metadata', 'Object', 'None', or empty`);
}

/**
 * A stored object as the request's group serves it: objects of a kind also served by another group are stored
 * with the declared apiVersion and answered with the one of the group asked (undefined: unchanged).
 */
function servedAs(kind: AnyKind, obj: KubeObject): KubeObject | undefined {
  if (!kind.servedFrom || obj?.kind !== kind.kind) return undefined;
  return { ...obj, apiVersion: apiVersionOf(kind) };
}

function objectResponse(kind: AnyKind, answer: Extract<Answer, { object: unknown }>, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format) };
  const served = servedAs(kind, answer.object as KubeObject);
  const a = served ? { ...answer, object: served, json: undefined } : answer;
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

function listResponse(answer: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format) };
  const list = answer.kind.servedFrom ? {
    ...answer,
    items: answer.items.map((i) => {
      const object = servedAs(answer.kind, i.object) ?? i.object;
      return { ...i, object, json: JSON.stringify(object) };
    }),
  } : answer;
  const meta = listMeta(list);
  if (format === "table") {
    return { status: 200, headers, body: encodeValue(table(list.kind, list.items.map((i) => i.object), meta, include), "json", pretty) };
  }
  if (format === "metadata") {
    return { status: 200, headers, body: encodeValue({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: meta, items: list.items.map((i) => partialMetadata(i.object)) }, "json", pretty) };
  }
  const head = { kind: `${list.kind.kind}List`, apiVersion: apiVersionOf(list.kind), metadata: meta };
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
  if (info.kind.servedFrom && format !== "table" && format !== "metadata") {
    // One serialisation per event is shared by the declared group's watchers; this group's get their own.
    spec.encode = (type: EventType, object: KubeObject) => `${JSON.stringify({ type, object: servedAs(info.kind, object) ?? object })}\n`;
  }
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

// The request pipeline, one transport-neutral entry for every API request (server.ts's fast path and the
// Next.js route handlers both call it): parse the path, authenticate, negotiate, decode, call the
// registry, encode the answer or the Status error. No kind is named here.
import { stringify as toYaml } from "yaml";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Registry, Answer, ListAnswer } from "../registry/registry";
import { parseDeleteOptions, parseListOptions, parseWriteOptions } from "../registry/options";
import type { EventType, WatchSink } from "../storage";
import {
  encodeListBody, encodeObjectBody, encodeUnknown, messageBytes, partialObjectMetadataBytes, PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE, RESPONSE_KINDS,
} from "../codec/protobuf";
import { ACTION_SUBRESOURCES, apiGroup, apiResourceList, discoveryResponse, versionInfo } from "./discovery";
import { errors, isStatusError, StatusError } from "../status";
import {
  ACTION_ENDPOINT, bodyType, decodeBody, negotiate, negotiateError, RESOURCE_ENDPOINT, unsupportedBody, type MediaFormat, type OutputFormat,
} from "./media";
import { watchFraming } from "./watch-framing";
import { patchObject, patchType } from "./patch";
import { managerOrUserAgent, updateTracker } from "../apply";
import { checkFields, duplicateFields, warningHeaders, type FieldCheck } from "./field-validation";
import { isOpenPath, parseRequestPath, type RequestInfo, type ResourceRequest, type ReviewRequest } from "./request-info";
import { partialMetadata, table, tableRow, columnDefinitions, type IncludeObject } from "./table";
import { openapiV2Response, type OpenApiDocuments } from "./openapi";
import type { UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer } from "../authz/attributes";
import { requestAttributes } from "./request-attributes";
import { noteRoute, recordRequest } from "./request-metrics";
import { CONTENT_TYPE as METRICS_CONTENT_TYPE } from "../metrics/text-format";
import type { ServerMetrics } from "../metrics/server-metrics";
import type { AuditRecord } from "../audit/audit-event";
import { AUDIT_ID_HEADER, auditIdFor } from "../audit/audit-id";
import { sourceIPs } from "../audit/source-ips";
import { impersonate } from "../auth/impersonation";
import { forbiddenError } from "../authz/forbidden-message";
import { admitted } from "./flow-control";
import type { FlowController } from "../flowcontrol/flow-controller";
import { apiVersionOf, servedGroups } from "../kinds";
import { authorizeHistory, historyAttributes, historyRequest } from "../history/history-request";
import { historyAnswer } from "../history/history-api";

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
  /**
   * Start streaming into `sink`; returns a function that stops and frees everything. The adapters pass "cut"
   * when they close a watcher that stopped reading (its backlog too large, or no progress for a while).
   */
  start(sink: WatchSink): (reason?: "cut") => void;
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
  /** The process's metrics (lib/metrics); without it requests are not measured and /metrics is not served. */
  metrics?: ServerMetrics;
  /** Seats, fair queues and deadlines (lib/flowcontrol); without it requests are admitted at once. */
  flowControl?: FlowController;
}

const BASE_HEADERS = { "cache-control": "no-cache, private" };
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function isPretty(req: ApiRequest): boolean {
  const p = req.query.get("pretty");
  if (p !== null) return p === "true" || p === "1";
  const ua = req.header("user-agent") ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget");
}

/** A value in the negotiated media type; for protobuf it names its own kind and apiVersion (an object, a Status). */
function encodeValue(value: unknown, media: MediaFormat, pretty: boolean, json?: string): ApiResponse["body"] {
  if (media === "protobuf") {
    const obj = value as { apiVersion?: unknown; kind?: unknown };
    return encodeObjectBody(obj, { apiVersion: String(obj.apiVersion ?? ""), kind: String(obj.kind ?? "") });
  }
  if (media === "yaml") return toYaml(json !== undefined ? JSON.parse(json) : value, { lineWidth: 0 });
  if (json !== undefined && !pretty) return `${json}\n`;
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}

function contentType(media: MediaFormat): string {
  return media === "yaml" ? "application/yaml" : media === "protobuf" ? PROTOBUF_MEDIA_TYPE : "application/json";
}

/**
 * A Status error in `media` (negotiated as kube's ErrorNegotiated does), or "raw" when even that failed: then
 * kube writes the Status as JSON indented by two spaces.
 */
export function statusResponse(err: StatusError, media: MediaFormat | "raw" = "json", pretty = false): ApiResponse {
  const headers: Record<string, string> = { ...BASE_HEADERS, "content-type": media === "raw" ? "application/json" : contentType(media), "x-content-type-options": "nosniff" };
  if (err.details?.retryAfterSeconds) headers["retry-after"] = String(err.details.retryAfterSeconds);
  const body = media === "raw" ? JSON.stringify(err.toStatus(), null, 2) : encodeValue(err.toStatus(), media, pretty);
  return { status: err.code, headers, body };
}

const kindGroups = new Set(servedGroups());
const hasGroup = (g: string) => kindGroups.has(g);

export async function handleApi(rt: ApiRuntime, req: ApiRequest): Promise<ApiResponse> {
  const started = performance.now();
  const record: AuditRecord = {
    auditID: rt.audit ? auditIdFor(req.header("audit-id")) : undefined,
    requestURI: req.query.size ? `${req.path}?${req.query}` : req.path,
    verb: req.method.toLowerCase(),
    sourceIPs: rt.audit ? sourceIPs((n) => req.header(n), req.remoteAddress) : [],
    userAgent: req.header("user-agent"),
    code: 0, received: new Date(), completed: new Date(),
  };
  const pretty = isPretty(req);
  let res: ApiResponse;
  try {
    res = await serve(rt, req, record, pretty);
  } catch (err) {
    const e = isStatusError(err) ? err : errors.internal(err instanceof Error ? err.message : String(err));
    res = statusResponse(e, negotiateError(req.header("accept")) ?? "raw", pretty);
    record.status = { status: "Failure", message: e.message, reason: e.reason };
  }
  record.code = res.status;
  if (rt.metrics) res = recordRequest(rt.metrics, req, res, started);
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
        return (reason) => {
          stop(reason);
          if (done) return;
          done = true;
          audit({ ...record, completed: new Date(), stage: "ResponseComplete" });
        };
      },
    },
  };
}

async function serve(rt: ApiRuntime, req: ApiRequest, record: AuditRecord, pretty: boolean): Promise<ApiResponse> {
  if (isOpenPath(req.path)) {
    const info = parseRequestPath(req.path);
    if (rt.metrics) noteRoute(req, info);
    if (info.type === "health") return health(rt, info.endpoint, info.check, req.query);
    return json(versionInfo, pretty);
  }
  // Authentication comes before routing: without credentials, every path answers 401.
  const authenticated = await authenticate(rt, req);
  record.user = authenticated;
  const user = impersonate(rt.authorizer, authenticated, req);
  if (user !== authenticated) record.impersonatedUser = user;
  const history = historyRequest(req.method, req.path);
  const attrs = history ? historyAttributes(user, history, req.query) : requestAttributes(user, req.method, req.path, req.query);
  record.verb = attrs.verb;
  if (attrs.type === "resource") {
    record.objectRef = {
      resource: attrs.resource, apiGroup: attrs.apiGroup, apiVersion: "v1",
      ...(attrs.namespace ? { namespace: attrs.namespace } : {}), ...(attrs.name ? { name: attrs.name } : {}),
      ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
    };
  }
  if (!rt.flowControl) return authorizedServe(rt, req, record, pretty, user, attrs);
  return admitted(rt.flowControl, user.username, attrs.verb, req.query, () => authorizedServe(rt, req, record, pretty, user, attrs));
}

/** The rest of the chain once the request holds its seat: authorize, route, answer. */
async function authorizedServe(
  rt: ApiRuntime, req: ApiRequest, record: AuditRecord, pretty: boolean, user: UserInfo, attrs: Attributes,
): Promise<ApiResponse> {
  const history = historyRequest(req.method, req.path);
  const decision = history ? authorizeHistory(rt.authorizer, history, attrs) : rt.authorizer.authorize(attrs);
  record.decision = decision.allowed ? "allow" : "forbid";
  record.reason = decision.reason;
  if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
  // Object history (lib/history): read-only JSON, authorized above like get (or list) on what it shows.
  if (history) return json(await historyAnswer(rt.registry, rt.authorizer, user, history, req.query), pretty);

  const info = parseRequestPath(req.path, hasGroup);
  if (rt.metrics) noteRoute(req, info);
  switch (info.type) {
    case "health": return health(rt, info.endpoint, info.check, req.query);
    case "version": return json(versionInfo, pretty);
    case "metrics": return metrics(rt);
    case "api":
    case "apis":
      return discoveryResponse(info.type, { accept: req.header("accept"), ifNoneMatch: req.header("if-none-match"), pretty, serverAddress: rt.serverAddress });
    case "group": return json(apiGroup(info.group) ?? notFound(), pretty);
    case "resource-list": return json(apiResourceList(info.groupVersion) ?? notFound(), pretty);
    case "openapi-v2":
      return openapiV2Response(rt.openapi, { accept: req.header("accept"), ifNoneMatch: req.header("if-none-match"), ifModifiedSince: req.header("if-modified-since") }) ?? notFound();
    case "openapi-v3": return openapi(rt, "v3", "", pretty);
    case "openapi-v3-doc": return openapi(rt, "v3", info.path, pretty);
    case "oidc-configuration": return oidc(rt, "configuration");
    case "oidc-jwks": return oidc(rt, "jwks");
    case "review": return review(rt, req, info, user, pretty);
    case "resource": break;
  }
  const list = req.method === "GET" && info.name === undefined;
  const watching = info.watchPath || (list && parseWatchFlag(req.query));
  const acting = info.subresource !== undefined && info.kind.actionSubresources?.includes(info.subresource);
  // Kinds without protobuf declarations answer JSON or YAML (as kube does for custom resources).
  const endpoint = { ...(acting ? ACTION_ENDPOINT : RESOURCE_ENDPOINT), protobuf: acting || RESPONSE_KINDS.has(info.kind.kind) };
  const format = negotiate(req.header("accept"), { watch: watching, endpoint });
  return await resource(rt, req, info, format, pretty || format.pretty, user, record);
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
  const format = negotiate(req.header("accept"), { endpoint: ACTION_ENDPOINT });
  const body = await readActionBody(req, info.review.kind, `${info.review.group}/v1`);
  const answer = await handler({ user, namespace: info.namespace ?? "", name: "", body, dryRun: opts.dryRun });
  return actionResponse(answer.object, format, pretty || format.pretty, answer.code);
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

/** Prometheus text exposition (lib/metrics): kube-apiserver's metric names, the store's, the process's. */
function metrics(rt: ApiRuntime): ApiResponse {
  if (!rt.metrics) throw errors.routeNotFound();
  return { status: 200, headers: { ...BASE_HEADERS, "content-type": METRICS_CONTENT_TYPE }, body: rt.metrics.expose() };
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
  if (subresource && kind.actionSubresources?.includes(subresource)) return action(rt, req, info, user, format, pretty);
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
        return listResponse(list, format, pretty, tableIncludes(format, q));
      }
      answer = await reg.get(kind, ns, name, q.get("resourceVersion") ?? "");
      break;
    case "POST": {
      if (name !== undefined) throw errors.methodNotAllowed();
      const opts = { ...parseWriteOptions(q), user };
      const check = { mode: opts.fieldValidation, warnings };
      const track = updateTracker(kind, "", managerOrUserAgent(opts.fieldManager, req.header("user-agent")));
      answer = await reg.create(kind, info.unscoped ? undefined : namespace, await readObjectBody(req, kind, check), { ...opts, track });
      // As kube's audit does, a create's objectRef names the object it made.
      const made = (answer as { object?: KubeObject }).object?.metadata;
      if (record.objectRef && made?.name) record.objectRef = { ...record.objectRef, name: made.name, ...(made.namespace ? { namespace: made.namespace } : {}) };
      break;
    }
    case "PUT": {
      if (name === undefined) throw errors.methodNotAllowed();
      const opts = { ...parseWriteOptions(q, "UpdateOptions"), user };
      const check = { mode: opts.fieldValidation, warnings };
      const track = updateTracker(kind, subresource ?? "", managerOrUserAgent(opts.fieldManager, req.header("user-agent")));
      answer = await reg.update(kind, ns, name, await readObjectBody(req, kind, check), { ...opts, subresource, track });
      break;
    }
    case "PATCH": {
      if (name === undefined) throw errors.methodNotAllowed();
      const type = patchType(req.header("content-type"));
      const opts = { ...parseWriteOptions(q, "PatchOptions", type === "apply-patch"), user };
      const manager = managerOrUserAgent(opts.fieldManager, req.header("user-agent"));
      answer = await patchObject(reg, { kind, namespace: ns, name, subresource }, type, await req.body(MAX_BODY_BYTES), { ...opts, manager }, warnings);
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
  const include = tableIncludes(format, q);
  const res = "list" in answer ? listResponse(answer.list, format, pretty, include) : objectResponse(kind, answer, format, pretty, include);
  if (warnings.length) res.headers.warning = warningHeaders(warnings);
  return res;
}

async function action(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, user: UserInfo, format: OutputFormat, pretty: boolean): Promise<ApiResponse> {
  if (req.method !== "POST" || info.name === undefined) throw errors.methodNotAllowed();
  const handler = rt.actions?.get(`${info.kind.plural}/${info.subresource}`);
  if (!handler) throw errors.routeNotFound();
  const opts = parseWriteOptions(req.query);
  const made = ACTION_SUBRESOURCES[info.subresource!];
  const body = await readActionBody(req, made?.kind ?? "", made ? `${made.group}/${made.version}` : "v1");
  const answer = await handler({ user, namespace: info.namespace ?? "", name: info.name, body, dryRun: opts.dryRun });
  return actionResponse(answer.object, format, pretty, answer.code);
}

/** A create-only handler's answer (a review, a TokenRequest) in the negotiated representation. */
function actionResponse(object: unknown, format: OutputFormat, pretty: boolean, code: number): ApiResponse {
  const obj = object as KubeObject;
  const body = format.as ? metadataView(obj, `${goPackage(obj.apiVersion ?? "")}.${obj.kind}`, format, pretty, false) : encodeValue(obj, format.media, pretty);
  return { status: code, headers: { ...BASE_HEADERS, "content-type": contentType(format.media) }, body };
}

/** Table options are read (and refused) only when a Table is asked for, as kube's optionsForTransform does. */
function tableIncludes(format: OutputFormat, q: URLSearchParams): IncludeObject {
  return format.as === "Table" ? includeObject(q) : "Metadata";
}

/** The package of the internal Go type kube-apiserver names in conversion errors (`core` for `*core.PodList`). */
function goPackage(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "core" : apiVersion.slice(0, slash).split(".")[0];
}

/**
 * An object's `as=PartialObjectMetadata` view; `as=PartialObjectMetadataList` of one object is kube's 406.
 * `goType` names the object as kube's message does; `immutable`: the store's own object (its encoding is kept).
 */
function metadataView(obj: KubeObject, goType: string, format: OutputFormat, pretty: boolean, immutable: boolean): ApiResponse["body"] {
  if (format.as === "PartialObjectMetadataList") {
    throw errors.conversionNotAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (*${goType})`);
  }
  const version = format.asVersion ?? "v1";
  if (format.media === "protobuf") return encodeUnknown(`meta.k8s.io/${version}`, "PartialObjectMetadata", partialObjectMetadataBytes(obj, immutable));
  return encodeValue(partialMetadata(obj, version), format.media, pretty);
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
  const headers = { ...BASE_HEADERS, "content-type": contentType(format.media) };
  const stored = answer.object as KubeObject;
  const served = servedAs(kind, stored);
  const a = served ? { ...answer, object: served, json: undefined } : answer;
  const obj = a.object as KubeObject;
  const isObject = (obj as { kind?: string }).kind === kind.kind;
  // An answer with its stored serialisation is the store's own object, which never changes: protobuf keeps its encoding.
  const immutable = answer.json !== undefined;
  if (format.as === "Table" && isObject) {
    return { status: a.code, headers, body: encodeValue(table(kind, [obj], { resourceVersion: obj.metadata.resourceVersion }, include), format.media, pretty) };
  }
  if (format.as && isObject) return { status: a.code, headers, body: metadataView(stored, `${goPackage(apiVersionOf(kind))}.${kind.kind}`, format, pretty, immutable) };
  if (format.media === "protobuf" && isObject) {
    return { status: a.code, headers, body: encodeObjectBody(stored, { apiVersion: apiVersionOf(kind), kind: kind.kind }, immutable) };
  }
  return { status: a.code, headers, body: encodeValue(a.object, format.media, pretty, a.json) };
}

function listMeta(list: ListAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}

function listResponse(answer: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format.media) };
  const kind = answer.kind;
  if (format.as === "PartialObjectMetadata") {
    throw errors.conversionNotAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (*${goPackage(apiVersionOf(kind))}.${kind.kind}List)`);
  }
  const version = format.asVersion ?? "v1";
  if (format.media === "protobuf") {
    // List items carry no type meta in protobuf, and the store's objects keep their encodings: a list is copies.
    const body = format.as === "PartialObjectMetadataList"
      ? encodeListBody({ apiVersion: `meta.k8s.io/${version}`, kind: "PartialObjectMetadataList" }, listMeta(answer), answer.items.map((i) => partialObjectMetadataBytes(i.object, true)))
      : encodeListBody({ apiVersion: apiVersionOf(kind), kind: `${kind.kind}List` }, listMeta(answer), answer.items.map((i) => messageBytes(kind.kind, i.object, true)));
    return { status: 200, headers, body };
  }
  const list = answer.kind.servedFrom ? {
    ...answer,
    items: answer.items.map((i) => {
      const object = servedAs(answer.kind, i.object) ?? i.object;
      return { ...i, object, json: JSON.stringify(object) };
    }),
  } : answer;
  const meta = listMeta(list);
  if (format.as === "Table") {
    return { status: 200, headers, body: encodeValue(table(list.kind, list.items.map((i) => i.object), meta, include), format.media, pretty) };
  }
  if (format.as === "PartialObjectMetadataList") {
    const view = { kind: "PartialObjectMetadataList", apiVersion: `meta.k8s.io/${version}`, metadata: meta, items: list.items.map((i) => partialMetadata(i.object, version)) };
    return { status: 200, headers, body: encodeValue(view, format.media, pretty) };
  }
  const head = { kind: `${list.kind.kind}List`, apiVersion: apiVersionOf(list.kind), metadata: meta };
  if (format.media === "yaml" || pretty) {
    return { status: 200, headers, body: encodeValue({ ...head, items: list.items.map((i) => i.object) }, format.media, pretty) };
  }
  // Splice the stored serialisations: no parse, no re-stringify of the items.
  const prefix = JSON.stringify(head).slice(0, -1);
  return { status: 200, headers, body: `${prefix},"items":[${list.items.map((i) => i.json).join(",")}]}\n` };
}

async function watch(rt: ApiRuntime, req: ApiRequest, info: ResourceRequest, format: OutputFormat): Promise<ApiResponse> {
  const opts = parseListOptions(req.query, true);
  const spec = await rt.registry.prepareWatch(info.kind, info.namespace, info.name, opts);
  const kind = info.kind;
  if (format.as === "Table") {
    const include = includeObject(req.query);
    let first = true;
    spec.encode = (type: EventType, object: KubeObject) => {
      const obj = {
        kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: { resourceVersion: object.metadata.resourceVersion },
        columnDefinitions: first ? columnDefinitions(kind) : null, rows: [tableRow(kind, object, include)],
      };
      first = false;
      return `${JSON.stringify({ type, object: obj })}\n`;
    };
  } else {
    // Protobuf frames, metadata views and another group's apiVersion: one encoding per event and framing.
    spec.framing = watchFraming(kind.kind, apiVersionOf(kind), kind.servedFrom !== undefined, format);
  }
  // That framing of as=PartialObjectMetadataList ends the stream at its first event (an empty frame).
  const closing = format.as === "PartialObjectMetadataList";
  const timeoutMs = opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0
    ? opts.timeoutSeconds * 1000
    : (1800 + Math.random() * 1800) * 1000;
  return {
    status: 200,
    headers: {
      ...BASE_HEADERS, "content-type": format.media === "protobuf" ? PROTOBUF_WATCH_MEDIA_TYPE : "application/json",
      "cache-control": "no-cache, private, no-transform", "x-accel-buffering": "no",
    },
    stream: { start: (sink) => rt.registry.watch(spec, closing ? { send: (c) => c.length > 0 && sink.send(c), close: () => sink.close() } : sink), timeoutMs },
  };
}

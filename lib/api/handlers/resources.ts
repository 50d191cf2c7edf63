// A resource's verbs (kube's REST handlers): get, list, create, update, patch, delete and deletecollection
// through the registry with the request's user (admission reads it); a watch and the action subresources go to
// their own endpoints. Every verb answers the negotiated form.
import { managerOrUserAgent, updateTracker } from "../../apply";
import type { KubeObject } from "../../kinds/types";
import { RESPONSE_KINDS } from "../../codec/protobuf";
import { parseDeleteOptions, parseListOptions, parseWriteOptions } from "../../registry/options";
import type { Answer } from "../../registry/registry";
import { watchFlag, type ResourceRequest } from "../../request/request-info";
import { errors, StatusError } from "../../status";
import type { RequestContext } from "../context";
import { listResponse } from "../encode/list";
import { objectResponse } from "../encode/object";
import { tableIncludes } from "../encode/table";
import { warningHeaders } from "../field-validation";
import { ACTION_ENDPOINT, negotiate, RESOURCE_ENDPOINT, type OutputFormat, type Restrictions } from "../media";
import { patchObject, patchType } from "../patch";
import { MAX_BODY_BYTES, readDeleteOptions, readObjectBody } from "../request-body";
import type { ApiResponse } from "../types";
import { action } from "./actions";
import { scale } from "./scale";
import { watch } from "./watch";

export function resources(ctx: RequestContext, info: ResourceRequest): ApiResponse | Promise<ApiResponse> {
  const res = serve(ctx, info);
  // A deprecated version warns on every request to it, as kube's handler for a CRD's deprecated version does.
  const deprecated = info.kind.deprecationWarning;
  if (deprecated === undefined) return res;
  return Promise.resolve(res).then((r) => {
    r.headers.warning = [...warningHeaders([deprecated]), ...[r.headers.warning ?? []].flat()];
    return r;
  });
}

/** What a kind's endpoints can answer (the negotiation's restrictions), made once per kind. */
const endpoints = new WeakMap<ResourceRequest["kind"], { resource: Restrictions; action: Restrictions }>();

function endpointsOf(kind: ResourceRequest["kind"]): { resource: Restrictions; action: Restrictions } {
  let e = endpoints.get(kind);
  if (!e) {
    // Kinds without protobuf declarations answer JSON or YAML (as kube does for custom resources).
    // A kind without a declared schema (a custom resource) has JSON and YAML serializers only.
    e = {
      resource: { ...RESOURCE_ENDPOINT, protobuf: RESPONSE_KINDS.has(kind.kind), jsonAndYamlOnly: !kind.schema },
      action: { ...ACTION_ENDPOINT, protobuf: true, jsonAndYamlOnly: false },
    };
    endpoints.set(kind, e);
  }
  return e;
}

function serve(ctx: RequestContext, info: ResourceRequest): ApiResponse | Promise<ApiResponse> {
  const req = ctx.request;
  const watching = info.watchPath || (req.method === "GET" && info.name === undefined && watchFlag(req.query));
  const acting = info.subresource !== undefined && info.kind.actionSubresources?.includes(info.subresource);
  const endpoint = endpointsOf(info.kind);
  const format = negotiate(req.header("accept"), { watch: watching, endpoint: acting ? endpoint.action : endpoint.resource });
  const pretty = ctx.pretty || format.pretty;
  if (acting) return action(ctx, info, format, pretty);
  if (watching) {
    if (req.method !== "GET") throw errors.methodNotAllowed();
    return watch(ctx, info, format);
  }
  // One object read from the cache: answered synchronously when the cache can answer at once.
  if (req.method === "GET" && info.name !== undefined && !(info.subresource === "scale" && info.kind.scale)) {
    const answer = ctx.runtime.registry.read(info.kind, info.namespace ?? "", info.name, req.query.get("resourceVersion") ?? "");
    return answer instanceof Promise ? answer.then((a) => answered(info, a, format, pretty, [], req.query)) : answered(info, answer, format, pretty, [], req.query);
  }
  return verb(ctx, info, format, pretty);
}

async function verb(ctx: RequestContext, info: ResourceRequest, format: OutputFormat, pretty: boolean): Promise<ApiResponse> {
  const { kind, namespace, name, subresource } = info;
  const { request: req, user } = ctx;
  const reg = ctx.runtime.registry;
  const q = req.query;
  const ns = namespace ?? "";
  const warnings: string[] = [];
  if (subresource === "scale" && kind.scale && name !== undefined) {
    const opts = { ...parseWriteOptions(q, req.method === "PATCH" ? "PatchOptions" : "UpdateOptions"), user };
    const body = async () => ({ raw: await req.body(MAX_BODY_BYTES), type: req.method === "PATCH" ? patchType(req.header("content-type"), false) : undefined });
    return scale(reg, kind, ns, name, req.method, format, pretty, body, opts);
  }
  let answer: Answer;
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
      if (kind.createRefusal) throw new StatusError(405, "MethodNotAllowed", kind.createRefusal, { ...(kind.group ? { group: kind.group } : {}), kind: kind.plural });
      const opts = { ...parseWriteOptions(q), user };
      const check = { mode: opts.fieldValidation, warnings };
      const track = updateTracker(kind, "", managerOrUserAgent(opts.fieldManager, req.header("user-agent")));
      answer = await reg.create(kind, info.unscoped ? undefined : namespace, await readObjectBody(req, kind, check), { ...opts, track });
      // As kube's audit does, a create's objectRef names the object it made.
      const made = (answer as { object?: KubeObject }).object?.metadata;
      const record = ctx.audit;
      if (record?.objectRef && made?.name) record.objectRef = { ...record.objectRef, name: made.name, ...(made.namespace ? { namespace: made.namespace } : {}) };
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
      const type = patchType(req.header("content-type"), kind.schema !== undefined);
      const opts = { ...parseWriteOptions(q, "PatchOptions", type === "apply-patch"), user };
      const manager = managerOrUserAgent(opts.fieldManager, req.header("user-agent"));
      answer = await patchObject(reg, { kind, namespace: ns, name, subresource }, type, await req.body(MAX_BODY_BYTES), { ...opts, manager }, warnings);
      break;
    }
    case "DELETE": {
      if (subresource) throw errors.methodNotAllowed();
      const opts = { ...parseDeleteOptions(q, await readDeleteOptions(req)), user };
      if (name !== undefined) { answer = await reg.delete(kind, ns, name, opts); break; }
      if (info.unscoped || kind.deleteCollection === false) throw errors.methodNotAllowed();
      answer = await reg.deleteCollection(kind, namespace, parseListOptions(q), opts);
      break;
    }
    default:
      throw errors.methodNotAllowed();
  }
  return answered(info, answer, format, pretty, warnings, q);
}

/** A verb's answer in the negotiated form, with the warnings the request and the answer carry. */
function answered(info: ResourceRequest, answer: Answer, format: OutputFormat, pretty: boolean, warnings: string[], q: URLSearchParams): ApiResponse {
  if ("warnings" in answer && answer.warnings) warnings.push(...answer.warnings);
  const include = tableIncludes(format, q);
  const res = "list" in answer ? listResponse(answer.list, format, pretty, include) : objectResponse(info.kind, answer, format, pretty, include);
  if (warnings.length) res.headers.warning = warningHeaders(warnings);
  return res;
}

// The OpenAPI documents kube-apiserver serves and kubectl reads: /openapi/v3 (index), /openapi/v3/api,
// /openapi/v3/api/v1 (OpenAPI 3.0) and /openapi/v2 (Swagger 2.0, JSON). Built once from the kind list and memoised.
import { kinds } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { metaType } from "../kinds/schema/names";
import { status } from "../kinds/schema/object-meta";
import type { ObjectSchema } from "../kinds/schema/schema";
import { Emitter, type JsonSchema } from "./emit";
import { contentHash } from "./hash";
import { apiResourceList, apiVersions, deleteOptions, listSchema, patch, watchEvent } from "./meta-types";
import { consumes, kindPaths, PATH_PARAMETER_DESCRIPTIONS, PRETTY, produces, type Operation, type PathItem, type QueryParameter } from "./paths";

const TITLE = "Kubernetes";
const VERSION = "v1.32.0";
const TAG = "core_v1";
const BEARER = { type: "apiKey", in: "header", name: "authorization", description: "Bearer token: `Authorization: Bearer <token>`." };

/** The kinds with their schemas (a kind without one is served without a schema in the documents). */
function kindSchema(kind: AnyKind): ObjectSchema & { gvk: { group: string; version: string; kind: string } } {
  const s = kind.schema;
  if (s?.type === "object" && s.gvk) return s as ObjectSchema & { gvk: { group: string; version: string; kind: string } };
  return { type: "object", properties: {}, name: `io.k8s.api.core.v1.${kind.kind}`, gvk: { group: "", version: "v1", kind: kind.kind } };
}

/** Registers every component the core/v1 operations use, kinds first. */
function registerComponents(emitter: Emitter): void {
  for (const kind of kinds) {
    const s = kindSchema(kind);
    emitter.value(s);
    emitter.value(listSchema(s));
  }
  for (const s of [status, deleteOptions, watchEvent, patch]) emitter.value(s);
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));

function allPathItems(): PathItem[] {
  return kinds.flatMap(kindPaths);
}

// --- OpenAPI 3.0 ----------------------------------------------------------------------------------------------------

function v3Parameter(p: QueryParameter): JsonSchema {
  return { name: p.name, in: "query", description: p.description, schema: { type: p.type, uniqueItems: true } };
}

function v3Content(mediaTypes: string[], ref: string): JsonSchema {
  return Object.fromEntries(mediaTypes.map((m) => [m, { schema: { $ref: ref } }]));
}

function v3Operation(o: Operation, emitter: Emitter): JsonSchema {
  const out: JsonSchema = { tags: [TAG], description: o.description, operationId: o.operationId };
  if (o.query.length) out.parameters = o.query.map(v3Parameter);
  if (o.body) out.requestBody = { content: v3Content(consumes(o), emitter.ref(o.body.component)), required: o.body.required };
  const responses: JsonSchema = {};
  for (const r of o.responses) responses[String(r.code)] = { description: r.description, content: v3Content(produces(o), emitter.ref(r.component)) };
  responses["401"] = { description: "Unauthorized" };
  out.responses = responses;
  out["x-kubernetes-action"] = o.action;
  out["x-kubernetes-group-version-kind"] = { group: "", kind: o.kind, version: "v1" };
  return out;
}

function v3PathItem(item: PathItem, emitter: Emitter): JsonSchema {
  const out: JsonSchema = {};
  for (const o of item.operations) out[o.method] = v3Operation(o, emitter);
  const kind = item.operations[0].kind;
  out.parameters = [
    ...item.pathParameters.map((p) => ({
      name: p,
      in: "path",
      description: PATH_PARAMETER_DESCRIPTIONS[p](kind),
      required: true,
      schema: { type: "string", uniqueItems: true },
    })),
    v3Parameter(PRETTY),
  ];
  return out;
}

function v3Document(paths: Record<string, JsonSchema>, components: Record<string, JsonSchema>): JsonSchema {
  return {
    openapi: "3.0.0",
    info: { title: TITLE, version: VERSION },
    paths: sortKeys(paths),
    components: { schemas: sortKeys(components), securitySchemes: { BearerToken: BEARER } },
    security: [{ BearerToken: [] }],
  };
}

const discoveryOperation = (operationId: string, description: string, ref: string, tag: string): JsonSchema => ({
  tags: [tag],
  description,
  operationId,
  responses: { "200": { description: "OK", content: v3Content(["application/json", "application/yaml"], ref) }, "401": { description: "Unauthorized" } },
});

let coreV1: JsonSchema | undefined;

/** `/openapi/v3/api/v1`: the core/v1 group version, every kind's operations and schemas. */
export function openapiV3CoreV1(): JsonSchema {
  if (coreV1) return coreV1;
  const emitter = new Emitter("v3");
  registerComponents(emitter);
  emitter.value(apiResourceList);
  const paths: Record<string, JsonSchema> = {
    "/api/v1/": { get: discoveryOperation("getCoreV1APIResources", "get available resources", emitter.ref(metaType("APIResourceList")), TAG) },
  };
  for (const item of allPathItems()) paths[item.path] = v3PathItem(item, emitter);
  coreV1 = v3Document(paths, emitter.components);
  return coreV1;
}

let coreApi: JsonSchema | undefined;

/** `/openapi/v3/api`: the legacy API root (`GET /api/` answering APIVersions). */
export function openapiV3Api(): JsonSchema {
  if (coreApi) return coreApi;
  const emitter = new Emitter("v3");
  emitter.value(apiVersions);
  coreApi = v3Document(
    { "/api/": { get: discoveryOperation("getCoreAPIVersions", "get available API versions", emitter.ref(metaType("APIVersions")), "core") } },
    emitter.components,
  );
  return coreApi;
}

let index: JsonSchema | undefined;

/** `/openapi/v3`: where each group version's document is, with a content hash kubectl uses as a cache key. */
export function openapiV3Index(): JsonSchema {
  index ??= {
    paths: {
      api: { serverRelativeURL: `/openapi/v3/api?hash=${contentHash(JSON.stringify(openapiV3Api()))}` },
      "api/v1": { serverRelativeURL: `/openapi/v3/api/v1?hash=${contentHash(JSON.stringify(openapiV3CoreV1()))}` },
    },
  };
  return index;
}

// --- Swagger 2.0 ----------------------------------------------------------------------------------------------------

function v2Parameter(p: QueryParameter): JsonSchema {
  return { uniqueItems: true, type: p.type, description: p.description, name: p.name, in: "query" };
}

function v2Operation(o: Operation, emitter: Emitter): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (o.body) parameters.push({ name: "body", in: "body", required: o.body.required, schema: { $ref: emitter.ref(o.body.component) } });
  parameters.push(...o.query.map(v2Parameter));
  const responses: JsonSchema = {};
  for (const r of o.responses) responses[String(r.code)] = { description: r.description, schema: { $ref: emitter.ref(r.component) } };
  responses["401"] = { description: "Unauthorized" };
  const out: JsonSchema = {
    description: o.description,
    consumes: consumes(o),
    produces: produces(o),
    schemes: ["https"],
    tags: [TAG],
    operationId: o.operationId,
  };
  if (parameters.length) out.parameters = parameters;
  out.responses = responses;
  out["x-kubernetes-action"] = o.action;
  out["x-kubernetes-group-version-kind"] = { group: "", kind: o.kind, version: "v1" };
  return out;
}

let swagger: JsonSchema | undefined;

/** `/openapi/v2` as JSON: the same operations and definitions (`#/definitions/io.k8s.api.core.v1.Pod`). */
export function openapiV2(): JsonSchema {
  if (swagger) return swagger;
  const emitter = new Emitter("v2");
  registerComponents(emitter);
  emitter.value(apiResourceList);
  emitter.value(apiVersions);
  const discovery = (operationId: string, description: string, ref: string, tag: string): JsonSchema => ({
    description,
    consumes: ["application/json", "application/yaml"],
    produces: ["application/json", "application/yaml"],
    schemes: ["https"],
    tags: [tag],
    operationId,
    responses: { "200": { description: "OK", schema: { $ref: ref } }, "401": { description: "Unauthorized" } },
  });
  const paths: Record<string, JsonSchema> = {
    "/api/": { get: discovery("getCoreAPIVersions", "get available API versions", emitter.ref(metaType("APIVersions")), "core") },
    "/api/v1/": { get: discovery("getCoreV1APIResources", "get available resources", emitter.ref(metaType("APIResourceList")), TAG) },
  };
  for (const item of allPathItems()) {
    const out: JsonSchema = {};
    for (const o of item.operations) out[o.method] = v2Operation(o, emitter);
    const kind = item.operations[0].kind;
    out.parameters = [
      ...item.pathParameters.map((p) => ({ uniqueItems: true, type: "string", description: PATH_PARAMETER_DESCRIPTIONS[p](kind), name: p, in: "path", required: true })),
      v2Parameter(PRETTY),
    ];
    paths[item.path] = out;
  }
  swagger = {
    swagger: "2.0",
    info: { title: TITLE, version: VERSION },
    paths: sortKeys(paths),
    definitions: sortKeys(emitter.components),
    securityDefinitions: { BearerToken: BEARER },
    security: [{ BearerToken: [] }],
  };
  return swagger;
}

// --- serving --------------------------------------------------------------------------------------------------------

/**
 * The document at `/openapi/<version>[/<path>]`: v2 → Swagger 2.0; v3 with path "" → the index, "api" and
 * "api/v1" → the group documents. Undefined for anything else (answer 404). Query strings are not part of `path`.
 */
export function openapiDocument(version: "v2" | "v3", path: string): unknown | undefined {
  const p = path.replace(/^\/+|\/+$/g, "");
  if (version === "v2") return p === "" ? openapiV2() : undefined;
  if (p === "") return openapiV3Index();
  if (p === "api") return openapiV3Api();
  if (p === "api/v1") return openapiV3CoreV1();
  return undefined;
}

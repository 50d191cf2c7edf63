// The OpenAPI documents kube-apiserver serves and kubectl reads: /openapi/v3 (index), /openapi/v3/api,
// /openapi/v3/api/v1 and /openapi/v3/apis/<group>/<version> (OpenAPI 3.0), and /openapi/v2 (Swagger 2.0, JSON,
// every group). Built from the kind list, the custom kinds of Established CRDs included, and memoised until the
// custom kinds change.
import { addedKinds, declaredGroups, kindsServedBy, onKindsChanged } from "../kinds";
import { ACTION_SUBRESOURCES, reviewGroups, reviewResources, type ReviewResource } from "../kinds/reviews";
import type { AnyKind } from "../kinds/types";
import { metaType } from "../kinds/schema/names";
import { status } from "../kinds/schema/object-meta";
import type { ObjectSchema } from "../kinds/schema/schema";
import { registerCustomKind } from "./custom-kind-schemas";
import { Emitter, type JsonSchema } from "./emit";
import { gnosticDocument } from "./gnostic";
import { contentHash } from "./hash";
import { apiResourceList, apiVersions, deleteOptions, listSchema, patch, scale, watchEvent } from "./meta-types";
import {
  actionPaths, consumes, customKindPaths, kindComponent, kindPaths, operationGroup, operationTag, PATH_PARAMETER_DESCRIPTIONS, PRETTY, produces,
  reviewPaths, type Operation, type PathItem, type QueryParameter,
} from "./paths";

const TITLE = "Kubernetes";
const VERSION = "v1.32.0";
const BEARER = { type: "apiKey", in: "header", name: "authorization", description: "Bearer token: `Authorization: Bearer <token>`." };

type KindSchema = ObjectSchema & { gvk: { group: string; version: string; kind: string } };

/** The kinds with their schemas (a kind without one is served without a schema in the documents). */
function kindSchema(kind: AnyKind): KindSchema {
  const s = kind.schema;
  if (s?.type === "object" && s.gvk) return s as KindSchema;
  return { type: "object", properties: {}, name: kindComponent(kind), gvk: { group: kind.group ?? "", version: "v1", kind: kind.kind } };
}

/** The kinds of one group version ("" = core): a custom kind's version only when the CRD serves it. */
const kindsOf = (group: string, version = "v1") => kindsServedBy(group, version).filter((k) => !k.openapi || k.openapi.served);

/** A group version other than core/v1. */
interface GroupVersion { group: string; version: string }

/** The custom kinds' served group versions, in name order. */
function customGroupVersions(): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const k of addedKinds()) {
    if (!k.openapi?.served) continue;
    const gv = { group: k.group ?? "", version: k.version ?? "v1" };
    seen.set(`${gv.group}/${gv.version}`, gv);
  }
  return [...seen.keys()].sort().map((key) => seen.get(key)!);
}

/** The reviews of one group. */
const reviewsOf = (group: string) => reviewResources.filter((r) => r.group === group);

/**
 * The groups other than core with an OpenAPI v3 document: those with kinds, in name order. A group of create-only
 * reviews has none on purpose (see the README): kubectl then validates a review manifest against /openapi/v2.
 */
function v3GroupVersions(): GroupVersion[] {
  const declared = declaredGroups().sort().map((group) => ({ group, version: "v1" }));
  const known = new Set(declared.map((gv) => `${gv.group}/v1`));
  return [...declared, ...customGroupVersions().filter((gv) => !known.has(`${gv.group}/${gv.version}`))];
}

/** The group versions other than core/v1 in /openapi/v2: those with kinds or reviews. */
function namedGroupVersions(): GroupVersion[] {
  const declared = [...new Set([...declaredGroups(), ...reviewGroups()])].sort().map((group) => ({ group, version: "v1" }));
  const known = new Set(declared.map((gv) => `${gv.group}/v1`));
  return [...declared, ...customGroupVersions().filter((gv) => !known.has(`${gv.group}/${gv.version}`))];
}

/** Registers every component the operations of `of` and `reviews` use: kinds, action subresources, reviews, meta. */
function registerComponents(emitter: Emitter, of: AnyKind[], reviews: ReviewResource[]): void {
  for (const kind of of) {
    if (kind.openapi) {
      registerCustomKind(emitter, kind);
      if (kind.openapi.scale) emitter.value(scale);
      continue;
    }
    const s = kindSchema(kind);
    emitter.value(s);
    emitter.value(listSchema(s));
  }
  for (const kind of of) for (const name of kind.actionSubresources ?? []) if (ACTION_SUBRESOURCES[name]) emitter.value(ACTION_SUBRESOURCES[name].schema);
  for (const review of reviews) emitter.value(review.schema);
  for (const s of [status, deleteOptions, watchEvent, patch]) emitter.value(s);
}

/** Every path of a group version: its kinds' operations, their action subresources, its reviews. */
const groupPaths = (of: AnyKind[], reviews: ReviewResource[]): PathItem[] => [
  ...of.flatMap((k) => (k.openapi ? customKindPaths(k) : kindPaths(k))),
  ...of.flatMap(actionPaths),
  ...reviews.flatMap(reviewPaths),
];

const sortKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));

/** `/api/v1/` or `/apis/<group>/<version>/`: the group version's own discovery operation. */
const groupVersionRoot = (group: string, version = "v1") => (group ? `/apis/${group}/${version}/` : "/api/v1/");

const gvkOf = (o: Operation) => ({ group: o.group, kind: o.kind, version: o.version ?? "v1" });

/** An operation's tag: its group version's (or, for an action subresource, the kind's group at v1). */
const tagOf = (o: Operation) => (o.tagGroup !== undefined ? operationTag(o.tagGroup) : operationTag(o.group, o.version));

// --- OpenAPI 3.0 ----------------------------------------------------------------------------------------------------

function v3Parameter(p: QueryParameter): JsonSchema {
  return { name: p.name, in: "query", description: p.description, schema: { type: p.type, uniqueItems: true } };
}

function v3Content(mediaTypes: string[], ref: string): JsonSchema {
  return Object.fromEntries(mediaTypes.map((m) => [m, { schema: { $ref: ref } }]));
}

function v3Operation(o: Operation, emitter: Emitter): JsonSchema {
  const out: JsonSchema = { tags: [tagOf(o)], description: o.description, operationId: o.operationId };
  if (o.query.length) out.parameters = o.query.map(v3Parameter);
  if (o.body) out.requestBody = { content: v3Content(consumes(o), emitter.ref(o.body.component)), required: o.body.required };
  const responses: JsonSchema = {};
  for (const r of o.responses) responses[String(r.code)] = { description: r.description, content: v3Content(produces(o), emitter.ref(r.component)) };
  responses["401"] = { description: "Unauthorized" };
  out.responses = responses;
  out["x-kubernetes-action"] = o.action;
  out["x-kubernetes-group-version-kind"] = gvkOf(o);
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

const groupVersionDocs = new Map<string, JsonSchema>();

/**
 * `/openapi/v3/api/v1` (group "") or `/openapi/v3/apis/<group>/<version>`: one group version's operations and
 * schemas.
 */
export function openapiV3GroupVersion(group: string, version = "v1"): JsonSchema {
  const key = `${group}/${version}`;
  const known = groupVersionDocs.get(key);
  if (known) return known;
  const emitter = new Emitter("v3");
  const of = kindsOf(group, version);
  registerComponents(emitter, of, []);
  emitter.value(apiResourceList);
  const id = operationGroup(group, version);
  const paths: Record<string, JsonSchema> = {
    [groupVersionRoot(group, version)]: {
      get: discoveryOperation(`get${id}APIResources`, "get available resources", emitter.ref(metaType("APIResourceList")), operationTag(group, version)),
    },
  };
  for (const item of groupPaths(of, [])) paths[item.path] = v3PathItem(item, emitter);
  const doc = v3Document(paths, emitter.components);
  groupVersionDocs.set(key, doc);
  return doc;
}

/** `/openapi/v3/api/v1`: the core/v1 group version, every core kind's operations and schemas. */
export function openapiV3CoreV1(): JsonSchema {
  return openapiV3GroupVersion("");
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
  if (index) return index;
  const url = (path: string, doc: JsonSchema) => ({ serverRelativeURL: `/openapi/v3/${path}?hash=${contentHash(JSON.stringify(doc))}` });
  const paths: Record<string, JsonSchema> = {
    api: url("api", openapiV3Api()),
    "api/v1": url("api/v1", openapiV3CoreV1()),
  };
  for (const { group, version } of v3GroupVersions()) {
    paths[`apis/${group}/${version}`] = url(`apis/${group}/${version}`, openapiV3GroupVersion(group, version));
  }
  index = { paths };
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
    tags: [tagOf(o)],
    operationId: o.operationId,
  };
  if (parameters.length) out.parameters = parameters;
  out.responses = responses;
  out["x-kubernetes-action"] = o.action;
  out["x-kubernetes-group-version-kind"] = gvkOf(o);
  return out;
}

let swagger: JsonSchema | undefined;

/** `/openapi/v2` as JSON: every group's operations and definitions (`#/definitions/io.k8s.api.core.v1.Pod`). */
export function openapiV2(): JsonSchema {
  if (swagger) return swagger;
  const emitter = new Emitter("v2");
  const groupVersions = [{ group: "", version: "v1" }, ...namedGroupVersions()];
  const everyKind = groupVersions.flatMap(({ group, version }) => kindsOf(group, version));
  const everyReview = groupVersions.filter(({ version }) => version === "v1").flatMap(({ group }) => reviewsOf(group));
  registerComponents(emitter, everyKind, everyReview);
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
  };
  for (const { group, version } of groupVersions) {
    const id = operationGroup(group, version);
    paths[groupVersionRoot(group, version)] = {
      get: discovery(`get${id}APIResources`, "get available resources", emitter.ref(metaType("APIResourceList")), operationTag(group, version)),
    };
  }
  for (const item of groupPaths(everyKind, everyReview)) {
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

let swaggerProtobuf: Uint8Array | undefined;

/** `/openapi/v2` in protobuf: the Swagger 2.0 document as gnostic's `openapi.v2.Document` message. */
export function openapiV2Protobuf(): Uint8Array {
  swaggerProtobuf ??= gnosticDocument(openapiV2());
  return swaggerProtobuf;
}

// --- serving --------------------------------------------------------------------------------------------------------

/**
 * The document at `/openapi/<version>[/<path>]`: v2 → Swagger 2.0 (as a JSON value, or with `format` "protobuf" as
 * gnostic's Document message bytes); v3 with path "" → the index, "api", "api/v1" and "apis/<group>/<version>" → the
 * group version documents (JSON only). Undefined for anything else (answer 404). Query strings are not part of
 * `path`.
 */
export function openapiDocument(version: "v2" | "v3", path: string, format: "json" | "protobuf" = "json"): unknown | undefined {
  const p = path.replace(/^\/+|\/+$/g, "");
  if (version === "v2") return p !== "" ? undefined : format === "protobuf" ? openapiV2Protobuf() : openapiV2();
  if (format !== "json") return undefined;
  if (p === "") return openapiV3Index();
  if (p === "api") return openapiV3Api();
  if (p === "api/v1") return openapiV3CoreV1();
  const [, group, groupVersion] = /^apis\/([^/]+)\/([^/]+)$/.exec(p) ?? [];
  if (group && v3GroupVersions().some((gv) => gv.group === group && gv.version === groupVersion)) return openapiV3GroupVersion(group, groupVersion);
  return undefined;
}

// The documents describe the custom kinds too: when a CRD's kinds are served, changed or dropped, every memoised
// document is built again on its next request (new objects, so the v2 ETag and the v3 index hashes change).
onKindsChanged(() => {
  groupVersionDocs.clear();
  index = undefined;
  swagger = undefined;
  swaggerProtobuf = undefined;
});

// Content negotiation exactly as kube-apiserver's (apiserver/pkg/endpoints/handlers/negotiation with
// goautoneg's Accept parsing): which representation a client accepts (JSON, YAML, protobuf; Table and
// PartialObjectMetadata[List] conversions) and how request bodies are decoded.
import { parseAllDocuments } from "yaml";
import { decodeProtobufBody } from "../codec/protobuf";
import { errors } from "../status";

export type MediaFormat = "json" | "yaml" | "protobuf";
export type Conversion = "Table" | "PartialObjectMetadata" | "PartialObjectMetadataList";

/** What to answer with: the serializer, and the `as=` conversion of a `meta.k8s.io` clause, if any. */
export interface OutputFormat {
  media: MediaFormat;
  as?: Conversion;
  /** The conversion's version: `v1` or `v1beta1` of `meta.k8s.io`. */
  asVersion?: string;
  /** The clause carried `pretty=1`. */
  pretty: boolean;
}

export const JSON_FORMAT: OutputFormat = { media: "json", pretty: false };

/** In the order the server lists them (the first is the default). */
const SERIALIZERS: readonly { media: MediaFormat; type: string; subType: string; stream: boolean }[] = [
  { media: "json", type: "application", subType: "json", stream: true },
  { media: "yaml", type: "application", subType: "yaml", stream: false },
  { media: "protobuf", type: "application", subType: "vnd.kubernetes.protobuf", stream: true },
];
const OFFERED = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
const OFFERED_WATCH = "application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch";
/** A custom resource's (kube 1.32 without the CBOR gate). */
const OFFERED_UNSTRUCTURED = "application/json, application/yaml";
const OFFERED_WATCH_UNSTRUCTURED = "application/json;stream=watch";

/** What an endpoint can produce (kube's EndpointRestrictions). */
export interface Restrictions {
  /** Conversions to `meta.k8s.io` Table (JSON/YAML only) and PartialObjectMetadata[List] are offered. */
  table: boolean;
  metadata: boolean;
  /** The one `sv=` (server version of generic output) accepted, if any. */
  serverVersion?: string;
  /** The endpoint's own objects have a protobuf encoding (default true; conversions always do). */
  protobuf?: boolean;
  /**
   * No protobuf serializer at all, conversions included, and none offered in a 406 (kube's custom resource handler,
   * whose serializers are JSON and YAML only).
   */
  jsonAndYamlOnly?: boolean;
}
/** A resource endpoint (kube's RequestScope with a table convertor). */
export const RESOURCE_ENDPOINT: Restrictions = { table: true, metadata: true, serverVersion: "v1" };
/** A create-only endpoint (reviews, `serviceaccounts/token`): a RequestScope without a table convertor. */
export const ACTION_ENDPOINT: Restrictions = { table: false, metadata: true, serverVersion: "v1" };
/** Errors (kube's DefaultEndpointRestrictions): no conversions. */
export const PLAIN_ENDPOINT: Restrictions = { table: false, metadata: false };

interface Clause { type: string; subType: string; q: number; params: Map<string, string> }

const trimSpaces = (s: string) => s.replace(/^ +| +$/g, "");

/** Go's strconv.ParseFloat(s, 32), whose error goautoneg ignores (so a malformed q is 0). */
function parseQ(s: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s));
  if (/^[+-]?inf(inity)?$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  return 0;
}

/** goautoneg's Less: a higher q first, but also any concrete type before a wildcard one, whatever their q. */
function before(a: Clause, b: Clause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== "*" && b.type === "*") return true;
  if (a.subType !== "*" && b.subType === "*") return true;
  return false;
}

/** goautoneg.ParseAccept: case-sensitive types, space-trimmed parts, then Go's sort (insertion sort for short lists). */
/** Parsed Accept headers by value: clients send the same few over and over (bounded; cleared when full). */
const parsedAccept = new Map<string, readonly Clause[]>();
const PARSED_ACCEPT_MAX = 256;

function parsedAcceptOf(header: string): readonly Clause[] {
  let clauses = parsedAccept.get(header);
  if (!clauses) {
    clauses = parseAccept(header);
    if (parsedAccept.size >= PARSED_ACCEPT_MAX) parsedAccept.clear();
    parsedAccept.set(header, clauses);
  }
  return clauses;
}

export function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  for (const rawPart of header.split(",")) {
    const part = trimSpaces(rawPart);
    const [range, ...rest] = part.split(";");
    const sp = range.split("/");
    const type = trimSpaces(sp[0]);
    let subType: string;
    if (sp.length === 1 && type === "*") subType = "*";
    else if (sp.length === 2) subType = trimSpaces(sp[1]);
    else continue;
    const clause: Clause = { type, subType, q: 1, params: new Map() };
    for (const param of rest) {
      const eq = param.indexOf("=");
      if (eq < 0) continue;
      const token = trimSpaces(param.slice(0, eq));
      if (token === "q") clause.q = parseQ(param.slice(eq + 1));
      else clause.params.set(token, trimSpaces(param.slice(eq + 1))); // a Go map: the last one wins
    }
    out.push(clause);
  }
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && before(out[j], out[j - 1]); j--) [out[j], out[j - 1]] = [out[j - 1], out[j]];
  }
  return out;
}

/** acceptMediaTypeOptions: the clause's parameters against what the serializer and the endpoint allow. */
function acceptOptions(params: Map<string, string>, s: (typeof SERIALIZERS)[number], endpoint: Restrictions): OutputFormat | undefined {
  let convert: { kind: string; group: string; version: string } | undefined;
  let pretty = false;
  for (const [k, v] of params) {
    switch (k) {
      case "as": (convert ??= { kind: "", group: "", version: "" }).kind = v; break;
      case "g": (convert ??= { kind: "", group: "", version: "" }).group = v; break;
      case "v": (convert ??= { kind: "", group: "", version: "" }).version = v; break;
      case "stream": if (v && (!s.stream || v !== "watch")) return undefined; break;
      // The server version of generic output: only the meta group's own ("v1") on resource endpoints.
      case "sv": if (v && v !== endpoint.serverVersion) return undefined; break;
      case "pretty": pretty = v === "1"; break;
    }
  }
  if (!convert) return s.media === "protobuf" && endpoint.protobuf === false ? undefined : { media: s.media, pretty };
  if (convert.group !== "meta.k8s.io" || (convert.version !== "v1" && convert.version !== "v1beta1")) return undefined;
  if (convert.kind === "Table") {
    if (!endpoint.table || (s.media !== "json" && s.media !== "yaml")) return undefined;
  } else if (convert.kind === "PartialObjectMetadata" || convert.kind === "PartialObjectMetadataList") {
    if (!endpoint.metadata) return undefined;
  } else {
    return undefined;
  }
  return { media: s.media, as: convert.kind as Conversion, asVersion: convert.version, pretty };
}

/** NegotiateMediaTypeOptions: the first clause (in goautoneg order) a serializer can satisfy; no header means JSON. */
function negotiateOptions(accept: string | undefined, endpoint: Restrictions): OutputFormat | undefined {
  if (!accept) return JSON_FORMAT;
  for (const clause of parsedAcceptOf(accept)) {
    for (const s of SERIALIZERS) {
      if (endpoint.jsonAndYamlOnly && s.media === "protobuf") continue;
      const matches = (clause.type === s.type && (clause.subType === s.subType || clause.subType === "*"))
        || (clause.type === "*" && clause.subType === "*");
      if (!matches) continue;
      const options = acceptOptions(clause.params, s, endpoint);
      if (options) return options;
    }
  }
  return undefined;
}

/** Answers of negotiateOptions per endpoint and Accept value: clients send the same few headers again and again. */
const negotiated = new WeakMap<Restrictions, Map<string, OutputFormat | undefined>>();
const NEGOTIATED_MAX = 256;

function remembered(accept: string | undefined, endpoint: Restrictions): OutputFormat | undefined {
  if (accept === undefined) return negotiateOptions(accept, endpoint);
  let byAccept = negotiated.get(endpoint);
  if (!byAccept) negotiated.set(endpoint, (byAccept = new Map()));
  if (byAccept.has(accept)) return byAccept.get(accept);
  const format = negotiateOptions(accept, endpoint);
  // Frozen: every request with this header shares the answer.
  if (byAccept.size >= NEGOTIATED_MAX) byAccept.clear();
  byAccept.set(accept, format && Object.freeze(format));
  return format;
}

/**
 * The representation to answer with; throws kube's 406 when nothing the client accepts can be produced. A
 * watch also needs a stream serializer: YAML chosen for a watch is a 406 listing the stream media types.
 */
export function negotiate(accept: string | undefined, opts: { watch?: boolean; endpoint?: Restrictions } = {}): OutputFormat {
  const endpoint = opts.endpoint ?? RESOURCE_ENDPOINT;
  const format = remembered(accept, endpoint);
  if (!format) throw errors.notAcceptable(endpoint.jsonAndYamlOnly ? OFFERED_UNSTRUCTURED : OFFERED);
  if (opts.watch && format.media === "yaml") throw errors.notAcceptable(endpoint.jsonAndYamlOnly ? OFFERED_WATCH_UNSTRUCTURED : OFFERED_WATCH);
  return format;
}

/**
 * How an error Status is written (kube's ErrorNegotiated): negotiated without conversions, or undefined when
 * that fails too, in which case the Status goes out as JSON indented by two spaces (WriteRawJSON).
 */
export function negotiateError(accept: string | undefined, jsonAndYamlOnly = false): MediaFormat | undefined {
  return negotiateOptions(accept, jsonAndYamlOnly ? { ...PLAIN_ENDPOINT, jsonAndYamlOnly } : PLAIN_ENDPOINT)?.media;
}

export type BodyType = "json" | "yaml" | "protobuf" | "json-patch" | "merge-patch" | "strategic-merge-patch" | "apply-patch";

const BODY_TYPES: Record<string, BodyType> = {
  "application/json": "json",
  "application/yaml": "yaml",
  "application/vnd.kubernetes.protobuf": "protobuf",
  "application/json-patch+json": "json-patch",
  "application/merge-patch+json": "merge-patch",
  "application/strategic-merge-patch+json": "strategic-merge-patch",
  "application/apply-patch+yaml": "apply-patch",
};

export function bodyType(contentType: string | undefined): BodyType | undefined {
  if (!contentType) return "json";
  return BODY_TYPES[contentType.split(";")[0].trim().toLowerCase()];
}

/** Deepest nesting a request body may have (recursive code downstream must not run out of stack). */
export const MAX_DEPTH = 200;

/** How deep objects and arrays nest in `value` (stops counting past MAX_DEPTH). */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Decode a body (JSON, YAML or protobuf) and refuse absurd nesting. `typeName` names the expected kind in
 * errors. `apiVersion` is the request path's group version (e.g. "rbac.authorization.k8s.io/v1"): a protobuf
 * envelope that leaves apiVersion empty gets it. Omitted: "v1", and none for DeleteOptions.
 */
export function decodeBody(raw: Buffer, type: BodyType, typeName: string, apiVersion?: string): unknown {
  const value = decodeText(raw, type, typeName, apiVersion);
  if (depthOf(value) > MAX_DEPTH) throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): nesting is deeper than ${MAX_DEPTH} levels`);
  return value;
}

function decodeText(raw: Buffer, type: BodyType, typeName: string, apiVersion?: string): unknown {
  if (type === "protobuf") return decodeProtobufBody(raw, { kind: typeName, apiVersion: apiVersion ?? (typeName === "DeleteOptions" ? undefined : "v1") }).object;
  const text = raw.toString("utf8");
  if (type === "yaml" || type === "apply-patch") {
    let docs;
    try {
      docs = parseAllDocuments(text, { uniqueKeys: false });
    } catch (err) {
      throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; yaml parse error: ${(err as Error).message}`);
    }
    const list = Array.isArray(docs) ? docs : [docs];
    const real = list.filter((d) => d.contents !== null);
    if (real.length === 0) throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`);
    const doc = real[0];
    if (doc.errors.length) throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; yaml parse error: ${doc.errors[0].message}`);
    try {
      return doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      // Unresolved aliases and alias bombs: undecodable like any other malformed body.
      throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; yaml parse error: ${(err as Error).message}`);
    }
  }
  if (text.trim() === "") {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const head = text.length > 30 ? `${text.slice(0, 30)} ...` : text;
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${typeName}): couldn't get version/kind; json parse error: ${(err as Error).message} (${head})`);
  }
}

export const unsupportedBody = (patch: boolean, jsonAndYamlOnly = false) => patch
  ? errors.unsupportedMediaType("application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json")
  : errors.unsupportedMediaType(jsonAndYamlOnly ? OFFERED_UNSTRUCTURED : "application/json, application/yaml, application/vnd.kubernetes.protobuf");

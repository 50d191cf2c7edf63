// Content negotiation: which representation a client accepts (JSON, YAML, Table, PartialObjectMetadata)
// and how request bodies are decoded. Protobuf is not offered: every client we serve lists JSON too.
import { parseAllDocuments } from "yaml";
import { decodeProtobufBody } from "../codec/protobuf";
import { errors } from "./errors";

export type OutputFormat = "json" | "yaml" | "table" | "metadata";

const OFFERED = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
const OFFERED_WATCH = "application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch";

interface Clause { type: string; params: Record<string, string>; q: number; order: number }

function parseAccept(header: string): Clause[] {
  return header.split(",").map((part, order) => {
    const [type, ...rest] = part.split(";").map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const r of rest) {
      const eq = r.indexOf("=");
      if (eq > 0) params[r.slice(0, eq).trim().toLowerCase()] = r.slice(eq + 1).trim();
    }
    const q = params.q !== undefined ? Number(params.q) : 1;
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, order };
  }).filter((c) => c.type && c.q > 0).sort((a, b) => b.q - a.q || a.order - b.order);
}

/** The representation to answer with; throws 406 when nothing the client accepts can be produced. */
export function negotiate(accept: string | undefined, opts: { watch?: boolean; list?: boolean; conversions?: boolean } = {}): OutputFormat {
  if (!accept) return "json";
  for (const c of parseAccept(accept)) {
    const json = c.type === "application/json" || c.type === "*/*" || c.type === "application/*";
    if (!json && c.type !== "application/yaml") continue;
    if (c.type === "application/yaml" && opts.watch) continue;
    const as = c.params.as;
    if (as) {
      if (!opts.conversions || c.type !== "application/json" || c.params.g !== "meta.k8s.io" || !["v1", "v1beta1"].includes(c.params.v ?? "")) continue;
      if (as === "Table") return "table";
      if (as === (opts.list ? "PartialObjectMetadataList" : "PartialObjectMetadata")) return "metadata";
      if (as === "PartialObjectMetadata" && opts.watch) return "metadata";
      continue;
    }
    return c.type === "application/yaml" ? "yaml" : "json";
  }
  throw errors.notAcceptable(opts.watch ? OFFERED_WATCH : OFFERED);
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

function depthOf(value: unknown): number {
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

export const unsupportedBody = (patch: boolean) => patch
  ? errors.unsupportedMediaType("application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json")
  : errors.unsupportedMediaType("application/json, application/yaml, application/vnd.kubernetes.protobuf");

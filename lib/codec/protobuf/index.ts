// Request bodies sent as `application/vnd.kubernetes.protobuf` (kubectl's `create` generators and other
// client-go typed clients): the `k8s\0` magic, a runtime.Unknown envelope naming apiVersion/kind, and the
// object's own protobuf encoding, decoded into the plain JSON object a JSON body would have given.
import { errors } from "../../status";
import { decodeMessage, type JsonObject } from "./decode";
import { KINDS } from "./schema";
import { Reader, WireError, WIRE_BYTES } from "./wire";
import { PROTOBUF_MAGIC } from "./magic";

export type { Json, JsonObject } from "./decode";
export { PROTOBUF_MAGIC, PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE } from "./magic";
export {
  encodeListBody, encodeObjectBody, keptMessageBytes, listBodyChunks, encodeUnknown, encodeWatchFrame, messageBytes, partialObjectMetadataBytes, type TypeMeta,
} from "./response";
export { RESPONSE_KINDS } from "./schema";

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  /** The object as JSON, `apiVersion` and `kind` included, exactly as a JSON client would have sent it. */
  object: Record<string, unknown>;
}

export interface ProtobufDecodeOptions {
  /** Kind the endpoint expects: named in error texts and used when the envelope leaves kind empty. */
  kind?: string;
  /** apiVersion used when the envelope leaves it empty (kube-apiserver defaults from the request path). */
  apiVersion?: string;
}

/** Kinds this decoder knows: core, RBAC and review kinds, SecurityContextConstraints and DeleteOptions. */
export const PROTOBUF_KINDS: readonly string[] = Object.keys(KINDS);

/**
 * Decode a protobuf request body. Throws `errors.badRequest` (400) with kube-apiserver's wording when the
 * body is not a protobuf envelope, names a kind this server has no protobuf declaration for, or is malformed.
 */
export function decodeProtobufBody(body: Buffer, opts: ProtobufDecodeOptions = {}): DecodedProtobuf {
  const expected = opts.kind;
  const unrecognized = (reason: string, kind?: string) =>
    errors.badRequest(`the object provided is unrecognized (must be of type ${expected ?? kind ?? "Object"}): ${reason} (${summarize(body)})`);

  if (body.length === 0) throw unrecognized("empty data");
  if (body.length < PROTOBUF_MAGIC.length || !body.subarray(0, PROTOBUF_MAGIC.length).equals(PROTOBUF_MAGIC)) {
    throw unrecognized(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(" ")}]`);
  }

  let envelope: Envelope;
  try {
    envelope = readEnvelope(body, PROTOBUF_MAGIC.length);
  } catch (err) {
    if (err instanceof WireError) throw unrecognized(err.message);
    throw err;
  }

  // Defaults fill what the envelope leaves empty (runtime's gvkWithDefaults).
  let { apiVersion, kind } = envelope;
  if (!kind && opts.kind) kind = opts.kind;
  if (!apiVersion && opts.apiVersion) apiVersion = opts.apiVersion;
  const typeMeta = `runtime.TypeMeta{APIVersion:${goQuote(envelope.apiVersion)}, Kind:${goQuote(envelope.kind)}}`;
  if (!kind) throw unrecognized(`Object 'Kind' is missing in '${typeMeta}'`);
  const cannot = (reason: string) =>
    errors.badRequest(`${kind} in version ${goQuote(versionOf(apiVersion))} cannot be handled as a ${expected ?? kind}: ${reason}`);
  if (!apiVersion) throw cannot(`Object 'apiVersion' is missing in '${typeMeta}'`);

  const known = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (!known || !(known.apiVersions.includes("*") || known.apiVersions.includes(apiVersion))) {
    throw cannot(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }

  let fields: JsonObject;
  try {
    fields = decodeMessage(known.message, body, envelope.raw[0], envelope.raw[1]);
  } catch (err) {
    if (err instanceof WireError) throw cannot(err.message);
    throw err;
  }
  return { apiVersion, kind, object: { kind, apiVersion, ...fields } };
}

interface Envelope {
  apiVersion: string;
  kind: string;
  /** [start, end) of the object's own encoding within the body. */
  raw: [number, number];
  contentEncoding: string;
  contentType: string;
}

/** runtime.Unknown{typeMeta=1 TypeMeta{apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}. */
function readEnvelope(buf: Buffer, start: number): Envelope {
  const env: Envelope = { apiVersion: "", kind: "", raw: [start, start], contentEncoding: "", contentType: "" };
  const r = new Reader(buf, start);
  while (!r.done) {
    const { no, wire } = r.key("Unknown");
    if (no < 1 || no > 4) {
      r.skip(wire);
      continue;
    }
    if (wire !== WIRE_BYTES) throw new WireError(`proto: wrong wireType = ${wire} for field ${["", "TypeMeta", "Raw", "ContentEncoding", "ContentType"][no]}`);
    if (no === 1) {
      const [s, e] = r.delimited();
      const tm = new Reader(buf, s, e);
      while (!tm.done) {
        const key = tm.key("TypeMeta");
        if (key.no !== 1 && key.no !== 2) {
          tm.skip(key.wire);
          continue;
        }
        if (key.wire !== WIRE_BYTES) throw new WireError(`proto: wrong wireType = ${key.wire} for field ${key.no === 1 ? "APIVersion" : "Kind"}`);
        if (key.no === 1) env.apiVersion = tm.string();
        else env.kind = tm.string();
      }
    } else if (no === 2) env.raw = r.delimited();
    else if (no === 3) env.contentEncoding = r.string();
    else env.contentType = r.string();
  }
  return env;
}

/** Version part of an apiVersion ("v1", "security.openshift.io/v1" -> "v1"), as kube's error texts show it. */
function versionOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

/** Go's %q for the plain strings that appear here. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** apimachinery's summarizeData(data, 30): hex of the first 30 bytes for binary bodies. */
function summarize(body: Buffer): string {
  if (body.length === 0) return "<empty>";
  if (body[0] === 0x7b) return body.length > 30 ? `${body.subarray(0, 30).toString("utf8")} ...` : body.toString("utf8");
  return body.length > 30 ? `${body.subarray(0, 30).toString("hex")} ...` : body.toString("hex");
}

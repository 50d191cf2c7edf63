// The writing side, as Go's gogo-protobuf marshals Kubernetes types: fields in number order, Go values
// (non-pointer scalars and structs) always written, pointers only when set, repeated scalars unpacked, map
// entries sorted by key (bytewise, as Go's sort.Strings). Responses (response.ts) and tests (request bodies
// byte-identical to what client-go sends) both use it, over the wire-format writer of writer.ts.
import { MESSAGES, KINDS, type FieldDecl, type MessageDecl } from "./schema";
import { PROTOBUF_MAGIC } from "./magic";
import { Writer } from "./writer";

type JsonRecord = Record<string, unknown>;

/** Go's sort.Strings order (bytewise UTF-8 = code point order; UTF-16 units differ only around surrogates). */
function goCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

function declOf(name: string): MessageDecl {
  const decl = MESSAGES.get(name);
  if (!decl) throw new Error(`protobuf: no declaration for ${name}`);
  return decl;
}

/** Write the fields of `obj` as message `decl` (no key, no length). */
export function writeFields(w: Writer, decl: MessageDecl, obj: JsonRecord): void {
  const fields = decl.ordered;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.inline) {
      w.key(f.no, 2);
      const at = w.fork();
      writeFields(w, declOf(f.type), obj);
      w.join(at);
      continue;
    }
    const v = obj[f.json];
    if (f.shape === "repeated") {
      if (Array.isArray(v)) for (let j = 0; j < v.length; j++) writeValue(w, f, v[j]);
    } else if (f.shape === "map") {
      if (v !== null && typeof v === "object") writeMap(w, f, v as JsonRecord);
    } else if (f.presence === "pointer" || f.retired) {
      if (v !== undefined && v !== null) writeValue(w, f, v);
    } else {
      writeValue(w, f, v ?? (f.message ? undefined : zero(f.type)));
    }
  }
}

function writeMap(w: Writer, f: FieldDecl, map: JsonRecord): void {
  const keys = Object.keys(map);
  if (keys.length === 0) return;
  keys.sort(goCompare);
  for (const k of keys) {
    w.key(f.no, 2);
    const at = w.fork();
    w.string(1, k);
    const value = map[k];
    if (f.type === "string") w.string(2, String(value));
    else if (f.type === "bytes") w.bytes(2, Buffer.from(String(value), "base64"));
    else {
      w.key(2, 2);
      const inner = w.fork();
      writeMessageValue(w, f.type, value);
      w.join(inner);
    }
    w.join(at);
  }
}

function zero(type: string): unknown {
  return type === "string" || type === "bytes" ? "" : type === "bool" ? false : 0;
}

function writeValue(w: Writer, f: FieldDecl, v: unknown): void {
  switch (f.type) {
    case "string": return w.string(f.no, typeof v === "string" ? v : String(v));
    case "bytes": return w.bytes(f.no, Buffer.from(String(v), "base64"));
    case "bool": return w.int(f.no, v ? 1 : 0);
    case "int32":
    case "int64": return w.int(f.no, typeof v === "number" ? v : Number(v));
    default: {
      w.key(f.no, 2);
      const at = w.fork();
      writeMessageValue(w, f.type, v);
      w.join(at);
    }
  }
}

/** The content of a message value: a declared message or a well-known one (undefined = Go's zero value). */
function writeMessageValue(w: Writer, type: string, v: unknown): void {
  switch (type) {
    case "Time":
    case "MicroTime": {
      if (v === undefined || v === null) return; // zero time: empty payload
      const text = String(v);
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) throw new Error(`protobuf: bad time ${text}`);
      const micros = type === "MicroTime" ? Number(/\.(\d{1,6})/.exec(text)?.[1]?.padEnd(6, "0") ?? 0) : 0;
      w.int(1, Math.floor(ms / 1000));
      w.int(2, micros * 1000);
      return;
    }
    case "Quantity":
      w.string(1, v === undefined || v === null ? "0" : String(v));
      return;
    case "IntOrString": {
      const isString = typeof v === "string";
      w.int(1, isString ? 1 : 0);
      w.int(2, isString ? 0 : Number(v ?? 0));
      w.string(3, isString ? v : "");
      return;
    }
    case "FieldsV1":
      if (v !== undefined && v !== null) w.string(1, JSON.stringify(v)); // raw JSON bytes: the same as a string field
      return;
    case "ExtraValue":
      if (Array.isArray(v)) for (const item of v) w.string(1, String(item));
      return;
    default:
      writeFields(w, declOf(type), v !== null && typeof v === "object" ? (v as JsonRecord) : {});
  }
}

let scratch = new Writer(64 * 1024);

/** Encode `obj` (a JSON object) as message `name`: the message's own bytes, without key or length. */
export function encodeMessage(name: string, obj: JsonRecord): Buffer {
  const decl = declOf(name);
  const w = scratch;
  w.pos = 0;
  writeFields(w, decl, obj);
  const out = w.finish();
  if (w.buf.length > 4 * 1024 * 1024) scratch = new Writer(64 * 1024); // do not keep a huge buffer
  return out;
}

/** A whole body: magic + runtime.Unknown{typeMeta{apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}. */
export function encodeUnknown(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const w = new Writer(raw.length + apiVersion.length * 3 + kind.length * 3 + 32);
  w.raw(PROTOBUF_MAGIC);
  w.key(1, 2);
  const tm = w.fork();
  w.string(1, apiVersion);
  w.string(2, kind);
  w.join(tm);
  w.bytes(2, raw);
  w.string(3, "");
  w.string(4, "");
  return w.buf.subarray(0, w.pos);
}

/** A request body as client-go sends it, for any kind the decoder accepts (tests build bodies with it). */
export function encodeProtobufBody(obj: JsonRecord, typeMeta?: { apiVersion: string; kind: string }): Buffer {
  const apiVersion = typeMeta?.apiVersion ?? String(obj.apiVersion ?? "");
  const kind = typeMeta?.kind ?? String(obj.kind ?? "");
  const known = KINDS[kind];
  if (!known) throw new Error(`protobuf: no declaration for kind ${kind}`);
  return encodeUnknown(apiVersion, kind, encodeMessage(known.message, obj));
}

// The writing side, as Go's gogo-protobuf marshals Kubernetes types: fields in number order, Go values
// (non-pointer scalars and structs) always written, pointers only when set, repeated scalars unpacked, map
// entries sorted by key. The server does not answer in protobuf; this exists so tests can build bodies
// byte-identical to what client-go sends (the kubectl fixtures check that) for any declared kind.
import { MESSAGES, KINDS, type FieldDecl } from "./schema";
import { PROTOBUF_MAGIC } from "./index";

type JsonValue = unknown;
type JsonRecord = Record<string, unknown>;

class Writer {
  private parts: number[] = [];
  varint(v: bigint): void {
    let x = BigInt.asUintN(64, v);
    while (x >= 0x80n) {
      this.parts.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.parts.push(Number(x));
  }
  key(no: number, wire: number): void {
    this.varint(BigInt((no << 3) | wire));
  }
  bytes(no: number, b: Uint8Array): void {
    this.key(no, 2);
    this.varint(BigInt(b.length));
    for (const x of b) this.parts.push(x);
  }
  string(no: number, s: string): void {
    this.bytes(no, Buffer.from(s, "utf8"));
  }
  int(no: number, v: number): void {
    this.key(no, 0);
    this.varint(BigInt(v));
  }
  finish(): Buffer {
    return Buffer.from(this.parts);
  }
}

/** Encode `obj` (a JSON object) as message `name`. */
export function encodeMessage(name: string, obj: JsonRecord): Buffer {
  const decl = MESSAGES.get(name);
  if (!decl) throw new Error(`protobuf: no declaration for ${name}`);
  const w = new Writer();
  for (const f of decl.ordered) {
    if (f.inline) {
      w.bytes(f.no, encodeMessage(f.type, obj));
      continue;
    }
    const v = Object.hasOwn(obj, f.json) ? obj[f.json] : undefined;
    if (f.shape === "repeated") {
      for (const item of (v as JsonValue[] | null | undefined) ?? []) writeValue(w, f, item);
    } else if (f.shape === "map") {
      const map = (v as JsonRecord | null | undefined) ?? {};
      for (const k of Object.keys(map).sort()) {
        const entry = new Writer();
        entry.string(1, k);
        if (f.type === "string") entry.string(2, String(map[k]));
        else if (f.type === "bytes") entry.bytes(2, Buffer.from(String(map[k]), "base64"));
        else entry.bytes(2, encodeValue(f.type, map[k]));
        w.bytes(f.no, entry.finish());
      }
    } else if (f.presence === "pointer" || f.retired) {
      if (v !== undefined && v !== null) writeValue(w, f, v);
    } else {
      writeValue(w, f, v ?? (f.message ? undefined : zero(f.type)));
    }
  }
  return w.finish();
}

function zero(type: string): JsonValue {
  return type === "string" || type === "bytes" ? "" : type === "bool" ? false : 0;
}

function writeValue(w: Writer, f: FieldDecl, v: JsonValue): void {
  switch (f.type) {
    case "string": return w.string(f.no, String(v));
    case "bytes": return w.bytes(f.no, Buffer.from(String(v), "base64"));
    case "bool": return w.int(f.no, v ? 1 : 0);
    case "int32":
    case "int64": return w.int(f.no, Number(v));
    default: return w.bytes(f.no, encodeValue(f.type, v));
  }
}

/** A message value: a declared message or a well-known one (undefined = Go's zero value). */
function encodeValue(type: string, v: JsonValue): Buffer {
  const w = new Writer();
  switch (type) {
    case "Time":
    case "MicroTime": {
      if (v === undefined || v === null) return w.finish(); // zero time: empty payload
      const ms = Date.parse(String(v));
      if (Number.isNaN(ms)) throw new Error(`protobuf: bad time ${String(v)}`);
      const micros = type === "MicroTime" ? Number(/\.(\d{1,6})/.exec(String(v))?.[1]?.padEnd(6, "0") ?? 0) : 0;
      w.int(1, Math.floor(ms / 1000));
      w.int(2, micros * 1000);
      return w.finish();
    }
    case "Quantity":
      w.string(1, v === undefined || v === null ? "0" : String(v));
      return w.finish();
    case "IntOrString": {
      const isString = typeof v === "string";
      w.int(1, isString ? 1 : 0);
      w.int(2, isString ? 0 : Number(v ?? 0));
      w.string(3, isString ? v : "");
      return w.finish();
    }
    case "FieldsV1":
      if (v !== undefined && v !== null) w.bytes(1, Buffer.from(JSON.stringify(v), "utf8"));
      return w.finish();
    case "ExtraValue":
      for (const item of (v as unknown[] | null | undefined) ?? []) w.string(1, String(item));
      return w.finish();
    default:
      return encodeMessage(type, (v as JsonRecord | undefined) ?? {});
  }
}

/** A whole request body: magic + runtime.Unknown{typeMeta, raw, contentEncoding, contentType}. */
export function encodeProtobufBody(obj: JsonRecord, typeMeta?: { apiVersion: string; kind: string }): Buffer {
  const apiVersion = typeMeta?.apiVersion ?? String(obj.apiVersion ?? "");
  const kind = typeMeta?.kind ?? String(obj.kind ?? "");
  const known = KINDS[kind];
  if (!known) throw new Error(`protobuf: no declaration for kind ${kind}`);
  const tm = new Writer();
  tm.string(1, apiVersion);
  tm.string(2, kind);
  const unknown = new Writer();
  unknown.bytes(1, tm.finish());
  unknown.bytes(2, encodeMessage(known.message, obj));
  unknown.string(3, "");
  unknown.string(4, "");
  return Buffer.concat([PROTOBUF_MAGIC, unknown.finish()]);
}

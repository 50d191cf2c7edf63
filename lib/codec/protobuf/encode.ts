// The writing side, as Go's gogo-protobuf marshals Kubernetes types: fields in number order, Go values
// (non-pointer scalars and structs) always written, pointers only when set, repeated scalars unpacked, map
// entries sorted by key (bytewise, as Go's sort.Strings). Responses (response.ts) and tests (request bodies
// byte-identical to what client-go sends) both use it. One growable buffer per encoding: a nested message
// reserves one length byte and moves its content along in the rare case its length needs more.
import { MESSAGES, KINDS, type FieldDecl, type MessageDecl } from "./schema";
import { PROTOBUF_MAGIC } from "./magic";

type JsonRecord = Record<string, unknown>;

const TWO_32 = 4294967296;

/** Bytes a varint of the non-negative integer `n` (< 2^53) takes. */
export function varintSize(n: number): number {
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 4;
  n = Math.floor(n / 0x10000000);
  while (n > 0) { size++; n = Math.floor(n / 0x80); }
  return size;
}

/** Write a varint of the non-negative integer `n` (< 2^53) at `pos`; returns the position after it. */
export function putVarint(buf: Uint8Array, pos: number, n: number): number {
  while (n > 0x7fffffff) {
    buf[pos++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(size = 8192) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A copy of what was written. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  /** An integer as Go writes int32/int64/uint64: negative values as 64-bit two's complement (10 bytes). */
  varint(v: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (v >= 0 && v <= 0x7fffffff) {
      let n = v | 0;
      while (n > 0x7f) { buf[this.pos++] = (n & 0x7f) | 0x80; n >>>= 7; }
      buf[this.pos++] = n;
      return;
    }
    if (!Number.isFinite(v)) v = 0;
    v = Math.trunc(v);
    let lo: number, hi: number;
    if (Math.abs(v) < 2 ** 53) {
      hi = Math.floor(v / TWO_32);
      lo = v - hi * TWO_32;
      hi >>>= 0;
    } else {
      const x = BigInt.asUintN(64, BigInt(v));
      lo = Number(x & 0xffffffffn);
      hi = Number(x >> 32n);
    }
    while (hi > 0 || lo > 0x7f) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  key(no: number, wire: number): void {
    const k = (no << 3) | wire;
    if (k < 0x80) {
      this.ensure(1);
      this.buf[this.pos++] = k;
    } else {
      this.varint(k);
    }
  }

  /** A length-delimited UTF-8 string (its key already written). */
  stringValue(s: string): void {
    const n = s.length;
    if (n < 43) { // at most 126 bytes: the length takes one byte
      this.ensure(1 + 3 * n);
      const buf = this.buf;
      const start = this.pos + 1;
      let p = start;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          p = start + buf.write(s, start, "utf8");
          break;
        }
        buf[p++] = c;
      }
      buf[this.pos] = p - start;
      this.pos = p;
      return;
    }
    const len = Buffer.byteLength(s, "utf8");
    this.varint(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, "utf8");
    this.pos += len;
  }

  string(no: number, s: string): void {
    this.key(no, 2);
    this.stringValue(s);
  }

  bytes(no: number, b: Uint8Array): void {
    this.key(no, 2);
    this.varint(b.length);
    this.raw(b);
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  int(no: number, v: number): void {
    this.key(no, 0);
    this.varint(v);
  }

  /** Start a nested message (its key already written): reserve its length byte. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** End the nested message started at `at`: write its length, moving the content if it needs more bytes. */
  join(at: number): void {
    const len = this.pos - at - 1;
    if (len < 0x80) {
      this.buf[at] = len;
      return;
    }
    const extra = varintSize(len) - 1;
    this.ensure(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    this.pos += extra;
    putVarint(this.buf, at, len);
  }
}

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

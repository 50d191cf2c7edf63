// Protobuf response bodies as kube-apiserver writes them: `k8s\0` + runtime.Unknown{typeMeta, raw} around
// one object, a list (`<Kind>List{metadata=1 ListMeta, items=2}`), a Status, or a metadata-only view; and
// watch frames (4-byte big-endian length + WatchEvent{type=1, object=2 RawExtension{raw=1}}, the raw being
// the embedded object's own `k8s\0` body). Objects from the store never change once stored, so their
// encodings are kept (weakly, per object) and a list or a watch event costs copies, not encodings.
import { encodeMessage, encodeUnknown } from "./encode";
import { putVarint, varintSize } from "./writer";
import { PROTOBUF_MAGIC } from "./magic";
import { MESSAGES, RESPONSE_KINDS } from "./schema";

export { encodeUnknown } from "./encode";

type JsonRecord = Record<string, unknown>;

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

const stored = new Map<string, WeakMap<object, Buffer>>();

/**
 * The message bytes of `obj` as `message` (its own encoding: no key, no length). `immutable` objects (those
 * the store holds) are encoded once and the bytes kept for as long as the object lives.
 */
export function messageBytes(message: string, obj: object, immutable = false): Buffer {
  if (!immutable) return encodeMessage(message, obj as JsonRecord);
  let byObject = stored.get(message);
  if (!byObject) {
    if (!MESSAGES.has(message)) throw new Error(`protobuf: no declaration for ${message}`);
    stored.set(message, (byObject = new WeakMap()));
  }
  let bytes = byObject.get(obj);
  if (!bytes) {
    bytes = encodeMessage(message, obj as JsonRecord);
    byObject.set(obj, bytes);
  }
  return bytes;
}

/**
 * The message bytes of a stored object, kept as long as `holder` (the store's object) lives: `holder.object`
 * is read (the watch cache parses it on demand) only while they are not kept yet. A list made of kept bytes
 * costs copies, however many objects the cache holds parsed.
 */
export function keptMessageBytes(message: string, holder: { readonly object: object }): Buffer {
  let byObject = stored.get(message);
  if (!byObject) {
    if (!MESSAGES.has(message)) throw new Error(`protobuf: no declaration for ${message}`);
    stored.set(message, (byObject = new WeakMap()));
  }
  let bytes = byObject.get(holder);
  if (!bytes) {
    bytes = encodeMessage(message, holder.object as JsonRecord);
    byObject.set(holder, bytes);
  }
  return bytes;
}

/** PartialObjectMetadata{metadata=1} of an object: its ObjectMeta bytes (kept per metadata object when immutable). */
export function partialObjectMetadataBytes(obj: { metadata?: unknown }, immutable = false): Buffer {
  const meta = obj.metadata !== null && typeof obj.metadata === "object" ? obj.metadata : {};
  const inner = messageBytes("ObjectMeta", meta, immutable);
  const out = Buffer.allocUnsafe(1 + varintSize(inner.length) + inner.length);
  out[0] = 0x0a;
  inner.copy(out, putVarint(out, 1, inner.length));
  return out;
}

function checkKind(kind: string): void {
  if (!RESPONSE_KINDS.has(kind)) throw new Error(`protobuf: ${kind} is not a response kind`);
}

/** One object's body (any response kind, Status included): `typeMeta` names it, `obj`'s own fields fill it. */
export function encodeObjectBody(obj: object, typeMeta: TypeMeta, immutable = false): Buffer {
  checkKind(typeMeta.kind);
  return encodeUnknown(typeMeta.apiVersion, typeMeta.kind, messageBytes(typeMeta.kind, obj, immutable));
}

/**
 * A list's body: `typeMeta` is the list's (`ConfigMapList`, `PartialObjectMetadataList`), `listMeta` its
 * ListMeta as JSON, `items` each item's message bytes (messageBytes / partialObjectMetadataBytes). Built in
 * one allocation (tests; answers stream `listBodyChunks`).
 */
export function encodeListBody(typeMeta: TypeMeta, listMeta: JsonRecord, items: readonly Uint8Array[]): Buffer {
  return Buffer.concat([...listBodyChunks(typeMeta, listMeta, items.length, (i) => items[i])]);
}

/**
 * The same body in chunks of about `chunkBytes`, for answers written as they are made: the envelope and
 * ListMeta, each item's field header and bytes copied in, then the envelope's tail. `item(i)` is asked twice
 * per item (once for the lengths the envelope must state first), so it should return kept bytes.
 */
export function* listBodyChunks(typeMeta: TypeMeta, listMeta: JsonRecord, count: number, item: (i: number) => Uint8Array, chunkBytes = 64 * 1024): Generator<Buffer> {
  checkKind(typeMeta.kind);
  const meta = encodeMessage("ListMeta", listMeta);
  let rawLen = 1 + varintSize(meta.length) + meta.length;
  for (let i = 0; i < count; i++) {
    const len = item(i).length;
    rawLen += 1 + varintSize(len) + len;
  }
  const apiVersion = Buffer.from(typeMeta.apiVersion, "utf8");
  const kind = Buffer.from(typeMeta.kind, "utf8");
  const tmLen = 2 + varintSize(apiVersion.length) + apiVersion.length + varintSize(kind.length) + kind.length;
  const headLen = PROTOBUF_MAGIC.length + 1 + varintSize(tmLen) + tmLen + 1 + varintSize(rawLen) + 1 + varintSize(meta.length) + meta.length;
  let out = Buffer.allocUnsafe(Math.max(chunkBytes, headLen + LIST_TAIL.length));
  let p = PROTOBUF_MAGIC.copy(out, 0);
  out[p++] = 0x0a; // Unknown.typeMeta
  p = putVarint(out, p, tmLen);
  p = putBytesField(out, p, 0x0a, apiVersion); // TypeMeta.apiVersion
  p = putBytesField(out, p, 0x12, kind); // TypeMeta.kind
  out[p++] = 0x12; // Unknown.raw
  p = putVarint(out, p, rawLen);
  p = putBytesField(out, p, 0x0a, meta); // List.metadata
  for (let i = 0; i < count; i++) {
    const bytes = item(i);
    const need = 1 + varintSize(bytes.length) + bytes.length;
    if (p + need > out.length) {
      yield out.subarray(0, p);
      out = Buffer.allocUnsafe(Math.max(chunkBytes, need + LIST_TAIL.length));
      p = 0;
    }
    p = putBytesField(out, p, 0x12, bytes); // List.items
  }
  if (p + LIST_TAIL.length > out.length) {
    yield out.subarray(0, p);
    out = Buffer.allocUnsafe(LIST_TAIL.length);
    p = 0;
  }
  p += LIST_TAIL.copy(out, p);
  yield out.subarray(0, p);
}

/** Unknown.contentEncoding "" and Unknown.contentType "". */
const LIST_TAIL = Buffer.from([0x1a, 0x00, 0x22, 0x00]);

/** A length-delimited field: its tag byte, the length, the bytes; returns the position after it. */
function putBytesField(out: Buffer, p: number, tag: number, data: Uint8Array): number {
  out[p++] = tag;
  p = putVarint(out, p, data.length);
  out.set(data, p);
  return p + data.length;
}

/** One watch frame: 4-byte big-endian length + WatchEvent{type, object: RawExtension{raw: embedded}}. */
export function encodeWatchFrame(type: string, embedded: Uint8Array): Buffer {
  const t = Buffer.from(type, "utf8");
  const extLen = 1 + varintSize(embedded.length) + embedded.length;
  const msgLen = 1 + varintSize(t.length) + t.length + 1 + varintSize(extLen) + extLen;
  const out = Buffer.allocUnsafe(4 + msgLen);
  out.writeUInt32BE(msgLen, 0);
  let p = 4;
  p = putBytesField(out, p, 0x0a, t); // WatchEvent.type
  out[p++] = 0x12; // WatchEvent.object
  p = putVarint(out, p, extLen);
  putBytesField(out, p, 0x0a, embedded); // RawExtension.raw
  return out;
}

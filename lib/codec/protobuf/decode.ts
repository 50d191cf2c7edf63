// Schema-driven decoding of one protobuf message into the JSON object Kubernetes' Go types would marshal
// to: JSON names, omitempty, pointers (present = shown), value structs (always shown), inline members, and
// the well-known messages (Time, MicroTime, Quantity, IntOrString, FieldsV1, ExtraValue) as their JSON forms.
// Repeated fields append and a single message field seen twice is merged, as Go's Unmarshal does.
import { MESSAGES, type FieldDecl, type MessageDecl } from "./schema";
import { Reader, WireError, WIRE_BYTES, WIRE_VARINT } from "./wire";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Deepest message nesting decoded. The declared kinds nest about 15 deep, so this only stops abuse. */
export const MAX_MESSAGE_DEPTH = 64;

/** Decode `buf[start, end)` as message `name` and return its JSON object. Throws WireError. */
export function decodeMessage(name: string, buf: Uint8Array, start = 0, end = buf.length): JsonObject {
  const decl = MESSAGES.get(name);
  if (!decl) throw new Error(`protobuf: no declaration for ${name}`);
  const state = newState(decl);
  parseInto(state, new Reader(buf, start, end), 1);
  return finalize(state);
}

// ---- parsing ------------------------------------------------------------------------------------------

interface State {
  decl: MessageDecl;
  /** field number -> value so far (scalar, State, WellKnownState, array, or map object). */
  values: Map<number, unknown>;
}

/** Accumulated fields of a well-known message (Time/MicroTime: seconds, nanos; ...). */
interface WellKnownState {
  kind: string;
  seconds?: number;
  nanos?: number;
  str?: string;
  type?: number;
  intVal?: number;
  strVal?: string;
  raw?: Uint8Array;
  items?: string[];
}

const newState = (decl: MessageDecl): State => ({ decl, values: new Map() });

/** Go field name for gogo's "wrong wireType" text (JSON name with a leading capital). */
const goName = (f: FieldDecl) => (f.json ? f.json[0].toUpperCase() + f.json.slice(1) : f.type);
const wrongWire = (wire: number, f: FieldDecl) => new WireError(`proto: wrong wireType = ${wire} for field ${goName(f)}`);

function parseInto(state: State, r: Reader, depth: number): void {
  if (depth > MAX_MESSAGE_DEPTH) throw new WireError(`proto: ${state.decl.name}: nesting deeper than ${MAX_MESSAGE_DEPTH} messages`);
  const { decl, values } = state;
  while (!r.done) {
    const { no, wire } = r.key(decl.name);
    const f = decl.fields.get(no);
    if (!f) {
      r.skip(wire);
      continue;
    }
    if (f.shape === "map") {
      if (wire !== WIRE_BYTES) throw wrongWire(wire, f);
      let map = values.get(no) as JsonObject | undefined;
      if (!map) values.set(no, (map = {}));
      const [s, e] = r.delimited();
      parseMapEntry(map, f, new Reader(r.buf, s, e), depth + 1);
    } else if (f.message) {
      if (wire !== WIRE_BYTES) throw wrongWire(wire, f);
      const [s, e] = r.delimited();
      const sub = new Reader(r.buf, s, e);
      if (f.shape === "repeated") {
        let list = values.get(no) as Json[] | undefined;
        if (!list) values.set(no, (list = []));
        list.push(decodeValue(f.type, sub, depth + 1));
      } else if (MESSAGES.has(f.type)) {
        let inner = values.get(no) as State | undefined;
        if (!inner) values.set(no, (inner = newState(MESSAGES.get(f.type)!)));
        parseInto(inner, sub, depth + 1);
      } else {
        let wk = values.get(no) as WellKnownState | undefined;
        if (!wk) values.set(no, (wk = { kind: f.type }));
        parseWellKnown(wk, sub);
      }
    } else if (f.shape === "repeated") {
      let list = values.get(no) as unknown[] | undefined;
      if (!list) values.set(no, (list = []));
      if (f.type === "string" || f.type === "bytes") {
        if (wire !== WIRE_BYTES) throw wrongWire(wire, f);
        list.push(readScalar(f.type, r));
      } else if (wire === WIRE_VARINT) {
        list.push(readScalar(f.type, r));
      } else if (wire === WIRE_BYTES) { // packed
        const [s, e] = r.delimited();
        const packed = new Reader(r.buf, s, e);
        while (!packed.done) list.push(readScalar(f.type, packed));
      } else {
        throw wrongWire(wire, f);
      }
    } else {
      const want = f.type === "string" || f.type === "bytes" ? WIRE_BYTES : WIRE_VARINT;
      if (wire !== want) throw wrongWire(wire, f);
      values.set(no, readScalar(f.type, r));
    }
  }
}

function readScalar(type: string, r: Reader): string | number | boolean | Uint8Array {
  switch (type) {
    case "string": return r.string();
    case "bytes": return r.bytes();
    case "bool": return r.bool();
    case "int32": return r.int32();
    default: return r.int64();
  }
}

/** One complete message value (an element of a repeated field or a map value) as JSON. */
function decodeValue(type: string, r: Reader, depth: number): Json {
  const decl = MESSAGES.get(type);
  if (decl) {
    const state = newState(decl);
    parseInto(state, r, depth);
    return finalize(state);
  }
  const wk: WellKnownState = { kind: type };
  parseWellKnown(wk, r);
  return wellKnownJson(wk);
}

function parseMapEntry(map: JsonObject, f: FieldDecl, r: Reader, depth: number): void {
  let key = "";
  let value: Json | undefined;
  while (!r.done) {
    const { no, wire } = r.key(`${f.json}Entry`);
    if (no !== 1 && no !== 2) {
      r.skip(wire);
      continue;
    }
    if (wire !== WIRE_BYTES) throw new WireError(`proto: wrong wireType = ${wire} for field ${no === 1 ? "key" : "value"}`);
    if (no === 1) key = r.string();
    else if (f.type === "string") value = r.string();
    else if (f.type === "bytes") value = base64(r.bytes());
    else {
      const [s, e] = r.delimited();
      value = decodeValue(f.type, new Reader(r.buf, s, e), depth + 1);
    }
  }
  setOwn(map, key, value ?? zeroOf(f.type));
}

function parseWellKnown(wk: WellKnownState, r: Reader): void {
  // Time and MicroTime have hand-written Unmarshal methods that replace the whole value.
  if (wk.kind === "Time" || wk.kind === "MicroTime") {
    wk.seconds = undefined;
    wk.nanos = undefined;
  }
  while (!r.done) {
    const { no, wire } = r.key(wk.kind);
    const want = wellKnownWire(wk.kind, no);
    if (want === undefined) {
      r.skip(wire);
      continue;
    }
    if (wire !== want) throw new WireError(`proto: wrong wireType = ${wire} for field ${wellKnownFieldName(wk.kind, no)}`);
    switch (wk.kind) {
      case "Time":
      case "MicroTime":
        if (no === 1) wk.seconds = r.int64();
        else wk.nanos = r.int32();
        break;
      case "Quantity": wk.str = r.string(); break;
      case "FieldsV1": wk.raw = r.bytes(); break;
      case "ExtraValue": (wk.items ??= []).push(r.string()); break;
      case "IntOrString":
        if (no === 1) wk.type = r.int64();
        else if (no === 2) wk.intVal = r.int32();
        else wk.strVal = r.string();
        break;
    }
  }
}

/** Wire type of a known field of a well-known message, undefined for unknown fields (skipped). */
function wellKnownWire(kind: string, no: number): number | undefined {
  switch (kind) {
    case "Time":
    case "MicroTime": return no === 1 || no === 2 ? WIRE_VARINT : undefined;
    case "Quantity":
    case "FieldsV1":
    case "ExtraValue": return no === 1 ? WIRE_BYTES : undefined;
    case "IntOrString": return no === 1 || no === 2 ? WIRE_VARINT : no === 3 ? WIRE_BYTES : undefined;
  }
  return undefined;
}

function wellKnownFieldName(kind: string, no: number): string {
  if (kind === "Time" || kind === "MicroTime") return no === 1 ? "Seconds" : "Nanos";
  if (kind === "Quantity") return "String_";
  if (kind === "FieldsV1") return "Raw";
  if (kind === "ExtraValue") return "Items";
  return ["", "Type", "IntVal", "StrVal"][no];
}

// ---- JSON ---------------------------------------------------------------------------------------------

function finalize(state: State): JsonObject {
  const obj: JsonObject = {};
  const inlined: JsonObject[] = [];
  for (const f of state.decl.ordered) {
    const v = state.values.get(f.no);
    if (f.inline) {
      inlined.push(finalize((v as State | undefined) ?? newState(MESSAGES.get(f.type)!)));
      continue;
    }
    if (f.shape === "repeated") {
      const list = v as unknown[] | undefined;
      if (list && list.length) obj[f.json] = f.type === "bytes" ? list.map((b) => base64(b as Uint8Array)) : (list as Json[]);
    } else if (f.shape === "map") {
      const map = v as JsonObject | undefined;
      if (map && Object.keys(map).length) obj[f.json] = map;
    } else if (f.message) {
      if (v === undefined) {
        if (f.presence !== "pointer") obj[f.json] = emptyMessage(f.type);
      } else {
        obj[f.json] = MESSAGES.has(f.type) ? finalize(v as State) : wellKnownJson(v as WellKnownState);
      }
    } else if (v === undefined) {
      if (f.presence === "always") obj[f.json] = zeroOf(f.type);
    } else if (f.presence !== "omitempty" || !isZero(v)) {
      obj[f.json] = v instanceof Uint8Array ? base64(v) : (v as Json);
    }
  }
  // Go's encoding/json promotes an embedded struct's fields; the outer struct's own fields win.
  for (const inner of inlined) for (const [k, val] of Object.entries(inner)) if (!Object.hasOwn(obj, k)) setOwn(obj, k, val);
  return obj;
}

/** JSON of a message that is absent on the wire but is a Go value (struct) field. */
function emptyMessage(type: string): Json {
  const decl = MESSAGES.get(type);
  return decl ? finalize(newState(decl)) : wellKnownJson({ kind: type });
}

function zeroOf(type: string): Json {
  switch (type) {
    case "string":
    case "bytes": return "";
    case "bool": return false;
    case "int32":
    case "int64": return 0;
    default: return emptyMessage(type);
  }
}

function isZero(v: unknown): boolean {
  return v === "" || v === 0 || v === false || (v instanceof Uint8Array && v.length === 0);
}

/** Go's zero time.Time as Unix seconds (January 1, year 1, UTC): metav1.Time marshals it as null. */
const ZERO_TIME_SECONDS = -62135596800;

function wellKnownJson(wk: WellKnownState): Json {
  switch (wk.kind) {
    case "Time": {
      // metav1.Time keeps whole seconds only (its Unmarshal drops nanos).
      const seconds = wk.seconds ?? 0;
      if (wk.seconds === undefined && wk.nanos === undefined) return null; // empty payload: zero time
      if (seconds === ZERO_TIME_SECONDS) return null;
      return formatTime(seconds, 0, false);
    }
    case "MicroTime": {
      if (wk.seconds === undefined && wk.nanos === undefined) return null;
      // time.Unix normalises nanoseconds outside [0, 1e9).
      const nanos = wk.nanos ?? 0;
      const seconds = (wk.seconds ?? 0) + Math.floor(nanos / 1e9);
      const rest = nanos - Math.floor(nanos / 1e9) * 1e9;
      if (seconds === ZERO_TIME_SECONDS && rest === 0) return null;
      return formatTime(seconds, rest, true);
    }
    case "Quantity":
      return wk.str === undefined ? "0" : wk.str;
    case "IntOrString": {
      const type = wk.type ?? 0;
      if (type === 0) return wk.intVal ?? 0;
      if (type === 1) return wk.strVal ?? "";
      throw new WireError("impossible IntOrString.Type");
    }
    case "FieldsV1": {
      if (wk.raw === undefined) return null;
      try {
        const parsed = JSON.parse(Buffer.from(wk.raw).toString("utf8")) as Json;
        if (jsonDepth(parsed) > MAX_MESSAGE_DEPTH) throw new WireError(`FieldsV1: nesting deeper than ${MAX_MESSAGE_DEPTH} levels`);
        return parsed;
      } catch (err) {
        if (err instanceof WireError) throw err;
        throw new WireError(`json: error calling MarshalJSON for type *v1.FieldsV1: ${(err as Error).message}`);
      }
    }
    // Go would print an ExtraValue with no items as null; an empty list is what a JSON client means by it.
    case "ExtraValue":
      return wk.items ?? [];
  }
  throw new Error(`protobuf: unknown well-known type ${wk.kind}`);
}

/** RFC 3339 in UTC, as Go's time.RFC3339 (seconds) or RFC3339Micro (6 fractional digits, truncated). */
function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const ms = seconds * 1000;
  const date = new Date(ms);
  const year = Number.isFinite(date.getTime()) ? date.getUTCFullYear() : NaN;
  if (!(year >= 0 && year <= 9999)) throw new WireError("Time.MarshalJSON: year outside of range [0,9999]");
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z for years 0..9999
  const base = iso.slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, "0")}Z` : `${base}Z`;
}

function base64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}

/** Set an own enumerable property even for keys such as "__proto__" (as JSON.parse does). */
function setOwn(obj: JsonObject, key: string, value: Json): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

function jsonDepth(value: Json): number {
  let max = 0;
  const stack: [Json, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d > max) max = d;
    if (max > MAX_MESSAGE_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

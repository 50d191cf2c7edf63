// One object as the watch cache holds it: its JSON, the one representation kept for every object, and its
// parsed form made on demand. A parsed object stays at hand while it is among the most recently parsed
// (`RECENT_OBJECTS`, `RECENT_JSON_BYTES`), so a request's repeated reads, and the objects in use, parse once;
// the rest are parsed again when next read. What the cache holds per object is thus about its JSON, not its
// JSON plus a parsed copy several times larger (kube's watch cache holds decoded objects; a JS object tree is
// 3-5x its JSON). History events share the current state's CachedObject (same strings), and keys share their
// resource and namespace strings (`internKey`). Likewise a recently asked object keeps its answer's bytes (the
// JSON and a newline, `jsonLine`), bounded the same way, so a hot object's GET writes bytes it already has.
import type { KubeObject, ObjectMeta } from "../kinds/types";
import type { ObjectKey, StoredObject } from "./types";

/** At most this many parsed objects are kept at hand ... */
export const RECENT_OBJECTS = 1024;
/** ... and at most the parsed forms of this many bytes of JSON. */
export const RECENT_JSON_BYTES = 4 * 1024 * 1024;
/** At most this many objects keep their answer's bytes (`jsonLine`) ... */
export const RECENT_LINES = 16384;
/** ... and at most this many bytes of them. */
export const RECENT_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The most recently made of something an object keeps beside its JSON, oldest first (a ring buffer) and bounded
 * by count and by the objects' JSON bytes: an object leaving it drops that thing (`drop`).
 */
class Recent {
  private readonly slots: (CachedObject | undefined)[];
  private head = 0;
  private count = 0;
  private bytes = 0;

  constructor(private readonly maxCount: number, private readonly maxBytes: number, private readonly drop: (o: CachedObject) => void) {
    this.slots = new Array(maxCount);
  }

  add(o: CachedObject): void {
    const size = o.json.length;
    while (this.count > 0 && (this.count === this.maxCount || this.bytes + size > this.maxBytes)) {
      const out = this.slots[this.head]!;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.maxCount;
      this.count--;
      this.bytes -= out.json.length;
      this.drop(out);
    }
    this.slots[(this.head + this.count) % this.maxCount] = o;
    this.count++;
    this.bytes += size;
  }

  clear(): void {
    for (let i = 0; i < this.slots.length; i++) {
      const o = this.slots[i];
      this.slots[i] = undefined;
      if (o) this.drop(o);
    }
    this.head = this.count = this.bytes = 0;
  }
}

const recent = new Recent(RECENT_OBJECTS, RECENT_JSON_BYTES, (o) => o.forget());
const recentLines = new Recent(RECENT_LINES, RECENT_LINE_BYTES, (o) => o.forgetLine());
/** Parses done on demand (tests and the benchmark read it). */
export const parseStats = { parsed: 0 };

/** Drops every parsed form and answer's bytes kept at hand (tests: what a cold cache costs). */
export function forgetParsed(): void {
  recent.clear();
  recentLines.clear();
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

export class CachedObject implements StoredObject {
  private parsed: KubeObject | undefined;
  private line: Buffer | undefined;
  private labelSet: Readonly<Record<string, string>> | undefined;
  /** Set only on the few stale objects (`declare`: no field on every other one). */
  declare readonly stale?: boolean;

  constructor(readonly key: ObjectKey, readonly rev: number, readonly json: string, object?: KubeObject, stale?: boolean) {
    if (stale) this.stale = true;
    if (object) { this.parsed = object; recent.add(this); }
  }

  /** The object parsed from `json`: never mutate it (it may be shared with every other reader). */
  get object(): KubeObject {
    let o = this.parsed;
    if (!o) {
      o = JSON.parse(this.json) as KubeObject;
      parseStats.parsed++;
      this.parsed = o;
      recent.add(this);
    }
    return o;
  }

  /**
   * The object's metadata, never mutated: the parsed object's when at hand, else parsed from the JSON's
   * `metadata` alone (a start-up scan of every object reads only metadata: a fraction of the work and garbage).
   */
  get metadata(): ObjectMeta {
    if (this.parsed) return this.parsed.metadata;
    const span = metadataSpan(this.json);
    return span ? (JSON.parse(this.json.slice(span[0], span[1])) as ObjectMeta) : this.object.metadata;
  }

  /**
   * `metadata.labels` ({} for none), kept once read: label selectors read them on every list, as kube's watch
   * cache keeps each object's labels beside it (a few small strings, not the object).
   */
  get labels(): Readonly<Record<string, string>> {
    return (this.labelSet ??= this.metadata.labels ?? NO_LABELS);
  }

  /**
   * `json` and a newline as UTF-8 bytes (a JSON answer's body, written as is), kept while the object is among
   * the most recently asked (`RECENT_LINES`, `RECENT_LINE_BYTES`): a hot object's GET encodes nothing.
   */
  get jsonLine(): Buffer {
    let line = this.line;
    if (!line) {
      const size = Buffer.byteLength(this.json) + 1;
      // Its own memory, not a slice of node's shared pool (which a kept slice would hold whole).
      line = Buffer.allocUnsafeSlow(size);
      line.write(this.json, 0);
      line[size - 1] = 0x0a;
      this.line = line;
      recentLines.add(this);
    }
    return line;
  }

  /** Leaves the ring of answers' bytes. */
  forgetLine(): void {
    this.line = undefined;
  }

  /** Whether the parsed form is at hand now (tests). */
  get isParsed(): boolean {
    return this.parsed !== undefined;
  }

  /** Leaves the ring: the parsed form goes (the next read parses `json` again). */
  forget(): void {
    this.parsed = undefined;
  }
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c, OPEN = 0x7b, CLOSE = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;

/** Index of the quote closing the string whose opening quote is at `i`. */
function stringEnd(json: string, i: number): number {
  for (i++; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * Where the top-level `metadata` object's value lies in compact JSON (as the store writes it: JSON.stringify),
 * [start, end); undefined when it is not found that way (the caller parses the whole object).
 */
export function metadataSpan(json: string): [number, number] | undefined {
  if (json.charCodeAt(0) !== OPEN) return undefined;
  let depth = 0;
  let key = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(json, i);
      if (end < 0) return undefined;
      if (key && depth === 1 && end - i === 9 && json.startsWith("metadata", i + 1) && json.charCodeAt(end + 1) === COLON) {
        if (json.charCodeAt(end + 2) !== OPEN) return undefined;
        const close = valueEnd(json, end + 2);
        return close < 0 ? undefined : [end + 2, close + 1];
      }
      key = false;
      i = end;
    } else if (c === OPEN || c === OPEN_ARRAY) {
      depth++;
      key = c === OPEN && depth === 1;
    } else if (c === CLOSE || c === CLOSE_ARRAY) {
      depth--;
    } else if (c === COMMA) {
      key = depth === 1;
    }
  }
  return undefined;
}

/** Index of the brace closing the object opened at `i`. */
function valueEnd(json: string, i: number): number {
  let depth = 0;
  for (; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(json, i);
      if (i < 0) return -1;
    } else if (c === OPEN || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE || c === CLOSE_ARRAY) {
      if (--depth === 0) return i;
    }
  }
  return -1;
}

/** One string per resource and per namespace, however many rows name it. */
const interned = new Map<string, string>();
const intern = (s: string): string => {
  const i = interned.get(s);
  if (i !== undefined) return i;
  interned.set(s, s);
  return s;
};

/** A key whose resource and namespace are the shared strings. */
export const internKey = (k: ObjectKey): ObjectKey => ({ resource: intern(k.resource), namespace: intern(k.namespace), name: k.name });

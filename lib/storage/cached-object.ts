// One object as the watch cache holds it: its JSON, the one representation kept for every object, and its
// parsed form made on demand. A parsed object stays at hand while it is among the most recently parsed
// (`RECENT_OBJECTS`, `RECENT_JSON_BYTES`), so a request's repeated reads, and the objects in use, parse once;
// the rest are parsed again when next read. What the cache holds per object is thus about its JSON, not its
// JSON plus a parsed copy several times larger (kube's watch cache holds decoded objects; a JS object tree is
// 3-5x its JSON). History events share the current state's CachedObject (same strings), and keys share their
// resource and namespace strings (`internKey`).
import type { KubeObject } from "../kinds/types";
import type { ObjectKey, StoredObject } from "./types";

/** At most this many parsed objects are kept at hand ... */
export const RECENT_OBJECTS = 4096;
/** ... and at most the parsed forms of this many bytes of JSON. */
export const RECENT_JSON_BYTES = 16 * 1024 * 1024;

/** The most recently parsed objects, oldest first (a ring buffer): an object leaving it drops its parsed form. */
const recent: (CachedObject | undefined)[] = new Array(RECENT_OBJECTS);
let head = 0;
let count = 0;
let recentBytes = 0;
/** Parses done on demand (tests and the benchmark read it). */
export const parseStats = { parsed: 0 };

function remember(o: CachedObject): void {
  while (count > 0 && (count === RECENT_OBJECTS || recentBytes + o.json.length > RECENT_JSON_BYTES)) {
    const out = recent[head]!;
    recent[head] = undefined;
    head = (head + 1) % RECENT_OBJECTS;
    count--;
    recentBytes -= out.json.length;
    out.forget();
  }
  recent[(head + count) % RECENT_OBJECTS] = o;
  count++;
  recentBytes += o.json.length;
}

/** Drops every parsed form kept at hand (tests: what a cold cache costs). */
export function forgetParsed(): void {
  for (let i = 0; i < recent.length; i++) { recent[i]?.forget(); recent[i] = undefined; }
  head = count = recentBytes = 0;
}

export class CachedObject implements StoredObject {
  private parsed: KubeObject | undefined;
  readonly stale?: boolean;

  constructor(readonly key: ObjectKey, readonly rev: number, readonly json: string, object?: KubeObject, stale?: boolean) {
    if (stale) this.stale = true;
    if (object) { this.parsed = object; remember(this); }
  }

  /** The object parsed from `json`: never mutate it (it may be shared with every other reader). */
  get object(): KubeObject {
    let o = this.parsed;
    if (!o) {
      o = JSON.parse(this.json) as KubeObject;
      parseStats.parsed++;
      this.parsed = o;
      remember(this);
    }
    return o;
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

// A Secret's values stay out of the page until the user reveals them: every copy of a Secret the console
// keeps (list and watch caches, the object page, history, replay, the palette's lists, server-rendered first
// rows) is masked here. Values hide in three places: `data`, `stringData`, and kubectl's
// `last-applied-configuration` annotation, which holds the whole applied manifest (plain `stringData`
// included). Keys stay: they are names, not values, as `kubectl describe secret` shows them. Pure.
import type { KubeObject } from "../kinds";

export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/** What a hidden value reads as, wherever one would be shown. */
export const HIDDEN_VALUE = "(hidden)";

/**
 * How a value is hidden. `plain` (every live view): the same "(hidden)" for every value. `fingerprint`
 * (history): "(hidden: <n> bytes, #<tag>)", the tag a keyed hash of the value under a key drawn once per page
 * load and kept only in this module, so two revisions' diff shows which values changed without showing any,
 * and a tag means nothing outside this page.
 */
export type MaskStyle = "plain" | "fingerprint";

let pageKey: [number, number] | undefined;
function key(): [number, number] {
  if (!pageKey) {
    const words = new Uint32Array(2);
    globalThis.crypto.getRandomValues(words);
    pageKey = [words[0], words[1]];
  }
  return pageKey;
}

/** A 48-bit keyed hash of `text` (two multiplicative lanes seeded by the page key), as 8 hex digits shown. */
function tag(text: string): string {
  let [a, b] = key();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x85ebca77);
  }
  a = Math.imul(a ^ (a >>> 16), 0x21f0aaad) ^ Math.imul(b ^ (b >>> 13), 0x735a2d97);
  b = Math.imul(b ^ (b >>> 15), 0x0f5b4ead) ^ a;
  return ((a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0")).slice(0, 8);
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;
// A `data` value is base64: its decoded length is what `kubectl describe secret` shows.
const decodedLength = (b64: string) => Math.max(0, Math.floor((b64.replace(/=+$/, "").length * 3) / 4));

function hide(value: unknown, style: MaskStyle, base64: boolean): string {
  if (style === "plain" || typeof value !== "string") return HIDDEN_VALUE;
  return `(hidden: ${base64 ? decodedLength(value) : byteLength(value)} bytes, #${tag(value)})`;
}

const maskValues = (m: unknown, style: MaskStyle, base64: boolean) =>
  m && typeof m === "object" && !Array.isArray(m) ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, hide(v, style, base64)])) : m;

/** The manifest kubectl recorded, its values masked (still JSON, so its shape and keys can be read). */
function maskedManifest(text: string, style: MaskStyle): string {
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>;
    if (!manifest || typeof manifest !== "object" || Array.isArray(manifest)) return HIDDEN_VALUE;
    return JSON.stringify(maskSecret(manifest as KubeObject, style));
  } catch {
    return HIDDEN_VALUE;
  }
}

/** A Secret without its values: a copy with `data`, `stringData` and the last-applied manifest masked. */
export function maskSecret<T extends KubeObject>(obj: T, style: MaskStyle = "plain"): T {
  const o = obj as T & { data?: unknown; stringData?: unknown };
  const annotations = o.metadata?.annotations;
  const metadata =
    annotations && LAST_APPLIED in annotations
      ? { ...o.metadata, annotations: { ...annotations, [LAST_APPLIED]: maskedManifest(annotations[LAST_APPLIED], style) } }
      : o.metadata;
  return {
    ...o,
    metadata,
    ...(o.data !== undefined ? { data: maskValues(o.data, style, true) } : {}),
    ...(o.stringData !== undefined ? { stringData: maskValues(o.stringData, style, false) } : {}),
  };
}

/** Whether an object of this kind (`Secret` in the core group) carries values to mask. */
export const isSecretKind = (kind: { kind: string; group?: string } | undefined) => kind?.kind === "Secret" && !kind.group;

/** `obj` masked when it is a Secret; anything else as it is. */
export function maskIfSecret<T extends KubeObject>(kind: { kind: string; group?: string } | undefined, obj: T): T {
  return isSecretKind(kind) && obj && typeof obj === "object" ? maskSecret(obj) : obj;
}

/** A list answer with each item masked when the list is of Secrets. */
export function maskedList<B extends { items?: KubeObject[] | null }>(kind: { kind: string; group?: string } | undefined, body: B): B {
  return isSecretKind(kind) && body.items ? { ...body, items: body.items.map((item) => maskSecret(item)) } : body;
}

// A Secret's values stay out of the page until the user reveals them: every copy of a Secret the console
// keeps (list and watch caches, the object page, history, replay, the palette's lists, server-rendered first
// rows) is masked here. Values hide in three places: `data`, `stringData`, and kubectl's
// `last-applied-configuration` annotation, which holds the whole applied manifest (plain `stringData`
// included). Keys stay: they are names, not values, as `kubectl describe secret` shows them. Pure.
import type { KubeObject } from "../kinds";

export const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/** What a hidden value reads as, wherever one would be shown. */
export const HIDDEN_VALUE = "(hidden)";

const maskValues = (m: unknown) => (m && typeof m === "object" && !Array.isArray(m) ? Object.fromEntries(Object.keys(m).map((k) => [k, HIDDEN_VALUE])) : m);

/** The manifest kubectl recorded, its values masked (still JSON, so its shape and keys can be read). */
function maskedManifest(text: string): string {
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>;
    if (!manifest || typeof manifest !== "object" || Array.isArray(manifest)) return HIDDEN_VALUE;
    return JSON.stringify(maskSecret(manifest as KubeObject));
  } catch {
    return HIDDEN_VALUE;
  }
}

/** A Secret without its values: a copy with `data`, `stringData` and the last-applied manifest masked. */
export function maskSecret<T extends KubeObject>(obj: T): T {
  const o = obj as T & { data?: unknown; stringData?: unknown };
  const annotations = o.metadata?.annotations;
  const metadata =
    annotations && LAST_APPLIED in annotations ? { ...o.metadata, annotations: { ...annotations, [LAST_APPLIED]: maskedManifest(annotations[LAST_APPLIED]) } } : o.metadata;
  return {
    ...o,
    metadata,
    ...(o.data !== undefined ? { data: maskValues(o.data) } : {}),
    ...(o.stringData !== undefined ? { stringData: maskValues(o.stringData) } : {}),
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

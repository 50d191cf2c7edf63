// metadata.generation for kinds whose strategy keeps one (`generation` on the kind, as kube's custom resources;
// reference decision 7): it starts at 1 and grows by one whenever anything outside metadata and status changes.
// Type meta (apiVersion, kind) is not part of the object's desired state either.

/** Structural equality of JSON values (key order and undefined members ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
}

const ignored = new Set(["metadata", "status", "apiVersion", "kind"]);

/** True when an update changes the object's desired state (everything but metadata, status and type meta). */
export function specChanged(obj: Record<string, unknown>, old: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)].filter((k) => !ignored.has(k)));
  for (const k of keys) if (!deepEqual(obj[k], old[k])) return true;
  return false;
}

/** The generation an update stores: the old one (≥1), plus one if the spec changed. */
export function nextGeneration(obj: Record<string, unknown>, old: Record<string, unknown>, oldGeneration: number | undefined): number {
  const base = oldGeneration && oldGeneration > 0 ? oldGeneration : 1;
  return specChanged(obj, old) ? base + 1 : base;
}

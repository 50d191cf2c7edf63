/** Structural equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>, bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
}

/** True when anything outside metadata and status differs (what bumps metadata.generation). */
export function specChanged(obj: Record<string, unknown>, old: Record<string, unknown>): boolean {
  const strip = (o: Record<string, unknown>) => {
    const { metadata: _m, status: _s, ...rest } = o;
    return rest;
  };
  return !deepEqual(strip(obj), strip(old));
}

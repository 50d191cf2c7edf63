// apiequality.Semantic.DeepEqual over JSON: what kube-apiserver's update rules compare. A decoded Go struct cannot
// tell an absent field from its zero value, and Semantic treats nil and empty slices and maps alike, so "", 0,
// false, null, [] and {} all equal absence here. Resource quantities are compared as stored (canonical form).

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === "" || v === 0 || v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isEmpty));

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) if (!semanticEqual(ao[k], bo[k])) return false;
    return true;
  }
  return false;
}

/**
 * The changed leaves between two values as `path: old -> new` lines (a stand-in for the go-cmp diff kube-apiserver
 * appends to "may not change" errors; its exact text is not reproducible).
 */
export function describeChanges(before: unknown, after: unknown, path = ""): string[] {
  if (semanticEqual(before, after)) return [];
  const isMap = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isMap(before) && isMap(after)) {
    const b = before as Record<string, unknown>;
    const a = after as Record<string, unknown>;
    return [...new Set([...Object.keys(b), ...Object.keys(a)])].sort().flatMap((k) => describeChanges(b[k], a[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((v, i) => describeChanges(v, after[i], `${path}[${i}]`));
  }
  return [`- ${path}: ${JSON.stringify(before ?? null)}`, `+ ${path}: ${JSON.stringify(after ?? null)}`];
}

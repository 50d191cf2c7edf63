// Three-way merge of object trees for the 409 path: `base` is what the editor loaded, `theirs` what the
// server stores now, `mine` the user's edits. A field changed on one side only takes that side; changed the
// same way on both sides is no conflict; changed differently on both sides is a conflict, resolved to the
// user's value (they chose it last) and reported so the editor can show it. Lists of objects with a `name`
// (containers, ports, env, volumes) merge item by item; other lists are one value. Pure.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface MergeConflict {
  path: string;
  base: unknown;
  theirs: unknown;
  mine: unknown;
}

export interface MergeResult {
  merged: unknown;
  conflicts: MergeConflict[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

const ABSENT = Symbol("absent");
type Maybe = unknown | typeof ABSENT;

const isNamedList = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) && typeof x.name === "string") && new Set(v.map((x) => (x as { name: string }).name)).size === v.length;

function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${key}]`;
}

function mergeValue(base: Maybe, theirs: Maybe, mine: Maybe, path: string, conflicts: MergeConflict[]): Maybe {
  if (deepEqual(mine, base)) return theirs;
  if (deepEqual(theirs, base)) return mine;
  if (deepEqual(mine, theirs)) return mine;
  if (isObject(base) && isObject(theirs) && isObject(mine)) return mergeObjects(base, theirs, mine, path, conflicts);
  if (isObject(theirs) && isObject(mine) && base === ABSENT) return mergeObjects({}, theirs, mine, path, conflicts);
  const lists = [base, theirs, mine];
  if (lists.every((l) => l === ABSENT || isNamedList(l) || (Array.isArray(l) && l.length === 0)) && Array.isArray(theirs) && Array.isArray(mine)) {
    return mergeNamedLists((Array.isArray(base) ? base : []) as Record<string, unknown>[], theirs as Record<string, unknown>[], mine as Record<string, unknown>[], path, conflicts);
  }
  conflicts.push({ path, base: base === ABSENT ? undefined : base, theirs: theirs === ABSENT ? undefined : theirs, mine: mine === ABSENT ? undefined : mine });
  return mine;
}

function mergeObjects(base: Record<string, unknown>, theirs: Record<string, unknown>, mine: Record<string, unknown>, path: string, conflicts: MergeConflict[]) {
  const out: Record<string, unknown> = {};
  // Key order: the user's order first, then keys only the server has; keeps the editor text stable.
  const keys = [...Object.keys(mine), ...Object.keys(theirs).filter((k) => !(k in mine)), ...Object.keys(base).filter((k) => !(k in mine) && !(k in theirs))];
  for (const key of keys) {
    const value = mergeValue(key in base ? base[key] : ABSENT, key in theirs ? theirs[key] : ABSENT, key in mine ? mine[key] : ABSENT, joinPath(path, key), conflicts);
    if (value !== ABSENT) out[key] = value;
  }
  return out;
}

function mergeNamedLists(base: Record<string, unknown>[], theirs: Record<string, unknown>[], mine: Record<string, unknown>[], path: string, conflicts: MergeConflict[]) {
  const byName = (list: Record<string, unknown>[]) => new Map(list.map((x) => [x.name as string, x]));
  const b = byName(base);
  const t = byName(theirs);
  const m = byName(mine);
  const names = [...m.keys(), ...[...t.keys()].filter((n) => !m.has(n))];
  const out: Record<string, unknown>[] = [];
  for (const name of names) {
    const value = mergeValue(b.has(name) ? b.get(name) : ABSENT, t.has(name) ? t.get(name) : ABSENT, m.has(name) ? m.get(name) : ABSENT, `${path}[name=${name}]`, conflicts);
    if (value !== ABSENT) out.push(value as Record<string, unknown>);
  }
  return out;
}

/**
 * Merges the user's edits onto the stored object. metadata.resourceVersion always comes from `theirs`, so
 * saving the result is a normal optimistic-concurrency write against the version just read; status belongs
 * to the server and is taken from `theirs` too.
 */
export function threeWayMerge(base: unknown, theirs: unknown, mine: unknown): MergeResult {
  const conflicts: MergeConflict[] = [];
  const merged = mergeValue(base, theirs, mine, "", conflicts);
  if (isObject(merged) && isObject(theirs)) {
    const theirsMeta = theirs.metadata as Record<string, unknown> | undefined;
    if (isObject(merged.metadata) && theirsMeta?.resourceVersion !== undefined) {
      merged.metadata = { ...merged.metadata, resourceVersion: theirsMeta.resourceVersion };
    }
    if ("status" in theirs) merged.status = theirs.status;
  }
  const relevant = conflicts.filter((c) => c.path !== "metadata.resourceVersion" && !c.path.startsWith("status") && c.path !== "metadata.generation");
  return { merged: merged === ABSENT ? undefined : merged, conflicts: relevant };
}

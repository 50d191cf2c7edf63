// Three-way merge of object trees for a save: `base` is what the editor loaded, `theirs` what the server
// stores now, `mine` the user's edits. The result is `theirs` with exactly the user's changes on it: a field
// the user did not touch keeps the stored value (so nobody else's change is reverted), a field only the user
// changed takes theirs, one changed the same way on both sides is no conflict, and one changed differently on
// both sides is a conflict the user settles (`choices`: "mine" or "theirs"; unsettled shows the user's value).
// Lists of objects with a `name` (containers, ports, env, volumes) merge item by item; other lists are one
// value. Every change of the user is listed with where it sits, so the saved object can be checked against
// them (`unstoredChanges`). Pure.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A step into an object: a map key, or the item of a named list with that `name`. */
export type Step = string | { name: string };

export interface MergeConflict {
  path: string;
  at: Step[];
  base: unknown;
  theirs: unknown;
  mine: unknown;
}

/** A field the user changed from the loaded version: `mine` undefined with `removed` when they deleted it. */
export interface FieldChange {
  path: string;
  at: Step[];
  mine: unknown;
  removed: boolean;
  /** False when the user settled a conflict on it for the stored value: then it is not theirs to save. */
  kept: boolean;
}

export type Choice = "mine" | "theirs";

export interface MergeResult {
  merged: unknown;
  conflicts: MergeConflict[];
  changes: FieldChange[];
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
const present = (v: Maybe) => (v === ABSENT ? undefined : v);

const isNamedList = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) && typeof x.name === "string") && new Set(v.map((x) => (x as { name: string }).name)).size === v.length;

const mergesByName = (...lists: Maybe[]) => lists.every((l) => l === ABSENT || isNamedList(l) || (Array.isArray(l) && l.length === 0));

function joinPath(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${key}]`;
}

interface Walk {
  choices: Readonly<Record<string, Choice>>;
  conflicts: MergeConflict[];
  changes: FieldChange[];
}

function mergeValue(base: Maybe, theirs: Maybe, mine: Maybe, path: string, at: Step[], w: Walk): Maybe {
  if (deepEqual(mine, base)) return theirs;
  // The user changed something here: go down to the fields they changed, so each is a change of its own.
  if (isObject(mine) && isObject(theirs) && (isObject(base) || base === ABSENT)) return mergeObjects(isObject(base) ? base : {}, theirs, mine, path, at, w);
  if (Array.isArray(mine) && Array.isArray(theirs) && mergesByName(base, theirs, mine)) {
    return mergeNamedLists((Array.isArray(base) ? base : []) as Record<string, unknown>[], theirs as Record<string, unknown>[], mine as Record<string, unknown>[], path, at, w);
  }
  const change = { path, at, mine: present(mine), removed: mine === ABSENT };
  if (deepEqual(theirs, base) || deepEqual(mine, theirs)) {
    w.changes.push({ ...change, kept: true });
    return mine;
  }
  w.conflicts.push({ path, at, base: present(base), theirs: present(theirs), mine: present(mine) });
  const choice = w.choices[path];
  w.changes.push({ ...change, kept: choice !== "theirs" });
  return choice === "theirs" ? theirs : mine;
}

function mergeObjects(base: Record<string, unknown>, theirs: Record<string, unknown>, mine: Record<string, unknown>, path: string, at: Step[], w: Walk) {
  const out: Record<string, unknown> = {};
  // Key order: the user's order first, then keys only the server has; keeps the editor text stable.
  const keys = [...Object.keys(mine), ...Object.keys(theirs).filter((k) => !(k in mine)), ...Object.keys(base).filter((k) => !(k in mine) && !(k in theirs))];
  for (const key of keys) {
    const value = mergeValue(key in base ? base[key] : ABSENT, key in theirs ? theirs[key] : ABSENT, key in mine ? mine[key] : ABSENT, joinPath(path, key), [...at, key], w);
    if (value !== ABSENT) out[key] = value;
  }
  return out;
}

function mergeNamedLists(base: Record<string, unknown>[], theirs: Record<string, unknown>[], mine: Record<string, unknown>[], path: string, at: Step[], w: Walk) {
  const byName = (list: Record<string, unknown>[]) => new Map(list.map((x) => [x.name as string, x]));
  const b = byName(base);
  const t = byName(theirs);
  const m = byName(mine);
  const names = [...m.keys(), ...[...t.keys()].filter((n) => !m.has(n))];
  const out: Record<string, unknown>[] = [];
  for (const name of names) {
    const value = mergeValue(b.has(name) ? b.get(name) : ABSENT, t.has(name) ? t.get(name) : ABSENT, m.has(name) ? m.get(name) : ABSENT, `${path}[name=${name}]`, [...at, { name }], w);
    if (value !== ABSENT) out.push(value as Record<string, unknown>);
  }
  return out;
}

/** Fields the server alone writes: a difference there is the server's, never the user's change. */
const SERVER_OWNED = new Set(["metadata.resourceVersion", "metadata.managedFields", "metadata.generation"]);

/**
 * The user's edits on the stored object. metadata.resourceVersion comes from `theirs`, so writing the result
 * is an update that the server refuses if the object changed again after it was read.
 */
export function threeWayMerge(base: unknown, theirs: unknown, mine: unknown, choices: Readonly<Record<string, Choice>> = {}): MergeResult {
  const w: Walk = { choices, conflicts: [], changes: [] };
  const merged = mergeValue(base, theirs, mine, "", [], w);
  if (isObject(merged) && isObject(theirs)) {
    const theirsMeta = theirs.metadata as Record<string, unknown> | undefined;
    if (isObject(merged.metadata) && theirsMeta) {
      for (const key of ["resourceVersion", "generation"]) {
        if (key in theirsMeta) merged.metadata[key] = theirsMeta[key];
        else delete merged.metadata[key];
      }
      // An update without managedFields keeps the stored ones (kube ignores a nil list) and records this write.
      delete merged.metadata.managedFields;
    }
  }
  const ours = (p: string) => !SERVER_OWNED.has(p) && ![...SERVER_OWNED].some((s) => p.startsWith(`${s}.`) || p.startsWith(`${s}[`));
  return { merged: present(merged), conflicts: w.conflicts.filter((c) => ours(c.path)), changes: w.changes.filter((c) => ours(c.path)) };
}

function valueAt(obj: unknown, at: Step[]): Maybe {
  let cur: Maybe = obj;
  for (const step of at) {
    if (typeof step === "string") cur = isObject(cur) && step in cur ? cur[step] : ABSENT;
    else cur = Array.isArray(cur) ? (cur.find((x) => isObject(x) && x.name === step.name) ?? ABSENT) : ABSENT;
    if (cur === ABSENT) return ABSENT;
  }
  return cur;
}

/** Whether `stored` holds everything `wanted` sets; the server may add defaults around it (a new container's). */
function holds(stored: unknown, wanted: unknown): boolean {
  if (isObject(wanted)) return isObject(stored) && Object.keys(wanted).every((k) => k in stored && holds(stored[k], wanted[k]));
  if (Array.isArray(wanted)) return Array.isArray(stored) && stored.length === wanted.length && wanted.every((x, i) => holds(stored[i], x));
  return deepEqual(stored, wanted);
}

/** The user's changes (those they kept) that `saved`, the object as the server stored it, does not hold. */
export function unstoredChanges(changes: readonly FieldChange[], saved: unknown): (FieldChange & { stored: unknown })[] {
  const out: (FieldChange & { stored: unknown })[] = [];
  for (const change of changes) {
    if (!change.kept) continue;
    const stored = valueAt(saved, change.at);
    const ok = change.removed ? stored === ABSENT : stored !== ABSENT && holds(stored, change.mine);
    if (!ok) out.push({ ...change, stored: present(stored) });
  }
  return out;
}

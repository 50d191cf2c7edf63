// What changed between two versions of an object, field by field (SMD's TypedValue.Compare): leaves (scalars,
// atomic lists/maps/structs, and empty ones) that were added, removed or modified, plus every granular map,
// struct or list item that appeared or disappeared as a whole. An absent value (undefined) differs from a
// present null, as in SMD.
import { deepEqual } from "../validation/generation";
import type { Schema } from "../kinds/schema/schema";
import { FieldSet } from "./field-set";
import { indexItems } from "./list-items";
import { serializePathElement, type PathElement } from "./path-element";
import { atomOf, childSchema, resolveAtom, type Atom } from "./schema-atoms";

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const emptyish = (v: unknown) => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);

export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, atomOf(schema), [], c);
  return c;
}

function leaf(lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison): void {
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) c.modified.insert(path);
}

function walk(lhs: unknown, rhs: unknown, schemaAtom: Atom, path: PathElement[], c: Comparison): void {
  const la = resolveAtom(schemaAtom, lhs ?? rhs);
  const ra = resolveAtom(schemaAtom, rhs ?? lhs);
  // A deduced value that changed shape (a map became a scalar) is one leaf.
  if (la.type !== ra.type) return leaf(lhs, rhs, path, c);
  const atom = ra;
  switch (atom.type) {
    case "list": {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if ((lhs != null && !l) || (rhs != null && !r)) return leaf(lhs, rhs, path, c);
      if (atom.relationship === "atomic" || (emptyish(l) && emptyish(r))) return leaf(lhs, rhs, path, c);
      const li = indexItems(atom, l);
      const ri = indexItems(atom, r);
      const rById = new Map(ri.map((i) => [serializePathElement(i.pe), i.value]));
      const lIds = new Set<string>();
      const items = atomOf(atom.items);
      for (const i of li) {
        const id = serializePathElement(i.pe);
        lIds.add(id);
        walk(i.value, rById.has(id) ? rById.get(id) : undefined, items, [...path, i.pe], c);
      }
      for (const i of ri) if (!lIds.has(serializePathElement(i.pe))) walk(undefined, i.value, items, [...path, i.pe], c);
      break;
    }
    case "struct": case "map": {
      if ((lhs != null && !isMap(lhs)) || (rhs != null && !isMap(rhs))) return leaf(lhs, rhs, path, c);
      if (atom.atomic || (emptyish(lhs) && emptyish(rhs))) return leaf(lhs, rhs, path, c);
      const l = (lhs ?? {}) as Record<string, unknown>;
      const r = (rhs ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(l)) {
        if (l[k] === undefined) continue;
        walk(l[k], r[k], atomOf(childSchema(atom, k)), [...path, { field: k }], c);
      }
      for (const k of Object.keys(r)) {
        if (r[k] === undefined || (k in l && l[k] !== undefined)) continue;
        walk(undefined, r[k], atomOf(childSchema(atom, k)), [...path, { field: k }], c);
      }
      break;
    }
    default:
      return leaf(lhs, rhs, path, c);
  }
  // A granular node that appeared or went away as a whole is itself added or removed.
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

// Merging an apply configuration into the live object (SMD's TypedValue.Merge): granular maps and structs merge
// key by key, map lists item by item (by merge keys) and sets value by value; leaves and atomic values take the
// configuration's value. Nothing is removed here (pruning is the updater's job). List order: items the
// configuration names follow its order, the others keep their place around them, as SMD orders them.
import type { Schema } from "../kinds/schema/schema";
import { indexItems } from "./list-items";
import { serializePathElement } from "./path-element";
import { atomOf, childSchema, resolveAtom, type Atom } from "./schema-atoms";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const emptyish = (v: unknown) => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);

/** `rhs` merged over `lhs`; undefined when neither has anything. */
export function merge(lhs: unknown, rhs: unknown, schema: Schema | undefined): unknown {
  return walk(lhs, rhs, atomOf(schema));
}

const keepRhs = (lhs: unknown, rhs: unknown) => (rhs !== undefined ? rhs : lhs);

function walk(lhs: unknown, rhs: unknown, schemaAtom: Atom): unknown {
  if (lhs === undefined) return rhs;
  if (rhs === undefined) return lhs;
  const la = resolveAtom(schemaAtom, lhs);
  const atom = resolveAtom(schemaAtom, rhs);
  if (la.type !== atom.type) return rhs;
  switch (atom.type) {
    case "list": {
      if (!Array.isArray(rhs) || !Array.isArray(lhs)) return keepRhs(lhs, rhs);
      if (atom.relationship === "atomic" || (emptyish(lhs) && emptyish(rhs))) return rhs;
      return mergeList(lhs, rhs, atom);
    }
    case "struct": case "map": {
      if (!isMap(rhs) || !isMap(lhs)) return keepRhs(lhs, rhs);
      if (atom.atomic || (emptyish(lhs) && emptyish(rhs))) return rhs;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(lhs)) {
        const v = walk(lhs[k], rhs[k], atomOf(childSchema(atom, k)));
        if (v !== undefined) out[k] = v;
      }
      for (const k of Object.keys(rhs)) {
        if (k in out || rhs[k] === undefined) continue;
        out[k] = rhs[k];
      }
      return Object.keys(out).length ? out : undefined;
    }
    default:
      return rhs;
  }
}

function mergeList(lhs: unknown[], rhs: unknown[], atom: Extract<Atom, { type: "list" }>): unknown[] | undefined {
  const items = atomOf(atom.items);
  const l = indexItems(atom, lhs).map((i) => ({ ...i, id: serializePathElement(i.pe) }));
  const r = indexItems(atom, rhs).map((i) => ({ ...i, id: serializePathElement(i.pe) }));
  const lById = new Map(l.map((i) => [i.id, i.value]));
  const rById = new Map(r.map((i) => [i.id, i.value]));
  const shared = r.filter((i) => lById.has(i.id)).map((i) => i.id);
  let next = 0;
  let nextShared: string | undefined = shared[next++];
  const out: unknown[] = [];
  const emit = (v: unknown) => { if (v !== undefined) out.push(v); };
  let li = 0;
  let ri = 0;
  while (li < l.length || ri < r.length) {
    if (li < l.length && ri < r.length) {
      const id = l[li].id;
      if (id === r[ri].id) {
        emit(walk(l[li].value, r[ri].value, items));
        li++;
        ri++;
        nextShared = shared[next++];
        continue;
      }
      // A shared item that is not the one due now: it is emitted when the configuration reaches it.
      if (rById.has(id) && nextShared !== undefined && nextShared !== id) {
        li++;
        continue;
      }
    }
    if (li < l.length && !rById.has(l[li].id)) {
      emit(l[li].value);
      li++;
      continue;
    }
    if (ri < r.length) {
      const { id, value } = r[ri];
      emit(walk(lById.get(id), value, items));
      ri++;
      if (nextShared === id) nextShared = shared[next++];
      continue;
    }
    // Only shared items remain on the left, all emitted already.
    li++;
  }
  return out.length ? out : undefined;
}

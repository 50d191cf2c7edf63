// Removing fields and items named by a field set from a value (SMD's TypedValue.RemoveItems), and the set
// operation pruning relies on (EnsureNamedFieldsAreMembers: a struct field that holds owned fields counts as
// owned itself, so it goes when all it holds goes).
import type { Schema } from "../kinds/schema/schema";
import { FieldSet } from "./field-set";
import { listItemPathElement } from "./list-items";
import type { PathElement } from "./path-element";
import { atomOf, childSchema, isNamedField, resolveAtom, type Atom } from "./schema-atoms";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `value` without what `set` names. A map or list left empty becomes null, as in SMD (callers drop nulls
 * from the final object).
 */
export function removeItems(value: unknown, set: FieldSet, schema: Schema | undefined): unknown {
  return walk(value, set, atomOf(schema));
}

function walk(v: unknown, set: FieldSet, schemaAtom: Atom): unknown {
  const atom = resolveAtom(schemaAtom, v);
  if (atom.type === "list") {
    if (!Array.isArray(v) || v.length === 0 || atom.relationship === "atomic") return null;
    const out: unknown[] = [];
    const items = atomOf(atom.items);
    v.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = listItemPathElement(atom, item, i);
      } catch {
        out.push(item);
        return;
      }
      if (set.hasMember(pe)) return;
      const sub = set.child(pe);
      out.push(sub && !sub.isEmpty() ? walk(item, sub, items) : item);
    });
    return out.length ? out : null;
  }
  if (atom.type === "struct" || atom.type === "map") {
    if (!isMap(v) || Object.keys(v).length === 0 || atom.atomic) return null;
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v)) {
      const pe = { field: k };
      if (set.hasMember(pe)) continue;
      const sub = set.child(pe);
      out[k] = sub && !sub.isEmpty() ? walk(child, sub, atomOf(childSchema(atom, k))) : child;
    }
    return Object.keys(out).length ? out : null;
  }
  return v;
}

/** `set` plus every struct field that has owned fields below it (named fields only, not map entries). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  return ensure(set, atomOf(schema));
}

function ensure(set: FieldSet, atom: Atom): FieldSet {
  const out = new FieldSet();
  out.members = [...set.members];
  for (const c of set.children) {
    let childAtom: Atom = { type: "untyped" };
    if ("field" in c.pe) {
      if (atom.type === "struct" || atom.type === "map") childAtom = atomOf(childSchema(atom, c.pe.field));
      if (isNamedField(atom, c.pe.field)) out.insert([c.pe]);
    } else if ("key" in c.pe && atom.type === "list") {
      childAtom = atomOf(atom.items);
    }
    const node = out.descend(c.pe);
    const sub = ensure(c.set, childAtom);
    node.members = sub.members;
    node.children = sub.children;
  }
  return out;
}

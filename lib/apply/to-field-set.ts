// The fields a value sets (SMD's TypedValue.ToFieldSet): every scalar, every atomic list/map/struct as one
// field, every list item (and what it sets), every map entry; a struct's own fields are not members, only
// what they hold. This is what an applier comes to own.
import { FieldSet } from "./field-set";
import { indexItems } from "./list-items";
import type { PathElement } from "./path-element";
import { atomOf, childSchema, isNamedField, resolveAtom, type Atom } from "./schema-atoms";
import type { Schema } from "../kinds/schema/schema";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function fieldSetOf(value: unknown, schema: Schema | undefined): FieldSet {
  const set = new FieldSet();
  walk(value, atomOf(schema), [], set);
  return set;
}

function walk(v: unknown, schemaAtom: Atom, path: PathElement[], set: FieldSet): void {
  const atom = resolveAtom(schemaAtom, v);
  switch (atom.type) {
    case "list": {
      if (atom.relationship === "atomic") {
        set.insert(path);
        return;
      }
      if (!Array.isArray(v)) return;
      for (const item of indexItems(atom, v)) {
        const p = [...path, item.pe];
        walk(item.value, atomOf(atom.items), p, set);
        set.insert(p);
      }
      return;
    }
    case "struct": case "map": {
      if (atom.atomic) {
        set.insert(path);
        return;
      }
      if (!isMap(v)) return;
      for (const [k, child] of Object.entries(v)) {
        if (child === undefined) continue;
        const p = [...path, { field: k }];
        walk(child, atomOf(childSchema(atom, k)), p, set);
        if (!isNamedField(atom, k)) set.insert(p);
      }
      return;
    }
    default:
      set.insert(path);
  }
}

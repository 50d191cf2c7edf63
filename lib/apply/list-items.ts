// How list items are named in field paths: atomic lists by index, sets by value, map lists by their merge
// keys (a key field the item omits takes the schema's default, e.g. a port's `protocol: TCP`). The error
// texts are SMD's.
import { keyDefault, type Atom } from "./schema-atoms";
import { keyOf, serializePathElement, type Json, type PathElement } from "./path-element";
import { goQuote } from "./go-json";

export type ListAtom = Extract<Atom, { type: "list" }>;

export class ItemError extends Error {}

export function listItemPathElement(list: ListAtom, item: unknown, index: number): PathElement {
  if (list.relationship === "atomic") return { index };
  if (list.relationship === "set" || list.keys.length === 0) {
    if (item === null) throw new ItemError("associative list without keys has an element that's an explicit null");
    if (Array.isArray(item)) throw new ItemError("not supported: associative list with lists as elements");
    if (typeof item === "object") throw new ItemError("associative list without keys has an element that's a map type");
    return { value: item as Json };
  }
  if (item === null || item === undefined) throw new ItemError("associative list with keys may not have a null element");
  if (typeof item !== "object" || Array.isArray(item)) throw new ItemError("associative list with keys may not have non-map elements");
  const o = item as Record<string, Json>;
  const fields: [string, Json][] = [];
  for (const k of list.keys) {
    if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) {
      fields.push([k, o[k]]);
      continue;
    }
    const d = keyDefault(list.items, k);
    if (d === undefined) throw new ItemError(`associative list with keys has an element that omits key field ${goQuote(k)} (and doesn't have default value)`);
    fields.push([k, d]);
  }
  return { key: keyOf(fields) };
}

export interface IndexedItem {
  pe: PathElement;
  value: unknown;
}

/**
 * The items of a list with their path elements, first occurrence of each kept (as SMD's walkers do with
 * duplicates in a live object); items whose element cannot be built are skipped.
 */
export function indexItems(list: ListAtom, items: readonly unknown[] | undefined): IndexedItem[] {
  const out: IndexedItem[] = [];
  if (!items) return out;
  const seen = new Set<string>();
  items.forEach((value, i) => {
    let pe: PathElement;
    try {
      pe = listItemPathElement(list, value, i);
    } catch {
      return;
    }
    const id = serializePathElement(pe);
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ pe, value });
  });
  return out;
}

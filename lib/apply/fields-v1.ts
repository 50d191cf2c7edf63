// FieldsV1, the wire form of a field set in `metadata.managedFields[].fieldsV1`: a JSON object whose keys are
// serialized path elements (`f:`, `k:`, `v:`, `i:`) and whose values are the child sets; `{}` marks a member
// without children and `".": {}` a member that also has children. Keys come out in path-element order with
// `.` last, as SMD's emitter writes them.
import { FieldSet } from "./field-set";
import { comparePathElements, deserializePathElement, serializePathElement, type PathElement } from "./path-element";

export type FieldsV1 = { [key: string]: FieldsV1 };

export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  let mi = 0;
  let ci = 0;
  const { members, children } = set;
  while (mi < members.length || ci < children.length) {
    const c = mi < members.length && ci < children.length ? comparePathElements(members[mi], children[ci].pe) : mi < members.length ? -1 : 1;
    if (c < 0) {
      out[serializePathElement(members[mi++])] = {};
    } else if (c > 0) {
      out[serializePathElement(children[ci].pe)] = emit(children[ci++].set, false);
    } else {
      out[serializePathElement(children[ci].pe)] = emit(children[ci++].set, true);
      mi++;
    }
  }
  if (includeSelf && Object.keys(out).length) out["."] = {};
  return out;
}

export class FieldsV1Error extends Error {}

/** Reads FieldsV1 (a decoded JSON value); throws FieldsV1Error when it is not a well-formed set. */
export function fromFieldsV1(value: unknown): FieldSet {
  if (value === null || value === undefined) return new FieldSet();
  const set = read(value, 0);
  return set ?? new FieldSet();
}

const MAX_DEPTH = 100;

/** The children of one node (undefined when it has none); `member` tells whether the node itself is in the set. */
function read(value: unknown, depth: number): FieldSet | undefined {
  if (depth > MAX_DEPTH) throw new FieldsV1Error("fieldsV1 nests too deep");
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${Array.isArray(value) ? "[" : typeof value === "string" ? '"' : String(value).slice(0, 1)}`);
  }
  let children: FieldSet | undefined;
  for (const [key, sub] of Object.entries(value as Record<string, unknown>)) {
    if (key === ".") continue;
    let pe: PathElement | undefined;
    try {
      pe = deserializePathElement(key);
    } catch (err) {
      throw new FieldsV1Error(`parsing key as path element: ${(err as Error).message}`);
    }
    if (!pe) continue;
    const grandchildren = read(sub, depth + 1);
    const isMember = !grandchildren || (typeof sub === "object" && sub !== null && "." in (sub as object));
    children ??= new FieldSet();
    if (isMember) children.insert([pe]);
    if (grandchildren) {
      const node = children.descend(pe);
      node.members = grandchildren.members;
      node.children = grandchildren.children;
    }
  }
  return children;
}

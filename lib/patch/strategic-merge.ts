// Strategic merge patch (application/strategic-merge-patch+json), server side, as k8s.io/apimachinery's
// strategicpatch.StrategicMergeMapPatch applies it, with merge keys and strategies read from the kind's schema
// instead of Go struct tags.
//
// Rules: maps merge key by key and `null` deletes a key; a list whose field has strategy "merge" merges
// element by element (objects matched by the merge key, scalars as a set union), any other list is replaced;
// fields the schema does not know behave as in a JSON merge patch (maps merge, lists are replaced).
// Directives: `$patch: replace|delete` on a map, `$patch: replace|delete` as a list element,
// `$setElementOrder/<field>`, `$deleteFromPrimitiveList/<field>` and `$retainKeys`.
// Ordering of merged lists follows kube: `$setElementOrder` first, then the patch's order, then the live
// list's; elements new to the list come before the remaining server-only elements.
//
// One deliberate difference: kube stores a map that replaces (a new field, `$patch: replace`, a "replace"
// strategy) as sent, directives and nulls included, to be reported later as unknown fields; here it is merged
// into an empty map, so directives inside it take effect and nulls are dropped.
import { fieldSchema, itemSchema, patchStrategies, type Schema } from "../kinds/schema/schema";
import { goString, goTypeName, goValue, jsonTypeWord } from "./go-format";
import { assertDepth, badRequest, rejected, unfitPatch, setOwn } from "./patch-errors";

type JsonMap = Record<string, unknown>;

const DIRECTIVE = "$patch";
const RETAIN_KEYS = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER = "$setElementOrder";

// mergepatch's sentinel errors, answered 400 by kube-apiserver.
const BAD_PRIMITIVE_LIST = "invalid patch format of primitive list";
const BAD_RETAIN_KEYS = "invalid patch format of retainKeys";
const BAD_SET_ELEMENT_ORDER = "invalid patch format of setElementOrder list";

const SLICE = "[]interface {}";
const MAP = "map[string]interface {}";

const isMap = (v: unknown): v is JsonMap => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

const noMergeKey = (m: unknown, key: string) => unfitPatch(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
const badArgType = (expected: string, actual: unknown) => unfitPatch(`expected a ${expected}, but received a ${goTypeName(actual)}`);
const badPatchType = (directive: unknown, m: unknown) => unfitPatch(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);

/**
 * Identity of a scalar as Go's `==` on interface values sees it (type and value), used for merge-key
 * matching, set union and ordering.
 */
function identity(v: unknown): string {
  if (v === null || v === undefined) return "n";
  switch (typeof v) {
    case "string":
      return `s${v}`;
    case "number":
      return `${Number.isInteger(v) ? "i" : "f"}${v}`;
    case "boolean":
      return `b${v}`;
    default:
      return `o${JSON.stringify(v)}`;
  }
}

/** Apply `patch` to `original` with the merge keys and strategies of `schema`. Inputs are not modified. */
export function strategicMergePatch(original: unknown, patch: unknown, schema: Schema | undefined): unknown {
  assertDepth(patch, "the patch");
  assertDepth(original, "the object");
  if (patch === null) return structuredClone(original);
  if (!isMap(patch)) throw badRequest(`json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type map[string]interface {}`);
  const base: JsonMap = isMap(original) ? structuredClone(original) : {};
  return mergeMap(base, structuredClone(patch), schema);
}

// --- maps ---------------------------------------------------------------------------------------------------------

/** Merges `patch` into `original` (both owned by the caller, modified in place) and returns the result. */
function mergeMap(original: JsonMap, patch: JsonMap, schema: Schema | undefined): JsonMap {
  if (hasOwn(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    if (directive === "replace") {
      delete patch[DIRECTIVE];
      return mergeMap({}, patch, schema);
    }
    if (directive === "delete") return {};
    throw badPatchType(directive, patch);
  }
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema);

  const deletions: [string, unknown][] = [];
  for (const key of Object.keys(patch)) {
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      deletions.push([fieldOfDirective(key, DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST), patch[key]]);
    } else {
      mergeField(original, key, patch[key], schema, false);
    }
  }
  // After the additions, so a value both added and deleted in one patch ends up deleted.
  for (const [key, value] of deletions) mergeField(original, key, value, schema, true);
  return original;
}

/** `<prefix>/<field>` → field; anything else is the malformed-directive error. */
function fieldOfDirective(key: string, prefix: string, error: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) throw badRequest(error);
  return key.slice(slash + 1);
}

/** The patch strategy of a field other than retainKeys ("" when none), as Go's extractRetainKeysPatchStrategy. */
function mainStrategy(schema: Schema | undefined): string {
  const strategies = patchStrategies(schema);
  if (strategies.length > 2) throw unfitPatch(`unexpected patch strategy: [${strategies.join(" ")}]`);
  return strategies.find((s) => s !== "retainKeys") ?? "";
}

const mergeKeyOf = (schema: Schema | undefined) => (schema?.type === "array" ? schema.mergeKey ?? "" : "");

function mergeField(original: JsonMap, key: string, patchValue: unknown, schema: Schema | undefined, isDeleteList: boolean): void {
  if (patchValue === null) {
    delete original[key];
    return;
  }
  const sub = fieldSchema(schema, key);
  const current = hasOwn(original, key) ? original[key] : undefined;
  if (current === undefined || goTypeName(current) !== goTypeName(patchValue)) {
    // Deleting from a list the object does not have is a no-op.
    if (!isDeleteList) setOwn(original, key, valueForNewField(patchValue, sub));
    return;
  }
  const strategy = mainStrategy(sub);
  if (isMap(current)) {
    setOwn(original, key, mergeMap(strategy === "replace" ? {} : current, patchValue as JsonMap, sub));
  } else if (Array.isArray(current)) {
    const merges = strategy === "merge" || isDeleteList;
    setOwn(original, key, merges ? mergeSlice(current, patchValue as unknown[], itemSchema(sub), mergeKeyOf(sub), isDeleteList) : patchValue);
  } else {
    setOwn(original, key, patchValue);
  }
}

/** A patch value for a field the object lacks (or holds with another JSON type): merged into an empty value. */
function valueForNewField(patchValue: unknown, schema: Schema | undefined): unknown {
  if (isMap(patchValue)) {
    return mergeMap({}, patchValue, schema);
  }
  if (Array.isArray(patchValue) && mainStrategy(schema) === "merge" && patchValue.length > 0) {
    return mergeSlice([], patchValue, itemSchema(schema), mergeKeyOf(schema), false);
  }
  return discardNulls(patchValue);
}

function discardNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const v of value) discardNulls(v);
  } else if (isMap(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNulls(value[key]);
    }
  }
  return value;
}

/** `$retainKeys`: keys of the original map not listed are cleared; every non-null patch key must be listed. */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badRequest(BAD_RETAIN_KEYS);
  const retained = new Set(list.map(identity));
  for (const key of Object.keys(patch)) {
    if (patch[key] === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(identity(key))) throw badRequest(BAD_RETAIN_KEYS);
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(identity(key))) delete original[key];
  }
}

// --- $setElementOrder ---------------------------------------------------------------------------------------------

/**
 * Merges each list named by a `$setElementOrder/<field>` directive together with its patch list, then orders the
 * result: elements named in the directive in its order, the others (server-only) kept in their live order and
 * interleaved by their live position. The patch list is consumed here.
 */
function applySetElementOrder(original: JsonMap, patch: JsonMap, schema: Schema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType(SLICE, order);
    const field = fieldOfDirective(key, SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER);
    const foundOriginal = hasOwn(original, field);
    const foundPatch = hasOwn(patch, field);
    if (!foundOriginal && !foundPatch) continue;
    const originalList = foundOriginal ? original[field] : [];
    const patchList = foundPatch ? patch[field] : [];
    if (!Array.isArray(originalList)) throw badArgType(SLICE, originalList);
    if (!Array.isArray(patchList)) throw badArgType(SLICE, patchList);

    const sub = fieldSchema(schema, field);
    const mergeKey = mergeKeyOf(sub);
    validatePatchAgainstOrder(patchList, order, mergeKey);

    let merged: unknown[];
    if (!foundPatch) merged = originalList;
    else if (!foundOriginal) merged = valueForNewField(patchList, sub) as unknown[];
    else merged = mainStrategy(sub) === "merge" ? mergeSlice(originalList, patchList, itemSchema(sub), mergeKey, false) : patchList;
    delete patch[field];

    if (originalList.length + patchList.length === 0) {
      setOwn(original, field, merged);
      continue;
    }
    const mapKind = elementKind(originalList, patchList) === MAP;
    const named = mapKind ? keyIndex(order, mergeKey, true) : keyIndex(order, "", false);
    const inOrder: unknown[] = [];
    const serverOnly: unknown[] = [];
    for (const item of merged) {
      (named.has(mapKind ? mergeKeyIdentity(item, mergeKey) : identity(item)) ? inOrder : serverOnly).push(item);
    }
    setOwn(original, field, normalizeElementOrder(inOrder, serverOnly, order, originalList, mergeKey, mapKind));
  }
}

/** The patch list must name its elements in the same relative order as the directive (deletions aside). */
function validatePatchAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? splitDeletions(patchList)[0] : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    if (isMap(nonDelete[p]) && hasOwn(nonDelete[p] as JsonMap, DIRECTIVE)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw unfitPatch(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goValue(order)}\n`);
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return identity(left) === identity(right);
  if (!isMap(left)) throw badArgType(MAP, left);
  if (!isMap(right)) throw badArgType(MAP, right);
  if (!hasOwn(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return identity(left[mergeKey]) === identity(right[mergeKey]);
}

/** Splits list elements into the kept ones and those carrying `$patch: delete`. */
function splitDeletions(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const remove: unknown[] = [];
  for (const item of list) {
    if (!isMap(item)) throw badArgType(MAP, item);
    (item[DIRECTIVE] === "delete" ? remove : keep).push(item);
  }
  return [keep, remove];
}

// --- lists --------------------------------------------------------------------------------------------------------

/** Go type shared by every element of the lists (maps, scalars); lists of lists and mixed lists are errors. */
function elementKind(...lists: unknown[][]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const t = goTypeName(item);
      if (kind === undefined) {
        kind = t;
        if (t === SLICE) throw rejected();
      } else if (t !== kind) {
        throw unfitPatch(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (kind === undefined) throw unfitPatch("no elements in any of the given slices");
  return kind;
}

const mergeKeyIdentity = (item: unknown, mergeKey: string) => identity(isMap(item) ? item[mergeKey] : undefined);

/** First position of each element (by merge key value for maps, by value for scalars). */
function keyIndex(list: unknown[], mergeKey: string, mapKind: boolean): Map<string, number> {
  const index = new Map<string, number>();
  list.forEach((item, i) => {
    const id = mapKind ? mergeKeyIdentity(item, mergeKey) : identity(item);
    if (!index.has(id)) index.set(id, i);
  });
  return index;
}

function goKindOf(schema: Schema | undefined): string {
  switch (schema?.type) {
    case "object":
      return "struct";
    case "array":
      return "slice";
    case "map":
      return "map";
    case "integer":
      return schema.format;
    case "boolean":
      return "bool";
    case "number":
      return "float64";
    case "string":
    case "bytes":
    case "time":
    case "micro-time":
      return "string";
    default:
      return "interface";
  }
}

/** Merges a list with strategy "merge" (or applies a `$deleteFromPrimitiveList`). */
function mergeSlice(original: unknown[], patch: unknown[], items: Schema | undefined, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  if (kind !== MAP) {
    if (isDeleteList) {
      const remove = new Set(patch.map(identity));
      return original.filter((v) => !remove.has(identity(v)));
    }
    const seen = new Set<string>();
    const merged = [...original, ...patch].filter((v) => {
      const id = identity(v);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const inPatch = new Set(patch.map(identity));
    const fromPatch = merged.filter((v) => inPatch.has(identity(v)));
    const serverOnly = merged.filter((v) => !inPatch.has(identity(v)));
    return normalizeElementOrder(fromPatch, serverOnly, patch, original, "", false);
  }

  if (!mergeKey) throw unfitPatch(`cannot merge lists without merge key for type ${goKindOf(items)}`);
  const [live, additions] = applyListDirectives(original, patch, mergeKey);
  const merged = live.slice();
  const positions = keyIndex(merged, mergeKey, true);
  for (const item of additions) {
    const element = item as JsonMap;
    if (!hasOwn(element, mergeKey)) throw noMergeKey(element, mergeKey);
    const id = identity(element[mergeKey]);
    const at = positions.get(id);
    if (at !== undefined && isMap(merged[at]) && hasOwn(merged[at] as JsonMap, mergeKey)) {
      merged[at] = mergeMap(merged[at] as JsonMap, element, items);
    } else {
      positions.set(id, merged.length);
      merged.push(element);
    }
  }

  const named = keyIndex(additions, mergeKey, true);
  const fromPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of merged) {
    if (!isMap(item)) throw badArgType(MAP, item);
    if (!hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    (named.has(identity(item[mergeKey])) ? fromPatch : serverOnly).push(item);
  }
  return normalizeElementOrder(fromPatch, serverOnly, additions, live, mergeKey, true);
}

/**
 * List-element directives: `{K: v, $patch: delete}` removes every live element whose merge key is v;
 * `{$patch: replace}` makes the list exactly the other patch elements; `$patch: merge` is refused.
 * Returns the live list after deletions (or the replacement) and the patch elements left to merge.
 */
function applyListDirectives(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let live = original;
  let replace = false;
  for (const item of patch) {
    const element = item as JsonMap;
    if (!hasOwn(element, DIRECTIVE)) {
      plain.push(item);
      continue;
    }
    const directive = element[DIRECTIVE];
    if (directive === "delete") {
      if (!hasOwn(element, mergeKey)) throw noMergeKey(element, mergeKey);
      const id = identity(element[mergeKey]);
      live = live.filter((v) => !(isMap(v) && hasOwn(v, mergeKey) && identity(v[mergeKey]) === id));
    } else if (directive === "replace") {
      replace = true;
    } else if (directive === "merge") {
      throw unfitPatch("merging lists cannot yet be specified in the patch");
    } else {
      throw badPatchType(directive, element);
    }
  }
  return replace ? [plain, []] : [live, plain];
}

/**
 * Final order of a merged list: `fromPatch` sorted by `patchOrder`, `serverOnly` by `serverOrder`, then the two
 * interleaved: a server-only element goes first only while it sits before the next patch element in the live
 * list, so elements new to the list land ahead of the remaining server-only ones.
 */
function normalizeElementOrder(
  fromPatch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  mapKind: boolean,
): unknown[] {
  const right = sortByOrder(fromPatch, patchOrder, mergeKey, mapKind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, mapKind);
  const live = keyIndex(serverOrder, mergeKey, mapKind);
  const idOf = (item: unknown) => (mapKind ? mergeKeyIdentity(item, mergeKey) : identity(item));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = live.get(idOf(left[i]));
      const ri = live.get(idOf(right[j]));
      if (li !== undefined && ri !== undefined && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Stable sort of `items` by their position in `order`; elements with `$patch: delete` go last. */
function sortByOrder(items: unknown[], order: unknown[], mergeKey: string, mapKind: boolean): unknown[] {
  let toSort = items;
  let deletions: unknown[] = [];
  if (mapKind) {
    for (const list of [items, order]) {
      for (const item of list) {
        if (!isMap(item)) throw badArgType(MAP, item);
        if (!hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
      }
    }
    [toSort, deletions] = splitDeletions(items);
  }
  const position = keyIndex(order, mergeKey, mapKind);
  const rank = (item: unknown) => position.get(mapKind ? mergeKeyIdentity(item, mergeKey) : identity(item)) ?? Number.MAX_SAFE_INTEGER;
  const sorted = toSort.map((item, i) => ({ item, i, r: rank(item) })).sort((a, b) => a.r - b.r || a.i - b.i).map((e) => e.item);
  return [...sorted, ...deletions];
}

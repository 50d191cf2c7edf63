// One step of a field path, as structured-merge-diff (sigs.k8s.io/structured-merge-diff/v4/fieldpath) names
// them: a struct field or map key (`f:`), a list item by its merge keys (`k:`), an item of a set (`v:`), or an
// item of an atomic list by index (`i:`). Their order (fields < keys < values < indexes), their FieldsV1 key
// spelling and their human form (`.spec.containers[name="nginx"].image`) are SMD's.
import { compareUtf8, goJson, goQuote } from "./go-json";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Merge-key fields of a list item, sorted by field name. */
export type KeyFields = readonly (readonly [name: string, value: Json])[];

export type PathElement =
  | { readonly field: string }
  | { readonly key: KeyFields }
  | { readonly value: Json }
  | { readonly index: number };

export type Path = readonly PathElement[];

const rank = (pe: PathElement) => ("field" in pe ? 0 : "key" in pe ? 1 : "value" in pe ? 2 : 3);

const valueRank = (v: Json) =>
  typeof v === "number" ? 0 : typeof v === "string" ? 1 : typeof v === "boolean" ? 2 : Array.isArray(v) ? 3 : v === null ? 5 : 4;

/** SMD's total order of values: numbers, strings, booleans, lists, maps, null. */
export function compareValues(a: Json, b: Json): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number") return a === b ? 0 : a < (b as number) ? -1 : 1;
  if (typeof a === "string") return compareUtf8(a, b as string);
  if (typeof a === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bl = b as Json[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i], bl[i]);
      if (c) return c;
    }
    return a.length - bl.length;
  }
  if (a === null) return 0;
  const ao = a as Record<string, Json>;
  const bo = b as Record<string, Json>;
  const ak = Object.keys(ao).sort(compareUtf8);
  const bk = Object.keys(bo).sort(compareUtf8);
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    const c = compareUtf8(ak[i], bk[i]) || compareValues(ao[ak[i]], bo[bk[i]]);
    if (c) return c;
  }
  return ak.length - bk.length;
}

function compareKeys(a: KeyFields, b: KeyFields): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareUtf8(a[i][0], b[i][0]) || compareValues(a[i][1], b[i][1]);
    if (c) return c;
  }
  return a.length - b.length;
}

export function comparePathElements(a: PathElement, b: PathElement): number {
  const r = rank(a) - rank(b);
  if (r) return r;
  if ("field" in a) return compareUtf8(a.field, (b as { field: string }).field);
  if ("key" in a) return compareKeys(a.key, (b as { key: KeyFields }).key);
  if ("value" in a) return compareValues(a.value, (b as { value: Json }).value);
  return a.index - (b as { index: number }).index;
}

export const samePathElement = (a: PathElement, b: PathElement) => comparePathElements(a, b) === 0;

/** Sorted key fields for a list item's merge keys. */
export function keyOf(fields: Iterable<readonly [string, Json]>): KeyFields {
  return [...fields].sort((x, y) => compareUtf8(x[0], y[0]));
}

/** The FieldsV1 key of a path element: `f:name`, `k:{"name":"x"}`, `v:"x"`, `i:0`. */
export function serializePathElement(pe: PathElement): string {
  if ("field" in pe) return `f:${pe.field}`;
  if ("key" in pe) return `k:{${pe.key.map(([k, v]) => `${goJson(k)}:${goJson(v)}`).join(",")}}`;
  if ("value" in pe) return `v:${goJson(pe.value)}`;
  return `i:${pe.index}`;
}

export class PathElementError extends Error {}

/** Parses a FieldsV1 key; undefined for a prefix SMD does not know (such keys are skipped, as SMD does). */
export function deserializePathElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementError("key must be 2 characters long:");
  if (s[1] !== ":") throw new PathElementError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case "f":
      return { field: body };
    case "v":
      return { value: parseJson(body) };
    case "k": {
      const parsed = parseJson(body);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new PathElementError(`ReadObjectCB: expect { or n, but found ${body.slice(0, 1)}`);
      }
      return { key: keyOf(Object.entries(parsed)) };
    }
    case "i": {
      if (!/^[+-]?\d+$/.test(body)) throw new PathElementError(`strconv.Atoi: parsing ${goQuote(body)}: invalid syntax`);
      return { index: Number(body) };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new PathElementError((err as Error).message);
  }
}

/** SMD's value.ToString: strings quoted, numbers and booleans bare, lists and maps spelled out. */
export function valueString(v: Json): string {
  if (v === null) return "null";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(",")}]`;
  return `{${Object.keys(v).sort(compareUtf8).map((k) => `${k}=${valueString(v[k])}`).join(",")}}`;
}

/** Human form of one element: `.name`, `[name="x",protocol="TCP"]`, `[="x"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  if ("field" in pe) return `.${pe.field}`;
  if ("key" in pe) return `[${pe.key.map(([k, v]) => `${k}=${valueString(v)}`).join(",")}]`;
  if ("value" in pe) return `[=${valueString(pe.value)}]`;
  return `[${pe.index}]`;
}

export const pathString = (p: Path) => p.map(pathElementString).join("");

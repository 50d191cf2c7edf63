// Defaulting as kube-apiserver 1.32 does for a custom resource, after pruning, on every decode (a request body
// and an object read from storage, each by the schema of the version it is in): first a null that its schema
// neither allows (nullable) nor defaults is dropped (apiextensions' PruneNonNullableNullsWithoutDefaults), then
// every specified property, additionalProperties value and list item that is absent, or null where null is not
// allowed, takes a deep copy of its schema's default, and the walk goes on into the defaulted value, so nested
// defaults apply inside a defaulted object. Defaults never add unknown fields: a CRD's defaults are checked to be
// pruned when the CRD is written (structural.ts).
import type { JSONSchemaProps } from "./types";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = (v: unknown): unknown => (v === undefined ? undefined : structuredClone(v));
const itemsOf = (s: JSONSchemaProps | undefined) => (s && !Array.isArray(s.items) ? s.items : undefined);
const extraOf = (s: JSONSchemaProps | undefined) =>
  s && typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;

function schemaForField(k: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.properties?.[k] ?? extraOf(s);
}

/** Drops, in place, null values whose schema is not nullable and has no default. */
export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNulls(v, itemsOf(s));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const sub = schemaForField(k, s);
    if (x[k] === null && sub && !sub.nullable && sub.default === undefined) delete x[k];
    else pruneNonNullableNulls(x[k], sub);
  }
}

const nonNullableNull = (v: unknown, s: JSONSchemaProps | undefined) => v === null && !!s && !s.nullable;

/** Fills, in place, the defaults `s` specifies into `x`. */
export function defaultValues(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    x.forEach((v, i) => {
      if (items && items.default !== undefined && nonNullableNull(v, items)) x[i] = clone(items.default);
      defaultValues(x[i], items);
    });
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(k in x) || nonNullableNull(x[k], prop)) x[k] = clone(prop.default);
  }
  const extra = extraOf(s);
  for (const k of Object.keys(x)) {
    const prop = s.properties?.[k];
    if (prop) defaultValues(x[k], prop);
    else if (extra) {
      if (extra.default !== undefined && nonNullableNull(x[k], extra)) x[k] = clone(extra.default);
      defaultValues(x[k], extra);
    }
  }
}

/** Both steps in kube's order: the object as a client reads it back, defaults filled. */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  pruneNonNullableNulls(obj, schema);
  defaultValues(obj, schema);
}

// A custom resource against its schema, as kube-apiserver 1.32 validates it: kube-openapi's schema validator
// (its validators in their order: type, allOf/anyOf/oneOf/not, string, format, number, array, enum, object) with
// its messages (`spec.replicas in body must be of type integer: "string"`), turned into field errors as
// apiextensions' kubeOpenAPIResultToFieldErrors does; then the x-kubernetes-list-type set/map uniqueness and the
// embedded resources' TypeMeta. An update may pass the old object: ratcheting then drops the errors of every
// value that correlates with an unchanged old value (kube's CRDValidationRatcheting, on by default in 1.32).
import { goQuote, type FieldError } from "../status";
import { kubeField, goFloat } from "./field-errors";
import { child, index } from "./field-path";
import { formatValid, isSupportedFormat } from "./formats";
import { compileGoPattern } from "./go-regexp";
import type { JSONSchemaProps } from "./types";

/** One kube-openapi error before it becomes a field error. */
interface OpenAPIError {
  kind: "type" | "required" | "tooLong" | "enum" | "maxItems" | "tooManyProperties" | "other" | "composite";
  /** The kube-openapi name (a dotted path, "" or ".x" at the root). */
  name: string;
  value?: unknown;
  values?: unknown[];
  max?: number;
  message: string;
}

export interface ValidateOptions {
  /** The field path the errors hang under (kube passes none for an object: `spec.x`; a default's path for defaults). */
  basePath?: string;
  /** The old object of an update: unchanged values that still fail are let through (ratcheting). */
  old?: { value: unknown };
}

const IN = "body";

const typeOf = (v: unknown): string => {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (Array.isArray(v)) return "array";
  return "object";
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The schema's types as kube-openapi sees them (int-or-string is ["integer", "string"]). */
const typesOf = (s: JSONSchemaProps): string[] =>
  s["x-kubernetes-int-or-string"] ? ["integer", "string"] : s.type ? [s.type] : [];

/** Formats kube keeps in a CRD's validator; any other format is dropped before validation. */
const formatOf = (s: JSONSchemaProps): string => (s.format && isSupportedFormat(s.format) ? s.format : "");

const runeLength = (s: string) => [...s].length;

function typeError(name: string, typeName: string, value: string): OpenAPIError {
  return { kind: "type", name, value, message: `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}` };
}

/** A value printed as Go's %v prints a float64 bound, or an int64 one when the data is an integer. */
const bound = (n: number, integerData: boolean) => (integerData ? String(Math.trunc(n)) : goFloat(n));

interface Old { value: unknown }

/** kube-openapi's SchemaValidator.Validate, at kube-openapi name `name`. */
function validateNode(s: JSONSchemaProps, data: unknown, name: string, old: Old | undefined): OpenAPIError[] {
  if (old && deepEqual(data, old.value)) return []; // ratcheting: an unchanged value keeps its old validity
  const errs: OpenAPIError[] = [];
  const types = typesOf(s);
  const format = formatOf(s);
  const dataType = typeOf(data);

  if (data === null || data === undefined) {
    if (types.length > 0 && !s.nullable) errs.push(typeError(name, types.join(","), "null"));
    errs.push(...enumErrors(s, data, name));
    return errs;
  }

  // type
  if (types.length > 0 || format) {
    const isString = dataType === "string";
    const isSlice = dataType === "array";
    const intFloat = dataType === "integer" && types.includes("number");
    if (!isString && !isSlice && format && !(types.includes(dataType) || intFloat)) {
      errs.push(typeError(name, format, dataType === "integer" ? "int64" : dataType === "number" ? "float64" : ""));
    } else if (!(!(types.includes("number") || types.includes("integer")) && format && (isString || isSlice))) {
      if (!(types.includes(dataType) || intFloat)) errs.push(typeError(name, types.join(","), dataType));
    }
  }

  // allOf / anyOf / oneOf / not
  errs.push(...schemaPropsErrors(s, data, name, old));

  // string
  if (dataType === "string") {
    const str = data as string;
    if (s.maxLength !== undefined && runeLength(str) > s.maxLength) {
      errs.push({ kind: "tooLong", name, value: str, max: s.maxLength, message: `${name} in ${IN} should be at most ${s.maxLength} chars long` });
    } else if (s.minLength !== undefined && runeLength(str) < s.minLength) {
      errs.push({ kind: "other", name, value: str, message: `${name} in ${IN} should be at least ${s.minLength} chars long` });
    } else if (s.pattern && !patternMatches(s.pattern, str)) {
      errs.push({ kind: "other", name, value: str, message: `${name} in ${IN} should match '${s.pattern}'` });
    }
    // format
    if (format && !formatValid(format, str)) errs.push(typeError(name, format, str));
  }

  // number
  if (dataType === "integer" || dataType === "number") {
    const n = data as number;
    const integerData = dataType === "integer";
    if (s.multipleOf !== undefined && s.multipleOf !== 0) {
      const q = n / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) {
        errs.push({ kind: "other", name, value: n, message: `${name} in ${IN} should be a multiple of ${bound(s.multipleOf, integerData && Number.isInteger(s.multipleOf))}` });
      }
    }
    if (s.minimum !== undefined) {
      const min = integerData ? Math.trunc(s.minimum) : s.minimum;
      if (s.exclusiveMinimum ? n <= min : n < min) {
        errs.push({ kind: "other", name, value: n, message: `${name} in ${IN} should be greater than ${s.exclusiveMinimum ? "" : "or equal to "}${bound(s.minimum, integerData)}` });
      }
    }
    if (s.maximum !== undefined) {
      const max = integerData ? Math.trunc(s.maximum) : s.maximum;
      if (s.exclusiveMaximum ? n >= max : n > max) {
        errs.push({ kind: "other", name, value: n, message: `${name} in ${IN} should be less than ${s.exclusiveMaximum ? "" : "or equal to "}${bound(s.maximum, integerData)}` });
      }
    }
  }

  // array
  if (dataType === "array") {
    const list = data as unknown[];
    const items = Array.isArray(s.items) ? undefined : s.items;
    if (items) {
      const oldItems = correlatedItems(s, list, old);
      list.forEach((item, i) => errs.push(...validateNode(items, item, `${name}[${i}]`, oldItems[i])));
    }
    if (s.minItems !== undefined && list.length < s.minItems) {
      errs.push({ kind: "other", name, value: list.length, message: `${name} in ${IN} should have at least ${s.minItems} items` });
    }
    if (s.maxItems !== undefined && list.length > s.maxItems) {
      errs.push({ kind: "maxItems", name, value: list.length, max: s.maxItems, message: `${name} in ${IN} should have at most ${s.maxItems} items` });
    }
    if (s.uniqueItems && list.some((x, i) => list.findIndex((y) => deepEqual(x, y)) !== i)) {
      errs.push({ kind: "other", name, message: `${name} in ${IN} shouldn't contain duplicates` });
    }
  }

  // enum
  errs.push(...enumErrors(s, data, name));

  // object
  if (dataType === "object") errs.push(...objectErrors(s, data as Record<string, unknown>, name, old));
  return errs;
}

function enumErrors(s: JSONSchemaProps, data: unknown, name: string): OpenAPIError[] {
  if (!s.enum || s.enum.length === 0) return [];
  if (data !== null && data !== undefined && s.enum.some((v) => deepEqual(v, data))) return [];
  return [{ kind: "enum", name, value: data ?? null, values: s.enum, message: `${name} in ${IN} should be one of ${JSON.stringify(s.enum)}` }];
}

function objectErrors(s: JSONSchemaProps, given: Record<string, unknown>, name: string, old: Old | undefined): OpenAPIError[] {
  // JSON has no undefined: a key holding it is absent
  const obj = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const keys = Object.keys(obj);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    return [{ kind: "other", name, value: keys.length, message: `${name} in ${IN} should have at least ${s.minProperties} properties` }];
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    return [{ kind: "tooManyProperties", name, value: keys.length, max: s.maxProperties, message: `${name} in ${IN} should have at most ${s.maxProperties} properties` }];
  }
  const errs: OpenAPIError[] = [];
  const props = s.properties ?? {};
  const oldObj = old && isObject(old.value) ? old.value : undefined;
  const oldOf = (k: string): Old | undefined => (oldObj && k in oldObj ? { value: oldObj[k] } : undefined);
  if (s.additionalProperties === false) {
    for (const k of keys) {
      if (!(k in props)) errs.push({ kind: "other", name, value: k, message: `${name}.${k} in ${IN} is a forbidden property` });
    }
  } else if (typeof s.additionalProperties === "object") {
    for (const k of keys) {
      if (!(k in props)) errs.push(...validateNode(s.additionalProperties, obj[k], `${name}.${k}`, oldOf(k)));
    }
  }
  for (const [k, sub] of Object.entries(props)) {
    if (k in obj) errs.push(...validateNode(sub, obj[k], name ? `${name}.${k}` : k, oldOf(k)));
  }
  for (const k of s.required ?? []) {
    if (!(k in obj)) {
      errs.push({ kind: "required", name: `${name}.${k}`, message: `${name}.${k} in ${IN} is required` });
    }
  }
  return errs;
}

/** The old items an array's items correlate with: by key for x-kubernetes-list-type map, none otherwise. */
function correlatedItems(s: JSONSchemaProps, list: unknown[], old: Old | undefined): (Old | undefined)[] {
  const keys = s["x-kubernetes-list-map-keys"] ?? [];
  if (!old || !Array.isArray(old.value) || s["x-kubernetes-list-type"] !== "map" || keys.length === 0) return [];
  const byKey = listMapIndex(old.value, keys);
  return list.map((item) => {
    const match = isObject(item) ? byKey.get(listMapKey(item, keys)) : undefined;
    return match === undefined ? undefined : { value: match };
  });
}

/** A list-map item's identity: its key fields' values. */
export const listMapKey = (item: Record<string, unknown>, keys: string[]): string => JSON.stringify(keys.map((k) => item[k] ?? null));

/** The items of a list-map by identity (the first of duplicates), so correlating n items costs n lookups. */
export function listMapIndex(list: unknown[], keys: string[]): Map<string, Record<string, unknown>> {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const o of list) {
    if (!isObject(o)) continue;
    const k = listMapKey(o, keys);
    if (!byKey.has(k)) byKey.set(k, o);
  }
  return byKey;
}

function schemaPropsErrors(s: JSONSchemaProps, data: unknown, name: string, old: Old | undefined): OpenAPIError[] {
  const errs: OpenAPIError[] = [];
  const q = goQuote(name);
  if (s.anyOf?.length) {
    const results = s.anyOf.map((sub) => validateNode(sub, data, name, old));
    if (!results.some((r) => r.length === 0)) {
      errs.push({ kind: "composite", name: "", message: `${q} must validate at least one schema (anyOf)` });
      errs.push(...fewest(results));
    }
  }
  if (s.oneOf?.length) {
    const results = s.oneOf.map((sub) => validateNode(sub, data, name, old));
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      errs.push({ kind: "composite", name: "", message: `${q} must validate one and only one schema (oneOf). ${valid === 0 ? "Found none valid" : `Found ${valid} valid alternatives`}` });
      if (valid === 0) errs.push(...fewest(results));
    }
  }
  if (s.allOf?.length) {
    const results = s.allOf.map((sub) => validateNode(sub, data, name, old));
    for (const r of results) errs.push(...r);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== results.length) {
      errs.push({ kind: "composite", name: "", message: `${q} must validate all the schemas (allOf)${valid === 0 ? ". None validated" : ""}` });
    }
  }
  if (s.not && validateNode(s.not, data, name, undefined).length === 0) {
    errs.push({ kind: "composite", name: "", message: `${q} must not validate the schema (not)` });
  }
  return errs;
}

/** kube-openapi reports the failing alternative that matched best; the one with fewest errors stands for it. */
const fewest = (results: OpenAPIError[][]) => results.reduce((best, r) => (r.length < best.length ? r : best));

const patternMatches = (pattern: string, s: string) => compileGoPattern(pattern)?.test(s) ?? true;

/** kubeOpenAPIResultToFieldErrors: one kube-openapi error as the field error a 422 lists. */
function toFieldError(e: OpenAPIError, basePath: string): FieldError {
  const trimmed = e.name.startsWith(".") ? e.name.slice(1) : e.name;
  const path = e.name && e.name !== "." ? child(basePath, trimmed) : basePath || "<nil>";
  switch (e.kind) {
    case "required":
      return kubeField.required(path);
    case "enum":
      return kubeField.notSupported(path, e.value, (e.values ?? []).map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
    case "tooLong":
      return kubeField.tooLong(path, e.max ?? -1);
    case "maxItems":
    case "tooManyProperties":
      return kubeField.tooMany(path, e.value as number, e.max ?? -1);
    case "type":
      return kubeField.typeInvalid(path, e.value ?? "", e.message);
    case "composite":
      return kubeField.invalid(basePath || "<nil>", "", e.message);
    default:
      return kubeField.invalid(path, e.value ?? "", e.message);
  }
}

/** Schema validation of `value` (a whole custom resource, or a default) with kube's paths and messages. */
export function schemaErrors(schema: JSONSchemaProps, value: unknown, opts: ValidateOptions = {}): FieldError[] {
  return validateNode(schema, value, "", opts.old).map((e) => toFieldError(e, opts.basePath ?? ""));
}

/** x-kubernetes-list-type set and map uniqueness (kube's listtype.ValidateListSetsAndMaps): one Duplicate per
 *  value seen before, at its second appearance. */
export function listTypeErrors(schema: JSONSchemaProps, value: unknown, path = ""): FieldError[] {
  const errs: FieldError[] = [];
  if (Array.isArray(value)) {
    const listType = schema["x-kubernetes-list-type"];
    if (listType === "set") {
      for (const i of nonUnique(value)) errs.push(kubeField.duplicate(index(path, i), value[i]));
    } else if (listType === "map") {
      errs.push(...listMapErrors(schema, value, path));
    }
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (items) value.forEach((v, i) => errs.push(...listTypeErrors(items, v, index(path, i))));
  } else if (isObject(value)) {
    const props = schema.properties ?? {};
    const extra = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
    for (const [k, v] of Object.entries(value)) {
      if (extra) errs.push(...listTypeErrors(extra, v, `${path}[${k}]`));
      if (props[k]) errs.push(...listTypeErrors(props[k], v, child(path, k)));
    }
  }
  return errs;
}

function nonUnique(list: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const k = typeof x === "object" && x !== null ? `c${JSON.stringify(sortKeys(x))}` : `s${typeof x}:${String(x)}`;
    const times = seen.get(k) ?? 0;
    seen.set(k, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (isObject(x)) return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k])]));
  return x;
}

function listMapErrors(schema: JSONSchemaProps, list: unknown[], path: string): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isObject(x)) return [kubeField.invalid(index(path, i), x, "must be an object for an array of list-type map")];
  }
  if (list.length <= 1) return [];
  const keyFields = schema["x-kubernetes-list-map-keys"] ?? [];
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (f in x) key[f] = x[f];
    return key;
  });
  return nonUnique(keys).map((i) => kubeField.duplicate(index(path, i), keys[i]));
}

/** An x-kubernetes-embedded-resource's TypeMeta (kube's objectmeta.Validate): apiVersion and kind required,
 *  strings, not empty. The embedded ObjectMeta's own rules are the registry's (lib/validation). */
export function embeddedResourceErrors(schema: JSONSchemaProps, value: unknown, path = "", isRoot = false): FieldError[] {
  const errs: FieldError[] = [];
  if (Array.isArray(value)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (items) value.forEach((v, i) => errs.push(...embeddedResourceErrors(items, v, index(path, i))));
    return errs;
  }
  if (!isObject(value)) return errs;
  if (schema["x-kubernetes-embedded-resource"] && !isRoot) {
    if (!("apiVersion" in value)) errs.push(kubeField.required(child(path, "apiVersion")));
    if (!("kind" in value)) errs.push(kubeField.required(child(path, "kind")));
    for (const k of ["apiVersion", "kind"]) {
      if (!(k in value)) continue;
      const v = value[k];
      if (typeof v !== "string") errs.push(kubeField.invalid(child(path, k), v, "must be a string"));
      else if (v === "") errs.push(kubeField.invalid(child(path, k), v, "must not be empty"));
    }
  }
  const props = schema.properties ?? {};
  const extra = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  for (const [k, v] of Object.entries(value)) {
    if (props[k]) errs.push(...embeddedResourceErrors(props[k], v, child(path, k)));
    else if (extra) errs.push(...embeddedResourceErrors(extra, v, `${path}[${k}]`));
  }
  return errs;
}

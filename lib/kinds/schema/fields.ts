// Unknown-field handling for fieldValidation=Ignore|Warn|Strict: kube-apiserver's strict decoder reports fields
// its Go types lack (`unknown field "spec.containers[0].foo"`) and otherwise drops them silently.
import type { Schema } from "./schema";

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Assignment that keeps a `__proto__` key an own property instead of changing the prototype. */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Paths of fields in `value` that `schema` does not declare, in document order, written as kube-apiserver
 * writes them: dots between fields, `[i]` for list elements, `[key]` for map entries (`spec.containers[0].foo`,
 * `metadata.bar`). Values of the wrong JSON type are not descended into (they are a decoding error, not an
 * unknown field). Pure.
 */
export function findUnknownFields(value: unknown, schema: Schema): string[] {
  const found: string[] = [];
  walk(value, schema, "", (path) => found.push(path));
  return found;
}

function walk(value: unknown, schema: Schema, path: string, report: (path: string) => void): void {
  if (schema.type === "object") {
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      const child = Object.prototype.hasOwnProperty.call(schema.properties, key) ? schema.properties[key] : undefined;
      if (!child) report(join(path, key));
      else walk(value[key], child, join(path, key), report);
    }
  } else if (schema.type === "array") {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) walk(value[i], schema.items, `${path}[${i}]`, report);
  } else if (schema.type === "map") {
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) walk(value[key], schema.values, `${path}[${key}]`, report);
  }
}

/** A copy of `value` without the fields `findUnknownFields` reports (what kube-apiserver stores after decoding). */
export function stripUnknownFields<T>(value: T, schema: Schema): T {
  return strip(value, schema) as T;
}

function strip(value: unknown, schema: Schema): unknown {
  if (schema.type === "object" && isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      const child = Object.prototype.hasOwnProperty.call(schema.properties, key) ? schema.properties[key] : undefined;
      if (child) setOwn(out, key, strip(value[key], child));
    }
    return out;
  }
  if (schema.type === "array" && Array.isArray(value)) return value.map((v) => strip(v, schema.items));
  if (schema.type === "map" && isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, strip(value[key], schema.values));
    return out;
  }
  return structuredCloneJson(value);
}

function structuredCloneJson(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return structuredClone(value);
}

// What kube-apiserver's typed JSON decoding does besides unknown fields: refuse values of the wrong JSON type
// (`json: cannot unmarshal string into Go struct field ... of type int64`), and, on the way out, leave out
// empty lists and maps (Go's `omitempty`). Schema-driven, pure, bounded by the value's size.
import type { Schema } from "./schema";

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const jsonType = (v: unknown): string =>
  Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "boolean" ? "bool" : typeof v;

function goType(s: Schema): string {
  switch (s.type) {
    case "object": return s.name ? `v1.${s.name.split(".").pop()}` : "struct";
    case "array": return `[]${goType(s.items)}`;
    case "map": return `map[string]${goType(s.values)}`;
    case "integer": return s.format;
    case "number": return "float64";
    case "boolean": return "bool";
    case "quantity": return "resource.Quantity";
    case "int-or-string": return "intstr.IntOrString";
    case "time": case "micro-time": return "v1.Time";
    case "bytes": return "[]uint8";
    default: return "string";
  }
}

function fits(v: unknown, s: Schema): boolean {
  if (v === null) return true; // JSON null decodes to the zero value
  switch (s.type) {
    case "object": case "map": return isObject(v);
    case "array": return Array.isArray(v);
    case "integer": return typeof v === "number" && Number.isInteger(v);
    case "number": return typeof v === "number";
    case "boolean": return typeof v === "boolean";
    case "quantity": case "int-or-string": return typeof v === "string" || typeof v === "number";
    case "any": return true;
    default: return typeof v === "string";
  }
}

const shortName = (s: Schema): string | undefined => (s.type === "object" && s.name ? s.name.split(".").pop() : undefined);

/**
 * The first value in `value` whose JSON type does not fit `schema`, as Go's decoder words it, or undefined:
 * `Go struct field PodSpec.spec.terminationGracePeriodSeconds` names the innermost Go struct and the full path.
 * `typeName` (the kind) stands for the top-level struct when the schema has no name.
 */
export function findTypeError(value: unknown, schema: Schema, typeName: string): string | undefined {
  const stack: [unknown, Schema, string, string][] = [[value, schema, "", shortName(schema) ?? typeName]];
  while (stack.length) {
    const [v, s, path, owner] = stack.pop()!;
    if (!fits(v, s)) {
      const what = typeof v === "number" && (s.type === "integer") ? `number ${v}` : jsonType(v);
      return `json: cannot unmarshal ${what} into Go struct field ${owner}.${path} of type ${goType(s)}`;
    }
    if (v === null) continue;
    if (s.type === "object") {
      const inner = path === "" ? owner : shortName(s) ?? owner;
      for (const [k, child] of Object.entries(v as JsonObject)) {
        const cs = Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
        if (cs) stack.push([child, cs, path ? `${path}.${k}` : k, inner]);
      }
    } else if (s.type === "map") {
      for (const child of Object.values(v as JsonObject)) stack.push([child, s.values, path, owner]);
    } else if (s.type === "array") {
      for (const child of v as unknown[]) stack.push([child, s.items, path, owner]);
    }
  }
  return undefined;
}

/** Go's reflect kind of a decoded JSON value (json numbers without a fraction decode as int64 for kube). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return "slice";
  if (typeof v === "object") return "map";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  return "string";
}

/** Go's reflect kind of a field's type, where the converter names it. */
const fieldKind = (s: Schema): string =>
  s.type === "integer" ? s.format : s.type === "number" ? "float64" : s.type === "boolean" ? "bool" : "string";

/**
 * The first value in `value` that kube's unstructured converter (how a strategic merge patch's result becomes a
 * typed object) refuses, worded as it words it (`cannot restore map from string`), or undefined. Its messages
 * name no field. Types with their own JSON decoding (quantities, times, int-or-string) keep the JSON decoder's
 * message, which is how they decode there too.
 */
export function findConversionError(value: unknown, schema: Schema, typeName: string): string | undefined {
  const stack: [unknown, Schema][] = [[value, schema]];
  while (stack.length) {
    const [v, s] = stack.pop()!;
    if (v === null || s.type === "any") continue;
    const from = goKind(v);
    switch (s.type) {
      case "object":
        if (from !== "map") return `cannot restore struct from: ${from}`;
        for (const [k, child] of Object.entries(v as JsonObject)) {
          if (Object.prototype.hasOwnProperty.call(s.properties, k)) stack.push([child, s.properties[k]]);
        }
        continue;
      case "map":
        if (from !== "map") return `cannot restore map from ${from}`;
        for (const child of Object.values(v as JsonObject)) stack.push([child, s.values]);
        continue;
      case "array":
        if (from !== "slice") return `cannot restore slice from ${from}`;
        for (const child of v as unknown[]) stack.push([child, s.items]);
        continue;
      case "bytes":
        if (from !== "string" && from !== "slice") return `cannot restore slice from ${from}`;
        continue;
      case "quantity": case "int-or-string": case "time": case "micro-time":
        if (!fits(v, s)) return findTypeError(v, s, typeName);
        continue;
    }
    const to = fieldKind(s);
    const numeric = (k: string) => k.startsWith("int") || k.startsWith("uint") || k.startsWith("float");
    if (from === to || (numeric(from) && numeric(to) && (from !== "float64" || to.startsWith("float") || Number.isInteger(v)))) continue;
    // Go converts an integer to a string (a rune), which the converter then refuses by name; other pairs
    // are not convertible at all.
    if (from === "int64" && to === "string") return "cannot convert int64 to string";
    if (from === "float64" && numeric(to)) return `cannot convert float64 to ${to}`;
    return `unrecognized type: ${to}`;
  }
  return undefined;
}

/** Remove empty lists and maps (and nulls standing for them) from objects, as Go's `omitempty` leaves them out. Mutates. */
export function pruneEmptyCollections(value: unknown, schema: Schema): void {
  const stack: [unknown, Schema][] = [[value, schema]];
  while (stack.length) {
    const [v, s] = stack.pop()!;
    if (s.type === "object" && isObject(v)) {
      for (const [k, child] of Object.entries(v)) {
        const cs = Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
        if (!cs) continue;
        if ((cs.type === "array" || cs.type === "map") && (child === null || (Array.isArray(child) ? child.length === 0 : isObject(child) && Object.keys(child).length === 0))) {
          delete v[k];
          continue;
        }
        stack.push([child, cs]);
      }
    } else if (s.type === "array" && Array.isArray(v)) {
      for (const child of v) stack.push([child, s.items]);
    } else if (s.type === "map" && isObject(v)) {
      for (const child of Object.values(v)) stack.push([child, s.values]);
    }
  }
}

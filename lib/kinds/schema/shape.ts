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

// The kinds' schemas (lib/kinds/schema) seen as SMD sees kube's OpenAPI models: structs (granular unless the
// Go type is `+structType=atomic`), maps (granular unless `x-kubernetes-map-type: atomic`), lists (atomic, a
// set of scalars, or a map keyed by `x-kubernetes-list-map-keys`) and scalars. Quantity and IntOrString are
// untyped scalars, RawExtension/FieldsV1 (`any`) and fields unknown to the schema are deduced from the value.
import type { Schema } from "../kinds/schema/schema";
import { coreType, metaType } from "../kinds/schema/names";
import type { Json } from "./path-element";

export type ScalarType = "string" | "numeric" | "boolean" | "untyped";

export type Atom =
  | { readonly type: "scalar"; readonly scalar: ScalarType }
  | { readonly type: "struct"; readonly fields: Readonly<Record<string, Schema>>; readonly atomic: boolean; readonly preserveUnknown?: boolean }
  | { readonly type: "map"; readonly values: Schema | undefined; readonly atomic: boolean }
  | { readonly type: "list"; readonly items: Schema | undefined; readonly relationship: "atomic" | "set" | "map"; readonly keys: readonly string[] }
  | { readonly type: "untyped" };

/** Go types marked `+structType=atomic` in Kubernetes 1.32 (owned and replaced as a whole). */
const ATOMIC_STRUCTS = new Set([
  metaType("LabelSelector"),
  coreType("ObjectReference"), coreType("LocalObjectReference"), coreType("SecretReference"),
  coreType("TypedLocalObjectReference"),
  coreType("ConfigMapKeySelector"), coreType("SecretKeySelector"),
  coreType("ObjectFieldSelector"), coreType("ResourceFieldSelector"),
  coreType("NodeSelector"), coreType("NodeSelectorTerm"), coreType("TopologySelectorTerm"),
  coreType("ScopeSelector"),
]);

/** Defaults kube's OpenAPI declares for list-map key fields (`+default="TCP"`), used when an item omits them. */
const KEY_DEFAULTS: Record<string, Record<string, Json>> = {
  [coreType("ContainerPort")]: { protocol: "TCP" },
  [coreType("ServicePort")]: { protocol: "TCP" },
};

const UNTYPED: Atom = { type: "untyped" };

export function atomOf(s: Schema | undefined): Atom {
  if (!s) return UNTYPED;
  switch (s.type) {
    case "object":
      return {
        type: "struct", fields: s.properties,
        atomic: s.mapType === "atomic" || (!!s.name && ATOMIC_STRUCTS.has(s.name)),
        preserveUnknown: !!s.preserveUnknownFields,
      };
    case "map":
      return { type: "map", values: s.values, atomic: s.mapType === "atomic" };
    case "array":
      return { type: "list", items: s.items, relationship: s.listType ?? "atomic", keys: s.listType === "map" ? s.listMapKeys ?? [] : [] };
    case "string": case "time": case "micro-time": case "bytes":
      return { type: "scalar", scalar: "string" };
    case "integer": case "number":
      return { type: "scalar", scalar: "numeric" };
    case "boolean":
      return { type: "scalar", scalar: "boolean" };
    case "quantity": case "int-or-string":
      return { type: "scalar", scalar: "untyped" };
    default:
      return UNTYPED;
  }
}

/** The schema of a struct field or map value; undefined when the struct does not declare `key`. */
export function childSchema(atom: Atom, key: string): Schema | undefined {
  if (atom.type === "struct") return Object.prototype.hasOwnProperty.call(atom.fields, key) ? atom.fields[key] : undefined;
  if (atom.type === "map") return atom.values;
  return undefined;
}

/** True when `key` is a declared field of a struct (named fields are never owned as map entries are). */
export function isNamedField(atom: Atom, key: string): boolean {
  return atom.type === "struct" && Object.prototype.hasOwnProperty.call(atom.fields, key);
}

/** True when a struct keeps fields it does not declare, their structure deduced (preserve-unknown-fields). */
export function keepsUnknownFields(atom: Atom): boolean {
  return atom.type === "struct" && !!atom.preserveUnknown;
}

/** The default kube's schema gives a list-map key field of an item type, if any. */
export function keyDefault(items: Schema | undefined, field: string): Json | undefined {
  if (!items || items.type !== "object") return undefined;
  if (items.fieldDefaults && Object.prototype.hasOwnProperty.call(items.fieldDefaults, field)) return items.fieldDefaults[field] as Json;
  if (!items.name) return undefined;
  const d = KEY_DEFAULTS[items.name];
  return d && Object.prototype.hasOwnProperty.call(d, field) ? d[field] : undefined;
}

const isMap = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The atom a value is walked with: the schema's, or, for untyped positions, one deduced from the value as SMD
 * deduces it (maps granular with untyped values, lists atomic, anything else a scalar).
 */
export function resolveAtom(atom: Atom, v: unknown): Atom {
  if (atom.type !== "untyped") return atom;
  if (isMap(v)) return { type: "map", values: undefined, atomic: false };
  if (Array.isArray(v)) return { type: "list", items: undefined, relationship: "atomic", keys: [] };
  return { type: "scalar", scalar: "untyped" };
}

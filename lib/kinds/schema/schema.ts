// A tiny schema language for the twelve kinds: one declaration per kind drives unknown-field detection,
// strategic merge patch (merge keys and strategies, as kube's Go struct tags), the OpenAPI v2/v3 documents
// and the console's JSON Schema. Pure data: no I/O, safe in the browser.

/** Go struct tag `patchStrategy`; "merge,retainKeys" is Pod `spec.volumes`. */
export type PatchStrategy = "merge" | "replace" | "retainKeys" | "merge,retainKeys";
/** `+listType` marker (server-side apply); published as `x-kubernetes-list-type`. */
export type ListType = "atomic" | "set" | "map";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface SchemaBase {
  /** What the field holds; shown by `kubectl explain` and the console editor. */
  description?: string;
}

export interface ObjectSchema extends SchemaBase {
  type: "object";
  properties: Readonly<Record<string, Schema>>;
  /** OpenAPI component name (`io.k8s.api.core.v1.Container`); anonymous objects are inlined. */
  name?: string;
  /** Description of the named type itself; `description` may differ per field that uses it. */
  typeDescription?: string;
  required?: readonly string[];
  /** Patch strategy of the field holding this object: "replace" swaps it whole in a strategic merge patch. */
  strategy?: "replace" | "retainKeys";
  /** Set on top-level kind schemas. */
  gvk?: GroupVersionKind;
  /** Server-side apply: owned and replaced as a whole (a CRD's `x-kubernetes-map-type: atomic` on an object). */
  mapType?: "atomic" | "granular";
  /** Fields beyond `properties` are kept, their structure deduced (a CRD's `x-kubernetes-preserve-unknown-fields`). */
  preserveUnknownFields?: boolean;
  /** Defaults of fields (a CRD schema's `default`): a list-map item omitting a key field takes its default. */
  fieldDefaults?: Readonly<Record<string, unknown>>;
}

export interface ArraySchema extends SchemaBase {
  type: "array";
  items: Schema;
  /** `patchMergeKey`: list elements are matched by this field in a strategic merge patch. */
  mergeKey?: string;
  /** `patchStrategy`; without "merge" the list is replaced whole. */
  strategy?: PatchStrategy;
  listType?: ListType;
  listMapKeys?: readonly string[];
}

export interface MapSchema extends SchemaBase {
  type: "map";
  /** Schema of every value; keys are arbitrary strings. */
  values: Schema;
  mapType?: "atomic" | "granular";
}

export interface StringSchema extends SchemaBase {
  type: "string";
  enum?: readonly string[];
}

export interface IntegerSchema extends SchemaBase {
  type: "integer";
  format: "int32" | "int64";
}

/** Scalars whose shape needs no options. `quantity` and `int-or-string` accept a JSON number or string. */
export interface SimpleSchema extends SchemaBase {
  type: "number" | "boolean" | "quantity" | "int-or-string" | "time" | "micro-time" | "bytes" | "any";
}

export type Schema = ObjectSchema | ArraySchema | MapSchema | StringSchema | IntegerSchema | SimpleSchema;

interface Described {
  description?: string;
}

export function obj(
  properties: Record<string, Schema>,
  options: Described & { name?: string; required?: readonly string[]; strategy?: "replace" | "retainKeys"; gvk?: GroupVersionKind } = {},
): ObjectSchema {
  const s: ObjectSchema = { type: "object", properties };
  if (options.name) s.name = options.name;
  if (options.description) {
    s.description = options.description;
    if (options.name) s.typeDescription = options.description;
  }
  if (options.required?.length) s.required = options.required;
  if (options.strategy) s.strategy = options.strategy;
  if (options.gvk) s.gvk = options.gvk;
  return s;
}

/**
 * A list. Defaults follow kube-apiserver's markers: with a merge key the list is a `map` keyed by it; a list of
 * scalars with strategy "merge" is a `set`; anything else is `atomic` (replaced whole by a patch).
 */
export function arr(
  items: Schema,
  options: Described & { mergeKey?: string; strategy?: PatchStrategy; listType?: ListType; listMapKeys?: readonly string[] } = {},
): ArraySchema {
  const s: ArraySchema = { type: "array", items };
  if (options.description) s.description = options.description;
  if (options.mergeKey) s.mergeKey = options.mergeKey;
  if (options.strategy) s.strategy = options.strategy;
  const listType = options.listType ?? (options.mergeKey ? "map" : options.strategy?.startsWith("merge") ? "set" : "atomic");
  s.listType = listType;
  if (listType === "map") s.listMapKeys = options.listMapKeys ?? (options.mergeKey ? [options.mergeKey] : []);
  return s;
}

export function map(values: Schema, options: Described & { mapType?: "atomic" | "granular" } = {}): MapSchema {
  const s: MapSchema = { type: "map", values };
  if (options.description) s.description = options.description;
  if (options.mapType) s.mapType = options.mapType;
  return s;
}

export function str(options: Described & { enum?: readonly string[] } = {}): StringSchema {
  const s: StringSchema = { type: "string" };
  if (options.description) s.description = options.description;
  if (options.enum) s.enum = options.enum;
  return s;
}

const integer = (format: "int32" | "int64") => (options: Described = {}): IntegerSchema =>
  options.description ? { type: "integer", format, description: options.description } : { type: "integer", format };
const simple = (type: SimpleSchema["type"]) => (options: Described = {}): SimpleSchema =>
  options.description ? { type, description: options.description } : { type };

export const int = integer("int32");
export const int64 = integer("int64");
export const num = simple("number");
export const bool = simple("boolean");
/** A resource quantity (`500m`, `1Gi`): int-or-string on the wire. */
export const quantity = simple("quantity");
/** A port or percentage: a JSON number or a string. */
export const intOrString = simple("int-or-string");
/** RFC 3339 timestamp with seconds (`metav1.Time`). */
export const time = simple("time");
/** RFC 3339 timestamp with microseconds (`metav1.MicroTime`). */
export const microTime = simple("micro-time");
/** Bytes as standard base64 (Secret data). */
export const bytes = simple("bytes");
/** Arbitrary JSON (RawExtension, FieldsV1). */
export const any = simple("any");

/** The same schema with a field-specific description (a named type keeps its own type description). */
export function describe<S extends Schema>(schema: S, description: string): S {
  return { ...schema, description };
}

// --- navigation (used by patching and field checks) -------------------------------------------------------------

/** Schema of `key` inside a value of schema `s`: an object's property or a map's value; undefined when unknown. */
export function fieldSchema(s: Schema | undefined, key: string): Schema | undefined {
  if (!s) return undefined;
  if (s.type === "object") return Object.prototype.hasOwnProperty.call(s.properties, key) ? s.properties[key] : undefined;
  if (s.type === "map") return s.values;
  if (s.type === "any") return s;
  return undefined;
}

/** Schema of the elements of a list of schema `s`. */
export function itemSchema(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  if (s.type === "array") return s.items;
  if (s.type === "any") return s;
  return undefined;
}

/** Patch strategies of a field, split as Go's `patchStrategy` tag ("merge,retainKeys" → both). */
export function patchStrategies(s: Schema | undefined): string[] {
  if (!s) return [];
  if (s.type === "array") return s.strategy ? s.strategy.split(",") : [];
  if (s.type === "object") return s.strategy ? [s.strategy] : [];
  return [];
}

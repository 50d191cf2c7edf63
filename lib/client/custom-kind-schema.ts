// The YAML editor's JSON Schema (draft-07) of a custom kind, which the console cannot bundle: read from the
// OpenAPI v3 document the server publishes for the kind's group version (`/openapi/v3/apis/<group>/<version>`,
// the CRD's structural schema with ObjectMeta referenced), and an example object generated from it for the
// create page. As for the built-in kinds, unknown fields of typed objects are marked (the console writes with
// fieldValidation=Strict) unless the schema preserves unknown fields; maps stay open.
type Json = Record<string, unknown>;

/** The subset of an OpenAPI v3 document read here. */
export interface OpenApiV3Document {
  components?: { schemas?: Record<string, Json> };
}

const REF_PREFIX = "#/components/schemas/";

/** A deep copy with `$ref`s pointing at `#/definitions/` and typed objects closed to unknown fields. */
function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith(REF_PREFIX)) out.$ref = `#/definitions/${v.slice(REF_PREFIX.length)}`;
    else if (k === "properties" && v && typeof v === "object") out.properties = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, convert(s)]));
    else out[k] = convert(v);
  }
  if (out.properties && out.additionalProperties === undefined && out["x-kubernetes-preserve-unknown-fields"] !== true) out.additionalProperties = false;
  // JSON Schema has no `nullable`: a nullable value may also be null.
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

/** The component of `group/version`'s `kind` (its `x-kubernetes-group-version-kind`), with its name. */
function componentOf(doc: OpenApiV3Document, group: string, version: string, kind: string): [string, Json] | undefined {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const gvks = (schema["x-kubernetes-group-version-kind"] as { group?: string; version?: string; kind?: string }[] | undefined) ?? [];
    if (gvks.some((g) => (g.group ?? "") === group && g.version === version && g.kind === kind)) return [name, schema];
  }
  return undefined;
}

/** The editor's schema of one custom kind from its group version's OpenAPI v3 document; undefined when absent. */
export function editorSchemaFromOpenApi(doc: OpenApiV3Document, group: string, version: string, kind: string): Json | undefined {
  const found = componentOf(doc, group, version, kind);
  if (!found) return undefined;
  const definitions = convert(doc.components?.schemas ?? {}) as Json;
  const root = { ...(definitions[found[0]] as Json) };
  const properties = { ...((root.properties as Json | undefined) ?? {}) };
  properties.apiVersion = { ...((properties.apiVersion as Json | undefined) ?? { type: "string" }), enum: [group ? `${group}/${version}` : version] };
  properties.kind = { ...((properties.kind as Json | undefined) ?? { type: "string" }), enum: [kind] };
  return { $schema: "http://json-schema.org/draft-07/schema#", title: kind, ...root, properties, additionalProperties: false, definitions };
}

function resolve(schema: Json | undefined, definitions: Json): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10; i++) {
    if (typeof s.$ref === "string") s = (definitions[s.$ref.slice("#/definitions/".length)] as Json | undefined) ?? {};
    else if (Array.isArray(s.allOf) && s.allOf.length === 1 && !s.properties && !s.type) s = { ...(s.allOf[0] as Json), ...s, allOf: undefined };
    else break;
  }
  return s;
}

const typeOf = (s: Json): string | undefined => (Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined));

/**
 * A value for a field as a user would start from it: its default, else the enum's first value, else a typed
 * placeholder (`example` strings, the minimum number, `false`); objects hold their required fields and those with
 * a default; arrays their minimum count of items.
 */
export function exampleValue(schema: Json | undefined, definitions: Json = {}, depth = 0): unknown {
  const s = resolve(schema, definitions);
  if (s.default !== undefined) return structuredClone(s.default);
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
  if (s["x-kubernetes-int-or-string"]) return 0;
  const type = typeOf(s) ?? (s.properties ? "object" : undefined);
  if (depth > 12) return type === "array" ? [] : type === "object" ? {} : null;
  switch (type) {
    case "object": {
      const out: Json = {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [name, prop] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) {
        if (required.has(name) || resolve(prop, definitions).default !== undefined) out[name] = exampleValue(prop, definitions, depth + 1);
      }
      return out;
    }
    case "array": {
      const n = typeof s.minItems === "number" ? s.minItems : 0;
      return Array.from({ length: n }, () => exampleValue(s.items as Json | undefined, definitions, depth + 1));
    }
    case "string": {
      if (s.format === "date-time") return new Date(0).toISOString();
      const min = typeof s.minLength === "number" ? s.minLength : 0;
      const text = "example".padEnd(min, "x");
      return typeof s.maxLength === "number" ? text.slice(0, s.maxLength) : text;
    }
    case "integer":
    case "number": {
      if (typeof s.minimum === "number") return s.exclusiveMinimum === true ? s.minimum + 1 : s.minimum;
      if (typeof s.maximum === "number" && s.maximum < 0) return s.maximum;
      return 0;
    }
    case "boolean":
      return false;
    default:
      return {};
  }
}

/**
 * A ready-to-edit object of a custom kind from its editor schema: apiVersion, kind, metadata (name, and namespace
 * for a namespaced kind), then the root's fields as `exampleValue` fills them, `spec` always (status is the
 * server's).
 */
export function exampleObject(schema: Json | undefined, apiVersion: string, kind: string, namespace: string | undefined): Json {
  const definitions = (schema?.definitions as Json | undefined) ?? {};
  const root = schema ? resolve(schema, definitions) : {};
  const out: Json = { apiVersion, kind, metadata: { name: "example", ...(namespace ? { namespace } : {}) } };
  const required = new Set((root.required as string[] | undefined) ?? []);
  for (const [name, prop] of Object.entries((root.properties as Record<string, Json> | undefined) ?? {})) {
    if (["apiVersion", "kind", "metadata", "status"].includes(name)) continue;
    if (name === "spec" || required.has(name) || resolve(prop, definitions).default !== undefined) out[name] = exampleValue(prop, definitions);
  }
  return out;
}

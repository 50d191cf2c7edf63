// Turns the kinds' schema language into OpenAPI schema objects: Swagger 2.0 definitions, OpenAPI 3.0
// components, or JSON Schema draft-07 definitions for the console's YAML editor. Named objects become one
// shared component each, referenced by `$ref`, as kube-apiserver publishes them.
import { INT_OR_STRING_TYPE, MICRO_TIME_TYPE, QUANTITY_TYPE, TIME_TYPE } from "../kinds/schema/names";
import type { ArraySchema, ObjectSchema, Schema } from "../kinds/schema/schema";

export type Dialect = "v2" | "v3" | "json-schema";

export type JsonSchema = Record<string, unknown>;

/** Collects components while schemas are emitted; one per dialect and document. */
export class Emitter {
  readonly components: Record<string, JsonSchema> = {};
  private readonly sources = new Map<string, Schema>();

  constructor(readonly dialect: Dialect) {}

  /** `$ref` value for component `name`. */
  ref(name: string): string {
    if (this.dialect === "v2") return `#/definitions/${name}`;
    if (this.dialect === "v3") return `#/components/schemas/${name}`;
    return `#/definitions/${name}`;
  }

  /** Schema of a value of `s` (a list's items, a map's values, a component's body, a request body). */
  value(s: Schema): JsonSchema {
    const name = componentName(s, this.dialect);
    if (name) {
      this.register(name, s);
      return { $ref: this.ref(name) };
    }
    return this.inline(s);
  }

  /** Schema of an object property: the value plus the field's description and patch extensions. */
  property(s: Schema): JsonSchema {
    const name = componentName(s, this.dialect);
    const description = s.description;
    if (name) {
      this.register(name, s);
      const ref = { $ref: this.ref(name) };
      // kubectl explain shows a field's own description only, so it is repeated even when it is the type's.
      if (!description) return ref;
      // Swagger 2.0 readers (and kube's own v2 document) take siblings of $ref; v3 and draft-07 ignore them.
      return this.dialect === "v2" ? { ...ref, description } : { allOf: [ref], description };
    }
    return this.inline(s);
  }

  /** Registers component `name` (first declaration wins; a different shape under the same name is a bug). */
  register(name: string, s: Schema): void {
    const known = this.sources.get(name);
    if (known) {
      if (known !== s && !sameShape(known, s)) throw new Error(`two different schemas are named ${name}`);
      return;
    }
    this.sources.set(name, s);
    this.components[name] = {}; // placeholder first: recursive references terminate
    this.components[name] = this.body(s);
  }

  private body(s: Schema): JsonSchema {
    if (s.type !== "object") {
      // A named scalar (Quantity, IntOrString, Time, MicroTime): the type's own description, not the first field's.
      const name = componentName(s, this.dialect)!;
      return { description: SCALAR_TYPE_DESCRIPTIONS[name], ...this.inline({ type: s.type } as Schema) };
    }
    const out = this.inline({ ...s, description: s.typeDescription ?? s.description });
    if (s.gvk && this.dialect !== "json-schema") {
      out["x-kubernetes-group-version-kind"] = [{ group: s.gvk.group, kind: s.gvk.kind, version: s.gvk.version }];
    }
    return out;
  }

  private inline(s: Schema): JsonSchema {
    const out: JsonSchema = {};
    if (s.description) out.description = s.description;
    switch (s.type) {
      case "object":
        return this.object(s, out);
      case "array":
        return this.array(s, out);
      case "map":
        out.type = "object";
        out.additionalProperties = this.value(s.values);
        if (s.mapType && this.dialect !== "json-schema") out["x-kubernetes-map-type"] = s.mapType;
        return out;
      case "string":
        out.type = "string";
        if (s.enum) out.enum = [...s.enum];
        return out;
      case "integer":
        out.type = "integer";
        out.format = s.format;
        return out;
      case "number":
        out.type = "number";
        out.format = "double";
        return out;
      case "boolean":
        out.type = "boolean";
        return out;
      case "bytes":
        out.type = "string";
        if (this.dialect !== "json-schema") out.format = "byte";
        return out;
      case "quantity":
        if (this.dialect === "json-schema") out.anyOf = [{ type: "string" }, { type: "number" }];
        else out.type = "string";
        return out;
      case "int-or-string":
        if (this.dialect === "json-schema") out.anyOf = [{ type: "integer" }, { type: "string" }];
        else {
          out.type = "string";
          out.format = "int-or-string";
        }
        return out;
      case "time":
      case "micro-time":
        // Clients send `creationTimestamp: null` (kubectl's dry-run output does); the editor must accept it.
        if (this.dialect === "json-schema") out.type = ["string", "null"];
        else {
          out.type = "string";
          out.format = "date-time";
        }
        return out;
      case "any":
        if (this.dialect !== "json-schema") out.type = "object";
        return out;
    }
  }

  private object(s: ObjectSchema, out: JsonSchema): JsonSchema {
    out.type = "object";
    const keys = Object.keys(s.properties).sort();
    if (keys.length > 0) {
      const properties: JsonSchema = {};
      for (const key of keys) properties[key] = this.property(s.properties[key]);
      out.properties = properties;
      // The editor flags fields the server would refuse with fieldValidation=Strict.
      if (this.dialect === "json-schema") out.additionalProperties = false;
    }
    if (s.required?.length) out.required = [...s.required];
    if (s.strategy && this.dialect !== "json-schema") out["x-kubernetes-patch-strategy"] = s.strategy;
    return out;
  }

  private array(s: ArraySchema, out: JsonSchema): JsonSchema {
    out.type = "array";
    out.items = this.value(s.items);
    if (this.dialect === "json-schema") return out;
    if (s.listType) out["x-kubernetes-list-type"] = s.listType;
    if (s.listType === "map" && s.listMapKeys?.length) out["x-kubernetes-list-map-keys"] = [...s.listMapKeys];
    if (s.mergeKey) out["x-kubernetes-patch-merge-key"] = s.mergeKey;
    if (s.strategy) out["x-kubernetes-patch-strategy"] = s.strategy;
    return out;
  }
}

/** The component a schema is published as, if any: named objects, and kube's named scalar types (not in JSON Schema). */
function componentName(s: Schema, dialect: Dialect): string | undefined {
  if (s.type === "object") return s.name;
  if (dialect === "json-schema") return undefined;
  switch (s.type) {
    case "quantity":
      return QUANTITY_TYPE;
    case "int-or-string":
      return INT_OR_STRING_TYPE;
    case "time":
      return TIME_TYPE;
    case "micro-time":
      return MICRO_TIME_TYPE;
    default:
      return undefined;
  }
}

/** The scalar components' own descriptions (a field's description stays on the field). */
const SCALAR_TYPE_DESCRIPTIONS: Record<string, string> = {
  [QUANTITY_TYPE]: "A fixed-point amount, e.g. 500m, 2, 1.5Gi, 128974848, 129e6: a number with an optional binary (Ki, Mi, Gi, Ti, Pi, Ei), decimal (m, k, M, G, T, P, E) or exponent suffix.",
  [INT_OR_STRING_TYPE]: "Holds an integer or a string, e.g. a port number or a port name.",
  [TIME_TYPE]: "A timestamp in RFC 3339 form with second precision, e.g. 2026-01-02T15:04:05Z.",
  [MICRO_TIME_TYPE]: "A timestamp in RFC 3339 form with microsecond precision.",
};

function sameShape(a: Schema, b: Schema): boolean {
  const strip = (s: Schema) => JSON.stringify(s, (key, value) => (key === "description" ? undefined : value));
  return strip(a) === strip(b);
}

// A custom kind's field structure for server-side apply: a CRD version's structural schema as kube 1.32 turns it
// into a structured-merge-diff type (through the OpenAPI model the apiextensions-apiserver builds for it):
// objects with properties are structs (granular unless `x-kubernetes-map-type: atomic`; fields beyond them
// deduced from the value under `x-kubernetes-preserve-unknown-fields`, which holds for every object below it too,
// and in an object declaring neither properties nor additionalProperties), `additionalProperties` maps (same
// map-type rule), lists by `x-kubernetes-list-type` (atomic unless set or map) keyed by
// `x-kubernetes-list-map-keys` (a key field's `default` applies when an item omits it), int-or-string and
// untyped values scalars or deduced, and the root and every embedded resource with apiVersion, kind and
// ObjectMeta's metadata.
import type { JSONSchemaProps } from "../crd-schema/types";
import { objectMeta } from "./schema/object-meta";
import { any, arr, bool, int64, intOrString, map, num, obj, str, type ObjectSchema, type Schema } from "./schema/schema";

const TYPE_META_AND_METADATA: Record<string, Schema> = { apiVersion: str(), kind: str(), metadata: objectMeta };

function itemsOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? s.items[0] : s.items;
}

/** `preserve`: an enclosing schema has x-kubernetes-preserve-unknown-fields (kube's converter carries it down). */
function convert(s: JSONSchemaProps | undefined, inherited: boolean): Schema {
  if (!s) return any();
  const preserve = inherited || !!s["x-kubernetes-preserve-unknown-fields"];
  if (s["x-kubernetes-int-or-string"]) return intOrString();
  const embedded = !!s["x-kubernetes-embedded-resource"];
  switch (s.type) {
    case "object": {
      const atomic = s["x-kubernetes-map-type"] === "atomic";
      const additional = s.additionalProperties;
      if (!s.properties && !embedded && additional !== undefined && additional !== false) {
        const values = typeof additional === "object" ? convert(additional, preserve) : any();
        return map(values, atomic ? { mapType: "atomic" } : {});
      }
      return struct(s, embedded ? TYPE_META_AND_METADATA : {}, atomic, preserve);
    }
    case "array": {
      const listType = s["x-kubernetes-list-type"] === "set" || s["x-kubernetes-list-type"] === "map" ? s["x-kubernetes-list-type"] : "atomic";
      return arr(convert(itemsOf(s), preserve), { listType, ...(listType === "map" ? { listMapKeys: s["x-kubernetes-list-map-keys"] ?? [] } : {}) });
    }
    case "string": return str();
    case "integer": return int64();
    case "number": return num();
    case "boolean": return bool();
    default:
      // No type: only with x-kubernetes-preserve-unknown-fields (or int-or-string, above); deduced from the value.
      if (embedded) return struct(s, TYPE_META_AND_METADATA, false, preserve);
      return any();
  }
}

function struct(s: JSONSchemaProps, extra: Record<string, Schema>, atomic: boolean, preserve: boolean): ObjectSchema {
  const properties: Record<string, Schema> = { ...extra };
  const defaults: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    // An embedded resource's metadata is ObjectMeta whatever the schema restricts.
    if (!(name in extra)) properties[name] = convert(prop, preserve);
    if (prop.default !== undefined) defaults[name] = prop.default;
  }
  const out = obj(properties);
  if (atomic) out.mapType = "atomic";
  // A free-form object (no properties, no additionalProperties) takes any field, as kube's converter reads it.
  // (The root's and an embedded resource's apiVersion/kind/metadata count: kube's model declares them.)
  if (preserve || Object.keys(properties).length === 0) out.preserveUnknownFields = true;
  if (Object.keys(defaults).length) out.fieldDefaults = defaults;
  return out;
}

/** The field structure of a custom resource of a version with schema `schema` (root apiVersion/kind/metadata). */
export function customKindStructure(schema: JSONSchemaProps): ObjectSchema {
  return struct(schema, TYPE_META_AND_METADATA, false, !!schema["x-kubernetes-preserve-unknown-fields"]);
}

// The components of a custom kind (one served version of an Established CRD), built as kube 1.32's
// apiextensions-apiserver builds them (pkg/controller/openapi/builder): the version's structural schema as the
// object's component, named by kube's rule for CRDs (the group's labels reversed, then version and kind:
// `com.example.v1.Widget`), with `metadata` a reference to ObjectMeta, `apiVersion`/`kind` from TypeMeta, embedded
// resources given the same three, the group-version-kind extension; and its list kind's component. For Swagger 2.0
// the schema first loses what v2 (and kubectl's v2 validation) cannot say: kube's ToStructuralOpenAPIV2.
import type { JSONSchemaProps } from "../crd-schema/types";
import { listMeta, objectMeta } from "../kinds/schema/object-meta";
import { metaType } from "../kinds/schema/names";
import type { AnyKind } from "../kinds/types";
import type { Emitter, JsonSchema } from "./emit";

/** kube's name of a CRD's component: `example.com`, `v1`, `Widget` → `com.example.v1.Widget`. */
export function customComponentName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

/** The fields a structural schema keeps (kube's Structural → kube-openapi Schema), besides the nested schemas. */
const SCALAR_KEYS = [
  "description", "type", "format", "title", "default", "nullable", "maximum", "exclusiveMaximum", "minimum",
  "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf", "enum",
  "maxProperties", "minProperties", "required", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type",
  "x-kubernetes-validations",
] as const;

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
};

/**
 * A copy of `s` with only what kube's structural schema holds (no `example`, `externalDocs`, `$ref`, ...), property
 * names sorted, and `x-kubernetes-int-or-string` unfolded into `anyOf: [integer, string]` (kube's Unfold) when the
 * schema does not say it already.
 */
function structural(s: JSONSchemaProps): Schema {
  const out: Schema = {};
  const src = s as Record<string, unknown>;
  for (const key of SCALAR_KEYS) {
    const v = src[key];
    if (v === undefined || (key === "required" && Array.isArray(v) && v.length === 0)) continue;
    out[key] = structuredClone(v);
  }
  if (s.items && !Array.isArray(s.items)) out.items = structural(s.items);
  if (s.properties) {
    const props: Record<string, Schema> = {};
    for (const name of Object.keys(s.properties).sort()) props[name] = structural(s.properties[name]);
    out.properties = props;
  }
  if (typeof s.additionalProperties === "boolean") out.additionalProperties = s.additionalProperties;
  else if (s.additionalProperties) out.additionalProperties = structural(s.additionalProperties);
  for (const junctor of ["allOf", "oneOf", "anyOf"] as const) if (s[junctor]?.length) out[junctor] = s[junctor]!.map(structural);
  if (s.not) out.not = structural(s.not);
  if (s["x-kubernetes-int-or-string"] && !out.anyOf && !out.allOf?.some((x) => x.anyOf)) {
    out.anyOf = [{ type: "integer" }, { type: "string" }];
  }
  return out;
}

/**
 * kube's ToStructuralOpenAPIV2 on a structural copy (parent first, then its children): junctors go; a nullable
 * value loses its type, items and properties; a value preserving unknown fields loses items and properties (and an
 * object's type); an array without items loses its type; a nullable property is no longer required, nor any key of
 * a map of nullable values.
 */
function toV2(s: Schema): void {
  delete s.allOf;
  delete s.oneOf;
  delete s.anyOf;
  delete s.not;
  if (s.nullable) {
    delete s.type;
    delete s.nullable;
    delete s.items;
    delete s.properties;
  }
  const preserves = s["x-kubernetes-preserve-unknown-fields"] === true;
  if (preserves) {
    delete s.items;
    delete s.properties;
  }
  if (s.items === undefined && s.type === "array") delete s.type;
  if (preserves && s.type === "object") delete s.type;
  if (Array.isArray(s.required) && s.properties) {
    const required = (s.required as string[]).filter((name) => !s.properties![name]?.nullable);
    if (required.length) s.required = required; else delete s.required;
  }
  if (typeof s.additionalProperties === "object" && s.additionalProperties.nullable) delete s.required;
  if (s.items) toV2(s.items);
  for (const p of Object.values(s.properties ?? {})) toV2(p);
  if (typeof s.additionalProperties === "object") toV2(s.additionalProperties);
}

const API_VERSION = "The schema version of this representation, `<group>/<version>`; the server converts other versions to it.";
const KIND = "The type of this object, in CamelCase, e.g. Widget.";
const OBJECT_METADATA = "The object's metadata: name, namespace, labels, annotations and the fields the server manages.";
const LIST_METADATA = "List metadata: resourceVersion to watch from, continue token for the next page.";

/** Property order as kube publishes it: sorted by name. */
function setProperty(s: Schema, name: string, value: Schema): void {
  const props = { ...(s.properties ?? {}), [name]: value };
  s.properties = Object.fromEntries(Object.keys(props).sort().map((k) => [k, props[k]]));
}

/** A `$ref` with its own description, as the Emitter writes one for the dialect (v2: siblings; v3: allOf). */
function describedRef(emitter: Emitter, component: string, description: string): Schema {
  const ref = { $ref: emitter.ref(component) };
  return emitter.dialect === "v2" ? { ...ref, description } : { allOf: [ref], description };
}

/**
 * kube's addEmbeddedProperties: every `x-kubernetes-embedded-resource` value gets `apiVersion`, `kind` and
 * `metadata` (and requires the first two); not in v2 where the value preserves unknown fields (kubectl would then
 * refuse the unknown ones).
 */
function addEmbedded(s: Schema, emitter: Emitter): void {
  for (const p of Object.values(s.properties ?? {})) addEmbedded(p, emitter);
  if (s.items) addEmbedded(s.items, emitter);
  if (typeof s.additionalProperties === "object") addEmbedded(s.additionalProperties, emitter);
  if (emitter.dialect === "v2" && s["x-kubernetes-preserve-unknown-fields"] === true) return;
  if (s["x-kubernetes-embedded-resource"] !== true) return;
  setProperty(s, "apiVersion", { type: "string", description: API_VERSION });
  setProperty(s, "kind", { type: "string", description: KIND });
  setProperty(s, "metadata", describedRef(emitter, metaType("ObjectMeta"), OBJECT_METADATA));
  const required = new Set((s.required as string[] | undefined) ?? []);
  const add = ["kind", "apiVersion"].filter((k) => !required.has(k));
  if (add.length) s.required = [...((s.required as string[] | undefined) ?? []), ...add];
}

/** The group-version-kind extension of a component. */
const gvk = (group: string, version: string, kind: string) => [{ group, kind, version }];

/**
 * Registers a custom kind's two components with `emitter` (and ObjectMeta/ListMeta, which they reference):
 * `<reversed group>.<version>.<Kind>` and `...<ListKind>`. A kind without an `openapi` declaration registers nothing.
 */
export function registerCustomKind(emitter: Emitter, kind: AnyKind): void {
  const info = kind.openapi;
  if (!info) return;
  const group = kind.group ?? "";
  const version = kind.version ?? "v1";
  const name = customComponentName(group, version, kind.kind);
  emitter.value(objectMeta);
  emitter.value(listMeta);
  const root = info.schema;
  let schema: Schema;
  // kubectl's v2 validation would refuse every field of an object that keeps unknown ones: kube publishes just
  // "an object" then, without even apiVersion, kind and metadata.
  if (!root || (emitter.dialect === "v2" && (root["x-kubernetes-preserve-unknown-fields"] === true || info.preserveUnknownFields))) {
    schema = { type: "object" };
  } else {
    schema = structural(root);
    if (emitter.dialect === "v2") toV2(schema);
    setProperty(schema, "metadata", describedRef(emitter, metaType("ObjectMeta"), OBJECT_METADATA));
    setProperty(schema, "apiVersion", { type: "string", description: API_VERSION });
    setProperty(schema, "kind", { type: "string", description: KIND });
    addEmbedded(schema, emitter);
  }
  schema["x-kubernetes-group-version-kind"] = gvk(group, version, kind.kind);
  emitter.components[name] = schema as JsonSchema;

  const list: Schema = {
    description: `${info.listKind} is a list of ${kind.kind}.`,
    required: ["items"],
    properties: {
      apiVersion: { type: "string", description: API_VERSION },
      items: { type: "array", items: { $ref: emitter.ref(name) }, description: `The ${kind.plural}.` },
      kind: { type: "string", description: KIND },
      metadata: describedRef(emitter, metaType("ListMeta"), LIST_METADATA),
    },
    "x-kubernetes-group-version-kind": gvk(group, version, info.listKind),
  };
  emitter.components[`${customComponentName(group, version, info.listKind)}`] = list as JsonSchema;
}

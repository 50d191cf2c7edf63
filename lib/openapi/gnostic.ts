// A Swagger 2.0 document (the JSON of /openapi/v2) in protobuf, as gnostic's `openapi.v2.Document` message
// (github.com/google/gnostic-models, openapiv2/OpenAPIv2.proto): the form kube-apiserver serves as
// `application/com.github.proto-openapi.spec.v2.v1.0+protobuf` and kubectl reads when the OpenAPI v3 document has
// no PATCH operation for a kind (client-side validation, `kubectl create -f` of a review). Mirrors what gnostic's
// ParseDocument makes of the JSON: objects keep their key order, `x-` keys become NamedAny vendor extensions whose
// value is the YAML text of the JSON value, `enum`/`default`/`example` become Any{yaml}, oneofs are chosen as
// gnostic does (a parameter by `in`, an item by `$ref`, a security scheme by `type`). Fields are written in field
// number order and proto3 defaults (empty strings, false, 0, empty lists) are left out, as Go's proto.Marshal does.
// Pure (no I/O), written with lib/codec's protobuf writer; a construct the documents never use throws instead of
// being dropped.
import { stringify } from "yaml";
import { WIRE_BYTES } from "../codec/protobuf/wire";
import { Writer as WireWriter } from "../codec/protobuf/writer";

type Json = unknown;
type JsonObject = Record<string, Json>;

/**
 * proto3's rules for the message fields gnostic declares, over lib/codec's wire-format writer: defaults (empty
 * strings, false, 0, absent lists) are left out, a present message is written even when it encodes to nothing.
 */
class Writer {
  constructor(private readonly out = new WireWriter()) {}

  /** A proto3 string: left out when empty. */
  string(field: number, s: string | undefined): void {
    if (s) this.out.string(field, s);
  }

  strings(field: number, list: string[] | undefined): void {
    for (const s of list ?? []) this.out.string(field, s);
  }

  /** A proto3 bool: left out when false unless `always` (a oneof member). */
  bool(field: number, b: boolean | undefined, always = false): void {
    if (!b && !always) return;
    this.out.int(field, b ? 1 : 0);
  }

  int64(field: number, n: number | undefined): void {
    if (!n) return;
    this.out.int(field, Math.trunc(n));
  }

  double(field: number, n: number | undefined): void {
    if (!n) return;
    this.out.double(field, n);
  }

  /** A nested message: written whenever `value` is present, even when it encodes to nothing. */
  message<T>(field: number, value: T | undefined, encode: (w: Writer, v: T) => void): void {
    if (value === undefined) return;
    this.out.key(field, WIRE_BYTES);
    const at = this.out.fork();
    encode(this, value);
    this.out.join(at);
  }

  messages<T>(field: number, values: T[] | undefined, encode: (w: Writer, v: T) => void): void {
    for (const v of values ?? []) this.message(field, v, encode);
  }

  finish(): Uint8Array {
    return this.out.finish();
  }
}

// --- reading the JSON -------------------------------------------------------------------------------------------------

const isObject = (v: Json): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function object(v: Json, where: string): JsonObject {
  if (!isObject(v)) throw new Error(`gnostic: ${where} is not an object`);
  return v;
}

function str(v: Json, where: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new Error(`gnostic: ${where} is not a string`);
  return v;
}

function strList(v: Json, where: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw new Error(`gnostic: ${where} is not a list of strings`);
  return v as string[];
}

function bool(v: Json, where: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw new Error(`gnostic: ${where} is not a boolean`);
  return v;
}

function num(v: Json, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number") throw new Error(`gnostic: ${where} is not a number`);
  return v;
}

/** Refuses keys a message has no field for (gnostic refuses them too), `x-` keys aside. */
function checkKeys(o: JsonObject, known: readonly string[], where: string): void {
  for (const k of Object.keys(o)) {
    if (!k.startsWith("x-") && !known.includes(k)) throw new Error(`gnostic: ${where} has unsupported key ${JSON.stringify(k)}`);
  }
}

// --- messages -------------------------------------------------------------------------------------------------------

/** Any{yaml = 2}: the YAML text of a JSON value. */
function writeAny(w: Writer, v: Json): void {
  w.string(2, stringify(v, { lineWidth: 0 }));
}

/** The `x-` keys of an object as NamedAny{name = 1, value = 2}, in key order. */
function writeExtensions(w: Writer, field: number, o: JsonObject): void {
  for (const [name, value] of Object.entries(o)) {
    if (!name.startsWith("x-")) continue;
    w.message(field, { name, value }, (m, e) => {
      m.string(1, e.name);
      m.message(2, e.value, writeAny);
    });
  }
}

/**
 * Named(Schema|PathItem|...){name = 1, value = 2} for each key that is not an extension. A schema's `properties` is a
 * plain map in gnostic (NewProperties keeps every key): JSONSchemaProps has properties named `x-kubernetes-*`.
 */
function writeNamed<T>(
  w: Writer, field: number, o: JsonObject, encode: (m: Writer, v: T, where: string) => void, where: string, keepExtensionNames = false,
): void {
  for (const [name, value] of Object.entries(o)) {
    if (name.startsWith("x-") && !keepExtensionNames) continue;
    w.message(field, value as T, (m, v) => {
      m.string(1, name);
      m.message(2, v, (mm, vv) => encode(mm, vv, `${where}.${name}`));
    });
  }
}

const SCHEMA_KEYS = [
  "$ref", "format", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
  "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties",
  "minProperties", "required", "enum", "additionalProperties", "type", "items", "allOf", "properties", "discriminator",
  "readOnly", "example",
] as const;

/** Schema: _ref 1, format 2, title 3, description 4, default 5, ... properties 25, readOnly 27, example 30, x- 31. */
function writeSchema(w: Writer, v: Json, where: string): void {
  const s = object(v, where);
  checkKeys(s, SCHEMA_KEYS, where);
  w.string(1, str(s.$ref, `${where}.$ref`));
  w.string(2, str(s.format, `${where}.format`));
  w.string(3, str(s.title, `${where}.title`));
  w.string(4, str(s.description, `${where}.description`));
  if (s.default !== undefined) w.message(5, s.default, writeAny);
  w.double(6, num(s.multipleOf, `${where}.multipleOf`));
  w.double(7, num(s.maximum, `${where}.maximum`));
  w.bool(8, bool(s.exclusiveMaximum, `${where}.exclusiveMaximum`));
  w.double(9, num(s.minimum, `${where}.minimum`));
  w.bool(10, bool(s.exclusiveMinimum, `${where}.exclusiveMinimum`));
  w.int64(11, num(s.maxLength, `${where}.maxLength`));
  w.int64(12, num(s.minLength, `${where}.minLength`));
  w.string(13, str(s.pattern, `${where}.pattern`));
  w.int64(14, num(s.maxItems, `${where}.maxItems`));
  w.int64(15, num(s.minItems, `${where}.minItems`));
  w.bool(16, bool(s.uniqueItems, `${where}.uniqueItems`));
  w.int64(17, num(s.maxProperties, `${where}.maxProperties`));
  w.int64(18, num(s.minProperties, `${where}.minProperties`));
  w.strings(19, strList(s.required, `${where}.required`));
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum)) throw new Error(`gnostic: ${where}.enum is not a list`);
    w.messages(20, s.enum, writeAny);
  }
  if (s.additionalProperties !== undefined) {
    // AdditionalPropertiesItem: oneof schema = 1 | boolean = 2.
    const ap = s.additionalProperties;
    w.message(21, ap, (m, x) => {
      if (typeof x === "boolean") m.bool(2, x, true);
      else m.message(1, x, (mm, xx) => writeSchema(mm, xx, `${where}.additionalProperties`));
    });
  }
  if (s.type !== undefined) {
    // TypeItem{value = 1}: one type or several.
    const types = typeof s.type === "string" ? [s.type] : strList(s.type, `${where}.type`);
    w.message(22, types, (m, t) => m.strings(1, t));
  }
  if (s.items !== undefined) {
    // ItemsItem{schema = 1 (repeated)}: one schema or a tuple.
    const items = Array.isArray(s.items) ? s.items : [s.items];
    w.message(23, items, (m, list) => list.forEach((x, i) => m.message(1, x, (mm, xx) => writeSchema(mm, xx, `${where}.items[${i}]`))));
  }
  if (s.allOf !== undefined) {
    if (!Array.isArray(s.allOf)) throw new Error(`gnostic: ${where}.allOf is not a list`);
    s.allOf.forEach((x, i) => w.message(24, x, (m, xx) => writeSchema(m, xx, `${where}.allOf[${i}]`)));
  }
  if (s.properties !== undefined) {
    const props = object(s.properties, `${where}.properties`);
    w.message(25, props, (m, p) => writeNamed(m, 1, p, writeSchema, `${where}.properties`, true));
  }
  w.string(26, str(s.discriminator, `${where}.discriminator`));
  w.bool(27, bool(s.readOnly, `${where}.readOnly`));
  if (s.example !== undefined) w.message(30, s.example, writeAny);
  writeExtensions(w, 31, s);
}

/** The fields a non-body parameter kind has after `required`, `in`, `description` and `name` (1-4), in order. */
const NON_BODY_FIELDS = {
  query: ["allowEmptyValue", "type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf"],
  formData: ["allowEmptyValue", "type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf"],
  path: ["type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf"],
  header: ["type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf"],
} as const;

/** NonBodyParameter's oneof members: header 1, formData 2, query 3, path 4. */
const NON_BODY_MEMBER = { header: 1, formData: 2, query: 3, path: 4 } as const;

/** Header/FormData/Query/PathParameterSubSchema: required 1, in 2, description 3, name 4, then NON_BODY_FIELDS, x- last. */
function writeNonBodyParameter(w: Writer, p: JsonObject, where: string): void {
  const loc = p.in as keyof typeof NON_BODY_FIELDS;
  const fields = NON_BODY_FIELDS[loc];
  checkKeys(p, ["required", "in", "description", "name", ...fields], where);
  w.bool(1, bool(p.required, `${where}.required`));
  w.string(2, loc);
  w.string(3, str(p.description, `${where}.description`));
  w.string(4, str(p.name, `${where}.name`));
  let field = 5;
  for (const key of fields) {
    const v = p[key];
    const at = `${where}.${key}`;
    switch (key) {
      case "allowEmptyValue": case "exclusiveMaximum": case "exclusiveMinimum": case "uniqueItems":
        w.bool(field, bool(v, at));
        break;
      case "type": case "format": case "collectionFormat": case "pattern":
        w.string(field, str(v, at));
        break;
      case "maximum": case "minimum": case "multipleOf":
        w.double(field, num(v, at));
        break;
      case "maxLength": case "minLength": case "maxItems": case "minItems":
        w.int64(field, num(v, at));
        break;
      case "default":
        if (v !== undefined) w.message(field, v, writeAny);
        break;
      case "enum":
        if (v !== undefined) {
          if (!Array.isArray(v)) throw new Error(`gnostic: ${at} is not a list`);
          w.messages(field, v, writeAny);
        }
        break;
      case "items":
        if (v !== undefined) throw new Error(`gnostic: ${at} (PrimitivesItems) is not supported`);
        break;
    }
    field++;
  }
  writeExtensions(w, field, p);
}

/** ParametersItem: oneof parameter = 1 (Parameter: body = 1 | non-body = 2) | json_reference = 2. */
function writeParametersItem(w: Writer, v: Json, where: string): void {
  const p = object(v, where);
  if (p.$ref !== undefined) {
    checkKeys(p, ["$ref", "description"], where);
    w.message(2, p, (m, r) => {
      m.string(1, str(r.$ref, `${where}.$ref`));
      m.string(2, str(r.description, `${where}.description`));
    });
    return;
  }
  w.message(1, p, (m, param) => {
    if (param.in === "body") {
      checkKeys(param, ["description", "name", "in", "required", "schema"], where);
      // BodyParameter: description 1, name 2, in 3, required 4, schema 5, x- 6.
      m.message(1, param, (b, x) => {
        b.string(1, str(x.description, `${where}.description`));
        b.string(2, str(x.name, `${where}.name`));
        b.string(3, "body");
        b.bool(4, bool(x.required, `${where}.required`));
        if (x.schema !== undefined) b.message(5, x.schema, (s, xx) => writeSchema(s, xx, `${where}.schema`));
        writeExtensions(b, 6, x);
      });
      return;
    }
    const member = NON_BODY_MEMBER[param.in as keyof typeof NON_BODY_MEMBER];
    if (!member) throw new Error(`gnostic: ${where} has unsupported "in" ${JSON.stringify(param.in)}`);
    m.message(2, param, (nb, x) => nb.message(member, x, (sub, xx) => writeNonBodyParameter(sub, xx, where)));
  });
}

/** Responses: response_code 1 (NamedResponseValue{name, ResponseValue{response = 1 | json_reference = 2}}), x- 2. */
function writeResponses(w: Writer, v: Json, where: string): void {
  const responses = object(v, where);
  writeNamed<Json>(w, 1, responses, (m, value, at) => {
    const r = object(value, at);
    if (r.$ref !== undefined) {
      m.message(2, r, (j, x) => j.string(1, str(x.$ref, `${at}.$ref`)));
      return;
    }
    checkKeys(r, ["description", "schema"], at);
    // Response: description 1, schema 2 (SchemaItem: schema = 1), headers 3, examples 4, x- 5.
    m.message(1, r, (rr, x) => {
      rr.string(1, str(x.description, `${at}.description`));
      if (x.schema !== undefined) rr.message(2, x.schema, (si, s) => si.message(1, s, (ss, xx) => writeSchema(ss, xx, `${at}.schema`)));
      writeExtensions(rr, 5, x);
    });
  }, where);
  writeExtensions(w, 2, responses);
}

const OPERATION_KEYS = ["tags", "summary", "description", "externalDocs", "operationId", "produces", "consumes", "parameters", "responses", "schemes", "deprecated", "security"];

/** Operation: tags 1, summary 2, description 3, operation_id 5, produces 6, consumes 7, parameters 8, responses 9, schemes 10, deprecated 11, x- 13. */
function writeOperation(w: Writer, v: Json, where: string): void {
  const o = object(v, where);
  checkKeys(o, OPERATION_KEYS.filter((k) => k !== "externalDocs" && k !== "security"), where);
  w.strings(1, strList(o.tags, `${where}.tags`));
  w.string(2, str(o.summary, `${where}.summary`));
  w.string(3, str(o.description, `${where}.description`));
  w.string(5, str(o.operationId, `${where}.operationId`));
  w.strings(6, strList(o.produces, `${where}.produces`));
  w.strings(7, strList(o.consumes, `${where}.consumes`));
  writeParameterList(w, 8, o.parameters, `${where}.parameters`);
  if (o.responses !== undefined) w.message(9, o.responses, (m, r) => writeResponses(m, r, `${where}.responses`));
  w.strings(10, strList(o.schemes, `${where}.schemes`));
  w.bool(11, bool(o.deprecated, `${where}.deprecated`));
  writeExtensions(w, 13, o);
}

function writeParameterList(w: Writer, field: number, v: Json, where: string): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) throw new Error(`gnostic: ${where} is not a list`);
  v.forEach((p, i) => w.message(field, p, (m, x) => writeParametersItem(m, x, `${where}[${i}]`)));
}

/** PathItem: _ref 1, get 2, put 3, post 4, delete 5, options 6, head 7, patch 8, parameters 9, x- 10. */
const METHOD_FIELDS = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 } as const;

function writePathItem(w: Writer, v: Json, where: string): void {
  const item = object(v, where);
  checkKeys(item, ["$ref", ...Object.keys(METHOD_FIELDS), "parameters"], where);
  w.string(1, str(item.$ref, `${where}.$ref`));
  for (const [method, field] of Object.entries(METHOD_FIELDS)) {
    if (item[method] !== undefined) w.message(field, item[method], (m, o) => writeOperation(m, o, `${where}.${method}`));
  }
  writeParameterList(w, 9, item.parameters, `${where}.parameters`);
  writeExtensions(w, 10, item);
}

/** SecurityDefinitionsItem: basic 1 | apiKey 2 (oauth2 flows are not supported). */
function writeSecurityScheme(w: Writer, v: Json, where: string): void {
  const s = object(v, where);
  if (s.type === "apiKey") {
    checkKeys(s, ["type", "name", "in", "description"], where);
    // ApiKeySecurity: type 1, name 2, in 3, description 4, x- 5.
    w.message(2, s, (m, x) => {
      m.string(1, "apiKey");
      m.string(2, str(x.name, `${where}.name`));
      m.string(3, str(x.in, `${where}.in`));
      m.string(4, str(x.description, `${where}.description`));
      writeExtensions(m, 5, x);
    });
    return;
  }
  if (s.type === "basic") {
    checkKeys(s, ["type", "description"], where);
    // BasicAuthenticationSecurity: type 1, description 2, x- 3.
    w.message(1, s, (m, x) => {
      m.string(1, "basic");
      m.string(2, str(x.description, `${where}.description`));
      writeExtensions(m, 3, x);
    });
    return;
  }
  throw new Error(`gnostic: ${where} has unsupported security scheme type ${JSON.stringify(s.type)}`);
}

/** SecurityRequirement: additional_properties 1 (NamedStringArray{name 1, StringArray{value 1}}). */
function writeSecurityRequirement(w: Writer, v: Json, where: string): void {
  const req = object(v, where);
  for (const [name, scopes] of Object.entries(req)) {
    const list = strList(scopes, `${where}.${name}`) ?? [];
    w.message(1, list, (m, l) => {
      m.string(1, name);
      m.message(2, l, (a, ll) => a.strings(1, ll));
    });
  }
}

const DOCUMENT_KEYS = ["swagger", "info", "host", "basePath", "schemes", "consumes", "produces", "paths", "definitions", "security", "securityDefinitions", "tags"];

/**
 * Document: swagger 1, info 2, host 3, base_path 4, schemes 5, consumes 6, produces 7, paths 8, definitions 9,
 * security 12, security_definitions 13, tags 14, x- 16.
 */
export function gnosticDocument(doc: JsonObject): Uint8Array {
  checkKeys(doc, DOCUMENT_KEYS, "document");
  const w = new Writer();
  w.string(1, str(doc.swagger, "swagger"));
  if (doc.info !== undefined) {
    const info = object(doc.info, "info");
    checkKeys(info, ["title", "version", "description", "termsOfService"], "info");
    // Info: title 1, version 2, description 3, terms_of_service 4, x- 7.
    w.message(2, info, (m, i) => {
      m.string(1, str(i.title, "info.title"));
      m.string(2, str(i.version, "info.version"));
      m.string(3, str(i.description, "info.description"));
      m.string(4, str(i.termsOfService, "info.termsOfService"));
      writeExtensions(m, 7, i);
    });
  }
  w.string(3, str(doc.host, "host"));
  w.string(4, str(doc.basePath, "basePath"));
  w.strings(5, strList(doc.schemes, "schemes"));
  w.strings(6, strList(doc.consumes, "consumes"));
  w.strings(7, strList(doc.produces, "produces"));
  if (doc.paths !== undefined) {
    // Paths: x- 1, path 2 (NamedPathItem).
    const paths = object(doc.paths, "paths");
    w.message(8, paths, (m, p) => {
      writeExtensions(m, 1, p);
      writeNamed(m, 2, p, writePathItem, "paths");
    });
  }
  if (doc.definitions !== undefined) {
    // Definitions: additional_properties 1 (NamedSchema).
    const definitions = object(doc.definitions, "definitions");
    w.message(9, definitions, (m, d) => writeNamed(m, 1, d, writeSchema, "definitions"));
  }
  if (doc.security !== undefined) {
    if (!Array.isArray(doc.security)) throw new Error("gnostic: security is not a list");
    doc.security.forEach((r, i) => w.message(12, r, (m, x) => writeSecurityRequirement(m, x, `security[${i}]`)));
  }
  if (doc.securityDefinitions !== undefined) {
    // SecurityDefinitions: additional_properties 1 (NamedSecurityDefinitionsItem).
    const defs = object(doc.securityDefinitions, "securityDefinitions");
    w.message(13, defs, (m, d) => writeNamed(m, 1, d, writeSecurityScheme, "securityDefinitions"));
  }
  if (doc.tags !== undefined) {
    if (!Array.isArray(doc.tags)) throw new Error("gnostic: tags is not a list");
    doc.tags.forEach((t, i) => w.message(14, object(t, `tags[${i}]`), (m, x) => {
      checkKeys(x, ["name", "description"], `tags[${i}]`);
      m.string(1, str(x.name, `tags[${i}].name`));
      m.string(2, str(x.description, `tags[${i}].description`));
      writeExtensions(m, 4, x);
    }));
  }
  writeExtensions(w, 16, doc);
  return w.finish();
}

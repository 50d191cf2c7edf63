// What kube-apiserver 1.32 checks in a CustomResourceDefinition version's `schema.openAPIV3Schema`, with its
// messages and paths (`<basePath>.properties[spec].type: Required value: must not be empty for specified object
// fields`):
// - structuralSchemaErrors: the structural schema rules (apiextensions' ValidateStructural: every specified field
//   has a type, value validations inside allOf/anyOf/oneOf/not add nothing structural, metadata at the root only
//   restricts name and generateName, the int-or-string, embedded-resource and preserve-unknown-fields rules,
//   everything a value validation names also specified outside it) and, once structural, kube's ValidateDefaults
//   (a default must validate against its schema and be pruned already).
// - crdSchemaErrors: everything kube reports for the schema, in kube's order: the root restrictions when the
//   status subresource is on, `nullable` at the root, the structural errors, then the per-node OpenAPI rules
//   (unsupported keywords, uniqueItems, additionalProperties with properties, list and map types, list-map keys,
//   x-kubernetes-validations fields and their compilation). Call this one from the CRD kind's validation.
import { goQuote, type FieldError } from "../status";
import { celValidationErrors, compileCelValidator, compileRule, ruleValue, SUPPORTED_REASONS, validFieldPath } from "./cel-rules";
import { errorString, kubeField } from "./field-errors";
import { child, index, key } from "./field-path";
import { goRegexpError } from "./go-regexp";
import { prune } from "./prune";
import type { JSONSchemaProps } from "./types";
import { deepEqual, embeddedResourceErrors, schemaErrors } from "./validate";

type Level = "root" | "item" | "field";

const EMBEDDED = "x-kubernetes-embedded-resource";
const PRESERVE = "x-kubernetes-preserve-unknown-fields";
const INT_OR_STRING = "x-kubernetes-int-or-string";
const LIST_TYPE = "x-kubernetes-list-type";
const LIST_MAP_KEYS = "x-kubernetes-list-map-keys";
const MAP_TYPE = "x-kubernetes-map-type";
const VALIDATIONS = "x-kubernetes-validations";

const itemsSchema = (s: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(s.items) ? undefined : s.items);
const present = (v: unknown) => v !== undefined && v !== null;

/** kube's NewStructural: the schema errors that keep it from being converted at all. */
function conversionError(s: JSONSchemaProps | undefined): string | undefined {
  if (!s) return undefined;
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (s.patternProperties && Object.keys(s.patternProperties).length) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (s.dependencies && Object.keys(s.dependencies).length) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (s.definitions && Object.keys(s.definitions).length) return "OpenAPIV3Schema 'definitions' is not supported";
  if (s[PRESERVE] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  for (const sub of [s.not, itemsSchema(s), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []),
    ...Object.values(s.properties ?? {}), typeof s.additionalProperties === "object" ? s.additionalProperties : undefined]) {
    const err = conversionError(sub);
    if (err) return err;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// structural invariants (kube's validateStructuralInvariants)

/** `anyOf: [{type: integer}, {type: string}]`, exactly: the int-or-string pattern kube allows. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (anyOf?.length !== 2) return false;
  const only = (s: JSONSchemaProps, type: string) => Object.keys(s).length === 1 && s.type === type;
  return only(anyOf[0], "integer") && only(anyOf[1], "string");
}

function invariants(s: JSONSchemaProps, lvl: Level, path: string, out: FieldError[]): void {
  const items = itemsSchema(s);
  if (s.type === "array" && !items) out.push(kubeField.required(child(path, "items"), "must be specified"));
  if (items) invariants(items, "item", child(path, "items"), out);
  for (const [k, sub] of Object.entries(s.properties ?? {})) invariants(sub, "field", key(child(path, "properties"), k), out);
  if (s.additionalProperties !== undefined) {
    if (lvl === "root") out.push(kubeField.forbidden(child(path, "additionalProperties"), "must not be used at the root"));
    if (typeof s.additionalProperties === "object") invariants(s.additionalProperties, "field", child(path, "additionalProperties"), out);
  }

  if (s[INT_OR_STRING] && s[PRESERVE]) {
    out.push(kubeField.invalid(child(path, PRESERVE), true, "must be false if x-kubernetes-int-or-string is true"));
  }
  if (s[INT_OR_STRING] && s[EMBEDDED]) {
    out.push(kubeField.invalid(child(path, EMBEDDED), true, "must be false if x-kubernetes-int-or-string is true"));
  }

  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = (s.allOf?.length ?? 0) >= 1 && isIntOrStringAnyOf(s.allOf![0].anyOf);
  valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path, out);

  const checkMetadata = lvl === "root" || !!s[EMBEDDED];
  if (s[EMBEDDED] && s.type !== "object") {
    if (!s.type) out.push(kubeField.required(child(path, "type"), "must be object if x-kubernetes-embedded-resource is true"));
    else out.push(kubeField.invalid(child(path, "type"), s.type, "must be object if x-kubernetes-embedded-resource is true"));
  } else if (!s.type && !s[INT_OR_STRING] && !s[PRESERVE]) {
    const where = { root: "at the root", item: "for specified array items", field: "for specified object fields" }[lvl];
    out.push(kubeField.required(child(path, "type"), `must not be empty ${where}`));
  }
  if (s[EMBEDDED] && s.additionalProperties !== undefined) {
    out.push(kubeField.forbidden(child(path, "additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"));
  }
  if (lvl === "root" && s.type && s.type !== "object") out.push(kubeField.invalid(child(path, "type"), s.type, "must be object at the root"));

  for (const meta of ["kind", "apiVersion"]) {
    const sub = s.properties?.[meta];
    if (sub && checkMetadata && sub.type !== "string") {
      out.push(kubeField.invalid(child(key(child(path, "properties"), meta), "type"), sub.type ?? "", "must be string"));
    }
  }
  const metadata = s.properties?.metadata;
  if (metadata) metadataInvariants(metadata, checkMetadata, lvl, key(child(path, "properties"), "metadata"), out);

  if (s[EMBEDDED] && !s[PRESERVE] && Object.keys(s.properties ?? {}).length === 0) {
    out.push(kubeField.required(child(path, "properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
  }
}

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string, out: FieldError[]): void {
  if (checkMetadata && s.type !== "object") out.push(kubeField.invalid(child(path, "type"), s.type ?? "", "must be object"));
  if (lvl !== "root") return;
  // At the root, metadata may only restrict name and generateName: anything else a structural schema holds
  // (docs included) is refused. The default is refused elsewhere ("must not be set in top-level metadata").
  const rest: Record<string, unknown> = { ...s };
  delete rest.type;
  delete rest.default;
  delete rest.example; // example and externalDocs are not part of kube's structural schema
  delete rest.externalDocs;
  const props = Object.keys(s.properties ?? {});
  const onlyNames = (props.length === 2 && props.includes("name") && props.includes("generateName"))
    || (props.length === 1 && (props[0] === "name" || props[0] === "generateName"));
  if (onlyNames) delete rest.properties;
  const meaningful = Object.entries(rest).filter(([, v]) => present(v) && v !== false && !(Array.isArray(v) && v.length === 0));
  if (meaningful.length > 0) {
    out.push(kubeField.forbidden(path, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
  }
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, out: FieldError[]): void {
  if (!skipAnyOf) (s.anyOf ?? []).forEach((v, i) => nested(v, false, index(child(path, "anyOf"), i), out));
  (s.allOf ?? []).forEach((v, i) => nested(v, skipFirstAllOfAnyOf && i === 0, index(child(path, "allOf"), i), out));
  (s.oneOf ?? []).forEach((v, i) => nested(v, false, index(child(path, "oneOf"), i), out));
  if (s.not) nested(s.not, false, child(path, "not"), out);
  if (s.pattern) {
    const err = goRegexpError(s.pattern);
    if (err) out.push(kubeField.invalid(child(path, "pattern"), s.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
}

/** A value validation inside allOf/anyOf/oneOf/not (kube's validateNestedValueValidation). */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string, out: FieldError[]): void {
  valueValidation(v, skipAnyOf, false, path, out);
  const items = itemsSchema(v);
  if (items) nested(items, false, child(path, "items"), out);
  for (const [k, sub] of Object.entries(v.properties ?? {})) nested(sub, false, key(child(path, "properties"), k), out);
  const forbid = (name: string, detail: string) => out.push(kubeField.forbidden(child(path, name), detail));
  if (v.type) forbid("type", "must be empty to be structural");
  if (v.additionalProperties !== undefined) forbid("additionalProperties", "must be undefined to be structural");
  if (v.default !== undefined) forbid("default", "must be undefined to be structural");
  if (v.title) forbid("title", "must be empty to be structural");
  if (v.description) forbid("description", "must be empty to be structural");
  if (v.nullable) forbid("nullable", "must be false to be structural");
  if (v.externalDocs) forbid("externalDocs", "must be undefined to be structural");
  if (v[PRESERVE]) forbid(PRESERVE, "must be false to be structural");
  if (v[EMBEDDED]) forbid(EMBEDDED, "must be false to be structural");
  if (v[INT_OR_STRING]) forbid(INT_OR_STRING, "must be false to be structural");
  if (v[LIST_MAP_KEYS]?.length) forbid(LIST_MAP_KEYS, "must be empty to be structural");
  if (v[LIST_TYPE] !== undefined) forbid(LIST_TYPE, "must be undefined to be structural");
  if (v[MAP_TYPE] !== undefined) forbid(MAP_TYPE, "must be undefined to be structural");
  if (v[VALIDATIONS]?.length) forbid(VALIDATIONS, "must be empty to be structural");
  if (v.properties && "metadata" in v.properties) {
    out.push(kubeField.forbidden(key(child(path, "properties"), "metadata"), "must not be specified in a nested context"));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// completeness (kube's validateStructuralCompleteness): what a value validation names is specified outside it

function completeness(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  valueCompleteness(s, s, path, path, out);
}

function valueCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string, out: FieldError[]): void {
  if (v.not) nestedCompleteness(v.not, s, sPath, child(vPath, "not"), out);
  (v.allOf ?? []).forEach((x, i) => nestedCompleteness(x, s, sPath, index(child(vPath, "allOf"), i), out));
  (v.anyOf ?? []).forEach((x, i) => nestedCompleteness(x, s, sPath, index(child(vPath, "anyOf"), i), out));
  (v.oneOf ?? []).forEach((x, i) => nestedCompleteness(x, s, sPath, index(child(vPath, "oneOf"), i), out));
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, out: FieldError[]): void {
  if (!s) {
    out.push(kubeField.required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  valueCompleteness(v, s, sPath, vPath, out);
  const vItems = itemsSchema(v);
  if (vItems) nestedCompleteness(vItems, itemsSchema(s), child(sPath, "items"), child(vPath, "items"), out);
  for (const [k, vField] of Object.entries(v.properties ?? {})) {
    const sField = s.properties?.[k];
    const sp = key(child(sPath, "properties"), k);
    const vp = key(child(vPath, "properties"), k);
    if (!sField) out.push(kubeField.required(sp, `because it is defined in ${vp}`));
    else nestedCompleteness(vField, sField, sp, vp, out);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// defaults (kube's ValidateDefaults): each default validates against its schema and is already pruned

function defaults(s: JSONSchemaProps, path: string, insideMeta: boolean, out: FieldError[], resourceRoot?: JSONSchemaProps): void {
  const embedded = !!s[EMBEDDED];
  if (embedded) {
    insideMeta = false;
    resourceRoot = s;
  }
  if (s.default !== undefined) {
    const at = child(path, "default");
    if (!insideMeta) {
      const pruned = structuredClone(s.default);
      prune(pruned, s, { isResourceRoot: embedded });
      if (!deepEqual(pruned, s.default)) out.push(kubeField.invalid(at, s.default, "must not have unknown fields"));
    }
    const meta = !insideMeta && embedded ? embeddedResourceErrors(s, s.default, at) : [];
    const schema = meta.length ? [] : schemaErrors(s, s.default, { basePath: at });
    out.push(...meta, ...schema);
    if (!meta.length && !schema.length) out.push(...defaultRuleErrors(s, s.default, at, s === resourceRoot));
  }
  const items = itemsSchema(s);
  if (items) defaults(items, child(path, "items"), insideMeta, out, resourceRoot);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    defaults(sub, key(child(path, "properties"), k), insideMeta || (embedded && ["metadata", "apiVersion", "kind"].includes(k)), out, resourceRoot);
  }
}

/** A default must also pass the CEL rules of its schema: as an update from itself, then as a create (kube runs
 *  the second only when the first passes, for optionalOldSelf rules). */
function defaultRuleErrors(s: JSONSchemaProps, value: unknown, at: string, isResourceRoot: boolean): FieldError[] {
  const validator = compileCelValidator(s, { isResourceRoot });
  if (!validator) return [];
  const asUpdate = celValidationErrors(validator, value, { path: at, old: { value }, ratcheting: false }).errors;
  if (asUpdate.length) return asUpdate;
  return celValidationErrors(validator, value, { path: at }).errors;
}

interface StructuralResult {
  /** NewStructural's refusal: kube shows it only when nothing else is wrong. */
  initErrors: FieldError[];
  errors: FieldError[];
  structural: boolean;
}

function structuralCheck(schema: JSONSchemaProps, basePath: string): StructuralResult {
  const conversion = conversionError(schema);
  if (conversion) return { initErrors: [kubeField.invalid(basePath, "", conversion)], errors: [], structural: false };
  const errors: FieldError[] = [];
  invariants(schema, "root", basePath, errors);
  completeness(schema, basePath, errors);
  if (errors.length) {
    errors.sort((a, b) => (errorString(a) < errorString(b) ? -1 : errorString(a) > errorString(b) ? 1 : 0));
    return { initErrors: [], errors, structural: false };
  }
  defaults({ ...schema, [EMBEDDED]: true }, basePath, false, errors);
  return { initErrors: [], errors, structural: errors.length === 0 };
}

/** kube's structural schema rules and default checks for `schema` found at `basePath`
 *  (`spec.versions[0].schema.openAPIV3Schema`). Empty when the schema is structural and its defaults sound. */
export function structuralSchemaErrors(schema: JSONSchemaProps, basePath: string): FieldError[] {
  const r = structuralCheck(schema, basePath);
  return r.errors.length ? r.errors : r.initErrors;
}

// ---------------------------------------------------------------------------------------------------------------
// the per-node OpenAPI rules (kube's ValidateCustomResourceDefinitionOpenAPISchema)

const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];
const META_FIELDS = new Set(["metadata", "kind", "apiVersion"]);

interface Ssv {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
  /** The highest path whose values cannot be correlated between revisions (oldSelf is refused below it). */
  uncorrelatable?: string;
}

interface SchemaErrors {
  schema: FieldError[];
  cel: FieldError[];
}

function ssvValidate(s: JSONSchemaProps, path: string, ssv: Ssv, out: FieldError[]): void {
  if (s.type && !OPENAPI_TYPES.includes(s.type)) out.push(kubeField.notSupported(child(path, "type"), s.type, OPENAPI_TYPES));
  if (s.default !== undefined && !ssv.allowDefaults) {
    out.push(kubeField.forbidden(child(path, "default"), `must not be set${ssv.disallowDefaultsReason ? ` ${ssv.disallowDefaultsReason}` : ""}`));
  }
  if (s.id) out.push(kubeField.forbidden(child(path, "id"), "id is not supported"));
  if (s.additionalItems !== undefined) out.push(kubeField.forbidden(child(path, "additionalItems"), "additionalItems is not supported"));
  if (s.patternProperties && Object.keys(s.patternProperties).length) out.push(kubeField.forbidden(child(path, "patternProperties"), "patternProperties is not supported"));
  if (s.definitions && Object.keys(s.definitions).length) out.push(kubeField.forbidden(child(path, "definitions"), "definitions is not supported"));
  if (s.dependencies !== undefined) out.push(kubeField.forbidden(child(path, "dependencies"), "dependencies is not supported"));
  if (s.$ref !== undefined) out.push(kubeField.forbidden(child(path, "$ref"), "$ref is not supported"));
  if (s.type === "null") out.push(kubeField.forbidden(child(path, "type"), "type cannot be set to null, use nullable as an alternative"));
  if (Array.isArray(s.items)) out.push(kubeField.forbidden(child(path, "items"), "items must be a schema object and not an array"));
  if (ssv.insideResourceMeta && s[EMBEDDED]) out.push(kubeField.forbidden(child(path, EMBEDDED), "must not be used inside of resource meta"));
}

const goStrings = (list: string[]) => `[]string{${list.map(goQuote).join(", ")}}`;

function openAPISchema(s: JSONSchemaProps | undefined, path: string, ssv: Ssv, isRoot: boolean, cel: boolean, out: SchemaErrors): void {
  if (!s) return;
  const before = out.schema.length;
  ssvValidate(s, path, ssv, out.schema);
  if (s.uniqueItems) out.schema.push(kubeField.forbidden(child(path, "uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));

  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length && (s.additionalProperties === false || typeof s.additionalProperties === "object")) {
      out.schema.push(kubeField.forbidden(child(path, "additionalProperties"), "additionalProperties and properties are mutual exclusive"));
    }
    const sub = ssv.insideResourceMeta ? { ...ssv, allowDefaults: false, disallowDefaultsReason: "inside additionalProperties applying to object metadata" } : ssv;
    if (typeof s.additionalProperties === "object") openAPISchema(s.additionalProperties, child(path, "additionalProperties"), sub, false, cel, out);
  }
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    let sub = ssv;
    if (s[MAP_TYPE] === "atomic" && !sub.uncorrelatable) sub = { ...sub, uncorrelatable: path };
    if ((isRoot || s[EMBEDDED]) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
    }
    openAPISchema(prop, key(child(path, "properties"), k), sub, false, cel, out);
  }
  if (s.not) openAPISchema(s.not, child(path, "not"), ssv, false, false, out);
  (s.allOf ?? []).forEach((x, i) => openAPISchema(x, index(child(path, "allOf"), i), ssv, false, false, out));
  (s.oneOf ?? []).forEach((x, i) => openAPISchema(x, index(child(path, "oneOf"), i), ssv, false, false, out));
  (s.anyOf ?? []).forEach((x, i) => openAPISchema(x, index(child(path, "anyOf"), i), ssv, false, false, out));
  for (const [k, x] of Object.entries(s.definitions ?? {})) openAPISchema(x, key(child(path, "definitions"), k), ssv, false, false, out);
  if (s.items !== undefined) {
    const sub = s[LIST_TYPE] !== "map" && !ssv.uncorrelatable ? { ...ssv, uncorrelatable: path } : ssv;
    if (Array.isArray(s.items)) s.items.forEach((x, i) => openAPISchema(x, index(child(path, "items"), i), sub, false, cel, out));
    else openAPISchema(s.items, child(path, "items"), sub, false, cel, out);
  }
  for (const [k, x] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(x)) openAPISchema(x, key(child(path, "dependencies"), k), ssv, false, false, out);
  }

  const errs = out.schema;
  if (s[PRESERVE] === false) errs.push(kubeField.invalid(child(path, PRESERVE), false, "must be true or undefined"));
  if (s[MAP_TYPE] !== undefined && s.type !== "object") {
    if (!s.type) errs.push(kubeField.required(child(path, "type"), "must be object if x-kubernetes-map-type is specified"));
    else errs.push(kubeField.invalid(child(path, "type"), s.type, "must be object if x-kubernetes-map-type is specified"));
  }
  if (s[MAP_TYPE] !== undefined && s[MAP_TYPE] !== "atomic" && s[MAP_TYPE] !== "granular") {
    errs.push(kubeField.notSupported(child(path, MAP_TYPE), s[MAP_TYPE], ["atomic", "granular"]));
  }
  const items = itemsSchema(s);
  if (s[LIST_TYPE] !== undefined && s.type !== "array") {
    if (!s.type) errs.push(kubeField.required(child(path, "type"), "must be array if x-kubernetes-list-type is specified"));
    else errs.push(kubeField.invalid(child(path, "type"), s.type, "must be array if x-kubernetes-list-type is specified"));
  } else if (s[LIST_TYPE] === "set" && items) {
    if (items.type === "array" && items[LIST_TYPE] !== undefined && items[LIST_TYPE] !== "atomic") {
      errs.push(kubeField.invalid(child(path, "items", LIST_TYPE), items[LIST_TYPE], "must be atomic as item of a list with x-kubernetes-list-type=set"));
    } else if (items.type === "object" && items[MAP_TYPE] !== "atomic") {
      errs.push(kubeField.invalid(child(path, "items", MAP_TYPE), items[LIST_TYPE] ?? null, "must be atomic as item of a list with x-kubernetes-list-type=set"));
    }
  }
  if (s[LIST_TYPE] !== undefined && !["atomic", "set", "map"].includes(s[LIST_TYPE]!)) {
    errs.push(kubeField.notSupported(child(path, LIST_TYPE), s[LIST_TYPE], ["atomic", "set", "map"]));
  }
  const mapKeys = s[LIST_MAP_KEYS] ?? [];
  if (mapKeys.length > 0) {
    if (s[LIST_TYPE] === undefined) errs.push(kubeField.required(child(path, LIST_TYPE), "must be map if x-kubernetes-list-map-keys is non-empty"));
    else if (s[LIST_TYPE] !== "map") errs.push(kubeField.invalid(child(path, LIST_TYPE), s[LIST_TYPE], "must be map if x-kubernetes-list-map-keys is non-empty"));
  }
  if (s[LIST_TYPE] === "map") {
    if (mapKeys.length === 0) errs.push(kubeField.required(child(path, LIST_MAP_KEYS), "must not be empty if x-kubernetes-list-type is map"));
    if (s.items === undefined) errs.push(kubeField.required(child(path, "items"), "must have a schema if x-kubernetes-list-type is map"));
    if (Array.isArray(s.items)) errs.push(kubeField.invalidRaw(child(path, "items"), "&apiextensions.JSONSchemaPropsOrArray{...}", "must only have a single schema if x-kubernetes-list-type is map"));
    if (items && items.type !== "object") {
      errs.push(kubeField.invalid(child(path, "items", "type"), items.type ?? "", "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && items.type === "object") {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const prop = items.properties?.[k];
        if (prop) {
          if (prop.type === "array" || prop.type === "object") {
            errs.push(kubeField.invalid(child(key(child(path, "items", "properties"), k), "type"), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(kubeField.invalidRaw(child(path, LIST_MAP_KEYS), goStrings(mapKeys), "entries must all be names of item properties"));
        }
        if (seen.has(k)) errs.push(kubeField.invalidRaw(child(path, LIST_MAP_KEYS), goStrings(mapKeys), "must not contain duplicate entries"));
        seen.add(k);
      }
    }
  }
  if (items && (s[LIST_TYPE] === "set" || s[LIST_TYPE] === "map")) {
    if (items.nullable) errs.push(kubeField.forbidden(child(path, "items", "nullable"), `cannot be nullable when x-kubernetes-list-type is ${s[LIST_TYPE]}`));
    if (s[LIST_TYPE] === "map") {
      const required = new Set(items.required ?? []);
      for (const k of mapKeys) {
        const prop = items.properties?.[k];
        if (!prop) continue;
        const at = key(child(path, "items", "properties"), k);
        if (!required.has(k) && prop.default === undefined) {
          errs.push(kubeField.required(child(at, "default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
        }
        if (prop.nullable) errs.push(kubeField.forbidden(child(at, "nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
      }
    }
  }

  const rules = s[VALIDATIONS] ?? [];
  rules.forEach((rule, i) => {
    const at = index(child(path, VALIDATIONS), i);
    const trimmedRule = (rule.rule ?? "").trim();
    const msg = rule.message ?? "";
    const trimmedMsg = msg.trim();
    if (!trimmedRule) errs.push(kubeField.required(child(at, "rule"), "rule is not specified"));
    else if (msg.length > 0 && !trimmedMsg) errs.push(kubeField.invalid(child(at, "message"), msg, "message must be non-empty if specified"));
    else if (/[\n\r]/.test(trimmedMsg)) errs.push(kubeField.invalid(child(at, "message"), msg, "message must not contain line breaks"));
    else if (/[\n\r]/.test(trimmedRule) && !trimmedMsg) errs.push(kubeField.required(child(at, "message"), "message must be specified if rule contains line breaks"));
    if ((rule.messageExpression ?? "").length > 0 && !rule.messageExpression!.trim()) {
      errs.push(kubeField.required(child(at, "messageExpression"), "messageExpression must be non-empty if specified"));
    }
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) {
      errs.push(kubeField.notSupported(child(at, "reason"), rule.reason, SUPPORTED_REASONS));
    }
    const fp = rule.fieldPath ?? "";
    if (fp.length > 0 && !fp.trim()) errs.push(kubeField.invalid(child(at, "fieldPath"), fp, "fieldPath must be non-empty if specified"));
    if (/[\n\r]/.test(fp)) errs.push(kubeField.invalid(child(at, "fieldPath"), fp, "fieldPath must not contain line breaks"));
    if (fp.length > 0 && !conversionError(s) && validFieldPath(fp, s) instanceof Error) {
      errs.push(kubeField.invalid(child(at, "fieldPath"), fp, "fieldPath must be a valid path"));
    }
  });
  // kube compiles the rules only when the schema is structural and nothing at this node or below is wrong
  if (rules.length && cel && out.schema.length === before) {
    rules.forEach((rule, i) => {
      const at = index(child(path, VALIDATIONS), i);
      const compiled = compileRule(rule, s, isRoot);
      if (compiled.error) {
        if (compiled.error.type === "required") out.cel.push(kubeField.required(child(at, "rule"), compiled.error.detail));
        else out.cel.push(kubeField.invalidRaw(child(at, "rule"), ruleValue(rule), compiled.error.detail));
      }
      if (compiled.messageExpressionError) {
        out.cel.push(kubeField.invalidRaw(child(at, "messageExpression"), ruleValue(rule), compiled.messageExpressionError));
      }
      if (compiled.usesOldSelf) {
        if (ssv.uncorrelatable !== undefined) {
          out.cel.push(kubeField.invalid(child(at, "rule"), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ssv.uncorrelatable}`));
        }
      } else if (rule.optionalOldSelf !== undefined && !compiled.error) {
        out.cel.push(kubeField.invalid(child(at, "optionalOldSelf"), rule.optionalOldSelf, "may not be set if oldSelf is not used in rule"));
      }
    });
  }
}

/** The JSONSchemaProps fields kube allows at the root when the status subresource is on, in Go field order. */
const ROOT_FIELDS_WITH_STATUS = [
  "Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength",
  "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties",
  "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations",
];

/** JSON names in Go's struct order, with their Go names. */
const GO_FIELDS: [keyof JSONSchemaProps, string][] = [
  ["id", "ID"], ["$schema", "Schema"], ["$ref", "Ref"], ["description", "Description"], ["type", "Type"],
  ["format", "Format"], ["title", "Title"], ["default", "Default"], ["maximum", "Maximum"],
  ["exclusiveMaximum", "ExclusiveMaximum"], ["minimum", "Minimum"], ["exclusiveMinimum", "ExclusiveMinimum"],
  ["maxLength", "MaxLength"], ["minLength", "MinLength"], ["pattern", "Pattern"], ["maxItems", "MaxItems"],
  ["minItems", "MinItems"], ["uniqueItems", "UniqueItems"], ["multipleOf", "MultipleOf"], ["enum", "Enum"],
  ["maxProperties", "MaxProperties"], ["minProperties", "MinProperties"], ["required", "Required"], ["items", "Items"],
  ["allOf", "AllOf"], ["oneOf", "OneOf"], ["anyOf", "AnyOf"], ["not", "Not"], ["properties", "Properties"],
  ["additionalProperties", "AdditionalProperties"], ["patternProperties", "PatternProperties"],
  ["dependencies", "Dependencies"], ["additionalItems", "AdditionalItems"], ["definitions", "Definitions"],
  ["externalDocs", "ExternalDocs"], ["example", "Example"], ["nullable", "Nullable"],
  [PRESERVE, "XPreserveUnknownFields"], [EMBEDDED, "XEmbeddedResource"], [INT_OR_STRING, "XIntOrString"],
  [LIST_MAP_KEYS, "XListMapKeys"], [LIST_TYPE, "XListType"], [MAP_TYPE, "XMapType"], [VALIDATIONS, "XValidations"],
];

const isZero = (v: unknown) => v === undefined || v === null || v === false || v === "" || v === 0
  || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** The bad value kube prints for the whole root schema (Go's %#v of a JSONSchemaProps): abbreviated here. */
const schemaValue = "apiextensions.JSONSchemaProps{...}";

export interface CrdSchemaOptions {
  /** The version has the status subresource: the root schema may then only use a few fields. */
  statusSubresource?: boolean;
}

/** Everything kube-apiserver 1.32 reports for a CRD version's openAPIV3Schema found at `basePath`, in kube's
 *  order; includes structuralSchemaErrors. */
export function crdSchemaErrors(schema: JSONSchemaProps, basePath: string, opts: CrdSchemaOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.statusSubresource) {
    for (const [json, goName] of GO_FIELDS) {
      const v = schema[json];
      if (isZero(v)) continue;
      if (goName === "Type") {
        if (schema.type !== "object") {
          errs.push(kubeField.invalid(`${basePath}.type`, schema.type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`));
          break;
        }
        continue;
      }
      if (!ROOT_FIELDS_WITH_STATUS.includes(goName)) {
        errs.push(kubeField.invalidRaw(basePath, schemaValue, `only [${ROOT_FIELDS_WITH_STATUS.join(" ")}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable) errs.push(kubeField.forbidden(`${basePath}.nullable`, "nullable cannot be true at the root"));
  const structural = structuralCheck(schema, basePath);
  errs.push(...structural.errors);
  const out: SchemaErrors = { schema: [], cel: [] };
  openAPISchema(schema, basePath, { allowDefaults: true, insideResourceMeta: false }, true, structural.structural, out);
  errs.push(...out.schema, ...out.cel);
  if (errs.length === 0) errs.push(...structural.initErrors);
  return errs;
}


/** kube's limit on a version's selectableFields. */
export const MAX_SELECTABLE_FIELDS = 8;

/** kube's checks of a version's `selectableFields` against its schema, at `path`
 *  (`spec.versions[0].selectableFields`): each a valid dotted path (no array notation) outside metadata, to a
 *  string, boolean or integer field, no two alike, at most 8. */
export function selectableFieldErrors(fields: { jsonPath?: string }[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const at = child(index(path, i), "jsonPath");
    const jsonPath = f.jsonPath ?? "";
    if (!jsonPath) {
      errs.push(kubeField.required(at));
      return;
    }
    const resolved = validFieldPath(jsonPath, schema, false);
    if (resolved instanceof Error) {
      errs.push(kubeField.invalid(at, jsonPath, `is an invalid path: ${resolved.message}`));
      return;
    }
    if (resolved.split(/[.[]/)[0] === "metadata") errs.push(kubeField.invalid(at, jsonPath, "must not point to fields in metadata"));
    const target = schemaAt(schema, jsonPath);
    if (!target || !["string", "boolean", "integer"].includes(target.type ?? "")) {
      errs.push(kubeField.invalid(at, jsonPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."));
    }
    if (seen.has(resolved)) errs.push(kubeField.duplicate(at, jsonPath));
    seen.add(resolved);
  });
  if (seen.size > MAX_SELECTABLE_FIELDS) errs.push(kubeField.tooMany(path, seen.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** The schema a dotted path (`.spec.color`) leads to. */
function schemaAt(schema: JSONSchemaProps, jsonPath: string): JSONSchemaProps | undefined {
  let s: JSONSchemaProps | undefined = schema;
  for (const name of jsonPath.split(".").slice(1)) {
    s = s?.properties?.[name] ?? (typeof s?.additionalProperties === "object" ? s.additionalProperties : undefined);
  }
  return s;
}

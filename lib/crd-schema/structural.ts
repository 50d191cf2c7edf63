// PLACEHOLDER (task K): the structural-schema machinery is helper J's (branch crdschema), which replaces this file
// at merge. It keeps J's signatures so lib/kinds/custom-resource-definition.ts calls them today: the few root rules
// and the simple selectable-field checks are here so the CRD kind's tests pass; the structural check itself reports
// nothing until J's version lands, so every schema passes as structural.
import type { FieldError } from "../status";
import type { JSONSchemaProps } from "./types";

export type { JSONSchemaProps } from "./types";

/** kube's structural-schema errors for `schema`, reported under `basePath` (`spec.validation.openAPIV3Schema`). */
export function structuralSchemaErrors(schema: JSONSchemaProps, basePath: string): FieldError[] {
  void schema;
  void basePath;
  return [];
}

export interface CrdSchemaOptions {
  /** The version has the status subresource: the root schema may then only use a few fields. */
  statusSubresource?: boolean;
}

/** JSON field names allowed at the root with the status subresource, and their Go names for kube's message. */
const ROOT_FIELDS_WITH_STATUS: [string, string][] = [
  ["description", "Description"], ["type", "Type"], ["format", "Format"], ["title", "Title"], ["maximum", "Maximum"],
  ["exclusiveMaximum", "ExclusiveMaximum"], ["minimum", "Minimum"], ["exclusiveMinimum", "ExclusiveMinimum"],
  ["maxLength", "MaxLength"], ["minLength", "MinLength"], ["pattern", "Pattern"], ["maxItems", "MaxItems"],
  ["minItems", "MinItems"], ["uniqueItems", "UniqueItems"], ["multipleOf", "MultipleOf"], ["required", "Required"],
  ["items", "Items"], ["properties", "Properties"], ["externalDocs", "ExternalDocs"], ["example", "Example"],
  ["x-kubernetes-preserve-unknown-fields", "XPreserveUnknownFields"], ["x-kubernetes-validations", "XValidations"],
];

const isZero = (v: unknown) => v === undefined || v === null || v === false || v === "" || v === 0
  || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** Everything kube reports for a version's openAPIV3Schema at `basePath` (here: the root rules, then the structural check). */
export function crdSchemaErrors(schema: JSONSchemaProps, basePath: string, opts: CrdSchemaOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.statusSubresource) {
    const allowed = new Map(ROOT_FIELDS_WITH_STATUS);
    for (const [key, value] of Object.entries(schema)) {
      if (isZero(value)) continue;
      if (key === "type") {
        if (value !== "object") {
          errs.push({ type: "FieldValueInvalid", field: `${basePath}.type`, detail: `Invalid value: ${JSON.stringify(value)}: only "object" is allowed as the type at the root of the schema if the status subresource is enabled` });
          break;
        }
        continue;
      }
      if (!allowed.has(key)) {
        const names = ROOT_FIELDS_WITH_STATUS.map(([, go]) => go).join(" ");
        errs.push({ type: "FieldValueInvalid", field: basePath, detail: `Invalid value: apiextensions.JSONSchemaProps{...}: only [${names}] fields are allowed at the root of the schema if the status subresource is enabled` });
        break;
      }
    }
  }
  if (schema.nullable) errs.push({ type: "FieldValueForbidden", field: `${basePath}.nullable`, detail: "Forbidden: nullable cannot be true at the root" });
  errs.push(...structuralSchemaErrors(schema, basePath));
  return errs;
}

/** kube's limit on a version's selectableFields. */
export const MAX_SELECTABLE_FIELDS = 8;

/** The schema a dotted path (`.spec.color`) leads to. */
function schemaAt(schema: JSONSchemaProps, jsonPath: string): JSONSchemaProps | undefined {
  let s: JSONSchemaProps | undefined = schema;
  for (const name of jsonPath.split(".").slice(1)) {
    const next: unknown = s?.properties?.[name];
    s = typeof next === "object" && next !== null ? (next as JSONSchemaProps) : undefined;
  }
  return s;
}

/** kube's checks of a version's `selectableFields` against its schema, at `path` (simple dotted paths only here). */
export function selectableFieldErrors(fields: { jsonPath?: string }[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    const jsonPath = typeof f?.jsonPath === "string" ? f.jsonPath : "";
    if (!jsonPath) {
      errs.push({ type: "FieldValueRequired", field: at, detail: "Required value" });
      return;
    }
    const target = jsonPath.startsWith(".") ? schemaAt(schema, jsonPath) : undefined;
    if (!target) {
      errs.push({ type: "FieldValueInvalid", field: at, detail: `Invalid value: ${JSON.stringify(jsonPath)}: is an invalid path: does not refer to a valid field` });
      return;
    }
    if (jsonPath.split(".")[1] === "metadata") errs.push({ type: "FieldValueInvalid", field: at, detail: `Invalid value: ${JSON.stringify(jsonPath)}: must not point to fields in metadata` });
    if (!["string", "boolean", "integer"].includes(target.type ?? "")) {
      errs.push({ type: "FieldValueInvalid", field: at, detail: `Invalid value: ${JSON.stringify(jsonPath)}: must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.` });
    }
    if (seen.has(jsonPath)) errs.push({ type: "FieldValueDuplicate", field: at, detail: `Duplicate value: ${JSON.stringify(jsonPath)}` });
    seen.add(jsonPath);
  });
  if (seen.size > MAX_SELECTABLE_FIELDS) errs.push({ type: "FieldValueTooMany", field: path, detail: `Too many: ${seen.size}: must have at most ${MAX_SELECTABLE_FIELDS} items` });
  return errs;
}

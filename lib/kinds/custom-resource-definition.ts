// CustomResourceDefinition (apiextensions.k8s.io/v1): a user's own kind, declared as kube-apiserver 1.32's
// apiextensions-apiserver serves it: v1 defaults (SetDefaults_CustomResourceDefinition), the strategy (generation,
// storedVersions, status reset), ValidateCustomResourceDefinition(Update) with kube's messages and paths, the
// first DELETE's cleanup finalizer and Terminating condition, and a Name/Created At table. Serving the custom
// resources themselves is the next step (issue 25); the naming/establishing/finalizer work is
// lib/controllers/custom-resource-definitions.ts.
import { crdSchemaErrors, selectableFieldErrors } from "../crd-schema/structural";
import type { JSONSchemaProps } from "../crd-schema/types";
import { field, type FieldError } from "../status";
import { dns1035LabelErrors, dns1123SubdomainErrors } from "../validation/dns-names";
import { validateImmutableField } from "../validation/immutable-field";
import { invalidRendered } from "../validation/rendered-value";
import { semanticEqual } from "../validation/semantic-equal";
import { createdAtColumn, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { APIEXTENSIONS_GROUP, customResourceDefinitionSchema } from "./schema/custom-resource-definition";
import { findTypeError } from "./schema/shape";
import type { KubeObject } from "./types";

export { APIEXTENSIONS_GROUP } from "./schema/custom-resource-definition";

// --- types ------------------------------------------------------------------------------------------------------

export interface CustomResourceDefinitionNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string };
}

export interface CustomResourceDefinitionVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: { jsonPath?: string }[];
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CustomResourceConversion {
  strategy?: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CustomResourceDefinitionSpec {
  group?: string;
  names?: CustomResourceDefinitionNames;
  scope?: string;
  versions?: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

// --- conditions (apiextensions' helpers) -----------------------------------------------------------------------

/** The finalizer kube adds on the first DELETE; the finalizer controller removes it once the custom resources are gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";
export const ESTABLISHED = "Established";
export const NAMES_ACCEPTED = "NamesAccepted";
export const TERMINATING = "Terminating";

const toTimestamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

export function findCondition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return list(record(crd.status).conditions).find((c) => record(c).type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === "True";
}

/**
 * SetCRDCondition: adds the condition, or updates status, reason and message in place; lastTransitionTime moves
 * only when the status changes (or was never set). Mutates `crd`.
 */
export function setCondition(crd: CustomResourceDefinition, next: Omit<CustomResourceDefinitionCondition, "lastTransitionTime">, now = Date.now()): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const at = toTimestamp(now);
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) {
    conditions.push({ type: next.type, status: next.status, lastTransitionTime: at, reason: next.reason, message: next.message });
    return;
  }
  if (existing.status !== next.status || !existing.lastTransitionTime) existing.lastTransitionTime = at;
  existing.status = next.status;
  existing.reason = next.reason;
  existing.message = next.message;
}

// --- defaults and strategy ---------------------------------------------------------------------------------------

/** The value when it is a JSON object, else an empty one: hooks see bodies of any JSON shape. */
const record = <T extends object>(v: T | undefined): Partial<T> => (typeof v === "object" && v !== null && !Array.isArray(v) ? v : {});
const list = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);

const storageVersionOf = (crd: CustomResourceDefinition) => {
  const name = list(record(crd.spec).versions).find((v) => record(v).storage === true)?.name;
  return typeof name === "string" ? name : undefined;
};

/** SetDefaults_CustomResourceDefinition(Spec) and SetDefaults_ServiceReference of apiextensions v1. */
/**
 * What Go's decoding makes of JSON nulls inside a schema: a null schema in a map or list (properties,
 * patternProperties, definitions, dependencies, allOf/anyOf/oneOf) is the empty schema; a null pointer
 * (items, not, additionalProperties, additionalItems) is absent. Applied before anything walks the schema.
 */
function decodeSchemaNulls(schema: unknown, depth = 0): void {
  if (!schema || typeof schema !== "object" || Array.isArray(schema) || depth > 200) return;
  const s = schema as Record<string, unknown>;
  for (const k of ["items", "not", "additionalProperties", "additionalItems"]) if (s[k] === null) delete s[k];
  for (const k of ["properties", "patternProperties", "definitions", "dependencies"]) {
    const m = s[k];
    if (m && typeof m === "object" && !Array.isArray(m)) {
      for (const [name, child] of Object.entries(m)) {
        if (child === null) (m as Record<string, unknown>)[name] = {};
        else decodeSchemaNulls(child, depth + 1);
      }
    }
  }
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    const l = s[k];
    if (Array.isArray(l)) l.forEach((child, i) => { if (child === null) l[i] = {}; else decodeSchemaNulls(child, depth + 1); });
  }
  for (const k of ["items", "not", "additionalProperties", "additionalItems"]) {
    const c = s[k];
    if (Array.isArray(c)) c.forEach((child, i) => { if (child === null) c[i] = {}; else decodeSchemaNulls(child, depth + 1); });
    else decodeSchemaNulls(c, depth + 1);
  }
}

function applyDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (spec && typeof spec === "object" && Array.isArray(spec.versions)) {
    for (const v of spec.versions) if (v && typeof v === "object") decodeSchemaNulls(v.schema?.openAPIV3Schema);
  }
  if (spec && typeof spec === "object") {
    const names = spec.names;
    if (names && typeof names === "object") {
      if (!names.singular && typeof names.kind === "string") names.singular = names.kind.toLowerCase();
      if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    }
    if (!spec.conversion) spec.conversion = { strategy: "None" };
    const service = spec.conversion?.webhook?.clientConfig?.service;
    if (service && typeof service === "object" && service.port === undefined) service.port = 443;
  }
  if (crd.status && typeof crd.status === "object" && !crd.status.storedVersions?.length) {
    const storage = storageVersionOf(crd);
    if (storage !== undefined) crd.status.storedVersions = [storage];
  }
}

/** The strategy's PrepareForCreate: status starts over, holding only the storage version. */
function prepareForCreate(crd: CustomResourceDefinition): void {
  const storage = storageVersionOf(crd);
  crd.status = { acceptedNames: { plural: "", kind: "" }, ...(storage !== undefined ? { storedVersions: [storage] } : {}) };
}

/** PrepareForUpdate: status as stored, plus the (new) storage version in storedVersions. */
function prepareForUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): void {
  crd.status = old.status === undefined ? {} : structuredClone(old.status);
  const storage = storageVersionOf(crd);
  if (storage !== undefined) {
    const stored = list(crd.status.storedVersions);
    if (!stored.includes(storage)) crd.status.storedVersions = [...stored, storage];
  }
}

/** The first DELETE (kube's CRD REST Delete): the cleanup finalizer and the Terminating condition; the CRD is kept. */
function beginDeletion(crd: CustomResourceDefinition): CustomResourceDefinition {
  delete crd.metadata.deletionGracePeriodSeconds;
  const finalizers = crd.metadata.finalizers ?? [];
  if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CUSTOM_RESOURCE_CLEANUP_FINALIZER];
  setCondition(crd, {
    type: TERMINATING, status: "True", reason: "InstanceDeletionPending",
    message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
  });
  return crd;
}

// --- validation ---------------------------------------------------------------------------------------------------

const PRINTER_COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const PRINTER_COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];
const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ["v1", "v1beta1"];

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const isEmpty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => (isEmpty(a) && isEmpty(b)) || semanticEqual(a, b);

/**
 * kube validates the internal type: converting from v1 moves a per-version schema, subresources, printer columns
 * (and selectable fields, with the schema) to the top level when every version has the same. Errors are then
 * reported at `spec.validation.openAPIV3Schema`, `spec.subresources`, `spec.additionalPrinterColumns` and
 * `spec.selectableFields` (always so for a single version), otherwise at `spec.versions[i]....`.
 */
interface InternalView {
  schema?: JSONSchemaProps;
  schemaHoisted: boolean;
  subresources?: CustomResourceSubresources;
  subresourcesHoisted: boolean;
  columns?: CustomResourceColumnDefinition[];
  columnsHoisted: boolean;
  selectable?: { jsonPath?: string }[];
  selectableHoisted: boolean;
}

function internalView(versions: CustomResourceDefinitionVersion[]): InternalView {
  const first = versions[0] ?? {};
  const all = (pick: (v: CustomResourceDefinitionVersion) => unknown) => versions.every((v) => same(pick(v), pick(first)));
  const schemaHoisted = versions.length > 0 && all((v) => v.schema);
  const subresourcesHoisted = versions.length > 0 && all((v) => v.subresources);
  const columnsHoisted = versions.length > 0 && all((v) => v.additionalPrinterColumns);
  const selectableHoisted = schemaHoisted && all((v) => v.selectableFields);
  return {
    schema: schemaHoisted ? first.schema?.openAPIV3Schema : undefined, schemaHoisted,
    subresources: subresourcesHoisted ? first.subresources : undefined, subresourcesHoisted,
    columns: columnsHoisted ? first.additionalPrinterColumns : undefined, columnsHoisted,
    selectable: selectableHoisted ? first.selectableFields : undefined, selectableHoisted,
  };
}

/** %#v-like rendering of spec.versions in kube's messages (pointer fields shown as set or nil). */
function renderVersions(versions: CustomResourceDefinitionVersion[]): string {
  const ptr = (type: string, v: unknown) => (v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(…)`);
  const items = versions.map((v) => `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(str(v.name))}, Served:${v.served === true}, `
    + `Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, DeprecationWarning:${ptr("string", v.deprecationWarning)}, `
    + `Schema:${ptr("apiextensions.CustomResourceValidation", v.schema)}, Subresources:${ptr("apiextensions.CustomResourceSubresources", v.subresources)}, `
    + `AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition${v.additionalPrinterColumns?.length ? "{…}" : "(nil)"}, `
    + `SelectableFields:[]apiextensions.SelectableField${v.selectableFields?.length ? "{…}" : "(nil)"}}`);
  return `[]apiextensions.CustomResourceDefinitionVersion{${items.join(", ")}}`;
}

const goStringSlice = (values: readonly string[]) => `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;

/** validateSimpleJSONPath. */
function simpleJSONPathErrors(s: string, path: string): FieldError[] {
  if (s.length === 0) return [field.invalid(path, s, "must not be empty")];
  if (s[0] !== ".") return [field.invalid(path, s, "must be a simple json path starting with .")];
  return [];
}

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function namesErrors(names: CustomResourceDefinitionNames | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const n = record(names);
  const label = (value: unknown, p: string, mixedCase = false) => {
    const v = str(value);
    if (!v) return;
    const found = dns1035LabelErrors(mixedCase ? v.toLowerCase() : v);
    if (found.length) errs.push(field.invalid(p, v, `${mixedCase ? "may have mixed case, but should otherwise match: " : ""}${found.join(",")}`));
  };
  label(n.plural, `${path}.plural`);
  label(n.singular, `${path}.singular`);
  label(n.kind, `${path}.kind`, true);
  label(n.listKind, `${path}.listKind`, true);
  list(n.shortNames).forEach((s, i) => {
    const found = dns1035LabelErrors(str(s));
    if (found.length) errs.push(field.invalid(`${path}.shortNames[${i}]`, str(s), found.join(",")));
  });
  if (n.kind && n.kind === n.listKind) errs.push(field.invalid(`${path}.listKind`, n.listKind, "kind and listKind may not be the same"));
  list(n.categories).forEach((c, i) => {
    const found = dns1035LabelErrors(str(c));
    if (found.length) errs.push(field.invalid(`${path}.categories[${i}]`, str(c), found.join(",")));
  });
  return errs;
}

/** ValidateCustomResourceColumnDefinition. */
function columnErrors(col: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(field.required(`${path}.name`));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(",")}`;
  if (!col.type) errs.push(field.required(`${path}.type`, types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(field.invalid(`${path}.type`, col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) {
    errs.push(field.invalid(`${path}.format`, col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(",")}`));
  }
  // The internal type's field is JSONPath, and kube reports it so.
  if (!col.jsonPath) errs.push(field.required(`${path}.JSONPath`));
  else errs.push(...simpleJSONPathErrors(col.jsonPath, `${path}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources. */
function subresourcesErrors(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = record(record(sub).scale);
  if (!record(sub).scale) return [];
  const errs: FieldError[] = [];
  const under = (value: string | undefined, name: string, prefixes: string[], detail: string, required: boolean) => {
    const p = `${path}.scale.${name}`;
    if (!value) {
      if (required) errs.push(field.required(p));
      return;
    }
    const bad = simpleJSONPathErrors(value, p);
    if (bad.length) errs.push(...bad);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(field.invalid(p, value, detail));
  };
  under(scale.specReplicasPath, "specReplicasPath", [".spec."], "should be a json path under .spec", true);
  under(scale.statusReplicasPath, "statusReplicasPath", [".status."], "should be a json path under .status", true);
  under(scale.labelSelectorPath, "labelSelectorPath", [".spec.", ".status."], "should be a json path under either .spec or .status", false);
  return errs;
}

/** validateCustomResourceDefinitionValidation: the schema machinery's (lib/crd-schema) checks at `<path>.openAPIV3Schema`. */
function schemaErrors(schema: JSONSchemaProps | undefined, statusEnabled: boolean, path: string): FieldError[] {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [];
  return crdSchemaErrors(schema, `${path}.openAPIV3Schema`, { statusSubresource: statusEnabled });
}

/** validateCustomResourceDefinitionVersion. */
function versionErrors(v: CustomResourceDefinitionVersion, view: InternalView, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (v.deprecationWarning !== undefined && v.deprecationWarning !== null) {
    const w = str(v.deprecationWarning);
    const p = `${path}.deprecationWarning`;
    if (!v.deprecated) errs.push(field.invalid(p, w, "can only be set for deprecated versions"));
    else {
      if (new TextEncoder().encode(w).length > 256) errs.push(field.invalid(p, w, "must be <= 256 characters long"));
      if (w.length === 0) errs.push(field.invalid(p, w, "must not be an empty string"));
      const control = [...w].findIndex((ch) => /\p{Cc}/u.test(ch));
      if (control >= 0) errs.push(field.invalid(p, w, `must only contain printable UTF-8 characters; non-printable character found at index ${new TextEncoder().encode([...w].slice(0, control).join("")).length}`));
    }
  }
  const subresources = record(view.subresourcesHoisted ? view.subresources : v.subresources);
  const schema = record(record(v.schema).openAPIV3Schema);
  const hasSchema = !!record(v.schema).openAPIV3Schema;
  if (!view.schemaHoisted) errs.push(...schemaErrors(hasSchema ? schema : undefined, !!subresources.status, `${path}.schema`));
  if (!view.subresourcesHoisted) errs.push(...subresourcesErrors(v.subresources, `${path}.subresources`));
  if (!view.columnsHoisted) list(v.additionalPrinterColumns).forEach((c, i) => errs.push(...columnErrors(record(c), `${path}.additionalPrinterColumns[${i}]`)));
  if (!view.selectableHoisted) errs.push(...selectableFieldsErrors(list(v.selectableFields), hasSchema ? schema : undefined, `${path}.selectableFields`, "selectableFields may only be set when version.schema.openAPIV3Schema is not included"));
  return errs;
}

/** ValidateCustomResourceSelectableFields (lib/crd-schema), after kube's check that there is a schema to select in. */
function selectableFieldsErrors(fields: { jsonPath?: string }[] | undefined, schema: JSONSchemaProps | undefined, path: string, noSchemaDetail: string): FieldError[] {
  if (!fields?.length) return [];
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [field.invalid(path, "", noSchemaDetail)];
  return selectableFieldErrors(fields.map((f) => (typeof f === "object" && f !== null ? f : {})), schema, path);
}

/** validateCustomResourceConversion, then this server's refusal of webhooks (it calls none). */
function conversionErrors(conv: CustomResourceConversion | undefined, path: string): FieldError[] {
  if (!conv) return [];
  conv = record(conv);
  const errs: FieldError[] = [];
  const strategy = str(conv.strategy);
  if (!strategy) errs.push(field.required(`${path}.strategy`));
  else if (strategy !== "None" && strategy !== "Webhook") errs.push(field.notSupported(`${path}.strategy`, strategy, ["None", "Webhook"]));
  const cc = record(conv.webhook).clientConfig;
  const reviewVersions = list(record(conv.webhook).conversionReviewVersions);
  if (strategy === "Webhook") {
    // The internal type names these webhookClientConfig and conversionReviewVersions, directly under conversion.
    if (!cc) errs.push(field.required(`${path}.webhookClientConfig`, "required when strategy is set to Webhook"));
    else if ((record(cc).url === undefined) === (record(cc).service === undefined)) errs.push(field.required(`${path}.webhookClientConfig`, "exactly one of url or service is required"));
    const rv = reviewVersions;
    if (rv.length === 0) errs.push(field.required(`${path}.conversionReviewVersions`));
    else {
      const seen = new Set<string>();
      rv.forEach((v, i) => {
        if (seen.has(v)) {
          errs.push(field.invalid(`${path}.conversionReviewVersions[${i}]`, v, "duplicate version"));
          return;
        }
        seen.add(v);
        for (const m of dns1035LabelErrors(str(v))) errs.push(field.invalid(`${path}.conversionReviewVersions[${i}]`, v, m));
      });
      if (!rv.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v))) {
        errs.push(invalidRendered(`${path}.conversionReviewVersions`, goStringSlice(rv), `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(", ")}`));
      }
    }
    // Not kube: this server converts custom resources only by rewriting apiVersion (strategy None).
    errs.push(field.notSupported(`${path}.strategy`, strategy, ["None"]));
  } else {
    if (cc) errs.push(field.forbidden(`${path}.webhookClientConfig`, "should not be set when strategy is not set to Webhook"));
    if (reviewVersions.length) errs.push(field.forbidden(`${path}.conversionReviewVersions`, "should not be set when strategy is not set to Webhook"));
  }
  return errs;
}

/** validateCustomResourceDefinitionSpec (create and update alike). */
function specErrors(spec: CustomResourceDefinitionSpec, opts: { requireOpenAPISchema: boolean }): FieldError[] {
  const errs: FieldError[] = [];
  const group = str(spec.group);
  if (!group) errs.push(field.required("spec.group"));
  else {
    const bad = dns1123SubdomainErrors(group);
    if (bad.length) errs.push(field.invalid("spec.group", group, bad.join(",")));
    else if (group.split(".").length < 2) errs.push(field.invalid("spec.group", group, "should be a domain with at least one dot"));
  }
  const scope = str(spec.scope);
  if (!scope) errs.push(field.required("spec.scope"));
  else if (scope !== "Cluster" && scope !== "Namespaced") errs.push(field.notSupported("spec.scope", scope, ["Cluster", "Namespaced"]));

  const versions = list(spec.versions).map((v) => record(v) as CustomResourceDefinitionVersion);
  const view = internalView(versions);
  if (opts.requireOpenAPISchema && !view.schema) {
    versions.forEach((v, i) => {
      if (!record(v.schema).openAPIV3Schema) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`, "schemas are required"));
    });
  }
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    if (v.storage === true) storageCount++;
    const name = str(v.name);
    if (seen.has(name)) unique = false;
    else seen.add(name);
    const bad = dns1035LabelErrors(name);
    if (bad.length) errs.push(field.invalid(`spec.versions[${i}].name`, name, bad.join(",")));
    errs.push(...versionErrors(v, view, `spec.versions[${i}]`));
  });
  if (!unique) errs.push(invalidRendered("spec.versions", renderVersions(versions), "must contain unique version names"));
  if (storageCount !== 1) errs.push(invalidRendered("spec.versions", renderVersions(versions), "must have exactly one version marked as storage version"));

  const names = record(spec.names);
  if (!names.plural) errs.push(field.required("spec.names.plural"));
  if (!names.singular) errs.push(field.required("spec.names.singular"));
  if (!names.kind) errs.push(field.required("spec.names.kind"));
  if (!names.listKind) errs.push(field.required("spec.names.listKind"));
  errs.push(...namesErrors(names, "spec.names"));

  if (view.schemaHoisted) {
    const statusEnabled = !!record(view.subresources).status || versions.some((v) => !!record(v.subresources).status);
    errs.push(...schemaErrors(view.schema, statusEnabled, "spec.validation"));
  }
  if (view.subresourcesHoisted) errs.push(...subresourcesErrors(view.subresources, "spec.subresources"));
  if (view.columnsHoisted) list(view.columns).forEach((c, i) => errs.push(...columnErrors(record(c), `spec.additionalPrinterColumns[${i}]`)));
  if (view.selectableHoisted) errs.push(...selectableFieldsErrors(list(view.selectable), view.schema, "spec.selectableFields", "selectableFields may only be set when validations.schema is included"));

  const strategy = str(record(spec.conversion).strategy);
  if (spec.conversion && strategy !== "None" && spec.preserveUnknownFields === true) {
    errs.push(field.invalid("spec.conversion.strategy", strategy, "must be None if spec.preserveUnknownFields is true"));
  }
  errs.push(...conversionErrors(spec.conversion, "spec.conversion"));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function storedVersionsErrors(stored: string[] | undefined, versions: CustomResourceDefinitionVersion[] | undefined): FieldError[] {
  const path = "status.storedVersions";
  const names = list(stored);
  if (names.length === 0) return [invalidRendered(path, "[]string(nil)", "must have at least one stored version")];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  names.forEach((v, i) => remaining.set(v, i));
  for (const item of list(versions)) {
    const v = record(item);
    const name = str(v.name);
    if (v.storage === true && !remaining.has(name)) errs.push(invalidRendered(path, goStringSlice(names), `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of remaining) {
    errs.push(field.invalid(`${path}[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

const isProtectedGroup = (group: string) => group === "k8s.io" || group.endsWith(".k8s.io") || group === "kubernetes.io" || group.endsWith(".kubernetes.io");
const APPROVAL_ANNOTATION = "api-approved.kubernetes.io";

/** GetAPIApprovalState. */
function approvalState(annotations: Record<string, string> | undefined): { state: "missing" | "bypassed" | "approved" | "invalid"; reason: string } {
  const value = annotations?.[APPROVAL_ANNOTATION] ?? "";
  if (!value) return { state: "missing", reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111` };
  if (value.startsWith("unapproved")) return { state: "bypassed", reason: `not approved: ${JSON.stringify(value)}` };
  try {
    const u = new URL(value);
    if (u.host && u.protocol) return { state: "approved", reason: `approved in ${value}` };
  } catch { /* not a URL */ }
  return { state: "invalid", reason: `protected groups must have approval annotation "${APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111` };
}

/** validateAPIApproval: kube's own groups need the approval annotation (unchanged states pass on update). */
function approvalErrors(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (!isProtectedGroup(str(crd.spec?.group))) return [];
  const next = approvalState(crd.metadata.annotations);
  if (old && approvalState(old.metadata.annotations).state === next.state) return [];
  const path = `metadata.annotations[${APPROVAL_ANNOTATION}]`;
  if (next.state === "missing") return [field.required(path, next.reason)];
  if (next.state === "invalid") return [field.invalid(path, crd.metadata.annotations?.[APPROVAL_ANNOTATION] ?? "", next.reason)];
  return [];
}

function preserveUnknownFieldsErrors(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true || crd.spec?.preserveUnknownFields !== true) return [];
  return [field.invalid("spec.preserveUnknownFields", true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")];
}

/** ValidateCustomResourceDefinition (metadata's generic part is the registry's). */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldError[] {
  const spec = record(crd.spec);
  const errs: FieldError[] = [];
  const name = crd.metadata.name ?? "";
  if (name !== `${str(record(spec.names).plural)}.${str(spec.group)}`) errs.push(field.invalid("metadata.name", name, `must be spec.names.plural+"."+spec.group`));
  errs.push(...specErrors(spec, { requireOpenAPISchema: true }));
  errs.push(...namesErrors(record(crd.status).acceptedNames, "status.acceptedNames"));
  errs.push(...storedVersionsErrors(record(crd.status).storedVersions, spec.versions));
  errs.push(...approvalErrors(crd));
  errs.push(...preserveUnknownFieldsErrors(crd));
  return errs;
}

/**
 * The update-only part of ValidateCustomResourceDefinitionUpdate: group and plural never change, scope and kind not
 * once Established. The registry runs `validate` on every update too, which covers the rest: kube relaxes a few
 * checks for objects stored before they existed (schemas not required, approval state kept), and every object here
 * was created under them, so create and update validate alike.
 */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const spec = record(crd.spec);
  const oldSpec = record(old.spec);
  const errs: FieldError[] = [];
  if (isConditionTrue(old, ESTABLISHED)) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, "spec.scope"));
    errs.push(...validateImmutableField(record(spec.names).kind, record(oldSpec.names).kind, "spec.names.kind"));
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, "spec.group"));
  errs.push(...validateImmutableField(record(spec.names).plural, record(oldSpec.names).plural, "spec.names.plural"));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus: the accepted names (metadata is the registry's). */
function validateStatusUpdate(crd: CustomResourceDefinition): FieldError[] {
  return namesErrors(record(crd.status).acceptedNames, "status.acceptedNames");
}

// --- declaration --------------------------------------------------------------------------------------------------

export const customResourceDefinition = defineKind<CustomResourceDefinition>({
  kind: "CustomResourceDefinition",
  group: APIEXTENSIONS_GROUP,
  schema: customResourceDefinitionSchema,
  plural: "customresourcedefinitions",
  singular: "customresourcedefinition",
  shortNames: ["crd", "crds"],
  categories: ["api-extensions"],
  namespaced: false,
  nameRule: "dns1123-subdomain",
  // apiextensions validates metadata with apimachinery's ValidateObjectMeta: its own finalizer is a plain qualified name.
  genericObjectMeta: true,
  hasStatus: true,
  // The CRD strategy sets generation 1 on create and bumps it on every spec change.
  generation: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  deleteReturns: "status",
  // kube decodes the body into its Go types first: a schema whose keywords have the wrong JSON type (properties
  // given as a list) is a 400 there, before validation walks it (the API's field validation says the same).
  decodeError: (crd) => findTypeError(crd, customResourceDefinitionSchema, "CustomResourceDefinition"),
  selectableFields: {},
  fieldSelectorError: "known-only",

  // kube-apiserver's default table convertor: no printer is registered for CRDs.
  columns: [nameColumn, createdAtColumn],

  template: {
    apiVersion: `${APIEXTENSIONS_GROUP}/v1`,
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ct"] },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { cronSpec: { type: "string" }, image: { type: "string" }, replicas: { type: "integer" } },
              },
            },
          },
        },
      }],
    },
  },

  applyDefaults,
  prepareForCreate,
  prepareForUpdate,
  validate: validateCustomResourceDefinition,
  validateUpdate: validateCustomResourceDefinitionUpdate,
  statusStrategy: { validateUpdate: validateStatusUpdate },
  beginDeletion,
});

// A custom kind: the declarations an Established CustomResourceDefinition serves, one per served version, built
// from the CRD as kube 1.32's apiextensions-apiserver builds its per-version handlers (names, scope, status
// subresource, printer columns, selectable fields, the version's structural schema with pruning, defaulting and
// validation from lib/crd-schema). The storage version's declaration comes first; the other versions are served
// from it (`servedFrom`): conversion None, the stored object carries the storage version's apiVersion.
import { customResourceErrors } from "../crd-schema/custom-resource-errors";
import { applyDefaults } from "../crd-schema/defaults";
import { prune, strictDecodingMessage } from "../crd-schema/prune";
import type { JSONSchemaProps } from "../crd-schema/types";
import { customKindStructure } from "./custom-kind-structure";
import { column, metadataDescriptions, nameColumn, timestampSince } from "./columns";
import {
  isConditionTrue, TERMINATING, type CustomResourceColumnDefinition, type CustomResourceDefinition, type CustomResourceDefinitionVersion,
} from "./custom-resource-definition";
import type { AnyKind, Column, KindDefinition, KubeObject } from "./types";
import { deepEqual } from "../validation/generation";
import { kubeVersionOrder } from "./version-order";

/** kube's verbs of a custom resource in discovery, in its order. */
const CUSTOM_RESOURCE_VERBS = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];

/**
 * The value at a printer column's or selectable field's JSONPath (`.spec.replicas`, `.status.conditions[0].type`,
 * `.metadata.labels['app']`), or undefined when any step is missing. kube allows only simple paths there.
 */
export function valueAtPath(obj: unknown, path: string): unknown {
  const steps: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[['"]([^'"]*)['"]\]/gy;
  const p = path.startsWith("{") && path.endsWith("}") ? path.slice(1, -1) : path;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < p.length && (m = re.exec(p))) {
    steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
  }
  if (re.lastIndex !== p.length && steps.length === 0) return undefined;
  let v: unknown = obj;
  for (const s of steps) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** A cell as kube's custom resource table convertor renders a value: dates as ages, scalars as they are. */
function cellOf(col: CustomResourceColumnDefinition, value: unknown, now: number): string | number | boolean {
  if (value === undefined || value === null) return "<none>";
  if (col.type === "date") return typeof value === "string" ? timestampSince(value, now) : String(value);
  if (col.type === "integer" || col.type === "number") return typeof value === "number" ? value : String(value);
  if (col.type === "boolean") return typeof value === "boolean" ? value : String(value);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Sets the value at a simple dotted path (`.spec.replicas`), making the objects on the way. */
function setAtPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.replace(/^\./, "").split(".");
  let at = obj;
  for (const step of steps.slice(0, -1)) {
    if (typeof at[step] !== "object" || at[step] === null || Array.isArray(at[step])) at[step] = {};
    at = at[step] as Record<string, unknown>;
  }
  at[steps[steps.length - 1]] = value;
}

/** kube's NestedInt64 as its scale subresource reads replicas: a missing or non-integer value reads as 0. */
const replicasAt = (obj: unknown, path: string | undefined): number => {
  const v = path ? valueAtPath(obj, path) : undefined;
  return typeof v === "number" && Number.isInteger(v) ? v : 0;
};

function scaleOf(version: CustomResourceDefinitionVersion): KindDefinition<KubeObject>["scale"] {
  const scale = version.subresources?.scale;
  if (!scale) return undefined;
  return {
    read: (obj) => {
      const selector = scale.labelSelectorPath ? valueAtPath(obj, scale.labelSelectorPath) : undefined;
      return {
        specReplicas: replicasAt(obj, scale.specReplicasPath),
        statusReplicas: replicasAt(obj, scale.statusReplicasPath),
        ...(typeof selector === "string" && selector ? { selector } : {}),
      };
    },
    setReplicas: (obj, replicas) => setAtPath(obj, scale.specReplicasPath ?? ".spec.replicas", replicas),
  };
}

/** kube's default when a version declares no printer columns: Age from the creation time. */
const DEFAULT_COLUMNS: CustomResourceColumnDefinition[] = [
  { name: "Age", type: "date", description: metadataDescriptions.creationTimestamp, jsonPath: ".metadata.creationTimestamp" },
];

function columnsOf(version: CustomResourceDefinitionVersion): Column[] {
  const declared = version.additionalPrinterColumns?.length ? version.additionalPrinterColumns : DEFAULT_COLUMNS;
  return [nameColumn, ...declared.map((c) => column({
    name: c.name ?? "",
    type: (["integer", "number", "boolean", "date"].includes(c.type ?? "") ? c.type : "string") as Column["type"],
    format: c.format ?? "",
    priority: c.priority && c.priority > 0 ? 1 : 0,
    description: c.description ?? "",
    cell: (obj, now) => cellOf(c, valueAtPath(obj, c.jsonPath ?? ""), now),
  }))];
}

function selectableFieldsOf(version: CustomResourceDefinitionVersion): Record<string, (obj: KubeObject) => string | undefined> {
  const out: Record<string, (obj: KubeObject) => string | undefined> = {};
  for (const f of version.selectableFields ?? []) {
    const path = f.jsonPath ?? "";
    if (!path) continue;
    out[path.replace(/^\./, "")] = (obj) => {
      const v = valueAtPath(obj, path);
      return v === undefined || v === null || typeof v === "object" ? undefined : String(v);
    };
  }
  return out;
}

/**
 * A deprecated version's Warning: the CRD's own text, or kube's default naming the most preferred served version,
 * not deprecated, that ranks above it.
 */
function deprecationWarningOf(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion): string | undefined {
  if (!version.deprecated) return undefined;
  if (version.deprecationWarning !== undefined) return version.deprecationWarning;
  const { group = "", names = {} } = crd.spec ?? {};
  const name = version.name ?? "";
  const msg = `${group}/${name} ${names.kind ?? ""} is deprecated`;
  const newer = (crd.spec?.versions ?? [])
    .filter((v) => v.served && !v.deprecated && kubeVersionOrder(v.name ?? "", name) < 0)
    .map((v) => v.name ?? "")
    .sort(kubeVersionOrder);
  return newer.length ? `${msg}; use ${group}/${newer[0]} ${names.kind ?? ""}` : msg;
}

const PRESERVE: JSONSchemaProps = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
/** Schemas by CRD version object, so each version keeps one schema object (its CEL rules compiled once). */
function schemaOf(version: CustomResourceDefinitionVersion | undefined): JSONSchemaProps {
  return version?.schema?.openAPIV3Schema ?? PRESERVE;
}

function storageSchemaOf(crd: CustomResourceDefinition): JSONSchemaProps {
  const versions = crd.spec?.versions ?? [];
  return schemaOf(versions.find((v) => v.storage) ?? versions[0]);
}

/** The declaration of one served version (`storage`: the storage version's, which the others are served from). */
function versionKind(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, storage?: AnyKind): AnyKind {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const group = spec.group ?? "";
  const plural = names.plural ?? "";
  const kindName = names.kind ?? "";
  const versionName = version.name ?? "";
  // One schema object per version, kept for the kind's life, so lib/crd-schema compiles its CEL rules once.
  const schema = schemaOf(version);
  const hasStatus = version.subresources?.status !== undefined;
  // kube's strategy: the errors refuse the write, ratcheted CEL failures (an unchanged value) are Warning headers.
  const check = (obj: KubeObject, old: KubeObject | undefined, warn?: (text: string) => void) => {
    const { errors, warnings } = customResourceErrors(schema, obj, old === undefined ? {} : { old });
    if (warn) for (const w of warnings) warn(w);
    return errors;
  };
  const kind: KindDefinition<KubeObject> = {
    kind: kindName,
    group,
    version: versionName,
    storageResource: `${plural}.${group}`,
    plural,
    singular: names.singular || kindName.toLowerCase(),
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    namespaced: spec.scope !== "Cluster",
    // kube's custom resource strategy: ObjectMeta with DNS-subdomain names, apimachinery's generic rules.
    nameRule: "dns1123-subdomain",
    genericObjectMeta: true,
    hasStatus,
    generation: true,
    verbs: CUSTOM_RESOURCE_VERBS,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    deleteReturns: "status",
    selectableFields: selectableFieldsOf(version),
    scale: scaleOf(version),
    fieldSelectorError: "known-only",
    columns: columnsOf(version),
    template: { apiVersion: group ? `${group}/${versionName}` : versionName, kind: kindName, metadata: { name: "example" }, spec: {} },
    fieldStructure: customKindStructure(schema),
    pruneUnknown: (obj) => prune(obj, schema),
    strictMessage: (paths) => strictDecodingMessage(kindName, versionName, paths),
    applyDefaults: (obj) => applyDefaults(obj, schema),
    // With the status subresource, a create's status is dropped (kube's PrepareForCreate).
    prepareForCreate: hasStatus ? (obj) => { delete obj.status; } : undefined,
    validateWithOld: check,
    statusStrategy: hasStatus ? { validateUpdate: (obj, old, warn) => check(obj, old, warn) } : undefined,
    servedFrom: storage,
    ...readPath(storageSchemaOf(crd), schema, group ? `${group}/${versionName}` : versionName),
    deprecationWarning: deprecationWarningOf(crd, version),
    // While the CRD terminates its custom resources are being deleted: kube refuses new ones.
    openapi: {
      schema: version.schema?.openAPIV3Schema,
      served: version.served === true,
      listKind: names.listKind || `${kindName}List`,
      preserveUnknownFields: spec.preserveUnknownFields === true,
      scale: version.subresources?.scale !== undefined,
    },
    createRefusal: isConditionTrue(crd, TERMINATING) ? "create not allowed while custom resource definition is terminating" : undefined,
  };
  return kind;
}

const UNCHANGED = Symbol("unchanged");

/** Entries whose answer through one declaration is a new serialisation, kept for this many most recent of them. */
const REWRITTEN_KEPT = 1024;

/**
 * kube's read path: a stored object is decoded with the storage version's schema (pruned, defaulted), then
 * converted to the requested version (apiVersion; conversion None) and pruned and defaulted by its schema. Stored
 * objects never change in place, so each one's answer is computed once per declaration: by parsed object
 * (`readAs`, a WeakMap) and by store entry (`readJsonAs`: a WeakSet of the entries answered as stored, which is
 * every entry of the storage version unless a schema default or pruning changed since it was written, and the
 * newest rewritten serialisations, bounded: another version's answers are rewritten by definition).
 */
function readPath(storageSchema: JSONSchemaProps, schema: JSONSchemaProps, apiVersion: string): Pick<AnyKind, "readAs" | "readJsonAs"> {
  const memo = new WeakMap<KubeObject, KubeObject | typeof UNCHANGED>();
  const readAs = (stored: KubeObject): KubeObject | undefined => {
    const known = memo.get(stored);
    if (known !== undefined) return known === UNCHANGED ? undefined : known;
    const obj = structuredClone(stored);
    prune(obj, storageSchema);
    applyDefaults(obj, storageSchema);
    if (obj.apiVersion !== apiVersion) {
      obj.apiVersion = apiVersion;
      if (schema !== storageSchema) {
        prune(obj, schema);
        applyDefaults(obj, schema);
      }
    }
    const answer = deepEqual(obj, stored) ? UNCHANGED : obj;
    memo.set(stored, answer);
    return answer === UNCHANGED ? undefined : answer;
  };
  const asStored = new WeakSet<object>();
  const rewritten = new Map<object, string>();
  const readJsonAs = (entry: { readonly object: KubeObject; readonly json: string }): string | undefined => {
    if (asStored.has(entry)) return undefined;
    const kept = rewritten.get(entry);
    if (kept !== undefined) return kept;
    const served = readAs(entry.object);
    if (!served) { asStored.add(entry); return undefined; }
    const json = JSON.stringify(served);
    if (rewritten.size >= REWRITTEN_KEPT) rewritten.delete(rewritten.keys().next().value!);
    rewritten.set(entry, json);
    return json;
  };
  return { readAs, readJsonAs };
}

/**
 * What an Established CRD serves: one declaration per served version, the storage version's first (served or
 * not: it is the one stored objects are read through), each other served version served from it.
 */
export function customKinds(crd: CustomResourceDefinition): AnyKind[] {
  const versions = crd.spec?.versions ?? [];
  const storageVersion = versions.find((v) => v.storage) ?? versions[0];
  if (!storageVersion) return [];
  const storage = versionKind(crd, storageVersion);
  const others = versions.filter((v) => v !== storageVersion && v.served).map((v) => versionKind(crd, v, storage));
  return [storage, ...others];
}

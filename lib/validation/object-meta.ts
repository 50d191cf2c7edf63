// Generic ObjectMeta validation, as kube-apiserver 1.32's ValidateObjectMeta / ValidateObjectMetaUpdate (apimachinery,
// plus core's standard-finalizer rule): name and generateName per the kind's name rule, namespace, generation,
// labels, annotations (syntax and total size), ownerReferences and finalizers; on update the immutable identity
// fields and the no-new-finalizers-while-deleting rule. The resourceVersion rule of updates is the registry's.
import { field, type FieldError } from "../status";
import type { NameRule, ObjectMeta } from "../kinds/types";
import {
  byteLength, dns1035NameErrors, dnsLabelNameErrors, dnsSubdomainNameErrors,
  DNS1035_LABEL_MSG, DNS1123_LABEL_MSG, DNS1123_SUBDOMAIN_MSG,
} from "./dns-names";
import { qualifiedNameErrors, validateLabels as validateLabelMap } from "./labels";
import { goSlice, goString, goStruct, invalidRendered } from "./rendered-value";
import { isObject, sortedEntries } from "./zero-values";

export { DNS1035_LABEL_MSG, DNS1123_LABEL_MSG, DNS1123_SUBDOMAIN_MSG };

/** ValidatePathSegmentName: what every name must satisfy (the only rule for core/v1 Events). */
function pathSegmentErrors(name: string, prefix: boolean): string[] {
  if (!prefix && (name === "." || name === "..")) return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** Problems with a name (or, with `prefix`, a generateName) under a kind's rule, as kube-apiserver words them. */
export function nameErrors(name: string, rule: NameRule, prefix = false): string[] {
  switch (rule) {
    case "path-segment":
      return pathSegmentErrors(name, prefix);
    case "dns1035-label":
      return dns1035NameErrors(name, prefix);
    case "dns1123-label":
      return dnsLabelNameErrors(name, prefix);
    default:
      return dnsSubdomainNameErrors(name, prefix);
  }
}

/** ValidateNamespaceName: a DNS-1123 label. */
export function namespaceErrors(ns: string): string[] {
  return dnsLabelNameErrors(ns);
}

export const TOTAL_ANNOTATION_SIZE = 256 * 1024;

/** ValidateAnnotations: keys are qualified names (checked lower-cased); keys plus values at most 256 KiB. */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  if (annotations === undefined || annotations === null) return [];
  if (!isObject(annotations)) return [field.invalid(path, annotations, "must be a map of strings")];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of sortedEntries(annotations)) {
    for (const m of qualifiedNameErrors(k.toLowerCase())) errs.push(field.invalid(path, k, m));
    if (typeof v !== "string") errs.push(field.invalid(`${path}[${k}]`, v, "must be a string"));
    size += byteLength(k) + (typeof v === "string" ? byteLength(v) : 0);
  }
  if (size > TOTAL_ANNOTATION_SIZE) errs.push(field.tooLong(path, TOTAL_ANNOTATION_SIZE));
  return errs;
}

/** ValidateLabels at `path`: keys and values both reported at the map's path. */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (labels !== undefined && labels !== null && isObject(labels)) {
    const typeErrors = Object.entries(labels)
      .filter(([, v]) => typeof v !== "string")
      .map(([k, v]) => field.invalid(`${path}[${k}]`, v, "must be a string"));
    if (typeErrors.length) return typeErrors;
  }
  return validateLabelMap(labels, path);
}

type OwnerReference = { apiVersion?: unknown; kind?: unknown; name?: unknown; uid?: unknown; controller?: unknown; blockOwnerDeletion?: unknown };

const str = (v: unknown) => (typeof v === "string" ? v : "");
const protoPointer = (v: unknown) => (typeof v === "boolean" ? `*${v}` : "nil");
const goBoolPointer = (v: unknown) => (typeof v === "boolean" ? "(*bool)(0xc000000000)" : "(*bool)(nil)");

/** The generated proto String() of an OwnerReference (what its Stringer prints in field errors). */
const renderOwnerReference = (r: OwnerReference) =>
  `&OwnerReference{Kind:${str(r.kind)},Name:${str(r.name)},UID:${str(r.uid)},APIVersion:${str(r.apiVersion)},` +
  `Controller:${protoPointer(r.controller)},BlockOwnerDeletion:${protoPointer(r.blockOwnerDeletion)},}`;

const renderOwnerReferences = (refs: OwnerReference[]) =>
  `[]v1.OwnerReference{${refs.map((r) => goStruct("v1.OwnerReference", [
    ["APIVersion", goString(str(r.apiVersion))], ["Kind", goString(str(r.kind))], ["Name", goString(str(r.name))],
    ["UID", goString(str(r.uid))], ["Controller", goBoolPointer(r.controller)], ["BlockOwnerDeletion", goBoolPointer(r.blockOwnerDeletion)],
  ])).join(", ")}}`;

/** schema.FromAPIVersionAndKind's group and version (a malformed apiVersion yields neither). */
function parseAPIVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: "", version: "" };
}

/** ValidateOwnerReferences: fields reported at metadata.ownerReferences.<field> (no index, as upstream). */
export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let firstController = "";
  for (const item of refs) {
    const ref = (isObject(item) ? item : {}) as OwnerReference;
    const gv = parseAPIVersion(str(ref.apiVersion));
    if (!gv.version) errs.push(field.invalid(`${path}.apiVersion`, str(ref.apiVersion), "version must not be empty"));
    if (!str(ref.kind)) errs.push(field.invalid(`${path}.kind`, str(ref.kind), "must not be empty"));
    if (!str(ref.name)) errs.push(field.invalid(`${path}.name`, str(ref.name), "must not be empty"));
    if (!str(ref.uid)) errs.push(field.invalid(`${path}.uid`, str(ref.uid), "must not be empty"));
    if (gv.group === "" && gv.version === "v1" && ref.kind === "Event") {
      errs.push(invalidRendered(path, renderOwnerReference(ref), "/v1, Kind=Event is disallowed from being an owner"));
    }
    if (ref.controller === true) {
      const current = `${str(ref.kind)}/${str(ref.name)}`;
      if (firstController) {
        errs.push(invalidRendered(path, renderOwnerReferences(refs.map((r) => (isObject(r) ? r : {}) as OwnerReference)),
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

const standardFinalizers = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/**
 * ValidateFinalizers (qualified names, reported at the list's path; not both orphan and foregroundDeletion) plus
 * core's rule that an unprefixed finalizer must be a standard one (reported at its index).
 */
export function validateFinalizers(finalizers: unknown, path: string, standardNamesOnly: boolean): FieldError[] {
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers)) return [field.invalid(path, finalizers, "must be a list of strings")];
  const names = finalizers.map(str);
  const errs: FieldError[] = [];
  for (const f of names) for (const m of qualifiedNameErrors(f)) errs.push(field.invalid(path, f, m));
  if (names.includes("orphan") && names.includes("foregroundDeletion")) {
    errs.push(invalidRendered(path, goSlice("string", names), "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  if (standardNamesOnly) {
    names.forEach((f, i) => {
      if (!f.includes("/") && !standardFinalizers.has(f)) {
        errs.push(field.invalid(`${path}[${i}]`, f, "name is neither a standard finalizer name nor is it fully qualified"));
      }
    });
  }
  return errs;
}

/**
 * ValidateObjectMeta for a kind with the given scope and name rule. Kinds validated by core's ValidateObjectMeta
 * also get the standard-finalizer rule; core/v1 Events (name rule "path-segment") are not, as upstream, nor kinds
 * validated by apimachinery's ValidateObjectMeta (`genericObjectMeta`: apiextensions' CustomResourceDefinition).
 */
export function validateObjectMeta(meta: ObjectMeta, opts: { namespaced: boolean; nameRule: NameRule; genericObjectMeta?: boolean }): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = str(meta.generateName);
  if (generateName) for (const m of nameErrors(generateName, opts.nameRule, true)) errs.push(field.invalid("metadata.generateName", generateName, m));
  const name = str(meta.name);
  if (!name) errs.push(field.required("metadata.name", "name or generateName is required"));
  else for (const m of nameErrors(name, opts.nameRule)) errs.push(field.invalid("metadata.name", name, m));
  const namespace = str(meta.namespace);
  if (opts.namespaced) {
    if (!namespace) errs.push(field.required("metadata.namespace"));
    else for (const m of namespaceErrors(namespace)) errs.push(field.invalid("metadata.namespace", namespace, m));
  } else if (namespace) {
    errs.push(field.forbidden("metadata.namespace", "not allowed on this type"));
  }
  if (meta.generation !== undefined && meta.generation !== null && (typeof meta.generation !== "number" || meta.generation < 0)) {
    errs.push(field.invalid("metadata.generation", meta.generation, "must be greater than or equal to 0"));
  }
  errs.push(...validateLabels(meta.labels, "metadata.labels"));
  errs.push(...validateAnnotations(meta.annotations, "metadata.annotations"));
  errs.push(...validateOwnerReferences(meta.ownerReferences, "metadata.ownerReferences"));
  errs.push(...validateFinalizers(meta.finalizers, "metadata.finalizers", opts.nameRule !== "path-segment" && !opts.genericObjectMeta));
  return errs;
}

/** time.Time.String() of an RFC 3339 timestamp, as Go prints a metav1.Time field value. */
function goTime(value: unknown): string {
  const at = typeof value === "string" ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime())) return "0001-01-01 00:00:00 +0000 UTC";
  const iso = at.toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ""} +0000 UTC`;
}

/** Update rules: immutable identity fields, generation never decreasing, no new finalizers while deleting. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    const added = [...new Set((meta.finalizers ?? []).filter((f) => !before.has(f)))].sort();
    if (added.length) {
      errs.push(field.forbidden("metadata.finalizers", `no new finalizers can be added if the object is being deleted, found new finalizers ${goSlice("string", added)}`));
    }
  }
  if (typeof meta.generation === "number" && typeof old.generation === "number" && meta.generation < old.generation) {
    errs.push(field.invalid("metadata.generation", meta.generation, "must not be decremented"));
  }
  for (const f of ["name", "namespace", "uid"] as const) {
    if (str(meta[f]) !== str(old[f])) errs.push(field.invalid(`metadata.${f}`, str(meta[f]), "field is immutable"));
  }
  for (const f of ["creationTimestamp", "deletionTimestamp"] as const) {
    if ((meta[f] ?? undefined) !== (old[f] ?? undefined)) {
      errs.push(invalidRendered(`metadata.${f}`, meta[f] ? goTime(meta[f]) : f === "creationTimestamp" ? goTime(undefined) : '"null"', "field is immutable"));
    }
  }
  if ((meta.deletionGracePeriodSeconds ?? undefined) !== (old.deletionGracePeriodSeconds ?? undefined)) {
    errs.push(field.invalid("metadata.deletionGracePeriodSeconds", meta.deletionGracePeriodSeconds ?? "null", "field is immutable"));
  }
  return errs;
}

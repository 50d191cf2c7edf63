// Generic ObjectMeta validation, as kube-apiserver's ValidateObjectMeta / ValidateObjectMetaUpdate.
import { field, type FieldError } from "../api/errors";
import type { NameRule, ObjectMeta } from "../kinds/types";
import { labelValueErrors, qualifiedNameErrors } from "../selectors/label-selector";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** Problems with a name under a kind's rule, as kube-apiserver words them (empty when valid). */
export function nameErrors(name: string, rule: NameRule, prefix = false): string[] {
  // A generateName prefix may end in '-': validate it as if a suffix followed.
  const n = prefix && name.endsWith("-") ? `${name.slice(0, -1)}a` : name;
  if (rule === "path-segment") {
    if (name === "." || name === "..") return [`may not be '${name}'`];
    const bad = ["/", "%"].find((c) => name.includes(c));
    return bad ? [`may not contain '${bad}'`] : [];
  }
  const errs: string[] = [];
  if (rule === "dns1035-label") {
    if (n.length > 63) errs.push("must be no more than 63 characters");
    if (!DNS1035_LABEL.test(n)) errs.push(DNS1035_LABEL_MSG);
  } else {
    if (n.length > 253) errs.push("must be no more than 253 characters");
    if (!DNS1123_SUBDOMAIN.test(n)) errs.push(DNS1123_SUBDOMAIN_MSG);
  }
  return errs;
}

export function namespaceErrors(ns: string): string[] {
  const errs: string[] = [];
  if (ns.length > 63) errs.push("must be no more than 63 characters");
  if (!DNS1123_LABEL.test(ns)) errs.push(DNS1123_LABEL_MSG);
  return errs;
}

const TOTAL_ANNOTATION_SIZE = 256 * 1024;

export function validateObjectMeta(meta: ObjectMeta, opts: { namespaced: boolean; nameRule: NameRule }): FieldError[] {
  const errs: FieldError[] = [];
  if (!meta.name && !meta.generateName) errs.push(field.required("metadata.name", "name or generateName is required"));
  if (meta.name) for (const m of nameErrors(meta.name, opts.nameRule)) errs.push(field.invalid("metadata.name", meta.name, m));
  if (meta.generateName) for (const m of nameErrors(meta.generateName, opts.nameRule, true)) errs.push(field.invalid("metadata.generateName", meta.generateName, m));
  if (opts.namespaced) {
    if (!meta.namespace) errs.push(field.required("metadata.namespace"));
    else for (const m of namespaceErrors(meta.namespace)) errs.push(field.invalid("metadata.namespace", meta.namespace, m));
  }
  if (meta.generation !== undefined && (typeof meta.generation !== "number" || meta.generation < 0)) {
    errs.push(field.invalid("metadata.generation", meta.generation, "must be greater than or equal to 0"));
  }
  errs.push(...validateLabels(meta.labels, "metadata.labels"));
  if (meta.annotations !== undefined) {
    if (typeof meta.annotations !== "object" || meta.annotations === null || Array.isArray(meta.annotations)) {
      errs.push(field.invalid("metadata.annotations", meta.annotations, "must be a map of strings"));
    } else {
      let size = 0;
      for (const [k, v] of Object.entries(meta.annotations)) {
        for (const m of qualifiedNameErrors(k.toLowerCase())) errs.push(field.invalid("metadata.annotations", k, m));
        if (typeof v !== "string") errs.push(field.invalid(`metadata.annotations[${k}]`, v, "must be a string"));
        size += k.length + (typeof v === "string" ? Buffer.byteLength(v) : 0);
      }
      if (size > TOTAL_ANNOTATION_SIZE) errs.push(field.tooLong("metadata.annotations", TOTAL_ANNOTATION_SIZE));
    }
  }
  if (meta.finalizers !== undefined) {
    if (!Array.isArray(meta.finalizers)) errs.push(field.invalid("metadata.finalizers", meta.finalizers, "must be a list of strings"));
    else meta.finalizers.forEach((f, i) => {
      for (const m of qualifiedNameErrors(String(f))) errs.push(field.invalid(`metadata.finalizers[${i}]`, f, m));
    });
  }
  return errs;
}

export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (typeof labels !== "object" || Array.isArray(labels)) return [field.invalid(path, labels, "must be a map of strings")];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const m of qualifiedNameErrors(k)) errs.push(field.invalid(path, k, m));
    if (typeof v !== "string") errs.push(field.invalid(`${path}[${k}]`, v, "must be a string"));
    else for (const m of labelValueErrors(v)) errs.push(field.invalid(path, v, m));
  }
  return errs;
}

/** Update rules: immutable identity fields, no new finalizers while deleting. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ["name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"] as const) {
    if ((meta[f] ?? undefined) !== (old[f] ?? undefined)) errs.push(field.invalid(`metadata.${f}`, meta[f] ?? null, "field is immutable"));
  }
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length) {
      errs.push(field.forbidden("metadata.finalizers", `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`));
    }
  }
  return errs;
}

// Label keys and values: apimachinery's IsQualifiedName / IsValidLabelValue (1.32 wording), which label
// selectors (lib/selectors) also parse with, and metav1 validation's ValidateLabelName / ValidateLabels.
import { field, type FieldError } from "../status";
import { byteLength, DNS1123_SUBDOMAIN_MSG, isDNS1123Subdomain, maxLenError, regexError } from "./dns-names";
import { isObject, sortedEntries } from "./zero-values";

const QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored; a hand-written scan so it is linear by construction. */
function isQualifiedNamePart(s: string): boolean {
  if (s.length === 0 || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(s.length - 1))) return false;
  for (let i = 1; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== 45 /* - */ && c !== 95 /* _ */ && c !== 46 /* . */) return false;
  }
  return true;
}

/** apimachinery validation.IsQualifiedName: the label-key rule. Returns problems, empty when valid. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/", 3);
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) {
      errs.push("prefix part must be non-empty");
    } else {
      if (byteLength(prefix) > 253) errs.push(`prefix part ${maxLenError(253)}`);
      if (!isDNS1123Subdomain(prefix)) errs.push(`prefix part ${DNS1123_SUBDOMAIN_MSG}`);
    }
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!isQualifiedNamePart(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")}`);
  }
  return errs;
}

/** apimachinery validation.IsValidLabelValue. Returns problems, empty when valid. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (value.length > 0 && !isQualifiedNamePart(value)) {
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  }
  return errs;
}

/** ValidateLabelName: a qualified name, reported at `path` with the key as value. */
export const validateLabelName = (key: string, path: string): FieldError[] =>
  qualifiedNameErrors(key).map((m) => field.invalid(path, key, m));

/** ValidateLabels: keys and values both reported at the map's own path (not `[key]`), as kube-apiserver does. */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (!isObject(labels)) return [field.invalid(path, labels, "must be a map of strings")];
  const errs: FieldError[] = [];
  for (const [k, v] of sortedEntries(labels)) {
    errs.push(...validateLabelName(k, path));
    const value = typeof v === "string" ? v : "";
    for (const m of labelValueErrors(value)) errs.push(field.invalid(path, value, m));
  }
  return errs;
}

// Label keys and values (metav1 validation ValidateLabelName / ValidateLabels), built on the key and value
// checks of lib/selectors.
import { field, type FieldError } from "../status";
import { labelValueErrors, qualifiedNameErrors } from "../selectors/label-selector";
import { isObject, sortedEntries } from "./zero-values";

export { labelValueErrors, qualifiedNameErrors };

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

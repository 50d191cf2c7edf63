// metav1.LabelSelector objects in specs (PVC selector, pod affinity terms): ValidateLabelSelector with
// AllowInvalidLabelValueInSelector off, as for new objects in kube-apiserver 1.32.
import { field, type FieldError } from "../status";
import { labelValueErrors, validateLabelName, validateLabels } from "./labels";
import { isObject, listOf, objectOf, stringOf } from "./zero-values";

/**
 * One `matchExpressions` entry. Node selector requirements use the same rules plus the numeric operators
 * `Gt`/`Lt` (`numericOperators`), and may skip value syntax (`checkValues: false`) for stored objects.
 */
export function validateLabelSelectorRequirement(
  req: unknown, path: string, opts: { numericOperators?: boolean; checkValues?: boolean } = {},
): FieldError[] {
  const r = objectOf(req);
  const operator = stringOf(r.operator);
  const values = listOf(r.values);
  const errs: FieldError[] = [];
  switch (operator) {
    case "In":
    case "NotIn":
      if (values.length === 0) errs.push(field.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case "Exists":
    case "DoesNotExist":
      if (values.length > 0) errs.push(field.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case "Gt":
    case "Lt":
      if (opts.numericOperators) {
        if (values.length !== 1) errs.push(field.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        break;
      }
      errs.push(field.invalid(`${path}.operator`, operator, "not a valid selector operator"));
      break;
    default:
      errs.push(field.invalid(`${path}.operator`, operator, "not a valid selector operator"));
  }
  errs.push(...validateLabelName(stringOf(r.key), `${path}.key`));
  if (opts.checkValues !== false) {
    values.forEach((v, i) => {
      const value = stringOf(v);
      for (const m of labelValueErrors(value)) errs.push(field.invalid(`${path}.values[${i}]`, value, m));
    });
  }
  return errs;
}

/** A nil selector is valid; matchLabels as labels, each matchExpressions entry as a requirement. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isObject(selector)) return [];
  const errs = validateLabels(selector.matchLabels, `${path}.matchLabels`);
  listOf(selector.matchExpressions).forEach((req, i) => errs.push(...validateLabelSelectorRequirement(req, `${path}.matchExpressions[${i}]`)));
  return errs;
}

// Quantities in resource lists and container resource requirements (ValidateResourceQuantityValue,
// ValidateContainerResourceRequirements, 1.32): names, non-negative values, integer resources, requests ≤ limits,
// extended resources and hugepages.
import { field, type FieldError } from "../status";
import { isQuantity, parseQuantity, quantityString, quantityValue, compareQuantities, isNegativeQuantity, type Quantity } from "./quantity";
import { invalidRendered } from "./rendered-value";
import {
  isHugePageResourceName, isIntegerResourceName, isOvercommitAllowed, validateContainerResourceName,
} from "./resource-names";
import { objectOf, sortedEntries } from "./zero-values";

/** A resource-list value as a quantity; values the decoder would refuse count as zero here. */
export function quantityOf(value: unknown): Quantity {
  const q = parseQuantity(value);
  return isQuantity(q) ? q : { mantissa: 0n, exponent: 0, format: "DecimalSI" };
}

/** ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, path: string): FieldError[] {
  return isNegativeQuantity(q) ? [field.invalid(path, quantityString(q), "must be greater than or equal to 0")] : [];
}

/** ValidatePositiveQuantityValue. */
export function validatePositiveQuantity(q: Quantity, path: string): FieldError[] {
  return q.mantissa <= 0n ? [field.invalid(path, quantityString(q), "must be greater than zero")] : [];
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources (pods, services, extended ...). */
export function validateResourceQuantityValue(resource: string, q: Quantity, path: string): FieldError[] {
  const errs = validateNonnegativeQuantity(q, path);
  if (isIntegerResourceName(resource) && q.exponent < 0) {
    const milli = quantityValue({ ...q, exponent: q.exponent + 3 });
    if (milli % 1000n !== 0n) errs.push(invalidRendered(path, quantityString(q), "must be an integer"));
  }
  return errs;
}

/** validateBasicResource (PV capacity): Value() may not be negative. */
export function validateBasicResource(q: Quantity, path: string): FieldError[] {
  const value = quantityValue(q);
  return value < 0n ? [invalidRendered(path, value.toString(), "must be a valid resource quantity")] : [];
}

/** A hugepages-<size> quantity must be a whole multiple of the page size. */
function hugePageValueErrors(name: string, q: Quantity): string[] {
  const page = parseQuantity(name.slice("hugepages-".length));
  let divisible = false;
  if (isQuantity(page) && page.mantissa > 0n) {
    const pageMilli = quantityValue({ ...page, exponent: page.exponent + 3 });
    if (pageMilli % 1000n === 0n) divisible = quantityValue(q) % quantityValue(page) === 0n;
  }
  return divisible ? [] : [`${quantityString(q)} is not positive integer multiple of ${name}`];
}

/** ValidateContainerResourceRequirements for `resources` at `path` (limits first, then requests). */
export function validateContainerResourceRequirements(resources: unknown, path: string): FieldError[] {
  const r = objectOf(resources);
  const limits = objectOf(r.limits);
  const errs: FieldError[] = [];
  let limitsCpuOrMemory = false;
  let requestsCpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of sortedEntries(limits)) {
    const p = `${path}.limits[${name}]`;
    const q = quantityOf(value);
    errs.push(...validateContainerResourceName(name, p), ...validateResourceQuantityValue(name, q, p));
    if (isHugePageResourceName(name)) {
      hugePages = true;
      for (const m of hugePageValueErrors(name, q)) errs.push(field.invalid(p, quantityString(q), m));
    }
    if (name === "cpu" || name === "memory") limitsCpuOrMemory = true;
  }
  for (const [name, value] of sortedEntries(r.requests)) {
    const p = `${path}.requests[${name}]`;
    const q = quantityOf(value);
    errs.push(...validateContainerResourceName(name, p), ...validateResourceQuantityValue(name, q, p));
    if (name in limits) {
      const limit = quantityOf(limits[name]);
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(field.invalid(`${path}.requests`, quantityString(q), `must be equal to ${name} limit of ${quantityString(limit)}`));
      } else if (cmp > 0) {
        errs.push(field.invalid(`${path}.requests`, quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(field.required(`${path}.limits`, "Limit must be set for non overcommitable resources"));
    }
    if (isHugePageResourceName(name)) {
      hugePages = true;
      for (const m of hugePageValueErrors(name, q)) errs.push(field.invalid(p, quantityString(q), m));
    }
    if (name === "cpu" || name === "memory") requestsCpuOrMemory = true;
  }
  if (!limitsCpuOrMemory && !requestsCpuOrMemory && hugePages) errs.push(field.forbidden(path, "HugePages require cpu or memory"));
  return errs;
}

// Quantities in thousandths, for arithmetic over resource lists (QoS class, quota usage). The grammar, rounding
// and canonical form live in lib/validation/quantity.ts; this is the small view kinds and controllers add with.
import { isQuantity, parseQuantity, quantityMilliValue } from "../../validation/quantity";

/**
 * The value of a quantity in thousandths, rounded up as kube-apiserver rounds sub-milli precision
 * (`0.1m` → 1). Undefined when the string is not a quantity.
 */
export function parseQuantityMilli(quantity: string | number): bigint | undefined {
  const q = parseQuantity(quantity);
  return isQuantity(q) ? quantityMilliValue(q) : undefined;
}

// Just enough of the resource.Quantity grammar to compare and add quantities (QoS class computation).
// Canonical formatting and the full validation messages belong to the schema work (issue 4).

const quantityPattern = /^([+-])?(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const binaryPowers: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimalExponents: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
// Anything beyond 10^40 milli-units is far outside int64 and not worth materialising.
const maxExponent = 40;

/**
 * The value of a quantity in thousandths, rounded up as kube-apiserver rounds sub-milli precision
 * (`0.1m` → 1). Undefined when the string is not a quantity.
 */
export function parseQuantityMilli(quantity: string | number): bigint | undefined {
  const match = quantityPattern.exec(String(quantity));
  if (!match) return undefined;
  const [, sign, number, suffix = ""] = match;
  const [whole, fraction = ""] = number.split(".");
  let value = BigInt((whole || "0") + fraction);
  let exponent = 3 - fraction.length;
  if (suffix in binaryPowers) value *= 1024n ** BigInt(binaryPowers[suffix]);
  else if (suffix in decimalExponents) exponent += decimalExponents[suffix];
  else if (suffix) exponent += Number(suffix.slice(1));
  if (exponent > maxExponent) return undefined;
  if (exponent >= 0) {
    value *= 10n ** BigInt(exponent);
  } else {
    const divisor = 10n ** BigInt(-exponent);
    value = (value + divisor - 1n) / divisor;
  }
  return sign === "-" ? -value : value;
}

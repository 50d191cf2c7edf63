// Arithmetic over resource lists as kube's quota helpers do it (k8s.io/apiserver/pkg/quota/v1): exact sums and
// differences of quantities, masks, comparisons, and the `name=value,...` rendering of admission messages.
// Values stay `Quantity` (exact bigint) until rendered, so sums never drift.
import type { ResourceList } from "../kinds/shared/resource-list";
import { compareQuantities, isQuantity, parseQuantity, quantityString, type Quantity } from "../validation/quantity";

/** Resource name → quantity, the working form of a ResourceList. */
export type QuantityList = Record<string, Quantity>;

export const zero = (): Quantity => ({ mantissa: 0n, exponent: 0, format: "DecimalSI" });
export const count = (n: number): Quantity => ({ mantissa: BigInt(n), exponent: 0, format: "DecimalSI" });

/** Quantity.Add: the sum keeps the first operand's format, unless that operand is zero. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const e = Math.min(a.exponent, b.exponent);
  const mantissa = a.mantissa * 10n ** BigInt(a.exponent - e) + b.mantissa * 10n ** BigInt(b.exponent - e);
  return { mantissa, exponent: e, format: a.mantissa === 0n ? b.format : a.format };
}

export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return addQuantities(a, { ...b, mantissa: -b.mantissa, format: a.mantissa === 0n ? b.format : a.format });
}

/** Quantity.RoundUp(0): whole units (storage is charged in whole bytes). */
export function roundUpToWhole(q: Quantity): Quantity {
  if (q.exponent >= 0) return q;
  const d = 10n ** BigInt(-q.exponent);
  const abs = q.mantissa < 0n ? -q.mantissa : q.mantissa;
  const up = (abs + d - 1n) / d;
  return { mantissa: q.mantissa < 0n ? -up : up, exponent: 0, format: q.format };
}

/** A stored ResourceList read for arithmetic; values that are not quantities are left out. */
export function fromResourceList(list: ResourceList | undefined | null): QuantityList {
  const out: QuantityList = {};
  for (const [name, value] of Object.entries(list ?? {})) {
    const q = parseQuantity(value);
    if (isQuantity(q)) out[name] = q;
  }
  return out;
}

/** Canonical strings (what kube-apiserver stores and prints), keys sorted. */
export function toResourceList(list: QuantityList): ResourceList {
  const out: ResourceList = {};
  for (const name of Object.keys(list).sort()) out[name] = quantityString(list[name]);
  return out;
}

/** quota.Add: a + b key by key; keys of either side are kept. */
export function add(a: QuantityList, b: QuantityList): QuantityList {
  const out: QuantityList = { ...a };
  for (const [name, q] of Object.entries(b)) out[name] = name in out ? addQuantities(out[name], q) : q;
  return out;
}

/** quota.SubtractWithNonNegativeResult: a - b, negative results (and keys only in b) become zero. */
export function subtractNonNegative(a: QuantityList, b: QuantityList): QuantityList {
  const out: QuantityList = {};
  for (const [name, q] of Object.entries(a)) {
    const diff = name in b ? subtractQuantities(q, b[name]) : q;
    out[name] = diff.mantissa > 0n ? diff : zero();
  }
  for (const name of Object.keys(b)) if (!(name in out)) out[name] = zero();
  return out;
}

/** quota.Mask: only the named resources. */
export function mask(list: QuantityList, names: Iterable<string>): QuantityList {
  const out: QuantityList = {};
  for (const name of names) if (name in list) out[name] = list[name];
  return out;
}

export function removeZeros(list: QuantityList): QuantityList {
  const out: QuantityList = {};
  for (const [name, q] of Object.entries(list)) if (q.mantissa !== 0n) out[name] = q;
  return out;
}

/** The resource names whose quantity is negative, sorted. */
export function negativeNames(list: QuantityList): string[] {
  return Object.keys(list).filter((name) => list[name].mantissa < 0n).sort();
}

/** quota.LessThanOrEqual: the names (sorted) where a exceeds b; names missing from b are not limited. */
export function exceeding(a: QuantityList, b: QuantityList): string[] {
  return Object.keys(a).filter((name) => name in b && compareQuantities(a[name], b[name]) > 0).sort();
}

/** quota.Equals: same names, equal values. */
export function equals(a: QuantityList, b: QuantityList): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => name in b && compareQuantities(a[name], b[name]) === 0);
}

/** `name=value` pairs sorted by name, comma-joined: the admission messages' rendering. */
export function prettyPrint(list: QuantityList): string {
  return Object.keys(list).sort().map((name) => `${name}=${quantityString(list[name])}`).join(",");
}

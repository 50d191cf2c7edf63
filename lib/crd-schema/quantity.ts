// kube's CEL quantity library (`quantity('1Gi')`, `isQuantity`, `isGreaterThan`, `add`, `asInteger`, ...) on
// @bufbuild/cel: a quantity is carried as its exact decimal value in a string (`quantity('1Gi')` is
// "1073741824", `quantity('100m')` is "0.1"), so equal quantities are equal values; the methods accept any
// quantity string. Values are exact: nano units in a BigInt, as kube's resource.Quantity keeps them exact.
import { celFunc, celMethod, CelScalar } from "@bufbuild/cel";

const NANO = 1_000_000_000n;
const SUFFIX = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const formatError = () => new Error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");

/** A quantity's value in nano units, or undefined when the string is not a quantity. */
export function parseQuantity(s: string): bigint | undefined {
  const m = SUFFIX.exec(s);
  if (!m) return undefined;
  const [whole, fraction = ""] = m[1].replace(/^[+-]/, "").split(".");
  const negative = m[1].startsWith("-");
  // the number as an integer of `digits` and a power of ten `exp`
  let digits = BigInt(`${whole || "0"}${fraction}`);
  let exp = 9 - fraction.length; // in nano units: value * 10^9
  let factor = 1n;
  const suffix = m[2] ?? "";
  if (suffix in BINARY) factor = BINARY[suffix];
  else if (/^[eE]/.test(suffix)) exp += Number(suffix.slice(1));
  else exp += DECIMAL[suffix];
  digits *= factor;
  // kube rounds sub-nano values up to the next nano unit
  const value = exp >= 0 ? digits * 10n ** BigInt(exp) : (digits + 10n ** BigInt(-exp) - 1n) / 10n ** BigInt(-exp);
  return negative ? -value : value;
}

/** The exact decimal form of a value in nano units. */
export function formatQuantity(nanos: bigint): string {
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const whole = abs / NANO;
  const fraction = (abs % NANO).toString().padStart(9, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

function value(s: string): bigint {
  const v = parseQuantity(s);
  if (v === undefined) throw formatError();
  return v;
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const Q = CelScalar.STRING;

export const quantityLibrary = [
  celFunc("quantity", [Q], Q, (s) => formatQuantity(value(s))),
  celFunc("isQuantity", [Q], CelScalar.BOOL, (s) => parseQuantity(s) !== undefined),
  celMethod("sign", Q, [], CelScalar.INT, function () {
    const v = value(this);
    return v > 0n ? 1n : v < 0n ? -1n : 0n;
  }),
  celMethod("isGreaterThan", Q, [Q], CelScalar.BOOL, function (o) { return value(this) > value(o); }),
  celMethod("isLessThan", Q, [Q], CelScalar.BOOL, function (o) { return value(this) < value(o); }),
  celMethod("compareTo", Q, [Q], CelScalar.INT, function (o) {
    const a = value(this);
    const b = value(o);
    return a > b ? 1n : a < b ? -1n : 0n;
  }),
  celMethod("add", Q, [Q], Q, function (o) { return formatQuantity(value(this) + value(o)); }),
  celMethod("add", Q, [CelScalar.INT], Q, function (o) { return formatQuantity(value(this) + o * NANO); }),
  celMethod("sub", Q, [Q], Q, function (o) { return formatQuantity(value(this) - value(o)); }),
  celMethod("sub", Q, [CelScalar.INT], Q, function (o) { return formatQuantity(value(this) - o * NANO); }),
  celMethod("isInteger", Q, [], CelScalar.BOOL, function () {
    const v = value(this);
    return v % NANO === 0n && v / NANO <= INT64_MAX && v / NANO >= INT64_MIN;
  }),
  celMethod("asInteger", Q, [], CelScalar.INT, function () {
    const v = value(this);
    if (v % NANO !== 0n || v / NANO > INT64_MAX || v / NANO < INT64_MIN) throw new Error("cannot convert value to integer");
    return v / NANO;
  }),
  celMethod("asApproximateFloat", Q, [], CelScalar.DOUBLE, function () { return Number(value(this)) / 1e9; }),
];

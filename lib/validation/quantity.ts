// resource.Quantity as kube-apiserver reads, rounds, compares and prints it (apimachinery 1.32): the parse scanner
// and its three errors, rounding up to nano precision on parse (and to milli for resource lists, which v1
// defaulting does), and the canonical String() that is what clients read back. Values are exact (bigint), so
// comparisons never lose precision.

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

/** value = mantissa × 10^exponent (mantissa carries the sign). */
export interface Quantity {
  mantissa: bigint;
  exponent: number;
  format: QuantityFormat;
}

export const QUANTITY_REGEX_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_NUMERIC_ERROR = "unable to parse numeric part of quantity";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const suffixChars = "eEinumkKMGTP";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** 2^63-1: binary quantities are capped here, as kube-apiserver does. */
const maxAllowed = 2n ** 63n - 1n;

interface Scanned {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: sign, digits, optional fraction, suffix; returns undefined where Go reports ErrFormatWrong. */
function scan(str: string): Scanned | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end && (str[0] === "-" || str[0] === "+")) {
    positive = str[0] !== "-";
    pos++;
  }
  while (pos < end && str[pos] === "0") pos++;
  if (pos >= end) return { positive, num: "0", denom: "", suffix: "" };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, num: num || "0", denom: "", suffix: "" };
  pos = i;
  if (num === "") num = "0";
  let denom = "";
  if (str[pos] === ".") {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    denom = str.slice(pos, j);
    if (j >= end) return { positive, num, denom, suffix: "" };
    pos = j;
  }
  const suffixStart = pos;
  while (pos < end && suffixChars.includes(str[pos])) pos++;
  if (pos >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  return undefined;
}

/** The base-10 exponent or binary power a suffix stands for. */
function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  if (suffix in decimalSuffixes) return { base: 10, exponent: decimalSuffixes[suffix], format: "DecimalSI" };
  if (suffix in binarySuffixes) return { base: 2, exponent: binarySuffixes[suffix] * 10, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E")) {
    const rest = suffix.slice(1);
    if (!/^[+-]?\d+$/.test(rest)) return undefined;
    const exponent = Number(rest);
    if (!Number.isSafeInteger(exponent)) return undefined;
    return { base: 10, exponent, format: "DecimalExponent" };
  }
  return undefined;
}

const digitCount = (n: bigint) => (n < 0n ? -n : n).toString().length;

/** |n| / 10^k rounded away from zero (k ≥ 0), without materialising huge powers. */
function divideRoundingUp(n: bigint, k: number): bigint {
  if (k <= 0) return n;
  if (n === 0n) return 0n;
  const negative = n < 0n;
  const abs = negative ? -n : n;
  if (k > digitCount(abs)) return negative ? -1n : 1n;
  const divisor = 10n ** BigInt(k);
  const rounded = (abs + divisor - 1n) / divisor;
  return negative ? -rounded : rounded;
}

/** Rounds to a multiple of 10^scale, away from zero (Quantity.RoundUp). */
export function roundUpQuantity(q: Quantity, scale: number): Quantity {
  if (q.exponent >= scale) return q;
  return { ...q, mantissa: divideRoundingUp(q.mantissa, scale - q.exponent), exponent: scale };
}

/**
 * ParseQuantity. A JSON number is read from its text, `null` is the zero quantity; anything else that is not a
 * string fails as the decoder does.
 */
export function parseQuantity(input: unknown): Quantity | { error: string } {
  if (input === null || input === undefined) return { mantissa: 0n, exponent: 0, format: "DecimalSI" };
  const text = (typeof input === "string" ? input : typeof input === "number" ? String(input) : JSON.stringify(input)).trim();
  if (text.length === 0) return { error: QUANTITY_REGEX_ERROR };
  if (text === "0") return { mantissa: 0n, exponent: 0, format: "DecimalSI" };
  const scanned = scan(text);
  if (!scanned) return { error: QUANTITY_REGEX_ERROR };
  const suffix = interpretSuffix(scanned.suffix);
  if (!suffix) return { error: QUANTITY_SUFFIX_ERROR };
  let mantissa = BigInt(scanned.num + scanned.denom);
  let exponent = -scanned.denom.length;
  let format = suffix.format;
  if (suffix.base === 10) exponent += suffix.exponent;
  else mantissa *= 2n ** BigInt(suffix.exponent);
  if (!scanned.positive) mantissa = -mantissa;
  let q = roundUpQuantity({ mantissa, exponent, format }, -9);
  if (format === "BinarySI") {
    if (compareQuantities(q, { mantissa: maxAllowed, exponent: 0, format }) > 0) q = { mantissa: maxAllowed, exponent: 0, format };
    if (q.mantissa > 0n && compareQuantities(q, { mantissa: 1n, exponent: 0, format }) < 0) format = "DecimalSI";
    q = { ...q, format };
  }
  return q;
}

export const isQuantity = (q: Quantity | { error: string }): q is Quantity => !("error" in q);

/** Signed comparison: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const sa = a.mantissa === 0n ? 0 : a.mantissa < 0n ? -1 : 1;
  const sb = b.mantissa === 0n ? 0 : b.mantissa < 0n ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Same sign: compare magnitudes by order of magnitude first, then exactly.
  const magA = digitCount(a.mantissa) + a.exponent;
  const magB = digitCount(b.mantissa) + b.exponent;
  if (magA !== magB) return (magA < magB ? -1 : 1) * sa;
  const e = Math.min(a.exponent, b.exponent);
  const x = a.mantissa * 10n ** BigInt(a.exponent - e);
  const y = b.mantissa * 10n ** BigInt(b.exponent - e);
  return x === y ? 0 : x < y ? -1 : 1;
}

export const isZeroQuantity = (q: Quantity) => q.mantissa === 0n;
export const isNegativeQuantity = (q: Quantity) => q.mantissa < 0n;

/** Quantity.Value(): the integer value, rounded away from zero. */
export function quantityValue(q: Quantity): bigint {
  return q.exponent >= 0 ? q.mantissa * 10n ** BigInt(q.exponent) : divideRoundingUp(q.mantissa, -q.exponent);
}

/** Quantity.MilliValue(): the value in thousandths, rounded away from zero. */
export function quantityMilliValue(q: Quantity): bigint {
  return quantityValue({ ...q, exponent: q.exponent + 3 });
}

/** The canonical string (Quantity.String()): what kube-apiserver prints and stores. */
export function quantityString(q: Quantity): string {
  if (q.mantissa === 0n) return "0";
  const negative = q.mantissa < 0n;
  const abs = negative ? -q.mantissa : q.mantissa;
  const sign = negative ? "-" : "";
  let format = q.format;
  if (format === "BinarySI") {
    const small = compareQuantities({ mantissa: abs, exponent: q.exponent, format }, { mantissa: 1024n, exponent: 0, format }) < 0;
    const whole = q.exponent >= 0 || abs % 10n ** BigInt(-q.exponent) === 0n;
    if (small || !whole) {
      format = "DecimalSI";
    } else {
      let value = q.exponent >= 0 ? abs * 10n ** BigInt(q.exponent) : abs / 10n ** BigInt(-q.exponent);
      let power = 0;
      while (power < 6 && value % 1024n === 0n) {
        value /= 1024n;
        power++;
      }
      return `${sign}${value}${["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power]}`;
    }
  }
  let m = abs;
  let e = q.exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  const r = ((e % 3) + 3) % 3;
  if (r) {
    m *= 10n ** BigInt(r);
    e -= r;
  }
  if (format === "DecimalExponent") return `${sign}${m}${e === 0 ? "" : `e${e}`}`;
  while (e > 18) {
    m *= 1000n;
    e -= 3;
  }
  const suffix = Object.keys(decimalSuffixes).find((s) => decimalSuffixes[s] === e) ?? "";
  return `${sign}${m}${suffix}`;
}

/** The decoder's message for a value that is not a quantity, or undefined. */
export function quantityDecodeError(value: unknown): string | undefined {
  const q = parseQuantity(value);
  return isQuantity(q) ? undefined : q.error;
}

/** The first decoder error among a resource list's values. */
export function resourceListDecodeError(list: unknown): string | undefined {
  if (list === null || list === undefined || typeof list !== "object" || Array.isArray(list)) return undefined;
  for (const value of Object.values(list as Record<string, unknown>)) {
    const error = quantityDecodeError(value);
    if (error) return error;
  }
  return undefined;
}

/**
 * v1 defaulting of a ResourceList: every value rounded up to milli precision and rewritten in canonical form
 * (values that do not parse are left for the decoder check to refuse). Mutates.
 */
export function canonicalizeResourceList(list: unknown): void {
  if (list === null || list === undefined || typeof list !== "object" || Array.isArray(list)) return;
  const map = list as Record<string, unknown>;
  for (const [key, value] of Object.entries(map)) {
    const q = parseQuantity(value);
    if (isQuantity(q)) map[key] = quantityString(roundUpQuantity(q, -3));
  }
}

/** A single Quantity field (not in a ResourceList): canonical form, nano precision. Returns the input if invalid. */
export function canonicalQuantity(value: unknown): unknown {
  const q = parseQuantity(value);
  return isQuantity(q) ? quantityString(q) : value;
}

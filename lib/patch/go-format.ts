// Go's fmt rendering of decoded JSON values, for error messages kube-apiserver builds with `%v` (for example
// `map: map[image:nginx] does not contain declared merge key: name`). Integers print as int64 do (kube keeps
// integers as int64 when it decodes objects and patches); other numbers as float64 `%v`.

/** `%v` of a JSON value as Go prints an `interface{}` holding it. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return goNumber(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(" ")}]`;
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goValue(o[k])}`).join(" ")}]`;
  }
  return String(v);
}

function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN";
  // strconv "g" with the shortest precision: exponent form below 1e-4 and from 1e6 (precision 6).
  const [mantissa, exp] = n.toExponential().split("e");
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return String(n);
}

/** `%s` of the reflect.Type of a decoded JSON value (`map[string]interface {}`, `[]interface {}`, `string`, ...). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return "%!s(<nil>)";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  if (Array.isArray(v)) return "[]interface {}";
  return "map[string]interface {}";
}

/** Go's `%s` verb: strings as they are, anything else as `%!s(<type>=<value>)`. */
export function goString(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "%!s(<nil>)";
  return `%!s(${goTypeName(v)}=${goValue(v)})`;
}

/** The JSON type word encoding/json uses in `cannot unmarshal <type> into ...`. */
export function jsonTypeWord(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return "object";
  if (typeof v === "boolean") return "bool";
  return typeof v; // string, number
}

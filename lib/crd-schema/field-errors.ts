// Field errors rendered as kube-apiserver 1.32 renders field.Error for custom resources: a bad value is printed
// by Go's rules (strings quoted, numbers and booleans bare, nil as "null"), a float by %v (1e+06), and objects or
// lists as Go's %#v of unstructured data. lib/status's builders render later kube's forms, so the schema
// machinery builds its own, with the same FieldError shape (strings quoted by lib/status's goQuote, Go's %q).
import { goQuote, type FieldError } from "../status";

/** Go's %v of a float64: the shortest digits, in exponent form when the exponent is < -4 or >= 6 (1e+06). */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN";
  if (n === 0) return "0";
  const [mantissa, expText] = n.toExponential().split("e");
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(n);
}

/** A JSON number as Go holds it after decoding unstructured JSON: integers are int64, the rest float64. */
export const goNumber = (n: number): string => (Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? String(n) : goFloat(n));

/** Go's %#v of unstructured JSON data (map[string]interface {}{...}, []interface {}{...}). */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return "interface {}(nil)";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : goFloat(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(", ")}}`;
  const entries = Object.keys(v as object).sort().map((k) => `${goQuote(k)}:${goSharpV((v as Record<string, unknown>)[k])}`);
  return `map[string]interface {}{${entries.join(", ")}}`;
}

/** The bad value as field.Error.ErrorBody prints it in kube 1.32. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number") return goNumber(v);
  if (typeof v === "boolean") return String(v);
  return goSharpV(v);
}

const withDetail = (body: string, detail?: string) => (detail ? `${body}: ${detail}` : body);

export const kubeField = {
  required: (path: string, detail?: string): FieldError =>
    ({ type: "FieldValueRequired", field: path, detail: withDetail("Required value", detail) }),
  invalid: (path: string, value: unknown, detail?: string): FieldError =>
    ({ type: "FieldValueInvalid", field: path, detail: withDetail(`Invalid value: ${goValue(value)}`, detail) }),
  /** An Invalid whose bad value Go prints with %#v (a struct or a pointer kube passes as is). */
  invalidRaw: (path: string, rendered: string, detail?: string): FieldError =>
    ({ type: "FieldValueInvalid", field: path, detail: withDetail(`Invalid value: ${rendered}`, detail) }),
  typeInvalid: (path: string, value: unknown, detail?: string): FieldError =>
    ({ type: "FieldValueTypeInvalid", field: path, detail: withDetail(`Invalid value: ${goValue(value)}`, detail) }),
  notSupported: (path: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: "FieldValueNotSupported",
    field: path,
    detail: withDetail(`Unsupported value: ${goValue(value)}`, supported.length ? `supported values: ${supported.map((v) => goQuote(v)).join(", ")}` : ""),
  }),
  duplicate: (path: string, value: unknown): FieldError =>
    ({ type: "FieldValueDuplicate", field: path, detail: `Duplicate value: ${goValue(value)}` }),
  forbidden: (path: string, detail?: string): FieldError =>
    ({ type: "FieldValueForbidden", field: path, detail: withDetail("Forbidden", detail) }),
  /** field.TooLong as 1.32 renders it (the custom resource validator's maxLength; the value is not shown). */
  tooLong: (path: string, max: number): FieldError => ({
    type: "FieldValueTooLong",
    field: path,
    detail: `Too long: ${max >= 0 ? `may not be more than ${max} ${max === 1 ? "byte" : "bytes"}` : "value is too long"}`,
  }),
  tooMany: (path: string, actual: number, max: number): FieldError => ({
    type: "FieldValueTooMany",
    field: path,
    detail: max >= 0 ? `Too many: ${actual}: must have at most ${max} items` : `Too many: ${actual}: has too many items`,
  }),
  internal: (path: string, detail: string): FieldError =>
    ({ type: "FieldValueInvalid", field: path, detail: `Internal error: ${detail}` }),
};

/** field.Error.Error(): what kube sorts structural errors by and prints in a 422's message. */
export const errorString = (e: FieldError): string => `${e.field}: ${e.detail}`;

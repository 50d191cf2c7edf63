// JSON as Go's encoding/json (and json-iterator's standard-library mode) writes it: object keys sorted, the
// HTML characters `<`, `>`, `&` and U+2028/U+2029 escaped, no spaces. Manager identifiers, `k:`/`v:` keys of
// FieldsV1 and the last-applied annotation the server writes all come out byte for byte as kube's.
import { compareGo } from "../selectors/go-format";

const ESCAPES: Record<string, string> = {
  "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029",
};

/** A JSON string literal as Go writes it. */
export function goQuoteJson(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]);
}

/** Go's json.Marshal of a decoded JSON value (maps with sorted keys). */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return goQuoteJson(v);
  if (typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort(compareUtf8);
  return `{${keys.map((k) => `${goQuoteJson(k)}:${goJson(o[k])}`).join(",")}}`;
}

/** Byte order of the UTF-8 encodings (Go's string comparison), which is code point order. */
export const compareUtf8 = compareGo;

/** Go's `%q` of a string (strconv.Quote): lib/status's, shared with every kube message. */
export { goQuote } from "../status";

// Field selectors: the `fieldSelector=` query grammar with kube-apiserver's (1.32) parse rules and
// messages (apimachinery pkg/fields). Terms are split on unescaped `,`, each term on its first `!=`,
// `==` or `=`; values may escape `\,` `\=` `\\`. Nothing is trimmed: `a = b` is field `a ` and value
// ` b`, as in Kubernetes. Malformed input throws errors.badRequest (400). Linear time, input capped.
import { errors } from "../status";
import { compareGo, goQuote } from "./go-format";

export interface FieldRequirement {
  field: string;
  /** `==` is stored as `=`. */
  operator: "=" | "!=";
  /** Unescaped. */
  value: string;
}

/** Longest selector text accepted (characters). */
export const MAX_FIELD_SELECTOR_LENGTH = 1_048_576;
/** Most terms one selector may hold. */
export const MAX_FIELD_REQUIREMENTS = 10_000;

/** Fields every kind accepts; the caller lists the rest. */
export const ALWAYS_SUPPORTED_FIELDS: ReadonlySet<string> = new Set(["metadata.name", "metadata.namespace"]);

const tooMany = (): never => {
  throw errors.badRequest(`field selector has too many requirements: must have at most ${MAX_FIELD_REQUIREMENTS}`);
};

/** Splits on commas not preceded by an unconsumed backslash; the escapes stay in the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === "\\") inSlash = true;
    else if (c === ",") {
      terms.push(text.slice(start, i));
      start = i + 1;
      if (terms.length >= MAX_FIELD_REQUIREMENTS) tooMany();
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** Splits a term at its first operator; `!=` and `==` win over `=` at the same position. */
function splitTerm(term: string): { lhs: string; op: "!=" | "==" | "="; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    if (c === "!" && term[i + 1] === "=") return { lhs: term.slice(0, i), op: "!=", rhs: term.slice(i + 2) };
    if (c === "=") {
      if (term[i + 1] === "=") return { lhs: term.slice(0, i), op: "==", rhs: term.slice(i + 2) };
      return { lhs: term.slice(0, i), op: "=", rhs: term.slice(i + 1) };
    }
  }
  return undefined;
}

/** fields.UnescapeValue, with its exact messages (an unescaped rune prints as its code point, e.g. 61 for `=`). */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = "";
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== "\\" && c !== "," && c !== "=") {
        throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === "\\") inSlash = true;
    else if (c === "," || c === "=") {
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw errors.badRequest("invalid field selector: invalid escape sequence: \\");
  return out;
}

/**
 * Parses `fieldSelector=` text. `""` selects everything (`[]`); empty terms (`a=b,,c=d`) are skipped.
 * Terms are sorted by their raw text as Kubernetes does, which also fixes which bad term an error names.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  if (text.length > MAX_FIELD_SELECTOR_LENGTH) {
    throw errors.badRequest(`field selector is too long: must have at most ${MAX_FIELD_SELECTOR_LENGTH} characters`);
  }
  if (text === "") return [];
  const reqs: FieldRequirement[] = [];
  for (const term of splitTerms(text).sort(compareGo)) {
    if (term === "") continue;
    const parts = splitTerm(term);
    if (!parts) throw errors.badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    reqs.push({ field: parts.lhs, operator: parts.op === "!=" ? "!=" : "=", value: unescapeValue(parts.rhs) });
  }
  return reqs;
}

/** True when every term holds; `valueOf` returns the object's value for a field (`""` when absent). */
export function matchesFields(reqs: readonly FieldRequirement[], valueOf: (field: string) => string): boolean {
  for (const r of reqs) {
    if ((valueOf(r.field) === r.value) !== (r.operator === "=")) return false;
  }
  return true;
}

/**
 * Rejects fields a kind cannot select on (400), in term order like kube-apiserver. `metadata.name` and
 * `metadata.namespace` are always allowed; `supported` lists the kind's others. Styles:
 * - "label-not-supported": `field label not supported: <f>` (kinds with their own field list: Pod, Event, Secret, ...)
 * - "known-only": `"<f>" is not a known field selector: only "metadata.name", "metadata.namespace"` (the rest)
 */
export function checkFieldSelector(
  reqs: readonly FieldRequirement[],
  supported: ReadonlySet<string>,
  style: "label-not-supported" | "known-only",
): void {
  for (const { field } of reqs) {
    if (ALWAYS_SUPPORTED_FIELDS.has(field) || supported.has(field)) continue;
    throw errors.badRequest(
      style === "label-not-supported"
        ? `field label not supported: ${field}`
        : `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
}

/** The value `field` must equal (`field=value` / `field==value`), else undefined; e.g. to narrow a list to one name. */
export function pinnedValue(reqs: readonly FieldRequirement[], field: string): string | undefined {
  for (const r of reqs) if (r.field === field && r.operator === "=") return r.value;
  return undefined;
}

/** fields.EscapeValue: makes a literal value safe inside a field selector. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** The text form (`f=v,g!=w`, values escaped) that parses back to the same requirements. */
export function formatFieldSelector(reqs: readonly FieldRequirement[]): string {
  return reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(",");
}

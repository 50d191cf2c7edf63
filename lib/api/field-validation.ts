// fieldValidation=Ignore|Warn|Strict (default Warn): unknown fields (not in the kind's schema) and duplicate
// keys in a request body. Unknown fields are always dropped, as kube-apiserver's typed decoding drops them;
// Warn reports each as a `Warning` header, Strict refuses the request with 400.
import type { AnyKind } from "../kinds/types";
import { findDuplicateJsonKeys, findDuplicateYamlKeys } from "../kinds/schema/duplicate-keys";
import { findUnknownFields, stripUnknownFields } from "../kinds/schema/fields";
import { findConversionError, findTypeError } from "../kinds/schema/shape";
import type { FieldValidation } from "../registry/options";
import { errors, field } from "../status";

export interface FieldCheck {
  mode: FieldValidation;
  /** Warning texts gathered for the response (`unknown field "spec.foo"`). */
  warnings: string[];
}

/** Duplicate keys in the raw body text (JSON or YAML), as field paths. */
export function duplicateFields(raw: Buffer, type: "json" | "yaml"): string[] {
  const text = raw.toString("utf8");
  return type === "yaml" ? findDuplicateYamlKeys(text) : findDuplicateJsonKeys(text);
}

/**
 * Report (or refuse) unknown and duplicate fields; returns the value without unknown fields. A patch result
 * is refused as kube-apiserver refuses it: 422 on the field `patch`, showing `patch.shown`; `patch.strategic`
 * for a strategic merge patch's result.
 */
export function checkFields<T>(kind: AnyKind, value: T, check: FieldCheck, duplicates: string[] = [], patch?: { shown: () => string; strategic: boolean }): T {
  if (kind.pruneUnknown && typeof value === "object" && value !== null && !Array.isArray(value)) return pruneByKind(kind, value, check, duplicates, patch);
  if (!kind.schema || typeof value !== "object" || value === null) return value;
  // Values of the wrong JSON type fail typed decoding before anything else looks at them. A patch's result is
  // decoded after the request was read, so kube answers 422 on `patch`; a strategic merge patch's result goes
  // through the unstructured converter, which words its refusals its own way.
  const typeError = patch?.strategic ? findConversionError(value, kind.schema, kind.kind) : findTypeError(value, kind.schema, kind.kind);
  if (typeError && patch) throw errors.invalid("", "", [field.invalid("patch", patch.shown(), typeError)]);
  if (typeError) throw errors.badRequest(`${kind.kind} in version "v1" cannot be handled as a ${kind.kind}: ${typeError}`);
  const unknown = findUnknownFields(value, kind.schema);
  if (check.mode !== "Ignore") {
    const problems = [...unknown.map((p) => `unknown field "${p}"`), ...duplicates.map((p) => `duplicate field "${p}"`)];
    if (problems.length && check.mode === "Strict") {
      if (patch) throw errors.invalid("", "", [field.invalid("patch", patch.shown(), `strict decoding error: ${problems.join(", ")}`)]);
      throw errors.badRequest(`${kind.kind} in version "v1" cannot be handled as a ${kind.kind}: strict decoding error: ${problems.join(", ")}`);
    }
    check.warnings.push(...problems);
  }
  return unknown.length ? stripUnknownFields(value, kind.schema) : value;
}

/**
 * A kind that prunes by its own schema (a custom resource's structural schema): unknown fields dropped as kube's
 * apiextensions decoder drops them, then reported one Warning each, or refused under Strict with the kind's message.
 */
function pruneByKind<T>(kind: AnyKind, value: T, check: FieldCheck, duplicates: string[], patch?: { shown: () => string }): T {
  const copy = structuredClone(value) as T;
  const unknown = kind.pruneUnknown!(copy);
  if (check.mode === "Ignore") return copy;
  const problems = [...unknown.map((p) => `unknown field "${p}"`), ...duplicates.map((p) => `duplicate field "${p}"`)];
  if (problems.length && check.mode === "Strict") {
    if (patch) throw errors.invalid("", "", [field.invalid("patch", patch.shown(), `strict decoding error: ${problems.join(", ")}`)]);
    throw errors.badRequest(kind.strictMessage?.(unknown) ?? `strict decoding error: ${problems.join(", ")}`);
  }
  check.warnings.push(...problems);
  return copy;
}

/**
 * A `Warning` response header value (RFC 7234 style, code 299, as kube-apiserver sends). Line breaks (and
 * other control characters, which no header may carry) become spaces, as Go's header writer makes line breaks.
 */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/[\x00-\x08\x0a-\x1f\x7f]/g, " ")}"`;
}

/** kube's warning recorder limits: past 4096 characters in all, each warning is cut to 256 and the rest dropped. */
const TRUNCATE_AT_TOTAL = 4 * 1024;
const TRUNCATE_ITEM = 256;

/**
 * The `Warning` header values for a response, as kube-apiserver's recorder writes them: duplicates dropped;
 * while all fit in 4096 characters they go whole, otherwise every one is cut to 256 characters and they are
 * added until 4096 characters are written.
 */
export function warningHeaders(texts: string[]): string[] {
  const unique = [...new Set(texts)];
  const length = (t: string) => [...t].length;
  if (unique.reduce((n, t) => n + length(t), 0) <= TRUNCATE_AT_TOTAL) return unique.map(warningHeader);
  const out: string[] = [];
  let written = 0;
  for (const text of unique) {
    if (written >= TRUNCATE_AT_TOTAL) break;
    const cut = length(text) > TRUNCATE_ITEM ? [...text].slice(0, TRUNCATE_ITEM).join("") : text;
    written += length(cut);
    out.push(warningHeader(cut));
  }
  return out;
}

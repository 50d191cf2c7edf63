// Field errors whose bad value kube-apiserver prints with Go's %#v or a Stringer (quantities, slices, structs):
// the caller renders the value, these builders only assemble the cause. Plain strings, numbers and booleans go
// through the `field` builders of lib/api/errors.ts instead.
import type { FieldError } from "../status";

export const invalidRendered = (path: string, rendered: string, detail?: string): FieldError =>
  ({ type: "FieldValueInvalid", field: path, detail: `Invalid value: ${rendered}${detail ? `: ${detail}` : ""}` });

export const duplicateRendered = (path: string, rendered: string): FieldError =>
  ({ type: "FieldValueDuplicate", field: path, detail: `Duplicate value: ${rendered}` });

export const notSupportedRendered = (path: string, rendered: string, supported: readonly string[]): FieldError =>
  ({
    type: "FieldValueNotSupported",
    field: path,
    detail: `Unsupported value: ${rendered}${supported.length ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` : ""}`,
  });

/** A Go string literal (%q / the quoting inside %#v). */
export const goString = (value: string): string => JSON.stringify(value);

/** %#v of a string slice of the given Go type, e.g. `[]core.ResourceQuotaScope{"A", "B"}`; nil renders `(nil)`. */
export function goSlice(type: string, values: readonly unknown[] | null | undefined): string {
  if (values === null || values === undefined) return `[]${type}(nil)`;
  return `[]${type}{${values.map((v) => (typeof v === "string" ? goString(v) : String(v))).join(", ")}}`;
}

/** %#v of a struct: `pkg.Type{A:1, B:"x"}` from already-rendered field values, in declaration order. */
export const goStruct = (type: string, fields: [string, string][]): string =>
  `${type}{${fields.map(([k, v]) => `${k}:${v}`).join(", ")}}`;

// Field errors as kube's validation field.Error renders them; a list of them becomes a 422's causes.

/** A field-level validation problem; becomes one `details.causes` entry of a 422. */
export interface FieldError {
  type: "FieldValueRequired" | "FieldValueInvalid" | "FieldValueNotSupported" | "FieldValueDuplicate"
    | "FieldValueForbidden" | "FieldValueTooLong" | "FieldValueTooMany" | "FieldValueNotFound" | "FieldValueTypeInvalid";
  field: string;
  /** The message body as kube-apiserver renders it, e.g. `Required value` or `Invalid value: "x": must be ...`. */
  detail: string;
}

const quoted = (value: unknown): string => {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined || value === null) return "null";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
};

/** Field error builders that render messages as kube-apiserver's field.Error does. */
export const field = {
  required: (path: string, detail?: string): FieldError =>
    ({ type: "FieldValueRequired", field: path, detail: detail ? `Required value: ${detail}` : "Required value" }),
  invalid: (path: string, value: unknown, detail?: string): FieldError =>
    ({ type: "FieldValueInvalid", field: path, detail: `Invalid value: ${quoted(value)}${detail ? `: ${detail}` : ""}` }),
  notSupported: (path: string, value: unknown, supported: readonly string[]): FieldError =>
    ({ type: "FieldValueNotSupported", field: path, detail: `Unsupported value: ${quoted(value)}${supported.length ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` : ""}` }),
  duplicate: (path: string, value: unknown): FieldError =>
    ({ type: "FieldValueDuplicate", field: path, detail: `Duplicate value: ${quoted(value)}` }),
  forbidden: (path: string, detail: string): FieldError =>
    ({ type: "FieldValueForbidden", field: path, detail: `Forbidden: ${detail}` }),
  tooLong: (path: string, max: number): FieldError =>
    ({ type: "FieldValueTooLong", field: path, detail: `Too long: must have at most ${max} bytes` }),
  tooMany: (path: string, actual: number, max: number): FieldError =>
    ({ type: "FieldValueTooMany", field: path, detail: `Too many: ${actual}: must have at most ${max} items` }),
  notFound: (path: string, value: unknown): FieldError =>
    ({ type: "FieldValueNotFound", field: path, detail: `Not found: ${quoted(value)}` }),
};


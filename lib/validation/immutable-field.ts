// ValidateImmutableField: `<path>: Invalid value: <new>: field is immutable` when the value changed
// (semantically: absent and empty are the same).
import type { FieldError } from "../status";
import { field } from "../status";
import { invalidRendered } from "./rendered-value";
import { semanticEqual } from "./semantic-equal";

export const FIELD_IMMUTABLE = "field is immutable";

/** `rendered` overrides how the new value is printed (Go %#v for structs and slices). */
export function validateImmutableField(next: unknown, prev: unknown, path: string, rendered?: string): FieldError[] {
  if (semanticEqual(next, prev)) return [];
  if (rendered !== undefined) return [invalidRendered(path, rendered, FIELD_IMMUTABLE)];
  return [field.invalid(path, next === undefined ? "" : next, FIELD_IMMUTABLE)];
}

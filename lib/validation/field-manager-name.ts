// kube's ValidateFieldManager: a field manager's name is at most 128 bytes of printable characters. Here, below
// both, because the registry checks the fieldManager parameter and apply derives a name from the User-Agent
// by the same rules.
import { field, type FieldError } from "../status";

export const FIELD_MANAGER_MAX_LENGTH = 128;

/** ValidateFieldManager's character rule: every character printable (Go's unicode.IsPrint). */
export function isPrintable(s: string): boolean {
  for (const c of s) if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(c)) return false;
  return true;
}

/** The length and character errors of a fieldManager parameter, in kube's order. */
export function validateFieldManager(fieldManager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (new TextEncoder().encode(fieldManager).length > FIELD_MANAGER_MAX_LENGTH) errs.push(field.tooLong("fieldManager", FIELD_MANAGER_MAX_LENGTH));
  if (!isPrintable(fieldManager)) errs.push(field.invalid("fieldManager", fieldManager, "invalid characters"));
  return errs;
}

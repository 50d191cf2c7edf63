// Paths inside a volume or container (subPath, items[].path, gitRepo directory): relative, no '..' elements.
import { field, type FieldError } from "../status";

/** validatePathNoBacksteps: no ".." element (one error however many there are). */
export function validatePathNoBacksteps(path: string, fieldPath: string): FieldError[] {
  return path.split("/").includes("..") ? [field.invalid(fieldPath, path, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative and without backsteps. */
export function validateLocalDescendingPath(path: string, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (path.startsWith("/")) errs.push(field.invalid(fieldPath, path, "must be a relative path"));
  errs.push(...validatePathNoBacksteps(path, fieldPath));
  return errs;
}

/** ValidateLocalNonReservedPath: also may not start with ".." (unless that was already reported as an element). */
export function validateLocalNonReservedPath(path: string, fieldPath: string): FieldError[] {
  const errs = validateLocalDescendingPath(path, fieldPath);
  if (path.startsWith("..") && !path.startsWith("../")) errs.push(field.invalid(fieldPath, path, "must not start with '..'"));
  return errs;
}

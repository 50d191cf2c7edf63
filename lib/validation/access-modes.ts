// PersistentVolume and claim access modes (supportedAccessModes, 1.32): the enum, and ReadWriteOncePod alone.
import { field, type FieldError } from "../status";
import { stringOf } from "./zero-values";

export const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

export function validateAccessModes(modes: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let oncePod = false;
  let other = false;
  for (const m of modes) {
    const mode = stringOf(m);
    if (!ACCESS_MODES.includes(mode)) errs.push(field.notSupported(path, mode, ACCESS_MODES));
    if (mode === "ReadWriteOncePod") oncePod = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (oncePod && other) errs.push(field.forbidden(path, "may not use ReadWriteOncePod with other access modes"));
  return errs;
}

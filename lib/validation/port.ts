// Port numbers and IANA_SVC_NAME port names (apimachinery IsValidPortNum / IsValidPortName), and the
// int-or-string ports of probes, handlers and Service targetPorts.
import { field, type FieldError } from "../status";
import { byteLength, maxLenError } from "./dns-names";

export const inclusiveRangeError = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

export function portNumberErrors(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IANA_SVC_NAME: [-a-z0-9]+, at least one letter, no "--", no leading or trailing '-', at most 15 bytes. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (byteLength(name) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(name)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(name)) errs.push("must contain at least one letter (a-z)");
  if (name.includes("--")) errs.push("must not contain consecutive hyphens");
  if (name.length > 0 && (name.startsWith("-") || name.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs;
}

/** ValidatePortNumOrName: a number must be a port, a string must be a port name (even "8080"). */
export function validatePortNumOrName(value: unknown, path: string): FieldError[] {
  if (typeof value === "string") return portNameErrors(value).map((m) => field.invalid(path, value, m));
  const n = typeof value === "number" ? value : 0;
  return portNumberErrors(n).map((m) => field.invalid(path, n, m));
}

// Keys of ConfigMap and Secret data, and the keys that configMapKeyRef/secretKeyRef name (IsConfigMapKey).
import { field, type FieldError } from "../status";
import { byteLength, maxLenError, regexError } from "./dns-names";

const CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+";
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG = regexError(
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name",
);

/** hasChDirPrefix: "." and ".." and anything starting with "..". */
export function chDirPrefixErrors(value: string): string[] {
  if (value === ".") return ["must not be '.'"];
  if (value === "..") return ["must not be '..'"];
  if (value.startsWith("..")) return ["must not start with '..'"];
  return [];
}

export function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (byteLength(key) > 253) errs.push(maxLenError(253));
  if (!CONFIG_KEY.test(key)) errs.push(CONFIG_KEY_MSG);
  errs.push(...chDirPrefixErrors(key));
  return errs;
}

/** Each key of a data map, reported at `<path>[<key>]` with the key as the bad value. */
export function validateConfigKeys(map: unknown, path: string): FieldError[] {
  if (map === null || typeof map !== "object" || Array.isArray(map)) return [];
  const errs: FieldError[] = [];
  for (const key of Object.keys(map).sort()) {
    for (const m of configKeyErrors(key)) errs.push(field.invalid(`${path}[${key}]`, key, m));
  }
  return errs;
}

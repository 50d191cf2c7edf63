import { field, type FieldError } from "../api/errors";
import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { base64DecodedLength, encodeUtf8Base64 } from "./shared/base64";
import type { KubeObject } from "./types";

export interface Secret extends KubeObject {
  /** Values are base64 of arbitrary bytes. */
  data?: Record<string, string>;
  /** Write-only convenience: plain-text values merged into `data` on every write, never stored. */
  stringData?: Record<string, string>;
  type?: string;
}

/** Total decoded bytes allowed in `data` (kube-apiserver rejects only strictly more). */
export const maxSecretSize = 1048576;

// --- decoding ---------------------------------------------------------------------------------------------

/** The decoder error kube-apiserver gives (as a 400) for a value that cannot be read into `data`/`stringData`. */
function decodeError(secret: Secret): string | undefined {
  for (const value of Object.values(secret.data ?? {})) {
    if (value === null) continue;
    if (typeof value !== "string") return `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field Secret.data of type []uint8`;
    const decoded = base64DecodedLength(value);
    if (decoded.errorAt !== undefined) return `illegal base64 data at input byte ${decoded.errorAt}`;
  }
  for (const value of Object.values(secret.stringData ?? {})) {
    if (value !== null && typeof value !== "string") return `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field Secret.stringData of type string`;
  }
  return undefined;
}

const jsonTypeName = (value: unknown) => (Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value);

// --- strategy -----------------------------------------------------------------------------------------------

/**
 * kube-apiserver merges `stringData` into `data` while converting the request body, so the merge is visible to
 * validation (the size limit counts it) and `stringData` is never stored. Runs on create and on every update.
 */
function applyDefaults(secret: Secret): void {
  if (secret.stringData) {
    const data = (secret.data ??= {});
    for (const [key, value] of Object.entries(secret.stringData)) data[key] = encodeUtf8Base64(value ?? "");
  }
  delete secret.stringData;
  if (!secret.type) secret.type = "Opaque";
}

function validate(secret: Secret): FieldError[] {
  const errors: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    // Undecodable values are normally refused earlier as a 400 (decodeError); this keeps them out of storage
    // should a caller skip that step.
    const decoded = base64DecodedLength(typeof value === "string" ? value : "");
    if (decoded.errorAt !== undefined) {
      errors.push(field.invalid(`data[${key}]`, "<secret contents redacted>", `illegal base64 data at input byte ${decoded.errorAt}`));
    } else {
      total += decoded.length;
    }
  }
  if (total > maxSecretSize) errors.push(field.tooLong("data", maxSecretSize));
  return errors;
}

// --- declaration --------------------------------------------------------------------------------------------

export const secret = defineKind<Secret>({
  kind: "Secret",
  plural: "secrets",
  singular: "secret",
  shortNames: [],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {
    type: (s) => s.type,
  },
  fieldSelectorError: "label-not-supported",

  columns: [
    nameColumn,
    column<Secret>({ name: "Type", description: "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types", cell: (s) => s.type ?? "" }),
    column<Secret>({
      name: "Data",
      description:
        "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
      cell: (s) => Object.keys(s.data ?? {}).length,
    }),
    ageColumn,
  ],

  template: {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db-credentials", labels: { app: "web" } },
    type: "Opaque",
    data: {
      username: encodeUtf8Base64("app"),
      password: encodeUtf8Base64("change-me"),
    },
  },

  decodeError,
  applyDefaults,
  validate,
});

import { field, type FieldError } from "../status";
import { validateConfigKeys } from "../validation/config-key";
import { jsonObjectError } from "../validation/json-object";
import { semanticEqual } from "../validation/semantic-equal";
import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { secretSchema } from "./schema/secret";
import { base64DecodedLength, decodeBase64, encodeUtf8Base64 } from "./shared/base64";
import type { KubeObject } from "./types";

export interface Secret extends KubeObject {
  /** Values are base64 of arbitrary bytes. */
  data?: Record<string, string>;
  /** Write-only convenience: plain-text values merged into `data` on every write, never stored. */
  stringData?: Record<string, string>;
  type?: string;
}

/** The annotation a service-account-token secret must carry. */
export const serviceAccountNameAnnotation = "kubernetes.io/service-account.name";

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

/** The bytes of a data value (empty when absent or undecodable). */
const bytesOf = (value: unknown): Uint8Array => (typeof value === "string" ? decodeBase64(value) : undefined) ?? new Uint8Array();

/** A docker config value must decode as a JSON object (Go's error text otherwise; the contents stay redacted). */
function dockerConfigErrors(secret: Secret, key: string): FieldError[] {
  const data = secret.data ?? {};
  if (!(key in data)) return [field.required(`data[${key}]`)];
  const error = jsonObjectError(new TextDecoder().decode(bytesOf(data[key])));
  return error ? [field.invalid(`data[${key}]`, "<secret contents redacted>", error)] : [];
}

/** The keys (or annotation) each built-in secret type requires (ValidateSecret's type switch). */
function typeErrors(secret: Secret): FieldError[] {
  const data = secret.data ?? {};
  switch (secret.type) {
    case "kubernetes.io/service-account-token":
      return secret.metadata?.annotations?.[serviceAccountNameAnnotation]
        ? []
        : [field.required(`metadata.annotations[${serviceAccountNameAnnotation}]`)];
    case "kubernetes.io/dockercfg":
      return dockerConfigErrors(secret, ".dockercfg");
    case "kubernetes.io/dockerconfigjson":
      return dockerConfigErrors(secret, ".dockerconfigjson");
    case "kubernetes.io/basic-auth":
      // Either may be empty, but one of the two keys must be there.
      return "username" in data || "password" in data ? [] : [field.required("data[username]"), field.required("data[password]")];
    case "kubernetes.io/ssh-auth":
      return bytesOf(data["ssh-privatekey"]).length ? [] : [field.required("data[ssh-privatekey]")];
    case "kubernetes.io/tls":
      return ["tls.crt", "tls.key"].filter((k) => !(k in data)).map((k) => field.required(`data[${k}]`));
    default:
      return [];
  }
}

/** ValidateSecret: data keys, total decoded size, then what the secret's type requires. */
function validate(secret: Secret): FieldError[] {
  const errors = validateConfigKeys(secret.data, "data");
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
  errors.push(...typeErrors(secret));
  return errors;
}

/** An update that names no type keeps the stored one (defaulting normally fills it first). */
function prepareForUpdate(secret: Secret, old: Secret): void {
  if (!secret.type) secret.type = old.type;
}

/** The type never changes; an immutable secret keeps its data and immutability. */
function validateUpdate(secret: Secret, old: Secret): FieldError[] {
  const errors = (secret.type ?? "") === (old.type ?? "") ? [] : [field.invalid("type", secret.type ?? "", "field is immutable")];
  if (old.immutable === true) {
    const message = "field is immutable when `immutable` is set";
    if (secret.immutable !== true) errors.push(field.forbidden("immutable", message));
    if (!semanticEqual(secret.data, old.data)) errors.push(field.forbidden("data", message));
  }
  return errors;
}

// --- declaration --------------------------------------------------------------------------------------------

export const secret = defineKind<Secret>({
  kind: "Secret",
  schema: secretSchema,
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
  prepareForUpdate,
  validateUpdate,
});

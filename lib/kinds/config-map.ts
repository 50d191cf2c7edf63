import { field, type FieldError } from "../status";
import { validateConfigKeys } from "../validation/config-key";
import { semanticEqual } from "../validation/semantic-equal";
import { byteLength } from "../validation/dns-names";
import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { configMapSchema } from "./schema/config-map";
import { base64DecodedLength } from "./shared/base64";
import type { KubeObject } from "./types";

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

/** Total bytes of all values (data plus decoded binaryData); kube-apiserver rejects only strictly more. */
export const maxConfigMapSize = 1048576;

// --- decoding ---------------------------------------------------------------------------------------------

const jsonTypeName = (value: unknown) => (Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value);

/** The decoder's message for data values that are not strings or binaryData values that are not base64. */
function decodeError(cm: ConfigMap): string | undefined {
  for (const value of Object.values(cm.data ?? {})) {
    if (value !== null && typeof value !== "string") return `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field ConfigMap.data of type string`;
  }
  for (const value of Object.values((cm.binaryData as Record<string, unknown> | undefined) ?? {})) {
    if (value === null) continue;
    if (typeof value !== "string") return `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field ConfigMap.binaryData of type []uint8`;
    const decoded = base64DecodedLength(value);
    if (decoded.errorAt !== undefined) return `illegal base64 data at input byte ${decoded.errorAt}`;
  }
  return undefined;
}

// --- strategy -----------------------------------------------------------------------------------------------

/** ValidateConfigMap: keys, no key in both data and binaryData, total size. */
function validate(cm: ConfigMap): FieldError[] {
  const binary = (cm.binaryData as Record<string, unknown> | undefined) ?? {};
  const errors = validateConfigKeys(cm.data, "data");
  let total = 0;
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    if (key in binary) errors.push(field.invalid(`data[${key}]`, key, "duplicate of key present in binaryData"));
    total += typeof value === "string" ? byteLength(value) : 0;
  }
  errors.push(...validateConfigKeys(binary, "binaryData"));
  for (const value of Object.values(binary)) total += typeof value === "string" ? base64DecodedLength(value).length ?? 0 : 0;
  // Reported against the whole object: the field path is empty.
  if (total > maxConfigMapSize) errors.push(field.tooLong("", maxConfigMapSize));
  return errors;
}

/** An immutable ConfigMap keeps its data, binaryData and immutability. */
function validateUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  const message = "field is immutable when `immutable` is set";
  if (cm.immutable !== true) errors.push(field.forbidden("immutable", message));
  if (!semanticEqual(cm.data, old.data)) errors.push(field.forbidden("data", message));
  if (!semanticEqual(cm.binaryData, old.binaryData)) errors.push(field.forbidden("binaryData", message));
  return errors;
}

// --- declaration --------------------------------------------------------------------------------------------

export const configMap = defineKind<ConfigMap>({
  kind: "ConfigMap",
  schema: configMapSchema,
  plural: "configmaps",
  singular: "configmap",
  shortNames: ["cm"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<ConfigMap>({
      name: "Data",
      description:
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
      type: "string",
      cell: (cm) => Object.keys(cm.data ?? {}).length,
    }),
    ageColumn,
  ],

  template: {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "app-config", labels: { app: "web" } },
    data: {
      LOG_LEVEL: "info",
      "app.properties": "greeting=hello\nport=8080\n",
    },
  },

  decodeError,
  validate,
  validateUpdate,
});

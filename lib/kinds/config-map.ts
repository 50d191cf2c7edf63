import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import type { KubeObject } from "./types";

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export const configMap = defineKind<ConfigMap>({
  kind: "ConfigMap",
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
});

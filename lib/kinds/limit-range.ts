import { column, metadataDescriptions, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import type { ResourceList } from "./shared/resource-list";
import type { KubeObject } from "./types";

export interface LimitRangeItem {
  default?: ResourceList;
  defaultRequest?: ResourceList;
  max?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
  min?: ResourceList;
  type: string;
}

export interface LimitRange extends KubeObject {
  spec?: { limits: LimitRangeItem[] };
}

/** Go's zero time, which the default table convertor prints for an object without a creationTimestamp. */
const zeroTime = "0001-01-01T00:00:00Z";

/** RFC 3339 in UTC with whole seconds, as time.RFC3339 formats it. */
function createdAt(timestamp: string | null | undefined): string {
  const at = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(at) ? zeroTime : new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export const limitRange = defineKind<LimitRange>({
  kind: "LimitRange",
  plural: "limitranges",
  singular: "limitrange",
  shortNames: ["limits"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  // kube-apiserver has no printer for LimitRange; its default table convertor prints these two columns.
  columns: [
    nameColumn,
    column<LimitRange>({
      name: "Created At",
      type: "date",
      description: metadataDescriptions.creationTimestamp,
      cell: (lr) => createdAt(lr.metadata?.creationTimestamp),
    }),
  ],

  template: {
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: "container-limits" },
    spec: {
      limits: [
        {
          type: "Container",
          default: { cpu: "500m", memory: "512Mi" },
          defaultRequest: { cpu: "100m", memory: "128Mi" },
          max: { cpu: "2", memory: "2Gi" },
          min: { cpu: "50m", memory: "64Mi" },
        },
      ],
    },
  },
});

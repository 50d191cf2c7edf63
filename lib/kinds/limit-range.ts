import { canonicalizeResourceList, resourceListDecodeError } from "../validation/quantity";
import { validateLimitRangeSpec } from "../validation/limit-range-spec";
import { isObject, listOf, objectOf } from "../validation/zero-values";
import { column, metadataDescriptions, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { limitRangeSchema } from "./schema/limit-range";
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

// --- strategy -----------------------------------------------------------------------------------------------

const quantityMaps = ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"] as const;

/** A quantity the decoder would refuse, in any of an item's maps. */
function decodeError(lr: LimitRange): string | undefined {
  for (const item of listOf<LimitRangeItem>(objectOf(lr.spec).limits)) {
    for (const key of quantityMaps) {
      const error = resourceListDecodeError(objectOf(item)[key]);
      if (error) return error;
    }
  }
  return undefined;
}

/**
 * SetDefaults_LimitRangeItem (Container items: default ← max, defaultRequest ← default, then ← min) and the
 * milli rounding / canonical form of every quantity.
 */
function applyDefaults(lr: LimitRange): void {
  for (const item of listOf<LimitRangeItem>(objectOf(lr.spec).limits)) {
    if (!isObject(item)) continue;
    for (const key of quantityMaps) canonicalizeResourceList(item[key]);
    if (item.type !== "Container") continue;
    const defaults = { ...objectOf(item.default) } as ResourceList;
    const requests = { ...objectOf(item.defaultRequest) } as ResourceList;
    for (const [name, value] of Object.entries(objectOf(item.max))) if (!(name in defaults)) defaults[name] = value as string;
    for (const [name, value] of Object.entries(defaults)) if (!(name in requests)) requests[name] = value;
    for (const [name, value] of Object.entries(objectOf(item.min))) if (!(name in requests)) requests[name] = value as string;
    // Empty maps are omitted on the wire, so only non-empty ones are set.
    if (Object.keys(defaults).length) item.default = defaults;
    if (Object.keys(requests).length) item.defaultRequest = requests;
  }
}

/** kube-apiserver names an unnamed LimitRange with a random UUID (its strategy's PrepareForCreate). */
function prepareForCreate(lr: LimitRange): void {
  if (lr.metadata && !lr.metadata.name && !lr.metadata.generateName) lr.metadata.name = globalThis.crypto.randomUUID();
}

// --- declaration --------------------------------------------------------------------------------------------

export const limitRange = defineKind<LimitRange>({
  kind: "LimitRange",
  schema: limitRangeSchema,
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

  decodeError,
  applyDefaults,
  prepareForCreate,
  validate: (lr) => validateLimitRangeSpec(lr.spec),
});

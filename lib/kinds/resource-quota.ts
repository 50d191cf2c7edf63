import { canonicalizeResourceList, resourceListDecodeError } from "../validation/quantity";
import { validateResourceQuota, validateResourceQuotaUpdate } from "../validation/resource-quota-spec";
import { ageColumn, column, formatQuantity, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { resourceQuotaSchema } from "./schema/resource-quota";
import type { ResourceList } from "./shared/resource-list";
import type { KubeObject } from "./types";

export interface ResourceQuota extends KubeObject {
  spec?: { hard?: ResourceList; scopes?: string[] };
  status?: { hard?: ResourceList; used?: ResourceList };
}

// --- columns --------------------------------------------------------------------------------------------------

/** `name: used/hard, ...` over status.hard sorted by name, split into `limits.*` and everything else. */
function usage(quota: ResourceQuota, limits: boolean): string {
  const hard = quota.status?.hard ?? {};
  const used = quota.status?.used ?? {};
  return Object.keys(hard)
    .sort()
    .filter((name) => name.startsWith("limits.") === limits)
    .map((name) => `${name}: ${formatQuantity(used[name])}/${formatQuantity(hard[name])}`)
    .join(", ");
}

// --- strategy -----------------------------------------------------------------------------------------------

/** A quantity the decoder would refuse in spec.hard, status.hard or status.used. */
const decodeError = (q: ResourceQuota) =>
  resourceListDecodeError(q.spec?.hard) ?? resourceListDecodeError(q.status?.hard) ?? resourceListDecodeError(q.status?.used);

/** Quantities are rounded to milli precision and stored in canonical form (SetDefaults_ResourceList). */
function applyDefaults(q: ResourceQuota): void {
  canonicalizeResourceList(q.spec?.hard);
  canonicalizeResourceList(q.status?.hard);
  canonicalizeResourceList(q.status?.used);
}

// --- declaration ----------------------------------------------------------------------------------------------

export const resourceQuota = defineKind<ResourceQuota>({
  kind: "ResourceQuota",
  schema: resourceQuotaSchema,
  plural: "resourcequotas",
  singular: "resourcequota",
  shortNames: ["quota"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {},
  fieldSelectorError: "known-only",

  // 1.32 order; Age moved after Limit only in 1.33.
  columns: [
    nameColumn,
    ageColumn,
    column<ResourceQuota>({
      name: "Request",
      description: "Request represents a minimum amount of cpu/memory that a container may consume.",
      cell: (q) => usage(q, false),
    }),
    column<ResourceQuota>({
      name: "Limit",
      description: "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
      cell: (q) => usage(q, true),
    }),
  ],

  template: {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "compute-resources" },
    spec: {
      hard: {
        pods: "10",
        "requests.cpu": "4",
        "requests.memory": "8Gi",
        "limits.cpu": "8",
        "limits.memory": "16Gi",
      },
    },
  },

  /** Usage is the quota controller's to write; a new quota starts with an empty status. */
  prepareForCreate: (quota) => {
    quota.status = {};
  },

  decodeError,
  applyDefaults,
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
});

import { field, type FieldError } from "../status";
import { qualifiedNameErrors } from "../validation/labels";
import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { COORDINATION_GROUP, HOLDER_IDENTITY_DESCRIPTION, leaseSchema } from "./schema/lease";
import type { KubeObject } from "./types";

export { COORDINATION_GROUP } from "./schema/lease";

export interface LeaseSpec {
  acquireTime?: string | null;
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  leaseTransitions?: number;
  preferredHolder?: string;
  renewTime?: string | null;
  strategy?: string;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** The strategies kube 1.32 knows by plain name; others must be domain-prefixed qualified names. */
const LEASE_STRATEGIES = ["OldestEmulationVersion"];

/**
 * ValidateLeaseSpec, for creates and updates alike. kube nests the strategy errors one level too deep
 * (`spec.strategy.strategy`); clients see that path, so it is kept.
 */
function validate(lease: Lease): FieldError[] {
  const errors: FieldError[] = [];
  const spec = lease.spec ?? {};
  if (typeof spec.leaseDurationSeconds === "number" && spec.leaseDurationSeconds <= 0) {
    errors.push(field.invalid("spec.leaseDurationSeconds", spec.leaseDurationSeconds, "must be greater than 0"));
  }
  if (typeof spec.leaseTransitions === "number" && spec.leaseTransitions < 0) {
    errors.push(field.invalid("spec.leaseTransitions", spec.leaseTransitions, "must be greater than or equal to 0"));
  }
  if (typeof spec.strategy === "string") {
    const path = "spec.strategy.strategy";
    if (!spec.strategy.includes("/")) {
      if (!LEASE_STRATEGIES.includes(spec.strategy)) errors.push(field.notSupported(path, spec.strategy, LEASE_STRATEGIES));
    } else {
      for (const m of qualifiedNameErrors(spec.strategy)) errors.push(field.invalid(path, spec.strategy, m));
    }
  }
  if (spec.preferredHolder && !spec.strategy) {
    errors.push(field.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  }
  return errors;
}

export const lease = defineKind<Lease>({
  kind: "Lease",
  group: COORDINATION_GROUP,
  schema: leaseSchema,
  plural: "leases",
  singular: "lease",
  shortNames: [],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  deleteReturns: "status",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<Lease>({ name: "Holder", description: HOLDER_IDENTITY_DESCRIPTION, cell: (l) => l.spec?.holderIdentity ?? "" }),
    ageColumn,
  ],

  // Holders renew every few seconds (leader election, apiserver identity): only renewTime moves.
  heartbeatFields: ["spec.renewTime"],

  template: {
    apiVersion: `${COORDINATION_GROUP}/v1`,
    kind: "Lease",
    metadata: { name: "my-lock" },
    spec: { holderIdentity: "worker-1", leaseDurationSeconds: 15 },
  },

  validate,
});

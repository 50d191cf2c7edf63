// The admission decision of kube's quota evaluator (CheckRequest): which quotas a write falls under, whether
// the object declares what they require, and what each quota's usage becomes with it; refusals carry kube's
// exact messages. Pure: the caller persists the new usage (and retries if a quota changed meanwhile).
import { errors } from "../status";
import type { ResourceQuota } from "../kinds/resource-quota";
import type { KubeObject } from "../kinds/types";
import { quotaMatches, type Evaluator, type QuotaOperation } from "./evaluator";
import {
  add, exceeding, fromResourceList, mask, negativeNames, prettyPrint, removeZeros, subtractNonNegative,
  toResourceList, type QuantityList,
} from "./resource-list";

export interface QuotaRequest {
  operation: QuotaOperation;
  /** `pods`, `roles.rbac.authorization.k8s.io`: for the refusal message. */
  groupResource: string;
  name: string;
  object: KubeObject;
  oldObject?: KubeObject;
}

export interface Charge {
  /** Every quota, in the order given; the charged ones carry their new status.used. */
  quotas: ResourceQuota[];
  /** Indexes of the quotas whose usage grows. */
  changed: number[];
}

function refuse(req: QuotaRequest, message: string): never {
  throw errors.forbidden(`${req.groupResource} "${req.name}" is forbidden: ${message}`, req.groupResource, req.name);
}

/** Throws 403 when the write may not happen; otherwise returns the quotas with the write charged. */
export function checkRequest(quotas: ResourceQuota[], req: QuotaRequest, evaluator: Evaluator, now: number): Charge {
  const unchanged: Charge = { quotas, changed: [] };
  const interesting: number[] = [];
  quotas.forEach((quota, i) => {
    if (!quotaMatches(evaluator, quota, req.object)) return;
    const hard = quota.status?.hard ?? {};
    const restricted = evaluator.matchingResources(Object.keys(hard));
    const failed = evaluator.constraints(restricted, req.object);
    if (failed) refuse(req, `failed quota: ${quota.metadata.name}: ${failed}`);
    const used = quota.status?.used ?? {};
    if (restricted.some((r) => !(r in used))) {
      refuse(req, `status unknown for quota: ${quota.metadata.name}, resources: ${[...restricted].sort().join(",")}`);
    }
    interesting.push(i);
  });

  const input = evaluator.usage(req.object, now);
  const negative = negativeNames(input);
  if (negative.length) refuse(req, `quota usage is negative for resource(s): ${negative.join(",")}`);
  if (interesting.length === 0) return unchanged;

  // An update is charged what it adds, for the quotas the old object already counted in.
  const deltas = new Map<number, QuantityList>();
  for (const i of interesting) deltas.set(i, input);
  if (req.operation === "UPDATE" && req.oldObject) {
    const delta = subtractNonNegative(input, evaluator.usage(req.oldObject, now));
    for (const i of interesting) if (quotaMatches(evaluator, quotas[i], req.oldObject)) deltas.set(i, delta);
  }
  for (const [i, d] of deltas) {
    const nonZero = removeZeros(d);
    if (Object.keys(nonZero).length === 0) deltas.delete(i); else deltas.set(i, nonZero);
  }
  if (deltas.size === 0) return unchanged;

  const out = quotas.slice();
  const changed: number[] = [];
  for (const i of interesting) {
    const delta = deltas.get(i);
    if (!delta) continue;
    const quota = quotas[i];
    const hard = fromResourceList(quota.status?.hard);
    const used = fromResourceList(quota.status?.used);
    const requested = mask(delta, Object.keys(hard));
    const next = add(used, requested);
    const over = exceeding(mask(next, Object.keys(requested)), hard);
    if (over.length) {
      refuse(req, `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
    }
    if (Object.keys(requested).length === 0) continue;
    out[i] = { ...quota, status: { ...quota.status, used: toResourceList(next) } };
    changed.push(i);
  }
  return { quotas: out, changed };
}

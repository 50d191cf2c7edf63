// LimitRanger (kube-apiserver's admission plug-in of that name): a namespace's LimitRanges fill in containers'
// default limits and requests when a pod is created (mutating phase), then hold pods (per container and per
// pod) and claims (requests.storage) to their min, max and maxLimitRequestRatio (validating phase). Pod updates
// are not looked at, as in kube: containers' resources cannot change after creation.
import type { KubeObject } from "../kinds/types";
import {
  compareQuantities, isQuantity, parseQuantity, quantityMilliValue, quantityString, quantityValue, type Quantity,
} from "../validation/quantity";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";
import { admissionForbidden, aggregateMessage } from "./forbidden";

export const LIMIT_RANGER_ANNOTATION = "kubernetes.io/limit-ranger";

/** resource.MaxMilliValue: above it kube compares whole units, as milli-units would overflow int64. */
const MAX_MILLI_VALUE = (2n ** 63n - 1n) / 1000n;

type ResourceList = Record<string, unknown>;
interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}
interface Container { name?: string; restartPolicy?: string; resources?: { limits?: ResourceList; requests?: ResourceList } }
type Quantities = Map<string, Quantity>;

/** The LimitRanges of a namespace as the server's cache holds them. */
export type LimitRangeLister = (namespace: string) => KubeObject[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const itemsOf = (lr: KubeObject): LimitRangeItem[] => {
  const limits = (lr.spec as { limits?: unknown } | undefined)?.limits;
  return Array.isArray(limits) ? limits.filter(isObject) as LimitRangeItem[] : [];
};
const containersOf = (pod: KubeObject, field: "containers" | "initContainers"): Container[] => {
  const list = (pod.spec as Record<string, unknown> | undefined)?.[field];
  return Array.isArray(list) ? list.filter(isObject) as Container[] : [];
};
/** Resource names in a stable order (kube walks Go maps, whose order is random; JSON shows them sorted). */
const sortedEntries = (list: unknown): [string, unknown][] => (isObject(list) ? Object.entries(list).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : []);

const ZERO: Quantity = { mantissa: 0n, exponent: 0, format: "DecimalSI" };
function toQuantity(value: unknown): Quantity {
  const q = parseQuantity(value);
  return isQuantity(q) ? q : ZERO;
}
function quantitiesOf(list: unknown): Quantities {
  return new Map(sortedEntries(list).map(([k, v]) => [k, toQuantity(v)]));
}

export class LimitRanger implements AdmissionPlugin {
  readonly name = "LimitRanger";

  /**
   * @param list the namespace's LimitRanges from the cache
   * @param catchUp brings the cache up to date; used when it holds none, as kube does a live list then
   */
  constructor(
    private readonly list: LimitRangeLister,
    private readonly catchUp: () => Promise<void> = async () => {},
  ) {}

  async admit(req: AdmissionRequest): Promise<void> {
    if (!supports(req) || !isPod(req)) return;
    for (const lr of await this.limitRanges(req.namespace)) mutatePod(lr, req.object!);
  }

  async validate(req: AdmissionRequest): Promise<void> {
    if (!supports(req)) return;
    for (const lr of await this.limitRanges(req.namespace)) {
      const errs = isPod(req) ? validatePod(lr, req.object!) : validateClaim(lr, req.object!);
      if (errs.length) throw admissionForbidden(req, aggregateMessage(errs));
    }
  }

  private async limitRanges(namespace: string): Promise<KubeObject[]> {
    const cached = this.list(namespace);
    if (cached.length) return cached;
    await this.catchUp();
    return this.list(namespace);
  }
}

const isPod = (req: AdmissionRequest) => req.kind.kind === "Pod" && !req.kind.group;
const isClaim = (req: AdmissionRequest) => req.kind.kind === "PersistentVolumeClaim" && !req.kind.group;

/** Pods on create, claims on create and update; never subresources, deletes, or objects being deleted. */
function supports(req: AdmissionRequest): boolean {
  if (req.subresource || !req.object || !req.namespace) return false;
  if (req.operation === "CREATE") {
    if (!isPod(req) && !isClaim(req)) return false;
  } else if (req.operation !== "UPDATE" || !isClaim(req)) {
    return false;
  }
  return !req.oldObject?.metadata.deletionTimestamp;
}

// --- defaults (mutating) ----------------------------------------------------------------------------------

function mutatePod(lr: KubeObject, pod: KubeObject): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of itemsOf(lr)) {
    if (item.type !== "Container") continue;
    for (const [k, v] of sortedEntries(item.defaultRequest)) requests[k] = v;
    for (const [k, v] of sortedEntries(item.default)) limits[k] = v;
  }
  const notes: string[] = [];
  for (const c of containersOf(pod, "containers")) mergeContainer(c, limits, requests, "container", notes);
  for (const c of containersOf(pod, "initContainers")) mergeContainer(c, limits, requests, "init container", notes);
  if (notes.length) {
    pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}` };
  }
}

function mergeContainer(c: Container, limits: ResourceList, requests: ResourceList, label: string, notes: string[]): void {
  const setLimits = fillMissing(c, "limits", limits);
  const setRequests = fillMissing(c, "requests", requests);
  if (setRequests.length) notes.push(`${setRequests.join(", ")} request for ${label} ${c.name ?? ""}`);
  if (setLimits.length) notes.push(`${setLimits.join(", ")} limit for ${label} ${c.name ?? ""}`);
}

/** Adds the defaults a container lacks; returns their names, sorted. */
function fillMissing(c: Container, field: "limits" | "requests", defaults: ResourceList): string[] {
  const have = isObject(c.resources?.[field]) ? c.resources![field]! : undefined;
  const missing = Object.keys(defaults).filter((k) => !have || !(k in have)).sort();
  if (!missing.length) return [];
  const resources = isObject(c.resources) ? c.resources : (c.resources = {});
  const target = (resources[field] = isObject(have) ? have : {});
  for (const k of missing) target[k] = defaults[k];
  return missing;
}

// --- constraints (validating) -----------------------------------------------------------------------------

/** requestLimitEnforcedValues: milli-units when none would overflow, whole units otherwise. */
function comparable(request: Quantity, limit: Quantity, enforced: Quantity): [bigint, bigint, bigint] {
  const values = [request, limit, enforced].map(quantityValue);
  if (values.every((v) => v <= MAX_MILLI_VALUE)) return [request, limit, enforced].map(quantityMilliValue) as [bigint, bigint, bigint];
  return values as [bigint, bigint, bigint];
}

function minConstraint(type: string, name: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req ?? ZERO, lim ?? ZERO, enforced);
  const min = quantityString(enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${min}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${min}, but request is ${quantityString(req)}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${min}, but limit is ${quantityString(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req ?? ZERO, lim ?? ZERO, enforced);
  const max = quantityString(enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${max}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${max}, but limit is ${quantityString(lim)}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${max}, but request is ${quantityString(req)}`;
  return undefined;
}

/** Claims: only what is requested counts against the max. */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: Quantities): string | undefined {
  const req = requests.get(name);
  const [r, , e] = comparable(req ?? ZERO, ZERO, enforced);
  const max = quantityString(enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${max}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${max}, but request is ${quantityString(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req ?? ZERO, lim ?? ZERO, enforced);
  const ratio = quantityString(enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`;
  // Go's float64 arithmetic, so the printed ratio (%f) and the comparison match kube's to the last digit.
  const observed = Number(l) / Number(r);
  const whole = quantityValue(enforced);
  const exceeds = whole <= MAX_MILLI_VALUE ? observed * 1000 > Number(quantityMilliValue(enforced)) : observed > Number(whole);
  return exceeds ? `${name} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${observed.toFixed(6)}` : undefined;
}

function checkAll(type: string, item: LimitRangeItem, requests: Quantities, limits: Quantities, errs: string[]): void {
  const push = (e: string | undefined) => { if (e) errs.push(e); };
  for (const [k, v] of quantitiesOf(item.min)) push(minConstraint(type, k, v, requests, limits));
  for (const [k, v] of quantitiesOf(item.max)) push(maxConstraint(type, k, v, requests, limits));
  for (const [k, v] of quantitiesOf(item.maxLimitRequestRatio)) push(ratioConstraint(type, k, v, requests, limits));
}

function validatePod(lr: KubeObject, pod: KubeObject): string[] {
  const errs: string[] = [];
  for (const item of itemsOf(lr)) {
    if (item.type === "Container") {
      for (const c of [...containersOf(pod, "containers"), ...containersOf(pod, "initContainers")]) {
        checkAll("Container", item, quantitiesOf(c.resources?.requests), quantitiesOf(c.resources?.limits), errs);
      }
    } else if (item.type === "Pod") {
      checkAll("Pod", item, podTotal(pod, "requests"), podTotal(pod, "limits"), errs);
    }
  }
  return errs;
}

function validateClaim(lr: KubeObject, claim: KubeObject): string[] {
  const errs: string[] = [];
  const requests = quantitiesOf((claim.spec as { resources?: { requests?: unknown } } | undefined)?.resources?.requests);
  for (const item of itemsOf(lr)) {
    if (item.type !== "PersistentVolumeClaim") continue;
    for (const [k, v] of quantitiesOf(item.min)) { const e = minConstraint(item.type, k, v, requests, new Map()); if (e) errs.push(e); }
    for (const [k, v] of quantitiesOf(item.max)) { const e = maxRequestConstraint(item.type, k, v, requests); if (e) errs.push(e); }
  }
  return errs;
}

/** Quantity.Add: exact, keeping the first operand's format unless it is zero. */
function add(a: Quantity, b: Quantity): Quantity {
  const e = Math.min(a.exponent, b.exponent);
  const mantissa = a.mantissa * 10n ** BigInt(a.exponent - e) + b.mantissa * 10n ** BigInt(b.exponent - e);
  return { mantissa, exponent: e, format: a.mantissa === 0n ? b.format : a.format };
}

function addInto(total: Quantities, list: Quantities): void {
  for (const [k, v] of list) total.set(k, total.has(k) ? add(total.get(k)!, v) : v);
}

function maxInto(total: Quantities, list: Quantities): void {
  for (const [k, v] of list) if (!total.has(k) || compareQuantities(v, total.get(k)!) > 0) total.set(k, v);
}

/**
 * What the pod as a whole requests or limits, as kube's limitranger computes it: the sum over containers and
 * sidecars (init containers with restartPolicy Always), or the largest single init container's need (each
 * running beside the sidecars started before it) when that is larger.
 */
function podTotal(pod: KubeObject, field: "requests" | "limits"): Quantities {
  const total: Quantities = new Map();
  for (const c of containersOf(pod, "containers")) addInto(total, quantitiesOf(c.resources?.[field]));
  const sidecars: Quantities = new Map();
  const initPeak: Quantities = new Map();
  for (const c of containersOf(pod, "initContainers")) {
    const own = quantitiesOf(c.resources?.[field]);
    let need: Quantities;
    if (c.restartPolicy === "Always") {
      addInto(total, own);
      addInto(sidecars, own);
      need = sidecars;
    } else {
      need = new Map();
      addInto(need, own);
      addInto(need, sidecars);
    }
    maxInto(initPeak, need);
  }
  maxInto(total, initPeak);
  return total;
}

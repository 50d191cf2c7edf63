// Quota for PersistentVolumeClaims (kube's pvc evaluator): the count and the requested storage, each also per
// storage class as `<class>.storageclass.storage.k8s.io/<resource>`. Updates are evaluated (a claim may grow).
import type { PersistentVolumeClaim } from "../kinds/persistent-volume-claim";
import type { KubeObject } from "../kinds/types";
import { compareQuantities, isQuantity, parseQuantity, type Quantity } from "../validation/quantity";
import { objectCountName, type Evaluator, type QuotaOperation } from "./evaluator";
import { count, roundUpToWhole, type QuantityList } from "./resource-list";

const COUNT = objectCountName("persistentvolumeclaims");
const RESOURCES = ["persistentvolumeclaims", "requests.storage"];
export const STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
/** The beta annotation still wins over spec.storageClassName, as in kube. */
const BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

function claimClass(pvc: PersistentVolumeClaim): string {
  const annotations = pvc.metadata.annotations ?? {};
  if (BETA_CLASS_ANNOTATION in annotations) return annotations[BETA_CLASS_ANNOTATION];
  return pvc.spec?.storageClassName ?? "";
}

const quantity = (value: unknown): Quantity | undefined => {
  if (value === undefined) return undefined;
  const q = parseQuantity(value);
  return isQuantity(q) ? q : undefined;
};

/** The request in whole bytes, or what was already allocated when that is more (a resize being recovered). */
function storageUsage(pvc: PersistentVolumeClaim): Quantity | undefined {
  const requested = quantity(pvc.spec?.resources?.requests?.storage);
  let result = requested && roundUpToWhole(requested);
  const allocated = quantity((pvc.status as { allocatedResources?: Record<string, string> } | undefined)?.allocatedResources?.storage);
  if (allocated && (!result || compareQuantities(allocated, result) > 0)) result = roundUpToWhole(allocated);
  return result;
}

export class PersistentVolumeClaimEvaluator implements Evaluator {
  readonly groupResource = "persistentvolumeclaims";

  handles(operation: QuotaOperation): boolean {
    return operation === "CREATE" || operation === "UPDATE";
  }

  matchingResources(names: string[]): string[] {
    return [...new Set(names.filter((n) =>
      n === COUNT || RESOURCES.includes(n) || RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r))))].sort();
  }

  matchesScope(): boolean {
    return false;
  }

  usage(obj: KubeObject): QuantityList {
    const pvc = obj as PersistentVolumeClaim;
    const cls = claimClass(pvc);
    const out: QuantityList = { persistentvolumeclaims: count(1), [COUNT]: count(1) };
    if (cls) out[`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`] = count(1);
    const storage = storageUsage(pvc);
    if (storage) {
      out["requests.storage"] = storage;
      if (cls) out[`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`] = storage;
    }
    return out;
  }

  constraints(): string | undefined {
    return undefined;
  }
}

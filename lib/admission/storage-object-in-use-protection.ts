// StorageObjectInUseProtection (kube-apiserver's admission plug-in of that name): every new claim and volume is
// born with its protection finalizer, so that it cannot vanish under a pod (claim) or a claim (volume) before the
// protection controllers in lib/controllers have looked at it.
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

export const PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";

/** Only core/v1 objects count: a same-named kind in another group is none of this plug-in's business. */
function finalizerFor(req: AdmissionRequest): string | undefined {
  if (req.kind.group) return undefined;
  if (req.kind.plural === "persistentvolumeclaims") return PVC_PROTECTION_FINALIZER;
  if (req.kind.plural === "persistentvolumes") return PV_PROTECTION_FINALIZER;
  return undefined;
}

export class StorageObjectInUseProtection implements AdmissionPlugin {
  readonly name = "StorageObjectInUseProtection";

  admit(req: AdmissionRequest): void {
    if (req.operation !== "CREATE" || req.subresource || !req.object) return;
    const finalizer = finalizerFor(req);
    if (!finalizer) return;
    const meta = req.object.metadata;
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (finalizers.includes(finalizer)) return;
    meta.finalizers = [...finalizers, finalizer];
  }
}

/** core/v1 ObjectReference (targetRef, claimRef, involvedObject, related, ServiceAccount secrets). */
export interface ObjectReference {
  apiVersion?: string;
  fieldPath?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
}

/** A reference by name only (imagePullSecrets, secretRef in most volume sources). */
export interface LocalObjectReference {
  name?: string;
}

// Server-side apply and managedFields (see README.md). What the rest of the server uses.
import type { AnyKind, KubeObject } from "../kinds/types";
import { trackUpdate } from "./field-manager";

export { applyObject, type ApplyObjectOptions } from "./apply-object";
export { applyConfiguration, setManagedFields, trackUpdate, type ApplyOutcome, type FieldManagerScope } from "./field-manager";
export { managerOrUserAgent } from "./manager-name";
export { LAST_APPLIED_ANNOTATION } from "./last-applied";
export type { ManagedFieldsEntry } from "./managed-fields";

/** A `WriteOptions.track` recording a non-apply write (create, update, patch) by `manager` through `subresource`. */
export function updateTracker(kind: AnyKind, subresource: string, manager: string): (obj: KubeObject, old: KubeObject | undefined) => KubeObject {
  return (obj, old) => trackUpdate({ kind, subresource }, old, obj, manager);
}

// Fields a write through one endpoint never comes to own (kube's per-strategy GetResetFields): the main
// resource of a kind with a status subresource resets `status`, `/status` resets `spec`, and other
// subresources (a Namespace's `/finalize`) reset `status`.
import type { AnyKind } from "../kinds/types";
import { FieldSet } from "./field-set";

const STATUS = FieldSet.of([{ field: "status" }]);
const SPEC = FieldSet.of([{ field: "spec" }]);

export function ignoredFields(kind: AnyKind, subresource: string): FieldSet | undefined {
  if (!kind.hasStatus) return undefined;
  return subresource === "status" ? SPEC : STATUS;
}

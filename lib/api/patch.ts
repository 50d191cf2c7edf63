// Decode a PATCH body and apply it to the current object, by patch type.
import type { AnyKind, KubeObject } from "../kinds/types";
import { applyJsonPatch } from "../patch/json-patch";
import { applyMergePatch } from "../patch/merge-patch";
import { strategicMergePatch } from "../patch/strategic-merge";
import { decodeBody } from "./media";

export type PatchType = "json-patch" | "merge-patch" | "strategic-merge-patch";

export function applyPatch(kind: AnyKind, type: PatchType, raw: Buffer, current: KubeObject): unknown {
  const patch = decodeBody(raw, "json", "Patch");
  if (type === "json-patch") return applyJsonPatch(current, patch);
  if (type === "merge-patch") return applyMergePatch(current, patch);
  return strategicMergePatch(current, patch, kind.schema);
}

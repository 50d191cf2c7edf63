// Decode a PATCH body and apply it to the current object, by patch type.
import type { AnyKind, KubeObject } from "../kinds/types";
import { applyJsonPatch } from "../patch/json-patch";
import { applyMergePatch } from "../patch/merge-patch";
import { decodeBody } from "./media";

export type PatchType = "json-patch" | "merge-patch";

export function applyPatch(_kind: AnyKind, type: PatchType, raw: Buffer, current: KubeObject): unknown {
  const patch = decodeBody(raw, "json", "Patch");
  if (type === "json-patch") return applyJsonPatch(current, patch);
  return applyMergePatch(current, patch);
}

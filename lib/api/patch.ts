// Apply a decoded PATCH body to the current object, by patch type.
import type { AnyKind, KubeObject } from "../kinds/types";
import { applyJsonPatch } from "../patch/json-patch";
import { applyMergePatch } from "../patch/merge-patch";
import { goValue } from "../patch/go-format";
import { strategicMergePatch } from "../patch/strategic-merge";

export type PatchType = "json-patch" | "merge-patch" | "strategic-merge-patch";

export function applyPatch(kind: AnyKind, type: PatchType, patch: unknown, current: KubeObject): unknown {
  if (type === "json-patch") return applyJsonPatch(current, patch);
  if (type === "merge-patch") return applyMergePatch(current, patch);
  return strategicMergePatch(current, patch, kind.schema);
}

/**
 * How a refused patch is shown in a strict-decoding error: kube-apiserver prints the strategic merge patch
 * itself (Go `%v`), and the patched object for JSON and merge patches.
 */
export function shownPatch(type: PatchType, patch: unknown, patched: unknown): string {
  return type === "strategic-merge-patch" ? goValue(patch) : JSON.stringify(patched);
}

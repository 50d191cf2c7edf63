// The 409 an apply with conflicts gets, worded as kube-apiserver's NewConflictError: one cause per field
// (`reason: FieldManagerConflict`, `field: .data.key`), and a message naming each manager as
// `"kubectl-client-side-apply" using v1` (an Update entry) or `"kubectl"` (an Apply entry).
import { StatusError, type StatusCause } from "../status";
import { goQuote } from "./go-json";
import { parseIdentifier } from "./managed-fields";
import { pathString } from "./path-element";
import type { Conflict } from "./updater";

export function printManager(id: string): string {
  const info = parseIdentifier(id);
  let s = goQuote(info.manager);
  if (info.subresource) s = `${s} with subresource ${goQuote(info.subresource)}`;
  if (info.operation === "Update") s = `${s} using ${info.apiVersion ?? ""}`;
  return s;
}

function message(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(pathString(c.path));
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
}

export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: "FieldManagerConflict", message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path),
  }));
  return new StatusError(409, "Conflict", message(conflicts), { causes });
}

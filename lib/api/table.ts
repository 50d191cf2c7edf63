// meta.k8s.io/v1 Table output (what `kubectl get` prints), built from the kind's printer columns.
import type { AnyKind, KubeObject } from "../kinds/types";

export type IncludeObject = "Metadata" | "Object" | "None";

export function columnDefinitions(kind: AnyKind) {
  return kind.columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? "", description: c.description, priority: c.priority }));
}

/** The metadata-only view of an object (`as=PartialObjectMetadata`), in meta.k8s.io `version`. */
export function partialMetadata(obj: KubeObject, version = "v1") {
  return { kind: "PartialObjectMetadata", apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

export function tableRow(kind: AnyKind, obj: KubeObject, include: IncludeObject, now = Date.now()) {
  const row: Record<string, unknown> = { cells: kind.columns.map((c) => c.cell(obj, now)) };
  const conditions = kind.tableRowConditions?.(obj);
  if (conditions) row.conditions = conditions;
  if (include === "Metadata") row.object = partialMetadata(obj);
  else if (include === "Object") row.object = obj;
  return row;
}

export function table(kind: AnyKind, objects: KubeObject[], listMeta: Record<string, unknown>, include: IncludeObject, withColumns = true) {
  const now = Date.now();
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    columnDefinitions: withColumns ? columnDefinitions(kind) : null,
    rows: objects.map((o) => tableRow(kind, o, include, now)),
  };
}

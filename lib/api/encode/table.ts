// meta.k8s.io/v1 Table output (what `kubectl get` prints), built from the kind's printer columns.
import type { AnyKind, KubeObject } from "../../kinds/types";
import { errors } from "../../status";
import type { OutputFormat } from "../media";

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

/** The `includeObject` option of a Table request (kube's 400 for anything else). */
export function includeObject(q: URLSearchParams): IncludeObject {
  const v = q.get("includeObject") ?? "";
  if (v === "" || v === "Metadata") return "Metadata";
  if (v === "Object" || v === "None") return v;
  throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: "${v}": must be 'Metadata', 'Object', 'None', or empty`);
}

/** Table options are read (and refused) only when a Table is asked for, as kube's optionsForTransform does. */
export function tableIncludes(format: OutputFormat, q: URLSearchParams): IncludeObject {
  return format.as === "Table" ? includeObject(q) : "Metadata";
}

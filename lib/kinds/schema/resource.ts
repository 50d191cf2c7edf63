// The top level of every kind's schema: type meta, object metadata, then the kind's own fields.
import { coreType } from "./names";
import { objectMeta } from "./object-meta";
import { describe, obj, str, type ObjectSchema, type Schema } from "./schema";

/** A kind outside the core group: its API group and how its Go package names OpenAPI components. */
export interface ApiGroupNaming {
  group: string;
  /** `rbacType`: `Role` → `io.k8s.api.rbac.v1.Role`. */
  typeName: (type: string) => string;
}

/**
 * Schema of a kind: `apiVersion`, `kind`, `metadata` plus `properties`; carries its group-version-kind.
 * Core/v1 unless `api` names another group.
 */
export function resource(
  kind: string,
  properties: Record<string, Schema>,
  options: { description: string; required?: readonly string[]; api?: ApiGroupNaming },
): ObjectSchema {
  const group = options.api?.group ?? "";
  const apiVersion = group ? `always ${group}/v1 for this kind` : "always v1 for this kind";
  return obj(
    {
      apiVersion: str({ description: `Versioned schema of this representation; ${apiVersion}.` }),
      kind: str({ description: `The kind of object: ${kind}.` }),
      metadata: describe(objectMeta, "Standard object metadata: name, namespace, labels, annotations and server-managed fields."),
      ...properties,
    },
    {
      name: (options.api?.typeName ?? coreType)(kind),
      description: options.description,
      required: options.required,
      gvk: { group, version: "v1", kind },
    },
  );
}

// The top level of every kind's schema: type meta, object metadata, then the kind's own fields.
import { coreType } from "./names";
import { objectMeta } from "./object-meta";
import { describe, obj, str, type ObjectSchema, type Schema } from "./schema";

/** Schema of a core/v1 kind: `apiVersion`, `kind`, `metadata` plus `properties`; carries its group-version-kind. */
export function resource(
  kind: string,
  properties: Record<string, Schema>,
  options: { description: string; required?: readonly string[] },
): ObjectSchema {
  return obj(
    {
      apiVersion: str({ description: "Versioned schema of this representation; always v1 for this kind." }),
      kind: str({ description: `The kind of object: ${kind}.` }),
      metadata: describe(objectMeta, "Standard object metadata: name, namespace, labels, annotations and server-managed fields."),
      ...properties,
    },
    { name: coreType(kind), description: options.description, required: options.required, gvk: { group: "", version: "v1", kind } },
  );
}

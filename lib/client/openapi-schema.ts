// Turns our OpenAPI v3 document of a group version (/openapi/v3/api/v1, /openapi/v3/apis/<group>/v1) into
// one JSON Schema per kind for monaco-yaml:
// the kind's schema plus only the component schemas it reaches, with `kind` and `apiVersion` pinned
// (so completion offers the right values). Absent document or kind → undefined, and the editor falls back
// to YAML syntax checking only.

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  components?: { schemas?: Record<string, Json> };
}

const refPrefix = "#/components/schemas/";

function findKindSchemaName(schemas: Record<string, Json>, kind: string, group: string): string | undefined {
  for (const [name, schema] of Object.entries(schemas)) {
    const gvks = schema["x-kubernetes-group-version-kind"] as { group?: string; version?: string; kind?: string }[] | undefined;
    if (gvks?.some((g) => (g.group ?? "") === group && g.version === "v1" && g.kind === kind)) return name;
  }
  // Documents without GVK extensions: fall back to the conventional name.
  return Object.keys(schemas).find(
    (n) => !schemas[n]["x-kubernetes-group-version-kind"] && (n === `io.k8s.api.core.v1.${kind}` || n.endsWith(`.v1.${kind}`)),
  );
}

function collectRefs(value: unknown, into: Set<string>, schemas: Record<string, Json>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into, schemas);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, v] of Object.entries(value)) {
    if (key === "$ref" && typeof v === "string" && v.startsWith(refPrefix)) {
      const name = v.slice(refPrefix.length);
      if (!into.has(name) && schemas[name]) {
        into.add(name);
        collectRefs(schemas[name], into, schemas);
      }
    } else {
      collectRefs(v, into, schemas);
    }
  }
}

/** `group` is the kind's API group ("" for core); apiVersion is pinned to `v1` or `<group>/v1`. */
export function kindJsonSchema(doc: OpenApiDocument | undefined, kind: string, group = ""): Json | undefined {
  const schemas = doc?.components?.schemas;
  if (!schemas) return undefined;
  const name = findKindSchemaName(schemas, kind, group);
  if (!name) return undefined;
  const root = schemas[name];
  const reached = new Set<string>();
  collectRefs(root, reached, schemas);
  const properties = { ...((root.properties as Json | undefined) ?? {}) };
  properties.kind = { ...((properties.kind as Json | undefined) ?? {}), enum: [kind] };
  properties.apiVersion = { ...((properties.apiVersion as Json | undefined) ?? {}), enum: [group ? `${group}/v1` : "v1"] };
  return {
    ...root,
    properties,
    components: { schemas: Object.fromEntries([...reached].sort().map((n) => [n, schemas[n]])) },
  };
}

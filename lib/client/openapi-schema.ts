// The JSON Schemas the YAML editor gives monaco-yaml, built in the browser from the kinds' own schemas
// (lib/openapi's `jsonSchemaFor`: the source of the server's OpenAPI documents and of its fieldValidation),
// so opening the editor fetches and converts no OpenAPI document. As kube decodes: every typed struct refuses
// unknown fields (`additionalProperties: false`), maps (labels, annotations, data, selector) take any key.
// - `kindEditorSchema(kind)`: one kind, kind and apiVersion pinned;
// - `multiKindEditorSchema(kinds)`: for a multi-document text, each document checked against the schema of
//   the kind it names (`if kind == K then <K's schema>`), a document naming no served kind only for `kind`.
// Both are memoised: the same object comes back for the same kinds, so the editor registers it once.
import { jsonSchemaFor } from "../openapi/json-schema";
import { apiVersionOf, type AnyKind } from "../kinds";

type Json = Record<string, unknown>;

const single = new Map<string, Json | undefined>();
const multi = new Map<string, Json | undefined>();

/** One kind's schema for the editor; undefined for a kind without a schema (the editor checks syntax only). */
export function kindEditorSchema(kind: AnyKind): Json | undefined {
  if (!single.has(kind.kind)) single.set(kind.kind, jsonSchemaFor(kind) as Json | undefined);
  return single.get(kind.kind);
}

/** A schema under which each YAML document is validated as the kind its `kind:` names. */
export function multiKindEditorSchema(kinds: readonly AnyKind[]): Json | undefined {
  const key = kinds.map((k) => k.kind).join(",");
  if (multi.has(key)) return multi.get(key);
  const definitions: Json = {};
  const branches: Json[] = [];
  const served: AnyKind[] = [];
  for (const kind of kinds) {
    const schema = kindEditorSchema(kind);
    if (!schema) continue;
    const { definitions: defs, $schema: _draft, title: _title, ...root } = schema;
    Object.assign(definitions, defs as Json);
    served.push(kind);
    branches.push({ if: { properties: { kind: { const: kind.kind } }, required: ["kind"] }, then: root });
  }
  const out: Json | undefined = served.length
    ? {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          apiVersion: { type: "string", enum: [...new Set(served.map(apiVersionOf))] },
          kind: { type: "string", enum: served.map((k) => k.kind) },
        },
        required: ["apiVersion", "kind"],
        allOf: branches,
        definitions,
      }
    : undefined;
  multi.set(key, out);
  return out;
}

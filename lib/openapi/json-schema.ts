// JSON Schema (draft-07) of one kind, for the console's YAML editor (monaco-yaml): completion, hover text and
// validation from the same schema the server uses. Unknown fields are flagged (the server refuses them with
// fieldValidation=Strict); quantities and int-or-string fields accept numbers and strings; timestamps accept null.
import { apiVersionOf, kindByKind, kindByPlural } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { Emitter, type JsonSchema } from "./emit";

const cache = new Map<string, JsonSchema>();

/** The kind given as a definition, a Kind name (`Pod`) or a plural (`pods`); undefined when unknown or schemaless. */
export function jsonSchemaFor(kind: AnyKind | string): JsonSchema | undefined {
  const k = typeof kind === "string" ? kindByKind(kind) ?? kindByPlural(kind) : kind;
  const schema = k?.schema;
  if (!k || schema?.type !== "object") return undefined;
  const cached = cache.get(k.kind);
  if (cached) return cached;
  const emitter = new Emitter("json-schema");
  const ref = emitter.value(schema).$ref as string | undefined;
  const name = ref?.slice("#/definitions/".length);
  const root: JsonSchema = name ? { ...emitter.components[name] } : emitter.value(schema);
  const properties = { ...(root.properties as Record<string, JsonSchema>) };
  properties.apiVersion = { ...properties.apiVersion, enum: [apiVersionOf(k)] };
  properties.kind = { ...properties.kind, enum: [k.kind] };
  const out: JsonSchema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: k.kind,
    ...root,
    properties,
    definitions: emitter.components,
  };
  cache.set(k.kind, out);
  return out;
}

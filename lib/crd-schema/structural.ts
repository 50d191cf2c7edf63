// PLACEHOLDER (task K): the structural-schema check is helper J's (branch crdschema), which replaces this file
// at merge. It keeps the agreed signature so lib/kinds/custom-resource-definition.ts can call it today; until
// then it reports nothing, so every schema passes as structural.
import type { FieldError } from "../status";
import type { JSONSchemaProps } from "./types";

export type { JSONSchemaProps } from "./types";

/** kube's structural-schema errors for `schema`, reported under `basePath` (`spec.validation.openAPIV3Schema`). */
export function structuralSchemaErrors(schema: JSONSchemaProps, basePath: string): FieldError[] {
  void schema;
  void basePath;
  return [];
}

"use client";
// The JSON Schema the YAML editor validates against: one kind's (the object editor), or every served kind's
// with each document checked as the kind it names (create from YAML). Built from the bundled kind schemas and
// memoised per kind (openapi-schema.ts): nothing to fetch, ready on the first render.
import { useMemo } from "react";
import { kinds as servedKinds, type AnyKind } from "../kinds";
import { kindEditorSchema, multiKindEditorSchema } from "./openapi-schema";

export function useKindSchema(kind: AnyKind | undefined): Record<string, unknown> | undefined {
  return useMemo(() => (kind ? kindEditorSchema(kind) : undefined), [kind]);
}

/** For a text of several documents: `first` (the kind being created) is offered first in completion. */
export function useMultiKindSchema(first: AnyKind): Record<string, unknown> | undefined {
  return useMemo(() => multiKindEditorSchema([first, ...servedKinds.filter((k) => k !== first)]), [first]);
}

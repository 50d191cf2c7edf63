"use client";
// The JSON Schema the YAML editor validates against: one kind's (the object editor), or every served kind's
// with each document checked as the kind it names (create from YAML). Built-in kinds' come from the bundled
// kind schemas, memoised per kind (openapi-schema.ts): nothing to fetch, ready on the first render. A custom
// kind's is read from the server's OpenAPI v3 document of its group version (custom-kind-schema.ts): undefined
// until it arrives.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { kinds as servedKinds, type AnyKind } from "../kinds";
import { apiRequest } from "./api-client";
import { editorSchemaFromOpenApi, type OpenApiV3Document } from "./custom-kind-schema";
import { isCustomKind } from "./custom-kinds";
import { kindEditorSchema, multiKindEditorSchema } from "./openapi-schema";
import { queryKeys } from "./query-keys";

/** A custom kind's editor schema, fetched (undefined while loading, for a built-in kind, or when absent). */
export function useCustomKindSchema(kind: AnyKind | undefined): { schema: Record<string, unknown> | undefined; loading: boolean } {
  const custom = !!kind && isCustomKind(kind);
  const groupVersion = kind ? `apis/${kind.group}/${kind.version}` : "";
  const doc = useQuery({
    queryKey: queryKeys.openapi(groupVersion),
    queryFn: ({ signal }) => apiRequest<OpenApiV3Document>(`/openapi/v3/${groupVersion}`, { signal }),
    enabled: custom,
    // A CRD's schema may change while the page is open; the editor picks up a newer one on its next mount.
    staleTime: 10_000,
  });
  const schema = useMemo(
    () => (custom && doc.data ? editorSchemaFromOpenApi(doc.data, kind!.group ?? "", kind!.version ?? "", kind!.kind) : undefined),
    [custom, doc.data, kind],
  );
  // Pending, not isLoading: the server render (which never fetches) and the hydrating browser agree.
  return { schema, loading: custom && doc.isPending };
}

export function useKindSchema(kind: AnyKind | undefined): Record<string, unknown> | undefined {
  const builtIn = useMemo(() => (kind && !isCustomKind(kind) ? kindEditorSchema(kind) : undefined), [kind]);
  const custom = useCustomKindSchema(kind);
  return builtIn ?? custom.schema;
}

/** For a text of several documents: `first` (the kind being created) is offered first in completion. */
export function useMultiKindSchema(first: AnyKind): Record<string, unknown> | undefined {
  const custom = useCustomKindSchema(first);
  const builtIn = useMemo(() => (isCustomKind(first) ? undefined : multiKindEditorSchema([first, ...servedKinds.filter((k) => k !== first)])), [first]);
  return builtIn ?? custom.schema;
}

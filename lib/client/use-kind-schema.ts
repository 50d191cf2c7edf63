"use client";
// The JSON Schema of one kind for the YAML editor, from our OpenAPI v3 document of the kind's group version
// (fetched once per session). A missing document or kind is not an error: the editor then checks YAML
// syntax only.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { groupVersionPath, type AnyKind } from "../kinds";
import { apiRequest } from "./api-client";
import { kindJsonSchema, type OpenApiDocument } from "./openapi-schema";
import { queryKeys } from "./query-keys";

export function useKindSchema(kind: AnyKind | undefined): Record<string, unknown> | undefined {
  const groupVersion = kind ? groupVersionPath(kind).slice(1) : "api/v1";
  const query = useQuery({
    queryKey: queryKeys.openapi(groupVersion),
    queryFn: async () => {
      try {
        return await apiRequest<OpenApiDocument>(`/openapi/v3/${groupVersion}`);
      } catch {
        return null;
      }
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return useMemo(() => (kind && query.data ? kindJsonSchema(query.data, kind.kind, kind.group ?? "") : undefined), [kind, query.data]);
}

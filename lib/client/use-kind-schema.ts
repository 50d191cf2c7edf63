"use client";
// The JSON Schema of one kind for the YAML editor, from our OpenAPI v3 document (fetched once per session).
// A missing document or kind is not an error: the editor then checks YAML syntax only.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { apiRequest } from "./api-client";
import { kindJsonSchema, type OpenApiDocument } from "./openapi-schema";
import { queryKeys } from "./query-keys";

export function useKindSchema(kind: string | undefined): Record<string, unknown> | undefined {
  const query = useQuery({
    queryKey: queryKeys.openapi(),
    queryFn: async () => {
      try {
        return await apiRequest<OpenApiDocument>("/openapi/v3/api/v1");
      } catch {
        return null;
      }
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return useMemo(() => (kind && query.data ? kindJsonSchema(query.data, kind) : undefined), [kind, query.data]);
}

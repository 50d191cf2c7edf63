/** Serves an OpenAPI document: version "v2" or "v3", and for v3 the sub-path ("" = the index, "api/v1"). */
export type OpenApiDocuments = (version: "v2" | "v3", path: string) => unknown | undefined;

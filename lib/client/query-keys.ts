// Every React Query key the console uses comes from here, so a watch and the view reading its list agree
// on the key by construction.
import type { ListScope } from "./resource-path";

export const queryKeys = {
  all: ["cluster-core"] as const,
  list: (plural: string, scope: ListScope) =>
    ["cluster-core", "list", plural, scope.namespace ?? "", scope.labelSelector ?? "", scope.fieldSelector ?? ""] as const,
  namespaces: () => ["cluster-core", "namespaces"] as const,
  openapi: () => ["cluster-core", "openapi", "v3", "api/v1"] as const,
};

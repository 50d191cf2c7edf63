// Every React Query key the console uses comes from here, so a watch and the view reading its list agree
// on the key by construction.
import type { ListScope } from "./resource-path";

export const queryKeys = {
  all: ["cluster-core"] as const,
  list: (plural: string, scope: ListScope) =>
    ["cluster-core", "list", plural, scope.namespace ?? "", scope.labelSelector ?? "", scope.fieldSelector ?? ""] as const,
  /** The namespaces offered by the switcher; `candidates` matter only when the user may not list them. */
  namespaces: (candidates: readonly string[] = []) => ["cluster-core", "namespaces", candidates.join(",")] as const,
  /** A list fetched once for the command palette (a kind not loaded by any view). */
  searchList: (plural: string, namespace: string) => ["cluster-core", "search-list", plural, namespace] as const,
  /** One object read directly (when the user may get but not list/watch it). */
  object: (plural: string, namespace: string, name: string) => ["cluster-core", "object", plural, namespace, name] as const,
  /** One object's managedFields (read by GET: list and watch caches drop them), per resourceVersion. */
  managedFields: (plural: string, namespace: string, name: string, resourceVersion: string) =>
    ["cluster-core", "managed-fields", plural, namespace, name, resourceVersion] as const,
  openapi: (groupVersion = "api/v1") => ["cluster-core", "openapi", "v3", groupVersion] as const,
  /** Aggregated discovery of `/apis` (the custom kinds the server serves). */
  discovery: () => ["cluster-core", "discovery"] as const,
  whoAmI: () => ["cluster-core", "whoami"] as const,
  /** The signed-in user's SelfSubjectRulesReview in one namespace. */
  rules: (namespace: string) => ["cluster-core", "rules", namespace] as const,
  /** A cluster-scoped SelfSubjectAccessReview. */
  access: (verb: string, group: string, resource: string) => ["cluster-core", "access", verb, group, resource] as const,
  /** Everything that depends on who is signed in (dropped when the user's permissions may have changed). */
  permissions: () => [["cluster-core", "rules"], ["cluster-core", "access"]] as const,
};

// What a history request is authorized as, beyond its attributes (the path itself is recognised by
// lib/request/history-path.ts and its attributes built by the pipeline): a namespace's changes show the kinds
// the user may list there.
import type { UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer, Decision, ResourceAttributes } from "../authz/attributes";
import { addedStoredKinds, kinds } from "../kinds";
import type { HistoryRequest } from "../request/history-path";

export { HISTORY_API_VERSION, HISTORY_GROUP, type HistoryRequest } from "../request/history-path";

/**
 * The namespaced kinds `user` may list in `namespace` (what a namespace's change history shows): the declared
 * ones and every custom kind (by its storage version, which its objects are stored under).
 */
export function listableKinds(authorizer: Authorizer, user: UserInfo, namespace: string) {
  return [...kinds, ...addedStoredKinds()].filter((k) => k.namespaced && authorizer.authorize({
    type: "resource", user, verb: "list", apiGroup: k.group ?? "", resource: k.plural, subresource: "", namespace, name: "",
  }).allowed);
}

/** The decision: as the attributes say, except a namespace's changes, allowed when some kind is listable there. */
export function authorizeHistory(authorizer: Authorizer, req: HistoryRequest, attrs: Attributes): Decision {
  if (req.type !== "changes") return authorizer.authorize(attrs);
  const user = (attrs as ResourceAttributes).user;
  return listableKinds(authorizer, user, req.namespace).length
    ? { allowed: true, reason: "may list some kinds in the namespace" }
    : { allowed: false, reason: "" };
}

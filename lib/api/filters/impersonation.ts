// Impersonation (kube-apiserver's WithImpersonation filter): `Impersonate-User`, `-Group`, `-Uid` and
// `Impersonate-Extra-<key>` headers make the request act as another user, each one authorized first by the
// `impersonate` verb on users, groups, uids, userextras or the ServiceAccount itself.
import {
  AUTHENTICATED_GROUP, SERVICE_ACCOUNTS_RESOURCE, serviceAccountGroups, serviceAccountName, type UserInfo,
} from "../../auth/user-info";
import type { Authorizer, ResourceAttributes } from "../../authz/attributes";
import { forbiddenError } from "../../authz/forbidden-message";
import { errors } from "../../status";
import type { Filter } from "../context";

const EXTRA_PREFIX = "impersonate-extra-";

// Synchronous: a refusal is thrown, and answered by withErrorStatus.
export const withImpersonation: Filter = (next, rt) => (ctx) => {
  const user = impersonate(rt.authorizer, ctx.user, ctx.request);
  if (user !== ctx.user) {
    ctx.user = user;
    if (ctx.audit) ctx.audit.impersonatedUser = user;
  }
  return next(ctx);
};

export interface HeaderSource {
  /** Every value of a header (lower-case name), repeated headers kept apart. */
  headerValues(name: string): string[];
  /** Lower-case names of the headers sent that start with `prefix`. */
  headerNamesWith(prefix: string): string[];
}

/** The user the request acts as: `user` itself when no impersonation header is sent. */
export function impersonate(authorizer: Authorizer, user: UserInfo, req: HeaderSource): UserInfo {
  const username = req.headerValues("impersonate-user")[0];
  const groups = req.headerValues("impersonate-group");
  const uid = req.headerValues("impersonate-uid")[0];
  const extraNames = req.headerNamesWith(EXTRA_PREFIX);
  if (username === undefined) {
    if (groups.length || uid !== undefined || extraNames.length) {
      throw errors.badRequest("requested impersonation of groups, uid or extra without impersonating a user");
    }
    return user;
  }
  const check = (attrs: Omit<ResourceAttributes, "type" | "user" | "verb">) => {
    const full: ResourceAttributes = { type: "resource", user, verb: "impersonate", ...attrs };
    const decision = authorizer.authorize(full);
    if (!decision.allowed) throw forbiddenError(full, decision.reason);
  };
  const next: UserInfo = { username, groups: [] };
  const serviceAccount = serviceAccountName(username);
  if (serviceAccount) {
    check({ apiGroup: "", resource: SERVICE_ACCOUNTS_RESOURCE, subresource: "", ...serviceAccount });
    if (!groups.length) next.groups.push(...serviceAccountGroups(serviceAccount.namespace));
  } else {
    check({ apiGroup: "", resource: "users", subresource: "", namespace: "", name: username });
  }
  for (const g of groups) {
    check({ apiGroup: "", resource: "groups", subresource: "", namespace: "", name: g });
    next.groups.push(g);
  }
  if (uid !== undefined) {
    check({ apiGroup: "authentication.k8s.io", resource: "uids", subresource: "", namespace: "", name: uid });
    next.uid = uid;
  }
  for (const header of extraNames) {
    let key: string;
    try { key = decodeURIComponent(header.slice(EXTRA_PREFIX.length)); } catch { throw errors.badRequest(`invalid impersonation header ${header}`); }
    const values = req.headerValues(header);
    for (const v of values) check({ apiGroup: "authentication.k8s.io", resource: "userextras", subresource: key, namespace: "", name: v });
    (next.extra ??= {})[key] = values;
  }
  if (username !== "system:anonymous" && !next.groups.includes(AUTHENTICATED_GROUP)) next.groups.push(AUTHENTICATED_GROUP);
  return next;
}

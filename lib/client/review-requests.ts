// The standard review APIs the console asks about the signed-in user: who am I (SelfSubjectReview), what
// may I do in a namespace (SelfSubjectRulesReview), may I do this one thing (SelfSubjectAccessReview).
// Each is a create that is answered, never stored. Plus the one question kube has no API for: in which
// namespaces do my roles give me anything (this server's GET of SELF_NAMESPACES_PATH).
import { SELF_NAMESPACES_PATH } from "../request/access-path";
import { apiRequest } from "./api-client";
import { ApiError } from "./api-error";
import type { AccessAttributes, RulesReviewStatus } from "./access-rules";

export interface WhoAmI {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const SELF_SUBJECT_REVIEW_PATH = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
export const SELF_SUBJECT_RULES_REVIEW_PATH = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
export const SELF_SUBJECT_ACCESS_REVIEW_PATH = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

export async function whoAmI(signal?: AbortSignal): Promise<WhoAmI> {
  const review = await apiRequest<{ status?: { userInfo?: Partial<WhoAmI> } }>(SELF_SUBJECT_REVIEW_PATH, {
    method: "POST",
    body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
    signal,
  });
  const info = review?.status?.userInfo ?? {};
  return { username: info.username ?? "", uid: info.uid, groups: info.groups ?? [], extra: info.extra };
}

export async function rulesReview(namespace: string, signal?: AbortSignal): Promise<RulesReviewStatus> {
  const review = await apiRequest<{ status?: RulesReviewStatus }>(SELF_SUBJECT_RULES_REVIEW_PATH, {
    method: "POST",
    body: { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: { namespace } },
    signal,
  });
  return review?.status ?? { resourceRules: [], incomplete: true };
}

export interface AccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
}

/** One decision; used where rules reviews cannot answer: cluster-scoped requests (rules reviews need a namespace). */
export async function accessReview(attrs: AccessAttributes & { namespace?: string }, signal?: AbortSignal): Promise<AccessReviewStatus> {
  const resourceAttributes: Record<string, string> = { verb: attrs.verb, group: attrs.group, resource: attrs.resource };
  if (attrs.namespace) resourceAttributes.namespace = attrs.namespace;
  if (attrs.subresource) resourceAttributes.subresource = attrs.subresource;
  if (attrs.name) resourceAttributes.name = attrs.name;
  const review = await apiRequest<{ status?: AccessReviewStatus }>(SELF_SUBJECT_ACCESS_REVIEW_PATH, {
    method: "POST",
    body: { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes } },
    signal,
  });
  return { allowed: !!review?.status?.allowed, denied: review?.status?.denied, reason: review?.status?.reason };
}

/**
 * The namespaces whose RoleBindings give the user some resource rule, from the server's RBAC index
 * (lib/request/access-path.ts); none from a server without that endpoint (404).
 */
export async function selfNamespaces(signal?: AbortSignal): Promise<string[]> {
  try {
    const answer = await apiRequest<{ namespaces?: unknown }>(SELF_NAMESPACES_PATH, { signal });
    return Array.isArray(answer?.namespaces) ? answer.namespaces.filter((n): n is string => typeof n === "string") : [];
  } catch (e) {
    if (e instanceof ApiError && (e.code === 404 || e.code === 403)) return [];
    throw e;
  }
}

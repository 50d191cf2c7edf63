// The create-only API types, declared once for routing, discovery, authorization and the OpenAPI documents:
// kube's review resources (answered from the request, never stored) and the action subresources a kind names in
// `actionSubresources` (ServiceAccount `token` creates a TokenRequest). Pure data, browser-safe.
import {
  AUTHENTICATION_GROUP, AUTHORIZATION_GROUP, localSubjectAccessReviewSchema, selfSubjectAccessReviewSchema,
  selfSubjectReviewSchema, selfSubjectRulesReviewSchema, subjectAccessReviewSchema, tokenRequestSchema,
  tokenReviewSchema,
} from "./schema/reviews";
import type { ObjectSchema } from "./schema/schema";

export interface ReviewResource {
  group: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  /** The body's schema (OpenAPI component `io.k8s.api.<authentication|authorization>.v1.<Kind>`). */
  schema: ObjectSchema;
}

/** In kube-apiserver's order within each group (resource name order). */
export const reviewResources: ReviewResource[] = [
  { group: AUTHENTICATION_GROUP, plural: "tokenreviews", singular: "tokenreview", kind: "TokenReview", namespaced: false, schema: tokenReviewSchema },
  { group: AUTHENTICATION_GROUP, plural: "selfsubjectreviews", singular: "selfsubjectreview", kind: "SelfSubjectReview", namespaced: false, schema: selfSubjectReviewSchema },
  { group: AUTHORIZATION_GROUP, plural: "localsubjectaccessreviews", singular: "localsubjectaccessreview", kind: "LocalSubjectAccessReview", namespaced: true, schema: localSubjectAccessReviewSchema },
  { group: AUTHORIZATION_GROUP, plural: "selfsubjectaccessreviews", singular: "selfsubjectaccessreview", kind: "SelfSubjectAccessReview", namespaced: false, schema: selfSubjectAccessReviewSchema },
  { group: AUTHORIZATION_GROUP, plural: "selfsubjectrulesreviews", singular: "selfsubjectrulesreview", kind: "SelfSubjectRulesReview", namespaced: false, schema: selfSubjectRulesReviewSchema },
  { group: AUTHORIZATION_GROUP, plural: "subjectaccessreviews", singular: "subjectaccessreview", kind: "SubjectAccessReview", namespaced: false, schema: subjectAccessReviewSchema },
];

/** The groups that hold review resources. */
export const reviewGroups = (): string[] => [...new Set(reviewResources.map((r) => r.group))];

export interface ActionSubresource {
  group: string;
  version: string;
  /** The API type the subresource takes and answers (kube's discovery lists it with this group/version/kind). */
  kind: string;
  verbs: string[];
  schema: ObjectSchema;
}

/**
 * What an action subresource (a kind's `actionSubresources` entry) creates: kube serves `<plural>/token` with
 * the TokenRequest kind of authentication.k8s.io/v1.
 */
export const ACTION_SUBRESOURCES: Record<string, ActionSubresource> = {
  token: { group: AUTHENTICATION_GROUP, version: "v1", kind: "TokenRequest", verbs: ["create"], schema: tokenRequestSchema },
};

// The create-only review resources (kube's TokenReview, SelfSubjectReview and the access reviews): answered
// from the request, never stored. One table for routing, discovery and authorization.

export interface ReviewResource {
  group: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
}

export const reviewResources: ReviewResource[] = [
  { group: "authentication.k8s.io", plural: "tokenreviews", singular: "tokenreview", kind: "TokenReview", namespaced: false },
  { group: "authentication.k8s.io", plural: "selfsubjectreviews", singular: "selfsubjectreview", kind: "SelfSubjectReview", namespaced: false },
  { group: "authorization.k8s.io", plural: "localsubjectaccessreviews", singular: "localsubjectaccessreview", kind: "LocalSubjectAccessReview", namespaced: true },
  { group: "authorization.k8s.io", plural: "selfsubjectaccessreviews", singular: "selfsubjectaccessreview", kind: "SelfSubjectAccessReview", namespaced: false },
  { group: "authorization.k8s.io", plural: "selfsubjectrulesreviews", singular: "selfsubjectrulesreview", kind: "SelfSubjectRulesReview", namespaced: false },
  { group: "authorization.k8s.io", plural: "subjectaccessreviews", singular: "subjectaccessreview", kind: "SubjectAccessReview", namespaced: false },
];

const byKey = new Map(reviewResources.map((r) => [`${r.group}/${r.plural}`, r]));
const groups = new Set(reviewResources.map((r) => r.group));

/** The review at `<group>/<plural>`; with `plural` undefined, any review of `group` (is it a review group?). */
export function reviewResource(group: string, plural: string | undefined): ReviewResource | undefined {
  if (plural === undefined) return groups.has(group) ? reviewResources.find((r) => r.group === group) : undefined;
  return byKey.get(`${group}/${plural}`);
}

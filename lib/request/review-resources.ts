// The create-only review resources (kube's TokenReview, SelfSubjectReview and the access reviews): answered
// from the request, never stored. The table lives with the other API type declarations (lib/kinds/reviews.ts);
// this module looks reviews up for routing, discovery and authorization.
import { reviewResources, type ReviewResource } from "../kinds/reviews";

export { reviewResources, type ReviewResource };

const byKey = new Map(reviewResources.map((r) => [`${r.group}/${r.plural}`, r]));
const groups = new Set(reviewResources.map((r) => r.group));

/** The review at `<group>/<plural>`; with `plural` undefined, any review of `group` (is it a review group?). */
export function reviewResource(group: string, plural: string | undefined): ReviewResource | undefined {
  if (plural === undefined) return groups.has(group) ? reviewResources.find((r) => r.group === group) : undefined;
  return byKey.get(`${group}/${plural}`);
}

/** Whether `group` holds reviews (a Set lookup: routing asks it for every resource path). */
export function isReviewGroup(group: string): boolean {
  return groups.has(group);
}

// The contract of a create-only API: a subresource action (`serviceaccounts/token`) or a review (TokenReview,
// SubjectAccessReview, ...). Answered from the request, never stored; lib/reviews implements it, the pipeline
// calls it with the authenticated request's user.
import type { UserInfo } from "../auth/user-info";

/** What a create-only handler gets. */
export interface ActionContext {
  user: UserInfo;
  namespace: string;
  /** The object named on the path (subresources); "" for reviews. */
  name: string;
  body: unknown;
  dryRun: boolean;
}

export type ActionHandler = (ctx: ActionContext) => Promise<{ code: number; object: unknown }>;

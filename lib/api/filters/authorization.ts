// Authorization (kube's WithAuthorization): the runtime's authorizer decides on the request's attributes
// (object history: as lib/history says, a namespace's changes by the kinds listable there); a refusal is
// kube's 403. A watch is authorized once, at its start.
import { forbiddenError } from "../../authz/forbidden-message";
import { authorizeHistory } from "../../history/history-request";
import type { Filter } from "../context";

// Synchronous: a refusal is thrown, and answered by withErrorStatus.
export const withAuthorization: Filter = (next, rt) => (ctx) => {
  const decision = ctx.history ? authorizeHistory(rt.authorizer, ctx.history, ctx.attributes) : rt.authorizer.authorize(ctx.attributes);
  if (ctx.audit) {
    ctx.audit.decision = decision.allowed ? "allow" : "forbid";
    ctx.audit.reason = decision.reason;
  }
  if (!decision.allowed) throw forbiddenError(ctx.attributes, decision.reason);
  return next(ctx);
};

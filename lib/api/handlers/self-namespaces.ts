// The caller's namespaces (lib/reviews/self-namespaces.ts): read-only JSON, authorized before it as a
// SelfSubjectRulesReview (request-attributes.ts).
import { selfNamespaces as answer } from "../../reviews/self-namespaces";
import { errors } from "../../status";
import type { RequestContext } from "../context";
import { jsonResponse } from "../encode/value";
import type { ApiResponse } from "../types";

export async function selfNamespaces(ctx: RequestContext): Promise<ApiResponse> {
  const method = ctx.request.method;
  if (method !== "GET" && method !== "HEAD") throw errors.methodNotAllowed();
  return jsonResponse(answer(ctx.runtime.authorizer, ctx.user), ctx.pretty);
}

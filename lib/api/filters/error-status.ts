// Whatever a filter or endpoint throws becomes the answer here: a StatusError as kube's v1 Status, negotiated
// as kube's ErrorNegotiated does (no conversions), anything else a 500. Inside audit and metrics, which record
// the code it answers.
import { errors, isStatusError } from "../../status";
import type { Filter, RequestContext } from "../context";
import { statusResponse } from "../encode/status";
import { negotiateError } from "../media";

import type { ApiResponse } from "../types";

// A synchronous throw and a rejection are answered alike; a synchronous answer passes through without a promise.
export const withErrorStatus: Filter = (next) => (ctx) => {
  let res: ApiResponse | Promise<ApiResponse>;
  try {
    res = next(ctx);
  } catch (err) {
    return errorAnswer(ctx, err);
  }
  return res instanceof Promise ? res.catch((err: unknown) => errorAnswer(ctx, err)) : res;
};

function errorAnswer(ctx: RequestContext, err: unknown): ApiResponse {
  const e = isStatusError(err) ? err : errors.internal(err instanceof Error ? err.message : String(err));
  if (ctx.audit) ctx.audit.status = { status: "Failure", message: e.message, reason: e.reason };
  // A custom resource's errors go through its own serializers (JSON, YAML), as kube's CRD handler writes them.
  const unstructured = ctx.route?.type === "resource" && !ctx.route.kind.schema;
  return statusResponse(e, negotiateError(ctx.request.header("accept"), unstructured) ?? "raw", ctx.pretty);
}

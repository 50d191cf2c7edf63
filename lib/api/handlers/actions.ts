// The create-only APIs: subresource actions (`serviceaccounts/<name>/token`) and the reviews (TokenReview,
// SelfSubjectReview, the access reviews), answered by the runtime's action handlers, never stored.
import { ACTION_SUBRESOURCES } from "../../kinds/reviews";
import { parseWriteOptions } from "../../registry/options";
import type { ResourceRequest, ReviewRequest } from "../../request/request-info";
import { errors } from "../../status";
import type { RequestContext } from "../context";
import { actionResponse } from "../encode/object";
import { ACTION_ENDPOINT, negotiate, type OutputFormat } from "../media";
import { readActionBody } from "../request-body";
import type { ApiResponse } from "../types";

/** POST <object path>/<action subresource>, already negotiated with the resource's other requests. */
export async function action(ctx: RequestContext, info: ResourceRequest, format: OutputFormat, pretty: boolean): Promise<ApiResponse> {
  const req = ctx.request;
  if (req.method !== "POST" || info.name === undefined) throw errors.methodNotAllowed();
  const handler = ctx.runtime.actions?.get(`${info.kind.plural}/${info.subresource}`);
  if (!handler) throw errors.routeNotFound();
  const opts = parseWriteOptions(req.query);
  const made = ACTION_SUBRESOURCES[info.subresource!];
  const body = await readActionBody(req, made?.kind ?? "", made ? `${made.group}/${made.version}` : "v1");
  const answer = await handler({ user: ctx.user, namespace: info.namespace ?? "", name: info.name, body, dryRun: opts.dryRun });
  return actionResponse(answer.object, format, pretty, answer.code);
}

export async function review(ctx: RequestContext, info: ReviewRequest): Promise<ApiResponse> {
  const req = ctx.request;
  if (req.method !== "POST") throw errors.methodNotAllowed();
  const handler = ctx.runtime.actions?.get(`${info.review.group}/${info.review.plural}`);
  if (!handler) throw errors.routeNotFound();
  const opts = parseWriteOptions(req.query);
  const format = negotiate(req.header("accept"), { endpoint: ACTION_ENDPOINT });
  const body = await readActionBody(req, info.review.kind, `${info.review.group}/v1`);
  const answer = await handler({ user: ctx.user, namespace: info.namespace ?? "", name: "", body, dryRun: opts.dryRun });
  return actionResponse(answer.object, format, ctx.pretty || format.pretty, answer.code);
}

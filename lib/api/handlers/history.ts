// Object history (lib/history), routed like any other endpoint: read-only JSON, authorized before it as get
// (or list) on what it shows. An object's history reads the object path the request info parsed.
import { historyAnswer } from "../../history/history-api";
import type { HistoryRequest } from "../../request/history-path";
import type { RequestContext } from "../context";
import { jsonResponse } from "../encode/value";
import type { ApiResponse } from "../types";

export async function history(ctx: RequestContext, req: HistoryRequest): Promise<ApiResponse> {
  if (req.type === "object" && ctx.routeError !== undefined) throw ctx.routeError;
  const { runtime: rt } = ctx;
  return jsonResponse(await historyAnswer(rt.registry, rt.authorizer, ctx.user, req, ctx.request.query, ctx.route), ctx.pretty);
}

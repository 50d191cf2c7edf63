// Open paths: health and version are answered to anyone, without credentials and before any other filter
// (the spec's rule); everything else goes on to authentication.
import { isOpenPath, parseRequestPath } from "../../request/request-info";
import type { Filter } from "../context";
import { nonResource, type NonResourceInfo } from "../handlers/non-resource";

export const withOpenPaths: Filter = (next) => (ctx) => {
  if (!isOpenPath(ctx.request.path)) return next(ctx);
  ctx.open = true;
  // An open path is a health check or /version, both non-resource.
  ctx.routed = parseRequestPath(ctx.request.path);
  return nonResource(ctx, ctx.routed as NonResourceInfo);
};

// The end of the chain: the request info, parsed once by its filter, to the endpoint that answers it. A path
// that names nothing served answers its 404 (or 400) only here, once the request is authorized.
import type { Handler } from "./context";
import { review } from "./handlers/actions";
import { history } from "./handlers/history";
import { nonResource } from "./handlers/non-resource";
import { resources } from "./handlers/resources";
import { selfNamespaces } from "./handlers/self-namespaces";

// Not an async function: an endpoint that answers at once is passed through without a promise.
export const route: Handler = (ctx) => {
  if (ctx.history) return history(ctx, ctx.history);
  if (ctx.selfNamespaces) return selfNamespaces(ctx);
  const info = ctx.route;
  if (!info) throw ctx.routeError;
  ctx.routed = info;
  switch (info.type) {
    case "resource": return resources(ctx, info);
    case "review": return review(ctx, info);
    default: return nonResource(ctx, info);
  }
};

// Request info (kube's WithRequestInfo and its authorizer attributes): the path parsed once, for everything
// inside. What it addresses (the route, or the 404/400 routing will answer once the request is authorized),
// whether it asks for object history, and the attributes authorization decides on, read from the path alone
// as kube's RequestInfoFactory: a path that names nothing real is still authorized as what it would be.
import { onKindsChanged, servedGroups, versionOf } from "../../kinds";
import { isSelfNamespacesPath } from "../../request/access-path";
import { historyRequest } from "../../request/history-path";
import { parseRequestPath } from "../../request/request-info";
import type { Filter, RequestContext } from "../context";
import { historyAttributes, requestAttributes, routeAttributes, selfNamespacesAttributes } from "../request-attributes";

// Kept current as kinds are added at run time (custom resources), so each request costs one lookup.
let kindGroups = new Set(servedGroups());
onKindsChanged(() => { kindGroups = new Set(servedGroups()); });
const hasGroup = (g: string) => kindGroups.has(g);

export const withRequestInfo: Filter = (next) => (ctx) => {
  const req = ctx.request;
  const history = ctx.history = historyRequest(req.method, req.path);
  const selfNamespaces = ctx.selfNamespaces = !history && isSelfNamespacesPath(req.path);
  if (!history && !selfNamespaces) parse(ctx, req.path);
  else if (history?.type === "object") parse(ctx, history.objectPath);
  // Read from the route when the path parsed (the same answer as from the path alone, without reading it again).
  const attrs = ctx.attributes = history
    ? historyAttributes(ctx.user, history, req.query)
    : selfNamespaces ? selfNamespacesAttributes(ctx.user)
    : ctx.route ? routeAttributes(ctx.user, req.method, req.path, ctx.route, req.query) : requestAttributes(ctx.user, req.method, req.path, req.query);
  const record = ctx.audit;
  if (record) {
    record.verb = attrs.verb;
    if (attrs.type === "resource") {
      record.objectRef = {
        // The version asked for: v1, or a custom kind's (the path's own version when it names nothing served).
        resource: attrs.resource, apiGroup: attrs.apiGroup, apiVersion: ctx.route?.type === "resource" ? versionOf(ctx.route.kind) : pathVersion(req.path),
        ...(attrs.namespace ? { namespace: attrs.namespace } : {}), ...(attrs.name ? { name: attrs.name } : {}),
        ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
      };
    }
  }
  return next(ctx);
};

/** The version segment of an `/apis/<group>/<version>/...` path (kube's RequestInfo reads it from the path), else v1. */
function pathVersion(path: string): string {
  const m = /^\/apis\/[^/]+\/([^/]+)\//.exec(path);
  return m ? m[1] : "v1";
}

function parse(ctx: RequestContext, path: string): void {
  try {
    ctx.route = parseRequestPath(path, hasGroup);
  } catch (err) {
    ctx.routeError = err;
  }
}

// The request path in one place, as kube-apiserver's DefaultBuildHandlerChain: the filters, outermost first,
// then the router to the endpoints. A filter is one file exporting `(next, runtime) => handler`; one whose
// concern the runtime lacks (no audit sink, no metrics, no flow control) returns `next` and costs nothing.
import { RequestContext, type Filter, type Handler } from "./context";
import { withAudit } from "./filters/audit";
import { withAuthentication } from "./filters/authentication";
import { withAuthorization } from "./filters/authorization";
import { withErrorStatus } from "./filters/error-status";
import { withFlowControl } from "./filters/flow-control";
import { withImpersonation } from "./filters/impersonation";
import { withMetrics } from "./filters/metrics";
import { withOpenPaths } from "./filters/open-paths";
import { withRequestInfo } from "./filters/request-info";
import { route } from "./router";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";

const CHAIN: Filter[] = [
  withAudit, //          one line per request, two for a watch (the record the filters below fill in)
  withMetrics, //        kube's apiserver_request_* for what reached a route
  withErrorStatus, //    anything thrown below answered as a negotiated v1 Status
  withOpenPaths, //      /healthz, /livez, /readyz, /version: answered to anyone
  withAuthentication, // bearer token or session cookie, else 401 on every path
  withImpersonation, //  Impersonate-* headers, each authorized
  withRequestInfo, //    the path parsed once: route, object history, authorizer attributes
  withFlowControl, //    a seat (or a watch slot) and a deadline
  withAuthorization, //  the authorizer's decision, else 403
];

export function buildChain(rt: ApiRuntime, endpoint: Handler = route): Handler {
  return CHAIN.reduceRight((next, filter) => filter(next, rt), endpoint);
}

const chains = new WeakMap<ApiRuntime, Handler>();

/**
 * The one entry of the pipeline (both adapters call it); the chain is built once per runtime. The filters pass a
 * synchronous answer through as is, and so does this: the node adapter writes it at once, with no promise or
 * microtask per request. Whatever is thrown here (only a fault of audit or metrics: withErrorStatus answers
 * everything below it) is thrown to the caller.
 */
export function answerApi(rt: ApiRuntime, req: ApiRequest): ApiResponse | Promise<ApiResponse> {
  let chain = chains.get(rt);
  if (!chain) chains.set(rt, (chain = buildChain(rt)));
  return chain(new RequestContext(rt, req));
}

/** answerApi's answer as one promise (a throw becomes a rejection): for callers that await every answer. */
export function handleApi(rt: ApiRuntime, req: ApiRequest): Promise<ApiResponse> {
  try {
    const res = answerApi(rt, req);
    return res instanceof Promise ? res : Promise.resolve(res);
  } catch (err) {
    return Promise.reject(err);
  }
}

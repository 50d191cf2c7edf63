// What one request carries through the chain: each filter writes what it learns here (the user, the request
// info, the audit record) for the filters and endpoint inside it, instead of passing positional arguments.
import type { AuditRecord } from "../audit/audit-event";
import type { UserInfo } from "../auth/user-info";
import type { Attributes } from "../authz/attributes";
import type { HistoryRequest } from "../request/history-path";
import type { RequestInfo } from "../request/request-info";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";

/**
 * The rest of the chain from some filter on. An answer known at once may be returned as is: each filter passes a
 * synchronous answer through without a promise (and a microtask hop) of its own, and withErrorStatus answers a
 * synchronous throw and a rejection alike.
 */
export type Handler = (ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

/** One concern of the chain: given the rest of it, the handler that runs this concern around it. */
export type Filter = (next: Handler, rt: ApiRuntime) => Handler;

function isPretty(req: ApiRequest): boolean {
  const p = req.query.get("pretty");
  if (p !== null) return p === "true" || p === "1";
  const ua = req.header("user-agent") ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget");
}

export class RequestContext {
  /** performance.now() when the request arrived. */
  readonly started = performance.now();
  private prettyAnswer: boolean | undefined = undefined;
  /** Set by the audit filter when the runtime has an audit sink. */
  audit: AuditRecord | undefined = undefined;
  /** Answered on an open path (health, version): nobody to attribute it to, so not audited. */
  open = false;
  /** Who the credentials belong to, and who the request acts as (the same unless impersonating). */
  authenticated: UserInfo | undefined = undefined;
  user!: UserInfo;
  /** What the path addresses, parsed once; routing answers `routeError` (404, 400) only after authorization. */
  route: RequestInfo | undefined = undefined;
  routeError: unknown = undefined;
  history: HistoryRequest | undefined = undefined;
  /** GET /apis/access.cluster-core.dev/v1/selfnamespaces (lib/request/access-path.ts). */
  selfNamespaces = false;
  attributes!: Attributes;
  /** The route the router dispatched to: what request metrics count (refusals before routing are not). */
  routed: RequestInfo | undefined = undefined;

  constructor(readonly runtime: ApiRuntime, readonly request: ApiRequest) {}

  /** Indented output: `?pretty=`, else a curl or Wget user agent (kube's); read when an answer is encoded. */
  get pretty(): boolean {
    return (this.prettyAnswer ??= isPretty(this.request));
  }
}

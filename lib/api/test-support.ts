// Requests and runtimes for the filters' unit tests: only what a filter reads is real.
import type { Attributes } from "../authz/attributes";
import { RequestContext, type Handler } from "./context";
import type { ApiRequest, ApiResponse, ApiRuntime } from "./types";

export function apiRequest(method: string, url: string, headers: Record<string, string | string[]> = {}): ApiRequest {
  const u = new URL(url, "https://127.0.0.1");
  const values = (n: string) => { const v = headers[n]; return v === undefined ? [] : Array.isArray(v) ? v : [v]; };
  return {
    method, path: u.pathname, query: u.searchParams,
    header: (n) => values(n)[0], headerValues: values, headerNamesWith: (p) => Object.keys(headers).filter((n) => n.startsWith(p)),
    body: async () => Buffer.alloc(0),
  };
}

/** A runtime whose authorizer allows what `allow` says, and whose only token is "good" (user "alice"). */
export function testRuntime(allow: (a: Attributes) => boolean = () => true, extra: Partial<ApiRuntime> = {}): ApiRuntime {
  return {
    authenticate: async (token: string) => (token === "good" ? { username: "alice", groups: ["system:authenticated"] } : undefined),
    authorizer: { authorize: (a) => (allow(a) ? { allowed: true, reason: "test" } : { allowed: false, reason: "" }) },
    serverAddress: "127.0.0.1:6443",
    isReady: () => true,
    ...extra,
  } as ApiRuntime;
}

export const ok: Handler = async () => ({ status: 200, headers: {}, body: "ok" });

/** A handler's answer as a promise: a synchronous throw (a filter's refusal) becomes its rejection. */
export function answerOf(handler: Handler, ctx: RequestContext): Promise<ApiResponse> {
  return new Promise((resolve) => resolve(handler(ctx)));
}

export function context(rt: ApiRuntime, req: ApiRequest): RequestContext {
  return new RequestContext(rt, req);
}

/** A watch answer whose stream records whether it was stopped. */
export function watchAnswer(): { res: ApiResponse; stopped: () => boolean } {
  let stopped = false;
  return { res: { status: 200, headers: {}, stream: { timeoutMs: 1000, start: () => () => { stopped = true; } } }, stopped: () => stopped };
}

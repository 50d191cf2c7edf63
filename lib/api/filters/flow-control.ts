// The flow-control step of the pipeline (after impersonation, before authorization, as kube's chain): a
// watch takes one of its user's watch slots until the stream stops; any other request waits for a seat
// (lib/flowcontrol) and must finish within its deadline (504 otherwise).
import type { FlowController } from "../../flowcontrol/flow-controller";
import { requestDeadlineMs, withDeadline } from "../../flowcontrol/request-deadline";
import type { Filter } from "../context";
import type { ApiResponse } from "../types";

export const withFlowControl: Filter = (next, rt) => {
  const flow = rt.flowControl;
  if (!flow) return next;
  return (ctx) => admitted(flow, ctx.user.username, ctx.attributes.verb, ctx.request.query, () => next(ctx));
};

/** kube-apiserver's read-only verbs; everything else takes a mutating seat. */
const READ_ONLY_VERBS = new Set(["get", "list", "watch"]);

export async function admitted(
  flow: FlowController, user: string, verb: string, query: URLSearchParams, serve: () => Promise<ApiResponse>,
): Promise<ApiResponse> {
  if (verb === "watch") {
    const release = flow.admitLongRunning(user);
    try {
      return releasedWithStream(await serve(), release);
    } catch (err) {
      release();
      throw err;
    }
  }
  const deadline = requestDeadlineMs(query, flow.limits.requestTimeoutSeconds);
  const seat = flow.admit(user, READ_ONLY_VERBS.has(verb) ? "readOnly" : "mutating");
  // A free seat is taken synchronously; only a queued request waits for one.
  const work = typeof seat === "function" ? servedThenReleased(serve, seat) : seat.then((release) => servedThenReleased(serve, release));
  work.catch(() => { /* answered by withDeadline, or too late to matter */ });
  return withDeadline(work, deadline);
}

async function servedThenReleased(serve: () => Promise<ApiResponse>, release: () => void): Promise<ApiResponse> {
  try {
    return await serve();
  } finally {
    release();
  }
}

/** A watch answer keeps its slot until the stream stops; any other answer frees it at once. */
function releasedWithStream(res: ApiResponse, release: () => void): ApiResponse {
  if (!res.stream) {
    release();
    return res;
  }
  const inner = res.stream;
  return {
    ...res,
    stream: {
      ...inner,
      start(sink) {
        const stop = inner.start(sink);
        return (reason) => {
          stop(reason);
          release();
        };
      },
    },
  };
}

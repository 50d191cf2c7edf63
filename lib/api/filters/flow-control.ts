// The flow-control step of the pipeline (after impersonation, before authorization, as kube's chain): a
// watch takes one of its user's watch slots until the stream stops; any other request waits for a seat
// (lib/flowcontrol) and must finish within its deadline (504 otherwise). A LIST is weighed as kube's APF
// weighs it (listWorkEstimate): as many seats as the objects it will touch call for, held while the list is
// read and its first chunk made, and its share of the memory budget for list answers in flight (429 at once
// beyond it), held until its last byte is written: the answer streams after the handler returns, at the
// client's pace, so a slow reader holds memory (bounded) but no seat that small requests need. The watches
// of system:masters are not capped per user: kube's APF puts that group in its exempt priority level (and
// kube caps nobody's watches), so one admin process may hold tens of thousands of watches.
import { MASTERS_GROUP } from "../../auth/user-info";
import type { FlowController } from "../../flowcontrol/flow-controller";
import { listWorkEstimate, type ListWork } from "../../flowcontrol/list-work-estimate";
import { requestDeadlineMs, withDeadline } from "../../flowcontrol/request-deadline";
import type { Filter, RequestContext } from "../context";
import type { ApiResponse } from "../types";

export const withFlowControl: Filter = (next, rt) => {
  const flow = rt.flowControl;
  if (!flow) return next;
  return (ctx) => admitted(flow, ctx.user.username, ctx.attributes.verb, ctx.request.query, () => next(ctx), listWork(ctx), ctx.user.groups.includes(MASTERS_GROUP));
};

/** A list of a resource: what it will touch, from the cache's figures for the resource. */
function listWork(ctx: RequestContext): ListWork | undefined {
  const route = ctx.route;
  if (ctx.attributes.verb !== "list" || route?.type !== "resource" || route.name !== undefined) return undefined;
  const q = ctx.request.query;
  const { objects, bytes } = ctx.runtime.registry.size(route.kind);
  const fieldSelector = q.get("fieldSelector") ?? "";
  const single = fieldSelector.split(",").some((term) => /^\s*metadata\.name\s*==?\s*\S/.test(term));
  const limit = Number(q.get("limit") ?? 0);
  return listWorkEstimate({ objects, bytes, limit: Number.isFinite(limit) && limit > 0 ? limit : 0, selective: !!(q.get("labelSelector") || fieldSelector), single });
}

/** kube-apiserver's read-only verbs; everything else takes a mutating seat. */
const READ_ONLY_VERBS = new Set(["get", "list", "watch"]);

export async function admitted(
  flow: FlowController, user: string, verb: string, query: URLSearchParams, serve: () => Promise<ApiResponse>, work?: ListWork,
  exemptWatches = false,
): Promise<ApiResponse> {
  if (verb === "watch") {
    if (exemptWatches) return serve();
    const release = flow.admitLongRunning(user);
    try {
      return releasedWithStream(await serve(), release);
    } catch (err) {
      release();
      throw err;
    }
  }
  const deadline = requestDeadlineMs(query, flow.limits.requestTimeoutSeconds);
  // The memory first: a list that cannot fit is refused at once rather than queued.
  const memory = work ? flow.listMemory.reserve(work.memory) : undefined;
  let seat: ReturnType<FlowController["admit"]>;
  try {
    seat = flow.admit(user, READ_ONLY_VERBS.has(verb) ? "readOnly" : "mutating", work?.seats ?? 1);
  } catch (err) {
    memory?.();
    throw err;
  }
  const release = memory ?? (() => {});
  // A free seat is taken synchronously; only a queued request waits for one.
  const served = typeof seat === "function" ? servedThenReleased(serve, seat, release)
    : seat.then((granted) => servedThenReleased(serve, granted, release), (err) => { release(); throw err; });
  served.catch(() => { /* answered by withDeadline, or too late to matter */ });
  const answered = withDeadline(served, deadline);
  // Answered 504 before the work ended: its answer is never written, so what it holds goes back.
  answered.catch(() => served.then((res) => { if (res.chunks instanceof HeldChunks) res.chunks.release(); }, () => {}));
  return answered;
}

/** The seat goes back when the handler returns; the memory once a streamed answer is written (or at once). */
async function servedThenReleased(serve: () => Promise<ApiResponse>, seat: () => void, memory: () => void): Promise<ApiResponse> {
  let res: ApiResponse;
  try {
    res = await serve();
  } catch (err) {
    memory();
    throw err;
  } finally {
    seat();
  }
  if (!res.chunks) {
    memory();
    return res;
  }
  return { ...res, chunks: new HeldChunks(res.chunks, memory) };
}

/** A streamed body that gives back its memory once written whole, abandoned, or failed. */
class HeldChunks implements Iterable<Buffer> {
  private released = false;

  constructor(private readonly inner: Iterable<Buffer>, private readonly onRelease: () => void) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }

  [Symbol.iterator](): Iterator<Buffer> {
    const it = this.inner[Symbol.iterator]();
    return {
      next: () => {
        try {
          const r = it.next();
          if (r.done) this.release();
          return r;
        } catch (err) {
          this.release();
          throw err;
        }
      },
      return: (value?: unknown) => {
        this.release();
        return it.return?.(value) ?? { done: true, value: undefined };
      },
    };
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

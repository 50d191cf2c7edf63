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
import type { Release } from "../../flowcontrol/flow-controller";
import { armDeadline, clearDeadline, Deadline, deadlineExceeded, requestDeadlineMs } from "../../flowcontrol/request-deadline";
import type { Filter, Handler, RequestContext } from "../context";
import type { ApiResponse } from "../types";

export const withFlowControl: Filter = (next, rt) => {
  const flow = rt.flowControl;
  if (!flow) return next;
  return (ctx) => admitted(flow, ctx, next);
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

/**
 * The request served once admitted. A free seat is taken synchronously and the handler called at once; an
 * answer it gives synchronously frees the seat and passes through without a promise. One still being made is
 * raced against the deadline (one promise and a link in the shared deadline list, no timer); a queued request
 * waits for its seat within the same deadline.
 */
function admitted(flow: FlowController, ctx: RequestContext, next: Handler): ApiResponse | Promise<ApiResponse> {
  const user = ctx.user;
  const verb = ctx.attributes.verb;
  if (verb === "watch") return watchAdmitted(flow, ctx, next, user.username, user.groups.includes(MASTERS_GROUP));
  const deadline = requestDeadlineMs(ctx.request.query, flow.limits.requestTimeoutSeconds);
  const work = listWork(ctx);
  // The memory first: a list that cannot fit is refused at once rather than queued.
  const memory = work ? flow.listMemory.reserve(work.memory) : undefined;
  let seat: ReturnType<FlowController["admit"]>;
  try {
    seat = flow.admit(user.username, READ_ONLY_VERBS.has(verb) ? "readOnly" : "mutating", work?.seats ?? 1);
  } catch (err) {
    memory?.();
    throw err;
  }
  const request = new AdmittedRequest(memory);
  if (typeof seat !== "function") return request.queued(seat, ctx, next, deadline);
  const res = request.serve(seat, ctx, next);
  return res instanceof Promise ? request.raced(deadline, ctx.started) : res;
}

/** A watch takes one of its user's slots until its stream stops (none for system:masters, kube's exempt level). */
function watchAdmitted(flow: FlowController, ctx: RequestContext, next: Handler, user: string, exempt: boolean): ApiResponse | Promise<ApiResponse> {
  if (exempt) return next(ctx);
  const release = flow.admitLongRunning(user);
  let res: ApiResponse | Promise<ApiResponse>;
  try {
    res = next(ctx);
  } catch (err) {
    release();
    throw err;
  }
  if (!(res instanceof Promise)) return releasedWithStream(res, release);
  return res.then((r) => releasedWithStream(r, release), (err: unknown) => { release(); throw err; });
}

/**
 * One admitted request that is not long-running: the seat goes back when the handler returns; the list memory
 * once a streamed answer is written (or at once). Past the deadline the client gets kube's 504 while the work
 * ends in the background, its seat freed then and its answer (never written) giving back its memory.
 */
class AdmittedRequest extends Deadline {
  private resolve: ((res: ApiResponse) => void) | undefined = undefined;
  private reject: ((err: unknown) => void) | undefined = undefined;
  /** Answered 504: the work's own answer is never written. */
  private expired = false;

  constructor(private readonly memory: Release | undefined) { super(); }

  /** Calls the handler with its seat; a synchronous answer or throw gives the seat back at once. */
  serve(seat: Release, ctx: RequestContext, next: Handler): ApiResponse | Promise<ApiResponse> {
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = next(ctx);
    } catch (err) {
      seat();
      this.memory?.();
      throw err;
    }
    if (!(res instanceof Promise)) {
      seat();
      return this.held(res);
    }
    res.then((r) => { seat(); this.settled(r); }, (err: unknown) => { seat(); this.failed(err); });
    return res;
  }

  /** The answer of the work under way (`serve`'s), or kube's 504 at the deadline (counted from `from`, the arrival). */
  raced(deadlineMs: number, from: number): Promise<ApiResponse> {
    return new Promise<ApiResponse>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      armDeadline(this, deadlineMs, from);
    });
  }

  /** Waits for a seat (a 429 when the wait is too long), then serves, all within the deadline. */
  queued(seat: Promise<Release>, ctx: RequestContext, next: Handler, deadlineMs: number): Promise<ApiResponse> {
    seat.then((granted) => {
      if (this.expired) {
        // Answered 504 while it waited: the seat goes to the next in line.
        granted();
        this.memory?.();
        return;
      }
      let res: ApiResponse | Promise<ApiResponse>;
      try {
        res = this.serve(granted, ctx, next);
      } catch (err) {
        this.answer(undefined, err);
        return;
      }
      if (!(res instanceof Promise)) this.answer(res);
    }, (err: unknown) => {
      this.memory?.();
      this.answer(undefined, err);
    });
    return this.raced(deadlineMs, ctx.started);
  }

  expire(): void {
    this.expired = true;
    this.reject!(deadlineExceeded());
  }

  private settled(res: ApiResponse): void {
    // Answered 504 before the work ended: its answer is never written, so what it holds goes back.
    if (this.expired) this.memory?.();
    else this.answer(this.held(res));
  }

  private failed(err: unknown): void {
    this.memory?.();
    this.answer(undefined, err);
  }

  private answer(res: ApiResponse | undefined, err?: unknown): void {
    if (this.expired) return;
    clearDeadline(this);
    if (res) this.resolve!(res); else this.reject!(err);
  }

  /** The answer holding the list memory until its last chunk is written, or with the memory given back now. */
  private held(res: ApiResponse): ApiResponse {
    const memory = this.memory;
    if (!memory) return res;
    if (!res.chunks) {
      memory();
      return res;
    }
    return { ...res, chunks: new HeldChunks(res.chunks, memory) };
  }
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

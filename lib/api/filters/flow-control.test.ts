import { describe, expect, it } from "vitest";
import { FlowController } from "../../flowcontrol/flow-controller";
import { pendingDeadlines } from "../../flowcontrol/request-deadline";
import type { Handler } from "../context";
import { answerOf, apiRequest, context, testRuntime, watchAnswer } from "../test-support";
import { withFlowControl } from "./flow-control";

const user = { username: "alice", groups: [] };

function run(flow: FlowController, verb: string, inner: Handler, as: { username: string; groups: string[] } = user) {
  const rt = testRuntime(() => true, { flowControl: flow });
  const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps"));
  ctx.user = as;
  ctx.attributes = { type: "resource", user, verb, apiGroup: "", resource: "configmaps", subresource: "", namespace: "d", name: "" };
  return answerOf(withFlowControl(inner, rt), ctx);
}

describe("flow control", () => {
  it("holds a seat while a request is served and frees it after", async () => {
    const flow = new FlowController({ readOnly: 1 });
    let inUse = -1;
    await run(flow, "list", async () => { inUse = flow.usage().readOnly.inUse; return { status: 200, headers: {} }; });
    expect(inUse).toBe(1);
    expect(flow.usage().readOnly.inUse).toBe(0);
  });

  it("keeps a watch's slot until its stream stops: the user's next watch over the limit is 429", async () => {
    const flow = new FlowController({ watchesPerUser: 1 });
    const first = watchAnswer();
    const res = await run(flow, "watch", async () => first.res);
    const stop = res.stream!.start({ send: () => true, close: () => {} });
    await expect(run(flow, "watch", async () => watchAnswer().res)).rejects.toMatchObject({ code: 429 });
    stop();
    expect(first.stopped()).toBe(true);
    expect((await run(flow, "watch", async () => watchAnswer().res)).status).toBe(200);
  });

  it("caps no watches of system:masters (kube's exempt priority level): an admin holds more than the per-user limit", async () => {
    const flow = new FlowController({ watchesPerUser: 1 });
    const admin = { username: "admin", groups: ["system:masters", "system:authenticated"] };
    const answers = [watchAnswer(), watchAnswer(), watchAnswer()];
    const stops = [];
    for (const a of answers) {
      const res = await run(flow, "watch", async () => a.res, admin);
      expect(res.status).toBe(200);
      stops.push(res.stream!.start({ send: () => true, close: () => {} }));
    }
    // Another user's watches are still capped meanwhile.
    const res = await run(flow, "watch", async () => watchAnswer().res);
    res.stream!.start({ send: () => true, close: () => {} });
    await expect(run(flow, "watch", async () => watchAnswer().res)).rejects.toMatchObject({ code: 429 });
    for (const stop of stops) stop();
    expect(answers.every((a) => a.stopped())).toBe(true);
  });

  it("is left out of the chain without a flow controller", () => {
    const inner: Handler = async () => ({ status: 200, headers: {} });
    expect(withFlowControl(inner, testRuntime())).toBe(inner);
  });
});

describe("flow control's deadline and seats", () => {
  /** A synchronous throw as a rejection. */
  const settle = <T>(f: () => T | Promise<T>) => new Promise<T>((resolve) => resolve(f()));
  function runAt(flow: FlowController, url: string, inner: Handler) {
    const rt = testRuntime(() => true, { flowControl: flow });
    const ctx = context(rt, apiRequest("GET", url));
    ctx.user = user;
    ctx.attributes = { type: "resource", user, verb: "get", apiGroup: "", resource: "configmaps", subresource: "", namespace: "d", name: "a" };
    return withFlowControl(inner, rt)(ctx);
  }

  it("passes a synchronous answer through with its seat already free", () => {
    const flow = new FlowController({ readOnly: 1 });
    const res = runAt(flow, "/api/v1/namespaces/d/configmaps/a", () => ({ status: 200, headers: {} }));
    expect(res).not.toBeInstanceOf(Promise);
    expect(flow.usage().readOnly.inUse).toBe(0);
    expect(pendingDeadlines()).toBe(0);
  });

  it("answers kube's 504 past ?timeout= while the work goes on holding its seat, freed when it ends", async () => {
    const flow = new FlowController({ readOnly: 1 });
    let finish!: () => void;
    const started = performance.now();
    const late = settle(() => runAt(flow, "/api/v1/namespaces/d/configmaps/a?timeout=150ms", () => new Promise((r) => { finish = () => r({ status: 200, headers: {} }); })));
    await expect(late).rejects.toMatchObject({ code: 504, message: "Timeout: request did not complete within requested timeout - context deadline exceeded" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(flow.usage().readOnly.inUse).toBe(1);
    // A request queued behind it waits for the seat; once the late work ends, it is served.
    const queued = runAt(flow, "/api/v1/namespaces/d/configmaps/a", async () => ({ status: 201, headers: {} }));
    expect(flow.usage().readOnly.waiting).toBe(1);
    finish();
    expect((await queued).status).toBe(201);
    expect(flow.usage().readOnly).toEqual({ inUse: 0, waiting: 0 });
    expect(pendingDeadlines()).toBe(0);
  });

  it("answers in time without waiting for the sweep, and a handler's failure frees the seat", async () => {
    const flow = new FlowController({ readOnly: 1 });
    expect((await runAt(flow, "/api/v1/namespaces/d/configmaps/a", async () => ({ status: 200, headers: {} }))).status).toBe(200);
    await expect(settle(() => runAt(flow, "/x", async () => { throw new Error("boom"); }))).rejects.toThrow("boom");
    expect(() => runAt(flow, "/x", () => { throw new Error("sync boom"); })).toThrow("sync boom");
    expect(flow.usage().readOnly.inUse).toBe(0);
    expect(pendingDeadlines()).toBe(0);
  });
});

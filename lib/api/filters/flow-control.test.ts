import { describe, expect, it } from "vitest";
import { FlowController } from "../../flowcontrol/flow-controller";
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

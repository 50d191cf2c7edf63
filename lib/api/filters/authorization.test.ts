import { describe, expect, it } from "vitest";
import type { Attributes } from "../../authz/attributes";
import { isStatusError } from "../../status";
import { answerOf, apiRequest, context, ok, testRuntime } from "../test-support";
import { withAuthorization } from "./authorization";

const user = { username: "alice", groups: [] };
const attributes: Attributes = { type: "resource", user, verb: "list", apiGroup: "", resource: "secrets", subresource: "", namespace: "d", name: "" };

async function decide(allowed: boolean) {
  const rt = testRuntime(() => allowed, { audit: () => {} });
  const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces/d/secrets"));
  ctx.user = user;
  ctx.attributes = attributes;
  ctx.audit = { requestURI: "/", verb: "list", sourceIPs: [], code: 0, received: new Date(), completed: new Date() };
  const result = await answerOf(withAuthorization(ok, rt), ctx).catch((e: unknown) => e);
  return { ctx, result };
}

describe("authorization", () => {
  it("lets an allowed request through, recording the decision for audit", async () => {
    const { ctx, result } = await decide(true);
    expect(result).toMatchObject({ status: 200 });
    expect(ctx.audit).toMatchObject({ decision: "allow", reason: "test" });
  });

  it("refuses with kube's 403 naming the user, verb and resource", async () => {
    const { ctx, result } = await decide(false);
    expect(isStatusError(result) && result.code).toBe(403);
    expect((result as Error).message).toBe(`secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "d"`);
    expect(ctx.audit?.decision).toBe("forbid");
  });
});

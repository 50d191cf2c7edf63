import { describe, expect, it } from "vitest";
import type { Attributes } from "../../authz/attributes";
import { isStatusError, type StatusError } from "../../status";
import { apiRequest, context, ok, testRuntime } from "../test-support";
import { withImpersonation } from "./impersonation";

const alice = { username: "alice", groups: ["system:authenticated"] };
// alice may impersonate bob, the group "devs" and the ServiceAccount d/robot, nothing else.
const allow = (a: Attributes) => a.type === "resource" && a.verb === "impersonate" && (a.name === "bob" || a.name === "devs" || (a.resource === "serviceaccounts" && a.namespace === "d" && a.name === "robot"));
const rt = testRuntime(allow, { audit: () => {} });

async function run(headers: Record<string, string | string[]>) {
  const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces", headers));
  ctx.authenticated = ctx.user = alice;
  ctx.audit = { requestURI: "/", verb: "get", sourceIPs: [], code: 0, received: new Date(), completed: new Date() };
  try {
    await withImpersonation(ok, rt)(ctx);
    return ctx;
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
}

describe("impersonation", () => {
  it("leaves the authenticated user alone without Impersonate-* headers", async () => {
    const ctx = await run({});
    expect("user" in ctx && ctx.user).toBe(alice);
  });

  it("acts as the impersonated user and groups when each is allowed, recorded for audit", async () => {
    const ctx = await run({ "impersonate-user": "bob", "impersonate-group": "devs" });
    if (!("user" in ctx)) throw ctx;
    expect(ctx.user).toEqual({ username: "bob", groups: ["devs", "system:authenticated"] });
    expect(ctx.authenticated).toBe(alice);
    expect(ctx.audit?.impersonatedUser).toEqual(ctx.user);
  });

  it("gives an impersonated ServiceAccount its groups, authorized on the serviceaccounts resource", async () => {
    const ctx = await run({ "impersonate-user": "system:serviceaccount:d:robot" });
    if (!("user" in ctx)) throw ctx;
    expect(ctx.user.groups).toEqual(["system:serviceaccounts", "system:serviceaccounts:d", "system:authenticated"]);
    expect(((await run({ "impersonate-user": "system:serviceaccount:e:robot" })) as StatusError).code).toBe(403);
  });

  it("refuses with kube's 403 what may not be impersonated, and 400 for a group without a user", async () => {
    const refused = (await run({ "impersonate-user": "carol" })) as StatusError;
    expect(refused.code).toBe(403);
    expect(refused.message).toContain(`cannot impersonate resource "users"`);
    expect(((await run({ "impersonate-group": "devs" })) as StatusError).code).toBe(400);
  });
});

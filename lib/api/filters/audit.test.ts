import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../../audit/audit-event";
import { AUDIT_ID_HEADER } from "../../audit/audit-id";
import type { Handler } from "../context";
import { apiRequest, context, testRuntime, watchAnswer } from "../test-support";
import { withAudit } from "./audit";

const alice = { username: "alice", groups: [] };

function setup(inner: Handler) {
  const lines: AuditRecord[] = [];
  const rt = testRuntime(() => true, { audit: (r) => lines.push(r) });
  return { lines, handler: withAudit(inner, rt), rt };
}

describe("audit", () => {
  it("writes one line per request, with the user and code the inner filters found, and answers the audit ID", async () => {
    const { lines, handler, rt } = setup(async (ctx) => { ctx.audit!.user = alice; return { status: 201, headers: {} }; });
    const res = await handler(context(rt, apiRequest("POST", "/api/v1/namespaces?dryRun=All", { "audit-id": "abc" })));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ auditID: "abc", requestURI: "/api/v1/namespaces?dryRun=All", user: alice, code: 201 });
    expect(res.headers[AUDIT_ID_HEADER]).toBe("abc");
  });

  it("writes two lines for a watch: when it starts and when it ends (once, however often stopped)", async () => {
    const { res: answer, stopped } = watchAnswer();
    const { lines, handler, rt } = setup(async (ctx) => { ctx.audit!.user = alice; return answer; });
    const res = await handler(context(rt, apiRequest("GET", "/api/v1/namespaces?watch=1")));
    expect(lines.map((l) => l.stage)).toEqual(["ResponseStarted"]);
    const stop = res.stream!.start({ send: () => true, close: () => {} });
    stop();
    stop();
    expect(stopped()).toBe(true);
    expect(lines.map((l) => l.stage)).toEqual(["ResponseStarted", "ResponseComplete"]);
  });

  it("logs a request that failed authentication once, without a user, and never an open path", async () => {
    const { lines, handler, rt } = setup(async (ctx) => ({ status: ctx.request.path === "/healthz" ? 200 : 401, headers: {} }));
    await handler(context(rt, apiRequest("GET", "/api/v1/secrets")));
    expect(lines).toEqual([expect.objectContaining({ stage: "ResponseStarted", code: 401 })]);
    expect(lines[0].user).toBeUndefined();
    const open = setup(async (ctx) => { ctx.open = true; return { status: 200, headers: {} }; });
    const res = await open.handler(context(open.rt, apiRequest("GET", "/healthz")));
    expect(open.lines).toEqual([]);
    expect(res.headers[AUDIT_ID_HEADER]).toBeUndefined();
  });

  it("is left out of the chain without an audit sink", () => {
    const inner: Handler = async () => ({ status: 200, headers: {} });
    expect(withAudit(inner, testRuntime())).toBe(inner);
  });
});

import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../audit/audit-event";
import type { Attributes } from "../authz/attributes";
import { buildChain } from "./chain";
import { apiRequest, context, ok, testRuntime } from "./test-support";

// alice may read configmaps in "d" and nothing else.
const allow = (a: Attributes) => a.type === "resource" && a.resource === "configmaps" && a.namespace === "d" && a.verb === "get";

function chain() {
  const lines: AuditRecord[] = [];
  const rt = testRuntime(allow, { audit: (r) => lines.push(r) });
  const handler = buildChain(rt, ok);
  return { lines, serve: (method: string, url: string, headers: Record<string, string> = {}) => handler(context(rt, apiRequest(method, url, headers))) };
}

const token = { authorization: "Bearer good" };

describe("the chain", () => {
  it("answers 401 before anything else, on real and made-up paths alike, audited without a user", async () => {
    const { lines, serve } = chain();
    expect((await serve("GET", "/api/v1/namespaces/d/configmaps/a")).status).toBe(401);
    expect((await serve("GET", "/apis/nothing.example/v1/widgets")).status).toBe(401);
    expect(lines.map((l) => [l.code, l.user])).toEqual([[401, undefined], [401, undefined]]);
  });

  it("refuses an authenticated caller 403 before routing would say 404, and lets an allowed request reach the endpoint", async () => {
    const { lines, serve } = chain();
    const refused = await serve("GET", "/apis/nothing.example/v1/widgets/w", token);
    expect(refused.status).toBe(403);
    expect(JSON.parse(String(refused.body))).toMatchObject({ kind: "Status", reason: "Forbidden" });
    expect((await serve("GET", "/api/v1/namespaces/d/configmaps/a", token)).status).toBe(200);
    expect(lines.map((l) => [l.code, l.decision, l.user?.username])).toEqual([[403, "forbid", "alice"], [200, "allow", "alice"]]);
  });

  it("answers health without credentials and leaves it out of the audit log", async () => {
    const { lines, serve } = chain();
    expect((await serve("GET", "/livez")).body).toBe("ok");
    expect(lines).toEqual([]);
  });
});

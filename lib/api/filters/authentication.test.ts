import { describe, expect, it } from "vitest";
import { isStatusError } from "../../status";
import { apiRequest, context, ok, testRuntime } from "../test-support";
import { withAuthentication } from "./authentication";

const rt = testRuntime(() => true, { sessionBearer: async (cookie) => (cookie === "session=s" ? "good" : undefined) });
const handler = withAuthentication(ok, rt);
const code = (p: Promise<unknown>) => p.then(() => 200, (e) => (isStatusError(e) ? e.code : 500));

describe("authentication", () => {
  it("answers 401 without a token and for a token nobody holds, whatever the path", async () => {
    expect(await code(handler(context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps"))))).toBe(401);
    expect(await code(handler(context(rt, apiRequest("GET", "/apis/nothing.example/v1/x", { authorization: "Bearer bad" }))))).toBe(401);
  });

  it("lets a bearer token's user through as the request's user", async () => {
    const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces", { authorization: "Bearer good" }));
    expect((await handler(ctx)).status).toBe(200);
    expect(ctx.user.username).toBe("alice");
    expect(ctx.authenticated).toBe(ctx.user);
  });

  it("accepts the console's session cookie for reads, and for writes only with X-CSRF-Protection (else 403)", async () => {
    expect(await code(handler(context(rt, apiRequest("GET", "/api/v1/namespaces", { cookie: "session=s" }))))).toBe(200);
    expect(await code(handler(context(rt, apiRequest("POST", "/api/v1/namespaces", { cookie: "session=s" }))))).toBe(403);
    expect(await code(handler(context(rt, apiRequest("POST", "/api/v1/namespaces", { cookie: "session=s", "x-csrf-protection": "1" }))))).toBe(200);
    expect(await code(handler(context(rt, apiRequest("GET", "/api/v1/namespaces", { cookie: "session=other" }))))).toBe(401);
  });
});

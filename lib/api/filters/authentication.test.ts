import { describe, expect, it } from "vitest";
import { isStatusError } from "../../status";
import type { RequestContext } from "../context";
import { answerOf, apiRequest, context, ok, testRuntime } from "../test-support";
import { bearerToken, withAuthentication } from "./authentication";

const rt = testRuntime(() => true, { sessionBearer: async (cookie) => (cookie === "session=s" ? "good" : undefined) });
const handler = withAuthentication(ok, rt);
const code = (ctx: RequestContext) => answerOf(handler, ctx).then(() => 200, (e) => (isStatusError(e) ? e.code : 500));

describe("authentication", () => {
  it("answers 401 without a token and for a token nobody holds, whatever the path", async () => {
    expect(await code((context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps"))))).toBe(401);
    expect(await code((context(rt, apiRequest("GET", "/apis/nothing.example/v1/x", { authorization: "Bearer bad" }))))).toBe(401);
  });

  it("lets a bearer token's user through as the request's user", async () => {
    const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces", { authorization: "Bearer good" }));
    expect((await handler(ctx)).status).toBe(200);
    expect(ctx.user.username).toBe("alice");
    expect(ctx.authenticated).toBe(ctx.user);
  });

  it("accepts the console's session cookie for reads, and for writes only with X-CSRF-Protection (else 403)", async () => {
    expect(await code((context(rt, apiRequest("GET", "/api/v1/namespaces", { cookie: "session=s" }))))).toBe(200);
    expect(await code((context(rt, apiRequest("POST", "/api/v1/namespaces", { cookie: "session=s" }))))).toBe(403);
    expect(await code((context(rt, apiRequest("POST", "/api/v1/namespaces", { cookie: "session=s", "x-csrf-protection": "1" }))))).toBe(200);
    expect(await code((context(rt, apiRequest("GET", "/api/v1/namespaces", { cookie: "session=other" }))))).toBe(401);
  });

  it("reads the token of a Bearer header as kube clients send it, and nothing else", () => {
    // The answers of the pattern it replaced, /^Bearer\s+(.+)$/i over the trimmed value.
    const old = (h: string) => { const m = /^Bearer\s+(.+)$/i.exec(h.trim()); return m ? m[1].trim() : undefined; };
    const jwt = "eyJhbGciOiJSUzI1NiJ9." + "a".repeat(900) + ".sig";
    const cases = [
      `Bearer ${jwt}`, `bearer ${jwt}`, `BEARER\t${jwt}`, `  Bearer   ${jwt}  `, "Bearer\u00a0tok", "Bearer \ntok", "Bearer a b",
      "Bearer", "Bearer ", "Bearer  \t ", "Bearertok", "Basic dXNlcjpwYXNz", "Bearer tok\nmore", "Bearer tok\u2028more", "xBearer tok", "",
    ];
    for (const h of cases) expect([h, bearerToken(h)]).toEqual([h, old(h)]);
    expect(bearerToken(`Bearer ${jwt}`)).toBe(jwt);
    expect(bearerToken("Bearertok")).toBeUndefined();
  });
});

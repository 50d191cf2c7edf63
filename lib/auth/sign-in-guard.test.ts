import { describe, expect, it } from "vitest";
import { guardSignIn, isHttpUrl, signInRefusal } from "./sign-in-guard";

const BASE = "https://console.example:6443";
const req = (path: string, init: RequestInit = {}) => new Request(`${BASE}${path}`, init);
const form = (body: string, headers: Record<string, string> = {}) => ({ method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });

describe("sign-in guard", () => {
  it("refuses a GET or HEAD of the credentials callback with 405", async () => {
    for (const method of ["GET", "HEAD"]) {
      const refusal = await signInRefusal(req("/api/auth/callback/token?code=x", { method }));
      expect(refusal?.code).toBe(405);
    }
    expect(await signInRefusal(req("/api/auth/callback/token", form("token=t&csrfToken=c")))).toBeUndefined();
  });

  it("lets an OAuth provider's callback come back by GET (the browser returning from the identity provider)", async () => {
    expect(await signInRefusal(req("/api/auth/callback/oidc?code=c&state=s"), ["oidc"])).toBeUndefined();
    expect((await signInRefusal(req("/api/auth/callback/token?code=c"), ["oidc"]))?.code).toBe(405);
    expect((await signInRefusal(req("/api/auth/callback/oidc?code=c"), []))?.code).toBe(405);
  });

  it("refuses a body that says JSON and is not, without quoting it", async () => {
    const refusal = await signInRefusal(req("/api/auth/session", { method: "POST", body: '{"token":"s3cret', headers: { "content-type": "application/json" } }));
    expect(refusal?.code).toBe(400);
    expect(refusal?.message).not.toContain("s3cret");
    expect(await signInRefusal(req("/api/auth/_log", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }))).toBeUndefined();
  });

  it("refuses a callbackUrl that is not a path or an http(s) URL, wherever it comes from", async () => {
    expect((await signInRefusal(req("/api/auth/signin?callbackUrl=%25zz")))?.code).toBe(400);
    expect((await signInRefusal(req("/api/auth/session", { headers: { cookie: "a=b; __Secure-next-auth.callback-url=javascript%3Aalert(1)" } })))?.code).toBe(400);
    expect((await signInRefusal(req("/api/auth/callback/token", form("callbackUrl=%25zz"))))?.code).toBe(400);
    expect((await signInRefusal(req("/api/auth/signout", { method: "POST", body: '{"callbackUrl":5}', headers: { "content-type": "application/json" } })))?.code).toBe(400);
    expect(await signInRefusal(req("/api/auth/signin?callbackUrl=%2Fnamespaces%2Fa"))).toBeUndefined();
    expect(await signInRefusal(req("/api/auth/session", { headers: { cookie: `next-auth.callback-url=${encodeURIComponent(`${BASE}/pods`)}` } }))).toBeUndefined();
    expect(isHttpUrl("/x", BASE)).toBe(true);
    expect(isHttpUrl("https://other.example/", BASE)).toBe(true);
    expect(isHttpUrl("ftp://x/", BASE)).toBe(false);
  });

  it("answers a refusal as a Status and passes everything else to next-auth", async () => {
    let called = 0;
    const handler = guardSignIn(async () => (called++, new Response("next-auth")));
    const refused = await handler(req("/api/auth/callback/token"), {});
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("POST");
    expect(await refused.json()).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code: 405, reason: "MethodNotAllowed" });
    expect(called).toBe(0);
    expect(await (await handler(req("/api/auth/csrf"), {})).text()).toBe("next-auth");
    expect(called).toBe(1);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAuthenticator, type LookedUpObject } from "../../auth/authenticator";
import { ServiceAccountTokens } from "../../auth/service-account-token";
import { isStatusError } from "../../status";
import type { RequestContext } from "../context";
import { answerOf, apiRequest, context, ok, testRuntime } from "../test-support";
import { bearerToken, withAuthentication } from "./authentication";

const rt = testRuntime(() => true, { sessionBearer: async (cookie) => (cookie === "session=s" ? { bearer: "good" } : undefined) });
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

describe("a connection's memo", () => {
  /** The real authenticator (kube's 10 s token cache) over ServiceAccounts the test adds and deletes. */
  async function setup() {
    const dir = mkdtempSync(path.join(tmpdir(), "cc-authn-filter-"));
    let clock = Date.UTC(2026, 10, 28, 12);
    const accounts = new Map<string, LookedUpObject>([["apps/deployer", { uid: "sa-1" }]]);
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now: () => clock });
    const verified: string[] = [];
    const authn = createAuthenticator({
      adminToken: "admin-SECRET", serviceAccountTokens: tokens, successCacheTtlMs: 10_000, now: () => clock,
      lookup: { serviceAccount: (ns, name) => { verified.push(name); return accounts.get(`${ns}/${name}`); }, secret: () => undefined },
    });
    const real = testRuntime(() => true, { authenticate: authn, authenticateLease: authn.lease });
    const handler = withAuthentication(ok, real);
    const status = (headers: Record<string, string>, connection?: object) => {
      const req = { ...apiRequest("GET", "/api/v1/namespaces/d/configmaps/a", headers), connection };
      return answerOf(handler, context(real, req)).then((r) => r.status, (e) => (isStatusError(e) ? e.code : 500));
    };
    const token = (await tokens.issue({ namespace: "apps", name: "deployer", uid: "sa-1", expirationSeconds: 600 })).token;
    return {
      authn, accounts, verified, status, bearer: { authorization: `Bearer ${token}` },
      tick: (ms: number) => { clock += ms; }, done: () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  /** `setup()` and one keep-alive connection whose first request, with the ServiceAccount's token, was accepted. */
  async function connected() {
    const t = await setup();
    const connection = {};
    expect(await t.status(t.bearer, connection)).toBe(200);
    return { ...t, connection };
  }

  it("answers the same header from memory, and refuses a deleted ServiceAccount's token on the same connection's next request", async () => {
    const t = await connected();
    const connection = t.connection;
    expect(await t.status(t.bearer, connection)).toBe(200);
    expect(t.verified).toEqual(["deployer"]);
    // The account goes: the watch cache's event reaches the authenticator (lib/server/security.ts) before the
    // delete is answered, and the connection's very next request is refused.
    t.accounts.delete("apps/deployer");
    t.authn.forget("serviceaccounts", "apps", "deployer");
    expect(await t.status(t.bearer, connection)).toBe(401);
    t.done();
  });

  it("refuses an expired token on the same connection, and does not outlast the cache's 10 s", async () => {
    const t = await connected();
    const connection = t.connection;
    t.tick(9_000);
    expect(await t.status(t.bearer, connection)).toBe(200);
    expect(t.verified).toHaveLength(1);
    // Past the cache's 10 s: verified again (and still good).
    t.tick(1_000);
    expect(await t.status(t.bearer, connection)).toBe(200);
    expect(t.verified).toHaveLength(2);
    // Past the token's exp plus kube's 60 s leeway: refused, though the connection presented it a moment ago.
    for (let i = 0; i < 71; i++) { t.tick(9_000); expect(await t.status(t.bearer, connection)).toBe(200); }
    t.tick(12_000); // 661 s after it was issued for 600
    expect(await t.status(t.bearer, connection)).toBe(401);
    t.done();
  });

  it("verifies another header on the same connection afresh, and remembers nothing without a connection", async () => {
    const t = await connected();
    const connection = t.connection;
    expect(await t.status({ authorization: "Bearer not-a-token" }, connection)).toBe(401);
    expect(await t.status({ authorization: `${t.bearer.authorization}x` }, connection)).toBe(401);
    expect(await t.status({}, connection)).toBe(401);
    expect(await t.status(t.bearer, connection)).toBe(200);
    // Without a connection (the fetch adapter) every request asks the authenticator: the account's deletion is
    // seen by the lookup once the cache forgets it.
    t.accounts.delete("apps/deployer");
    t.authn.forget("serviceaccounts", "apps", "deployer");
    expect(await t.status(t.bearer)).toBe(401);
    t.done();
  });
});

describe("a connection's memo of a session cookie", () => {
  it("answers the same cookie from memory no longer than the session, and checks X-CSRF-Protection on every write", async () => {
    const decoded: string[] = [];
    let ends = Date.now() + 150;
    const admin = { user: Object.freeze({ username: "admin", groups: Object.freeze(["system:masters"]) as string[] }), valid: () => true };
    const cookieRt = testRuntime(() => true, {
      sessionBearer: async (cookie) => { decoded.push(cookie); return cookie === "session=s" && Date.now() < ends ? { bearer: "admin", expiresAtMs: ends } : undefined; },
      authenticateLease: (token) => (token === "admin" ? admin : undefined),
    });
    const handler = withAuthentication(ok, cookieRt);
    const connection = {};
    const status = (method: string, headers: Record<string, string>) =>
      answerOf(handler, context(cookieRt, { ...apiRequest(method, "/api/v1/namespaces", headers), connection })).then((r) => r.status, (e) => (isStatusError(e) ? e.code : 500));
    expect(await status("GET", { cookie: "session=s" })).toBe(200);
    expect(await status("GET", { cookie: "session=s" })).toBe(200);
    expect(decoded).toHaveLength(1);
    expect(await status("POST", { cookie: "session=s" })).toBe(403);
    expect(await status("POST", { cookie: "session=s", "x-csrf-protection": "1" })).toBe(200);
    expect(decoded).toHaveLength(1);
    // Another cookie is decoded afresh (refused, it leaves the memo as it was); the session's end ends the memo
    // (the cookie is then decoded again, and refused).
    expect(await status("GET", { cookie: "session=other" })).toBe(401);
    expect(await status("GET", { cookie: "session=s" })).toBe(200);
    expect(decoded).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 200));
    expect(await status("GET", { cookie: "session=s" })).toBe(401);
    expect(decoded).toHaveLength(3);
    ends = Date.now() + 60_000;
    expect(await status("GET", { cookie: "session=s" })).toBe(200);
  });
});

import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { acceptsToken } from "./next-auth-options";
import { bearerFromSessionCookie, sessionCookieValue, sessionFromCookie } from "./session";

const secret = "test-secret";

// The server's authenticator as the console's sign-in sees it: the admin token, one token-file user, and a
// token whose check fails inside the authenticator.
const authenticate = async (token: string) => {
  if (token === "admin-secret") return { username: "admin", groups: ["system:masters", "system:authenticated"] };
  if (token === "dev-token") return { username: "dev", uid: "dev-uid", groups: ["devs", "system:authenticated"] };
  if (token === "boom") throw new Error("authenticator failed");
  return undefined;
};
const accepts = (token: string) => acceptsToken(token, authenticate);

describe("bearerFromSessionCookie", () => {
  afterEach(() => {
    delete process.env.NEXTAUTH_SECRET;
    delete process.env.CLUSTER_ADMIN_TOKEN;
  });

  it("reads the bearer from a plain or __Secure- session cookie", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    const jwt = await encode({ token: { bearer: "tok-1", name: "admin" }, secret });
    expect(await bearerFromSessionCookie(`a=b; next-auth.session-token=${jwt}`)).toBe("tok-1");
    expect(await bearerFromSessionCookie(`__Secure-next-auth.session-token=${jwt}; x=y`)).toBe("tok-1");
  });

  it("joins chunked cookies in order", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    const jwt = await encode({ token: { bearer: "tok-2" }, secret });
    const mid = Math.floor(jwt.length / 2);
    const header = `next-auth.session-token.1=${jwt.slice(mid)}; next-auth.session-token.0=${jwt.slice(0, mid)}`;
    expect(sessionCookieValue(header)).toBe(jwt);
    expect(await bearerFromSessionCookie(header)).toBe("tok-2");
  });

  it("answers undefined for a missing, forged, foreign-secret or expired cookie", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    expect(await bearerFromSessionCookie(undefined)).toBeUndefined();
    expect(await bearerFromSessionCookie("next-auth.session-token=garbage")).toBeUndefined();
    const foreign = await encode({ token: { bearer: "x" }, secret: "other" });
    expect(await bearerFromSessionCookie(`next-auth.session-token=${foreign}`)).toBeUndefined();
    const expired = await encode({ token: { bearer: "x" }, secret, maxAge: -60 });
    expect(await bearerFromSessionCookie(`next-auth.session-token=${expired}`)).toBeUndefined();
  });

  it("tells when the session ends (its exp), for those who keep its answer", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    const before = Date.now();
    const jwt = await encode({ token: { bearer: "tok-3" }, secret, maxAge: 3600 });
    const session = (await sessionFromCookie(`next-auth.session-token=${jwt}`))!;
    expect(session.bearer).toBe("tok-3");
    expect(session.expiresAtMs! - before).toBeGreaterThan(3_595_000);
    expect(session.expiresAtMs! - before).toBeLessThanOrEqual(3_601_000);
  });

  it("answers undefined when no secret is configured", async () => {
    const jwt = await encode({ token: { bearer: "x" }, secret });
    expect(await bearerFromSessionCookie(`next-auth.session-token=${jwt}`)).toBeUndefined();
  });
});

describe("acceptsToken", () => {
  it("accepts any token the API's authenticator accepts and answers who it is", async () => {
    expect(await accepts("admin-secret")).toMatchObject({ username: "admin" });
    expect(await accepts("dev-token")).toMatchObject({ username: "dev", groups: ["devs", "system:authenticated"] });
  });

  it("refuses unknown, empty, oversized or malformed tokens and authenticator failures without throwing", async () => {
    expect(await accepts("admin-secre")).toBeUndefined();
    expect(await accepts("")).toBeUndefined();
    expect(await accepts("a".repeat(100_000))).toBeUndefined();
    expect(await accepts("admin-secret\nX-Injected: 1")).toBeUndefined();
    expect(await accepts("boom")).toBeUndefined();
  });
});

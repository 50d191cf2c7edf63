import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { acceptsToken } from "./next-auth-options";
import { bearerFromSessionCookie, sessionCookieValue } from "./session";

const secret = "test-secret";

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

  it("answers undefined when no secret is configured", async () => {
    const jwt = await encode({ token: { bearer: "x" }, secret });
    expect(await bearerFromSessionCookie(`next-auth.session-token=${jwt}`)).toBeUndefined();
  });
});

describe("acceptsToken", () => {
  it("accepts exactly the admin token", () => {
    process.env.CLUSTER_ADMIN_TOKEN = "admin-secret";
    expect(acceptsToken("admin-secret")).toBe(true);
    expect(acceptsToken("admin-secre")).toBe(false);
    expect(acceptsToken("")).toBe(false);
  });
});

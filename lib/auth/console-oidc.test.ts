import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { endSessionUrl, oidcProvider, oidcTokens, refreshTime } from "./console-oidc";

const key = new TextEncoder().encode("a-test-key-of-thirty-two-bytes!!");
const idToken = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(key);

describe("the console's OIDC sign-in", () => {
  it("refreshes a quarter of a token's life before it ends, at least 5 s and at most 5 minutes before", () => {
    expect(refreshTime(1000 + 3600, 1000)).toBe(1000 + 3600 - 300);
    expect(refreshTime(1000 + 600, 1000)).toBe(1000 + 600 - 150);
    expect(refreshTime(1000 + 8, 1000)).toBe(1000 + 3);
    expect(refreshTime(900, 1000)).toBe(895);
  });

  it("keeps the ID token as the bearer with its expiry; a token without exp is refused", async () => {
    const token = await idToken({ sub: "ada", exp: 5000 });
    expect(oidcTokens(token, "r1", 4000)).toEqual({ bearer: token, refreshToken: "r1", bearerExpiresAt: 5000, refreshAt: 4750 });
    expect(oidcTokens(await idToken({ sub: "ada" }), undefined, 4000)).toBeUndefined();
    expect(oidcTokens("not-a-jwt", undefined, 4000)).toBeUndefined();
  });

  it("is a public client with PKCE unless a secret is given, asking for the configured scopes", () => {
    const pub = oidcProvider({ issuer: "https://id.example.com/", clientId: "console", name: "Acme", scopes: ["openid", "groups"] });
    expect(pub).toMatchObject({
      id: "oidc",
      name: "Acme",
      wellKnown: "https://id.example.com/.well-known/openid-configuration",
      client: { token_endpoint_auth_method: "none" },
      checks: ["pkce", "state"],
      idToken: true,
      authorization: { params: { scope: "openid groups" } },
    });
    const confidential = oidcProvider({ issuer: "https://id.example.com", clientId: "console", clientSecret: "s", name: "Acme", scopes: ["openid"] });
    expect(confidential.client).toBeUndefined();
    expect(confidential.clientSecret).toBe("s");
    expect(pub.profile({ sub: "u1", preferred_username: "ada", email: "ada@example.com" }, {})).toEqual({ id: "u1", name: "ada", email: "ada@example.com" });
  });

  it("has no end-session URL when the provider cannot be asked", async () => {
    expect(await endSessionUrl({ issuer: "https://127.0.0.1:1", clientId: "c", name: "x", scopes: ["openid"] }, "https://console/signin")).toBeUndefined();
  });
});

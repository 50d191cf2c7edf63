import { describe, expect, it } from "vitest";
import { loadConsoleOidcConfig } from "./console-oidc";

describe("loadConsoleOidcConfig", () => {
  it("is off without an issuer", () => {
    expect(loadConsoleOidcConfig({})).toBeUndefined();
    expect(loadConsoleOidcConfig({ OIDC_CLIENT_ID: "kube", CONSOLE_OIDC_ISSUER_URL: " " })).toBeUndefined();
  });

  it("falls back to the API's OIDC flags, names the button after the issuer's host and asks for openid", () => {
    expect(loadConsoleOidcConfig({ OIDC_ISSUER_URL: "https://id.example.com/realms/a", OIDC_CLIENT_ID: "kube", OIDC_CA_FILE: "/ca.pem" })).toEqual({
      issuer: "https://id.example.com/realms/a",
      clientId: "kube",
      clientSecret: undefined,
      name: "id.example.com",
      scopes: ["openid", "profile", "email", "offline_access"],
      caFile: "/ca.pem",
    });
  });

  it("takes the console's own client, secret, name and scopes over the API's", () => {
    const config = loadConsoleOidcConfig({
      OIDC_ISSUER_URL: "https://a.example.com",
      OIDC_CLIENT_ID: "kube",
      CONSOLE_OIDC_ISSUER_URL: "https://b.example.com",
      CONSOLE_OIDC_CLIENT_ID: "console",
      CONSOLE_OIDC_CLIENT_SECRET: "s",
      CONSOLE_OIDC_NAME: "Acme SSO",
      CONSOLE_OIDC_SCOPES: "email,groups",
    });
    expect(config).toMatchObject({ issuer: "https://b.example.com", clientId: "console", clientSecret: "s", name: "Acme SSO", scopes: ["openid", "email", "groups"] });
  });

  it("refuses an issuer that is not https, has a query, or has no client", () => {
    expect(() => loadConsoleOidcConfig({ OIDC_ISSUER_URL: "http://id.example.com", OIDC_CLIENT_ID: "c" })).toThrow("OIDC_ISSUER_URL: must use https (got http)");
    expect(() => loadConsoleOidcConfig({ CONSOLE_OIDC_ISSUER_URL: "https://id.example.com/?x=1", OIDC_CLIENT_ID: "c" })).toThrow("CONSOLE_OIDC_ISSUER_URL: must not have a query");
    expect(() => loadConsoleOidcConfig({ OIDC_ISSUER_URL: "not a url" })).toThrow("OIDC_ISSUER_URL: not a URL");
    expect(() => loadConsoleOidcConfig({ OIDC_ISSUER_URL: "https://id.example.com" })).toThrow("CONSOLE_OIDC_CLIENT_ID (or OIDC_CLIENT_ID): required");
  });
});

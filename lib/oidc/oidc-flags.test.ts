import { describe, expect, it } from "vitest";
import { checkSigningAlgs, jwtAuthenticatorFromFlags, type OidcFlags } from "./oidc-flags";

const flags = (over: Partial<OidcFlags> = {}): OidcFlags => ({
  issuerURL: "https://issuer.example", clientID: "cc", usernameClaim: "sub", requiredClaims: [], signingAlgs: ["RS256"], ...over,
});

describe("OIDC_* settings as kube's --oidc-* flags", () => {
  it("prefixes a claim other than email with <issuer># unless a prefix is given; - disables it", () => {
    expect(jwtAuthenticatorFromFlags(flags()).claimMappings.username).toEqual({ claim: "sub", prefix: "https://issuer.example#" });
    expect(jwtAuthenticatorFromFlags(flags({ usernameClaim: "email" })).claimMappings.username).toEqual({ claim: "email", prefix: "" });
    expect(jwtAuthenticatorFromFlags(flags({ usernamePrefix: "-" })).claimMappings.username).toEqual({ claim: "sub", prefix: "" });
    expect(jwtAuthenticatorFromFlags(flags({ usernamePrefix: "corp:" })).claimMappings.username).toEqual({ claim: "sub", prefix: "corp:" });
  });

  it("maps groups, required claims, the audience and the CA file", () => {
    const a = jwtAuthenticatorFromFlags(flags({ groupsClaim: "groups", groupsPrefix: "oidc:", requiredClaims: [["hd", "example.com"]], caFile: "/ca.pem" }), () => "PEM");
    expect(a).toEqual({
      issuer: { url: "https://issuer.example", audiences: ["cc"], certificateAuthority: "PEM" },
      claimMappings: { username: { claim: "sub", prefix: "https://issuer.example#" }, groups: { claim: "groups", prefix: "oidc:" } },
      claimValidationRules: [{ claim: "hd", requiredValue: "example.com" }],
    });
    expect(() => jwtAuthenticatorFromFlags(flags({ caFile: "/nope/ca.pem" }))).toThrow("OIDC_CA_FILE: open /nope/ca.pem: no such file or directory");
  });

  it("allows kube's nine algorithms and defaults to RS256", () => {
    expect(checkSigningAlgs([])).toEqual(["RS256"]);
    expect(checkSigningAlgs(["ES256", "PS512"])).toEqual(["ES256", "PS512"]);
    expect(() => checkSigningAlgs(["RS256", "HS256"])).toThrow('oidc: unsupported signing alg: "HS256"');
  });
});

import { describe, expect, it } from "vitest";
import type { AuthenticationConfiguration, JWTAuthenticator } from "./authentication-configuration";
import { aggregate, validateAuthenticationConfiguration } from "./validation";

const jwt = (over: Partial<JWTAuthenticator> = {}): JWTAuthenticator => ({
  issuer: { url: "https://issuer.example", audiences: ["cluster-core"] },
  claimMappings: { username: { claim: "sub", prefix: "" } },
  ...over,
});
const SA_ISSUER = "https://kubernetes.default.svc.cluster.local";
const messages = (config: AuthenticationConfiguration) =>
  validateAuthenticationConfiguration(config, [SA_ISSUER]).errors.map((e) => `${e.field}: ${e.detail}`);

describe("validateAuthenticationConfiguration (kube's messages)", () => {
  it("accepts a minimal issuer and compiles its expressions once", () => {
    const { errors, authenticators } = validateAuthenticationConfiguration({ jwt: [jwt({
      claimMappings: { username: { expression: "claims.sub" }, groups: { expression: "claims.groups" } },
    })] }, [SA_ISSUER]);
    expect(errors).toEqual([]);
    expect(authenticators[0].username?.evaluate({ sub: "ann" })).toBe("ann");
  });

  it("has no prefix defaulting: a claim needs an explicit prefix, an expression may not have one", () => {
    expect(messages({ jwt: [jwt({ claimMappings: { username: { claim: "sub" } } })] })).toEqual([
      "jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing",
    ]);
    expect(messages({ jwt: [jwt({ claimMappings: { username: { expression: "claims.sub", prefix: "x:" } } })] })).toEqual([
      'jwt[0].claimMappings.username.prefix: Invalid value: "x:": may not be specified when expression is set',
    ]);
    expect(messages({ jwt: [jwt({ claimMappings: { username: { claim: "sub", prefix: "", expression: "claims.sub" } } })] })).toEqual([
      'jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
    ]);
    expect(messages({ jwt: [jwt({ claimMappings: { username: {} } })] })).toEqual([
      "jwt[0].claimMappings.username: Required value: claim or expression is required",
    ]);
  });

  it("checks issuer URLs, audiences and the ServiceAccount issuer", () => {
    expect(messages({ jwt: [jwt({ issuer: { url: "http://issuer.example?x=1", audiences: [] } })] })).toEqual([
      'jwt[0].issuer.url: Invalid value: "http://issuer.example?x=1": URL scheme must be https',
      'jwt[0].issuer.url: Invalid value: "http://issuer.example?x=1": URL must not contain a query',
      "jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required",
    ]);
    expect(messages({ jwt: [jwt({ issuer: { url: SA_ISSUER, audiences: ["a"] } })] })).toEqual([
      `jwt[0].issuer.url: Invalid value: "${SA_ISSUER}": URL must not overlap with disallowed issuers: [${SA_ISSUER}]`,
    ]);
    expect(messages({ jwt: [jwt({ issuer: { url: "https://i.example", audiences: ["a", "b"] } })] })).toEqual([
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    ]);
    expect(messages({ jwt: [jwt(), jwt()] })).toEqual(['jwt[1].issuer.url: Duplicate value: "https://issuer.example"']);
    expect(messages({ jwt: [jwt({ issuer: { url: "https://i.example", audiences: ["a"], certificateAuthority: "not pem" } })] })).toEqual([
      'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    ]);
  });

  it("names a CEL expression that does not compile", () => {
    const [message] = messages({ jwt: [jwt({ claimMappings: { username: { expression: "claim.sub" } } })] });
    expect(message).toMatch(/^jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "claim\.sub": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claim' \(in container ''\)/);
    const [syntax] = messages({ jwt: [jwt({ claimValidationRules: [{ expression: "claims.a ==" }] })] });
    expect(syntax).toMatch(/^jwt\[0\]\.claimValidationRules\[0\]\.expression: Invalid value: "claims\.a ==": compilation failed: ERROR: /);
    const [user] = messages({ jwt: [jwt({ userValidationRules: [{ expression: "claims.sub == 'x'" }] })] });
    expect(user).toMatch(/userValidationRules\[0\]\.expression: .*undeclared reference to 'claims'/);
  });

  it("requires email_verified wherever claims.email maps the username", () => {
    expect(messages({ jwt: [jwt({ claimMappings: { username: { expression: "claims.email" } } })] })[0]).toContain(
      "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression",
    );
    expect(messages({ jwt: [jwt({
      claimMappings: { username: { expression: "claims.email" } },
      claimValidationRules: [{ expression: "claims.email_verified == true" }],
    })] })).toEqual([]);
  });

  it("checks extra keys and rules as kube does", () => {
    expect(messages({ jwt: [jwt({ claimMappings: { username: { claim: "sub", prefix: "" }, extra: [
      { key: "example.com/Team", valueExpression: "claims.team" },
      { key: "kubernetes.io/x", valueExpression: "claims.x" },
      { key: "nodomain", valueExpression: "claims.x" },
    ] } })] })).toEqual([
      'jwt[0].claimMappings.extra[0].key: Invalid value: "example.com/Team": must be lowercase',
      'jwt[0].claimMappings.extra[1].key: Invalid value: "kubernetes.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
      'jwt[0].claimMappings.extra[2].key: Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
    expect(messages({ jwt: [jwt({ claimValidationRules: [{ claim: "hd", requiredValue: "x", message: "m" }, { claim: "hd", requiredValue: "y" }] })] })).toEqual([
      'jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set',
      'jwt[0].claimValidationRules[1].claim: Duplicate value: "hd"',
    ]);
  });

  it("aggregates as kube prints several errors", () => {
    const errors = validateAuthenticationConfiguration({ jwt: [jwt({ issuer: { url: "http://a", audiences: [] } })] }, []).errors;
    expect(aggregate(errors)).toBe('[jwt[0].issuer.url: Invalid value: "http://a": URL scheme must be https, jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required]');
  });
});

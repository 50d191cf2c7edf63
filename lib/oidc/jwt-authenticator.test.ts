// The verifier against a real HTTPS issuer whose keys the test controls (e2e/api/oidc-issuers.ts), with a
// clock the test sets: kube's exp/nbf/iat rules, audiences, algorithms, kid refetch and claim mappings.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIssuer, testCA, type FakeIssuer } from "../../e2e/api/oidc-issuers";
import type { ServingCertificate } from "../tls/certificates";
import type { JWTAuthenticator } from "./authentication-configuration";
import { ALL_SIGNING_ALGS, JwtAuthenticator, type TokenResult } from "./jwt-authenticator";
import { validateAuthenticationConfiguration } from "./validation";

let dir: string;
let tls: ServingCertificate;
let issuer: FakeIssuer;
let clock = Date.now();
const now = () => clock;
const open: JwtAuthenticator[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oidc-unit-"));
  tls = await testCA(dir);
  issuer = await startFakeIssuer(tls);
  await issuer.addKey("k1");
});
afterAll(async () => {
  open.forEach((a) => a.close());
  await issuer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function authenticator(over: Partial<JWTAuthenticator> = {}, algs: readonly string[] = ["RS256"], log?: (l: string) => void) {
  const config: JWTAuthenticator = {
    issuer: { url: issuer.url, audiences: ["cluster-core"], certificateAuthority: tls.ca },
    claimMappings: { username: { claim: "sub", prefix: "" } },
    ...over,
  };
  const { errors, authenticators } = validateAuthenticationConfiguration({ jwt: [config] }, []);
  expect(errors).toEqual([]);
  const a = new JwtAuthenticator(authenticators[0], { signingAlgs: algs, now, log });
  open.push(a);
  return a;
}
const ready = async (a: JwtAuthenticator) => { await a.ready; return a; };
const error = (r: TokenResult) => (r.status === "refused" ? r.error : r.status);
const seconds = () => Math.floor(clock / 1000);

describe("JwtAuthenticator", () => {
  it("maps a valid token to its user, with the credential id from jti, and says when the token ends", async () => {
    clock = Date.now();
    const a = await ready(await authenticator());
    const exp = seconds() + 600;
    const r = await a.authenticateToken(await issuer.token({ sub: "ann", jti: "abc", exp }));
    expect(r).toEqual({ status: "ok", user: { username: "ann", groups: [], extra: { "authentication.kubernetes.io/credential-id": ["JTI=abc"] } }, expiresAt: exp });
  });

  it("leaves tokens of other issuers and non-JWTs to other authenticators", async () => {
    const a = await ready(await authenticator());
    expect((await a.authenticateToken(await issuer.token({ iss: "https://other.example" }))).status).toBe("not-ours");
    expect((await a.authenticateToken("plain-static-token")).status).toBe("not-ours");
  });

  it("has no leeway on exp, refuses a token without exp, allows nbf a minute ahead and ignores iat", async () => {
    const a = await ready(await authenticator());
    clock = Date.now();
    const exp = seconds() - 1;
    expect(error(await a.authenticateToken(await issuer.token({ exp })))).toBe(
      `oidc: verify token: oidc: token is expired (Token Expiry: ${new Date(exp * 1000).toISOString().slice(0, 19).replace("T", " ")} +0000 UTC)`);
    expect(error(await a.authenticateToken(await issuer.token({ exp: undefined })))).toBe("oidc: verify token: oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)");
    expect((await a.authenticateToken(await issuer.token({ nbf: seconds() + 55 }))).status).toBe("ok");
    expect(error(await a.authenticateToken(await issuer.token({ nbf: seconds() + 65 })))).toMatch(/before the nbf \(not before\) time/);
    expect((await a.authenticateToken(await issuer.token({ iat: seconds() + 3600 }))).status).toBe("ok");
    // Times may be JSON strings holding numbers (Go's json.Number), not other strings.
    expect((await a.authenticateToken(await issuer.token({ exp: String(seconds() + 60) }))).status).toBe("ok");
    expect(error(await a.authenticateToken(await issuer.token({ exp: "soon" })))).toBe(
      "oidc: verify token: oidc: failed to unmarshal claims: json: cannot unmarshal string into Go struct field idToken.exp of type oidc.jsonTime");
  });

  it("checks the audience, one or any of several", async () => {
    const a = await ready(await authenticator());
    expect(error(await a.authenticateToken(await issuer.token({ aud: ["other"] })))).toBe('oidc: verify token: oidc: expected audience "cluster-core" got ["other"]');
    const many = await ready(await authenticator({ issuer: { url: issuer.url, audiences: ["x", "cluster-core"], audienceMatchPolicy: "MatchAny", certificateAuthority: tls.ca } }));
    expect((await many.authenticateToken(await issuer.token({ aud: ["y", "cluster-core"] }))).status).toBe("ok");
    expect(error(await many.authenticateToken(await issuer.token({ aud: "y" })))).toBe('oidc: verify token: oidc: expected audience in ["cluster-core" "x"] got ["y"]');
  });

  it("accepts only allowed algorithms, and signatures of published keys", async () => {
    await issuer.addKey("ec1", { alg: "ES256" });
    const rsOnly = await ready(await authenticator());
    expect(error(await rsOnly.authenticateToken(await issuer.token({}, { kid: "ec1" })))).toBe('oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"');
    expect(error(await rsOnly.authenticateToken(await issuer.token({}, { alg: "HS256" })))).toContain('got "HS256"');
    const all = await ready(await authenticator({}, ALL_SIGNING_ALGS));
    expect((await all.authenticateToken(await issuer.token({}, { kid: "ec1" }))).status).toBe("ok");
    await issuer.addKey("stray", { publish: false });
    expect(error(await all.authenticateToken(await issuer.token({}, { kid: "stray" })))).toBe("oidc: verify token: failed to verify signature: failed to verify id token signature");
  });

  it("refetches the JWKS at once for an unknown kid, unless its caching headers say it is fresh", async () => {
    clock = Date.now();
    const a = await ready(await authenticator());
    await issuer.addKey("rotated", { publish: false });
    const token = await issuer.token({}, { kid: "rotated" });
    const before = issuer.jwksFetches;
    expect((await a.authenticateToken(token)).status).toBe("refused");
    expect(issuer.jwksFetches).toBe(before + 1); // no cache headers: refetched at once
    issuer.publish("rotated");
    issuer.jwksHeaders = { "cache-control": "max-age=300" };
    expect((await a.authenticateToken(token)).status).toBe("ok"); // the rotation is followed without a restart
    await issuer.addKey("later", { publish: true });
    const later = await issuer.token({}, { kid: "later" });
    const fetched = issuer.jwksFetches;
    expect(error(await a.authenticateToken(later))).toContain("failed to verify id token signature");
    expect(issuer.jwksFetches).toBe(fetched); // still fresh: no refetch
    clock += 280_000; // within 30 s of the expiry: stale
    expect((await a.authenticateToken(later)).status).toBe("ok");
    expect(issuer.jwksFetches).toBe(fetched + 1);
    issuer.jwksHeaders = {};
    clock = Date.now();
  });

  it("requires email_verified to be a JSON true when the username claim is email", async () => {
    const a = await ready(await authenticator({ claimMappings: { username: { claim: "email", prefix: "" } } }));
    expect((await a.authenticateToken(await issuer.token({ email: "ann@example.com", email_verified: true })))).toMatchObject({ status: "ok", user: { username: "ann@example.com" } });
    expect((await a.authenticateToken(await issuer.token({ email: "ann@example.com" }))).status).toBe("ok");
    expect(error(await a.authenticateToken(await issuer.token({ email: "ann@example.com", email_verified: "true" })))).toBe("oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool");
    expect(error(await a.authenticateToken(await issuer.token({ email: "ann@example.com", email_verified: false })))).toBe("oidc: email not verified");
  });

  it("maps groups given as a string or an array, with prefixes, and required claims", async () => {
    const a = await ready(await authenticator({
      claimMappings: { username: { claim: "sub", prefix: "corp:" }, groups: { claim: "groups", prefix: "oidc:" }, uid: { claim: "oid" } },
      claimValidationRules: [{ claim: "hd", requiredValue: "example.com" }],
    }));
    expect(await a.authenticateToken(await issuer.token({ sub: "ann", groups: "devs", oid: "u-1", hd: "example.com" }))).toEqual({
      status: "ok", user: { username: "corp:ann", uid: "u-1", groups: ["oidc:devs"] }, expiresAt: expect.any(Number),
    });
    expect(await a.authenticateToken(await issuer.token({ sub: "ann", groups: ["a", "b"], oid: "u-1", hd: "example.com" }))).toMatchObject({ user: { groups: ["oidc:a", "oidc:b"] } });
    expect(error(await a.authenticateToken(await issuer.token({ oid: "u", hd: "other.com" })))).toBe("oidc: required claim hd value does not match. Got = other.com, want = example.com");
    expect(error(await a.authenticateToken(await issuer.token({ oid: "u" })))).toBe("oidc: required claim hd not present in ID token");
    expect(error(await a.authenticateToken(await issuer.token({ hd: "example.com" })))).toBe('oidc: parse uid claim "oid": claim not present');
    expect(error(await a.authenticateToken(await issuer.token({ oid: "u", hd: "example.com", groups: 7 })))).toBe('oidc: parse groups claim "groups": json: cannot unmarshal number into Go value of type string');
  });

  it("maps with CEL and applies claim and user validation rules", async () => {
    const a = await ready(await authenticator({
      claimMappings: {
        username: { expression: '"oidc:" + claims.preferred_username' },
        groups: { expression: 'claims.roles.map(r, "role:" + r)' },
        uid: { expression: "claims.sub" },
        extra: [{ key: "example.com/tenant", valueExpression: "claims.tenant" }],
      },
      claimValidationRules: [{ expression: "claims.tenant != 'blocked'", message: "tenant is blocked" }],
      userValidationRules: [{ expression: "!user.username.startsWith('oidc:system:')", message: "no system names" }],
    }));
    expect(await a.authenticateToken(await issuer.token({ sub: "s1", preferred_username: "ann", roles: ["dev"], tenant: "t1", jti: "j" }))).toEqual({
      status: "ok",
      user: { username: "oidc:ann", uid: "s1", groups: ["role:dev"], extra: { "authentication.kubernetes.io/credential-id": ["JTI=j"], "example.com/tenant": ["t1"] } },
      expiresAt: expect.any(Number),
    });
    expect(error(await a.authenticateToken(await issuer.token({ preferred_username: "ann", roles: [], tenant: "blocked" })))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.tenant != 'blocked'' failed: tenant is blocked");
    expect(error(await a.authenticateToken(await issuer.token({ preferred_username: "system:x", roles: [], tenant: "t" })))).toBe(
      "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('oidc:system:')' failed: no system names");
    expect(error(await a.authenticateToken(await issuer.token({ preferred_username: 5, roles: [], tenant: "t" })))).toMatch(/^oidc: error evaluating username claim expression: /);
  });

  it("refuses the issuer's tokens until discovery succeeds, saying so once in the log", async () => {
    const later = await startFakeIssuer(tls, { listen: false });
    await later.addKey("k");
    const lines: string[] = [];
    const config = validateAuthenticationConfiguration({ jwt: [{
      issuer: { url: later.url, audiences: ["cluster-core"], certificateAuthority: tls.ca },
      claimMappings: { username: { claim: "sub", prefix: "" } },
    }] }, []).authenticators[0];
    const a = new JwtAuthenticator(config, { signingAlgs: ["RS256"], log: (l) => lines.push(l) });
    open.push(a);
    await later.start();
    later.audience = "cluster-core";
    const token = await later.token({ sub: "late" });
    await later.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(error(await a.authenticateToken(token))).toBe("oidc: authenticator not initialized");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`oidc authenticator: issuer "${later.url}" cannot be initialized`);
    expect(lines[0]).toContain("its tokens get 401 until discovery succeeds");
    await later.start();
    await a.ready;
    expect((await a.authenticateToken(token)).status).toBe("ok");
    expect(lines[1]).toContain("is reachable again");
    await later.stop();
  });

  it("reads the discovery document from discoveryURL when set; the issuer stays the configured URL", async () => {
    const url = `${issuer.url}/tenant`;
    issuer.discoveryIssuer = url;
    const a = await ready(await authenticator({ issuer: {
      url, discoveryURL: `${issuer.url}/.well-known/openid-configuration`, audiences: ["cluster-core"], certificateAuthority: tls.ca,
    } }));
    issuer.discoveryIssuer = undefined;
    expect(await a.authenticateToken(await issuer.token({ iss: url, sub: "t" }))).toMatchObject({ status: "ok", user: { username: "t" } });
    expect((await a.authenticateToken(await issuer.token({ sub: "t" }))).status).toBe("not-ours");
  });

  it("stays uninitialized when the discovery document names another issuer", async () => {
    const lines: string[] = [];
    issuer.discoveryIssuer = `${issuer.url}/`;
    const a = await authenticator({}, ["RS256"], (l) => lines.push(l));
    await new Promise((r) => setTimeout(r, 300));
    issuer.discoveryIssuer = undefined;
    expect(lines[0]).toContain(`oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "${issuer.url}/"`);
    expect(a.initialized).toBe(false);
  });
});

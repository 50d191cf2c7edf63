import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultJwksUri, jwks, JWKS_CONTENT_TYPE, openIdConfiguration, OPENID_CONFIGURATION_CONTENT_TYPE } from "./oidc-discovery";
import { DEFAULT_ISSUER, serviceAccountKeyPath, ServiceAccountTokens } from "./service-account-token";

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "cc-oidc-")); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const account = { namespace: "default", name: "robot", uid: "uid-1" };

describe("openIdConfiguration", () => {
  it("is kube's discovery document", () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    const doc = openIdConfiguration(DEFAULT_ISSUER, defaultJwksUri("10.0.0.5:6443"), tokens.publicKeys());
    expect(JSON.stringify(doc)).toBe(JSON.stringify({
      issuer: "https://kubernetes.default.svc.cluster.local",
      jwks_uri: "https://10.0.0.5:6443/openid/v1/jwks",
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
    }));
    expect(OPENID_CONFIGURATION_CONTENT_TYPE).toBe("application/json");
    expect(JWKS_CONTENT_TYPE).toBe("application/jwk-set+json");
  });

  it("refuses what kube refuses", () => {
    const keys = ServiceAccountTokens.open({ dataDir: dir }).publicKeys();
    expect(() => openIdConfiguration("http://issuer", "https://h/openid/v1/jwks", keys)).toThrow("issuer URL must use https scheme, got: http://issuer");
    expect(() => openIdConfiguration("https://issuer?x=1", "https://h/openid/v1/jwks", keys)).toThrow(/may not include a query/);
    expect(() => openIdConfiguration("https://issuer#f", "https://h/openid/v1/jwks", keys)).toThrow(/may not include a fragment/);
    expect(() => openIdConfiguration("https://issuer", "http://h/openid/v1/jwks", keys)).toThrow(/jwksURI must use https/);
    expect(() => defaultJwksUri("host:6443/extra")).toThrow(/could not construct a valid URL/);
    expect(defaultJwksUri("[::1]:6443")).toBe("https://[::1]:6443/openid/v1/jwks");
  });
});

describe("jwks", () => {
  it("lists the public key only, in go-jose's field order", () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    const set = jwks(tokens.publicKeys());
    expect(set.keys).toHaveLength(1);
    const [key] = set.keys;
    expect(Object.keys(key)).toEqual(["use", "kty", "kid", "crv", "alg", "x", "y"]);
    expect(key).toMatchObject({ use: "sig", kty: "EC", kid: tokens.keyId, crv: "P-256", alg: "ES256" });
    expect(JSON.stringify(set)).not.toMatch(/"d"/);
    expect(() => jwks([])).toThrow(/no keys/);
  });

  it("verifies an issued token with jose's local JWKS", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    const { token } = await tokens.issue({ ...account, audiences: ["sts.example.com"] });
    const keySet = createLocalJWKSet(JSON.parse(JSON.stringify(jwks(tokens.publicKeys()))));
    const { payload } = await jwtVerify(token, keySet, { issuer: DEFAULT_ISSUER, audience: "sts.example.com" });
    expect(payload.sub).toBe("system:serviceaccount:default:robot");

    const other = ServiceAccountTokens.open({ dataDir: path.join(dir, "other") });
    const { token: foreign } = await other.issue(account);
    await expect(jwtVerify(foreign, keySet)).rejects.toThrow();
  });

  it("publishes an RSA key with n and e", async () => {
    mkdirSync(path.join(dir, "pki"));
    writeFileSync(serviceAccountKeyPath(dir), generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    const set = jwks(tokens.publicKeys());
    expect(Object.keys(set.keys[0])).toEqual(["use", "kty", "kid", "alg", "n", "e"]);
    expect(set.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", e: "AQAB" });
    expect(openIdConfiguration(DEFAULT_ISSUER, defaultJwksUri("h:1"), tokens.publicKeys()).id_token_signing_alg_values_supported).toEqual(["RS256"]);
    const { token } = await tokens.issue(account);
    await expect(jwtVerify(token, createLocalJWKSet(set as never), { issuer: DEFAULT_ISSUER })).resolves.toBeDefined();
  });
});

import { execFile, execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CompactSign, decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errors } from "../status";
import {
  DEFAULT_ISSUER,
  ensureServiceAccountKey,
  keyIdForPublicKey,
  LEGACY_ISSUER,
  serviceAccountKeyPath,
  ServiceAccountTokens,
  validateTokenRequest,
} from "./service-account-token";

let dir: string;
let clock: number;
const now = () => clock;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cc-satoken-"));
  clock = Date.UTC(2025, 0, 15, 12, 0, 0, 250);
});
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const NOW_S = () => Math.floor(clock / 1000);
const account = { namespace: "team-a", name: "builder", uid: "5b2d6c1e-0000-4000-8000-000000000001" };

describe("service account signing key", () => {
  it("is generated once as a 0600 PEM in pki/sa.key and reused", () => {
    const a = ServiceAccountTokens.open({ dataDir: dir });
    const file = serviceAccountKeyPath(dir);
    expect(file).toBe(path.join(dir, "pki", "sa.key"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
    expect(readdirSync(path.join(dir, "pki"))).toEqual(["sa.key"]);
    const b = ServiceAccountTokens.open({ dataDir: dir });
    expect(b.keyId).toBe(a.keyId);
    expect(a.algorithm).toBe("ES256");
  });

  it("is the same key for concurrent first starts", async () => {
    const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "service-account-token.ts");
    const script = `import { ServiceAccountTokens } from ${JSON.stringify(module)}; process.stdout.write(ServiceAccountTokens.open({ dataDir: process.argv[1] }).keyId);`;
    const run = () => new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, dir], (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
    });
    const ids = await Promise.all([run(), run(), run()]);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(ServiceAccountTokens.open({ dataDir: dir }).keyId);
    expect(readdirSync(path.join(dir, "pki"))).toEqual(["sa.key"]);
  });

  it("has kube's key id: base64url SHA-256 of the DER public key (checked with openssl)", () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    const der = execFileSync("openssl", ["pkey", "-in", serviceAccountKeyPath(dir), "-pubout", "-outform", "DER"]);
    const digest = execFileSync("openssl", ["dgst", "-sha256", "-binary"], { input: der });
    expect(tokens.keyId).toBe(Buffer.from(digest).toString("base64url"));
    expect(keyIdForPublicKey(ensureServiceAccountKey(dir))).toBe(tokens.keyId);
  });

  it("uses an RSA key someone put there, with RS256", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    mkdirSync(path.join(dir, "pki"));
    writeFileSync(serviceAccountKeyPath(dir), privateKey.export({ type: "pkcs1", format: "pem" }), { mode: 0o644 });
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    expect(tokens.algorithm).toBe("RS256");
    expect(statSync(serviceAccountKeyPath(dir)).mode & 0o777).toBe(0o600);
    const { token } = await tokens.issue(account);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "RS256", kid: tokens.keyId });
    expect(await tokens.verify(token)).toBeDefined();
  });

  it("replaces an empty key file and refuses an unusable one without showing it", () => {
    mkdirSync(path.join(dir, "pki"));
    writeFileSync(serviceAccountKeyPath(dir), "");
    ServiceAccountTokens.open({ dataDir: dir });
    expect(readFileSync(serviceAccountKeyPath(dir), "utf8")).toContain("PRIVATE KEY");

    writeFileSync(serviceAccountKeyPath(dir), "-----BEGIN PRIVATE KEY-----\nSECRETSTUFF\n-----END PRIVATE KEY-----\n");
    let message = "";
    try { ServiceAccountTokens.open({ dataDir: dir }); } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(/sa\.key does not hold a usable service account signing key.*fix or delete the file/);
    expect(message).not.toContain("SECRET");
  });

  it("refuses an Ed25519 key, which kube cannot sign with", () => {
    mkdirSync(path.join(dir, "pki"));
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileSync(serviceAccountKeyPath(dir), privateKey.export({ type: "pkcs8", format: "pem" }));
    expect(() => ServiceAccountTokens.open({ dataDir: dir })).toThrow(/usable service account signing key/);
  });

  it("signs with SERVICE_ACCOUNT_SIGNING_KEY_FILE when given, never generating one there", () => {
    const file = path.join(dir, "shared-sa.key");
    expect(() => ServiceAccountTokens.open({ dataDir: dir, signingKeyFile: file })).toThrow(/SERVICE_ACCOUNT_SIGNING_KEY_FILE .*shared-sa\.key is missing/);
    expect(() => statSync(file)).toThrow();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }));
    const [a, b] = [ServiceAccountTokens.open({ dataDir: dir, signingKeyFile: file }), ServiceAccountTokens.open({ dataDir: path.join(dir, "other"), signingKeyFile: file })];
    expect(a.keyId).toBe(keyIdForPublicKey(privateKey));
    expect(b.keyId).toBe(a.keyId);
    expect(a.publicKeys()[0].alg).toBe("RS256");
  });
});

describe("validateTokenRequest", () => {
  it("renders kube's messages", () => {
    expect(validateTokenRequest({})).toEqual([]);
    expect(validateTokenRequest({ expirationSeconds: 600 })).toEqual([]);
    expect(validateTokenRequest({ expirationSeconds: 2 ** 32 })).toEqual([]);
    const short = validateTokenRequest({ expirationSeconds: 599 });
    expect(errors.invalid("TokenRequest", "", short, "authentication.k8s.io").message)
      .toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    expect(validateTokenRequest({ expirationSeconds: 2 ** 32 + 1 })).toEqual([
      { type: "FieldValueInvalid", field: "spec.expirationSeconds", detail: "Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds" },
    ]);
  });
});

describe("ServiceAccountTokens.issue", () => {
  it("issues kube's bound token claims", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const issued = await tokens.issue(account);
    const header = decodeProtectedHeader(issued.token);
    expect(header).toEqual({ alg: "ES256", kid: tokens.keyId });
    const claims = decodeJwt(issued.token);
    const t = NOW_S();
    expect(claims).toEqual({
      aud: [DEFAULT_ISSUER],
      exp: t + 3600,
      iat: t,
      iss: DEFAULT_ISSUER,
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      "kubernetes.io": { namespace: "team-a", serviceaccount: { name: "builder", uid: account.uid } },
      nbf: t,
      sub: "system:serviceaccount:team-a:builder",
    });
    // Go marshals the merged claims with sorted keys; so do we.
    expect(Object.keys(claims)).toEqual(["aud", "exp", "iat", "iss", "jti", "kubernetes.io", "nbf", "sub"]);
    expect(issued.expirationTimestamp).toBe(new Date((t + 3600) * 1000).toISOString().replace(".000Z", "Z"));
    expect(issued.expirationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(issued).toMatchObject({ expirationSeconds: 3600, audiences: [DEFAULT_ISSUER], credentialId: `JTI=${claims.jti}`, warnings: [] });
  });

  it("binds to a pod and its node, and extends kubelet's 3607 s tokens with warnafter", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const t = NOW_S();
    const pod = { kind: "Pod" as const, name: "web-0", uid: "pod-uid" };
    const issued = await tokens.issue({ ...account, expirationSeconds: 3607, boundObject: pod, node: { name: "node-1", uid: "node-uid" } });
    const claims = decodeJwt(issued.token);
    expect(claims["kubernetes.io"]).toEqual({
      namespace: "team-a",
      node: { name: "node-1", uid: "node-uid" },
      pod: { name: "web-0", uid: "pod-uid" },
      serviceaccount: { name: "builder", uid: account.uid },
      warnafter: t + 3607,
    });
    expect(claims.exp).toBe(t + 365 * 24 * 3600);
    expect(issued.expirationTimestamp).toBe(new Date((t + 3607) * 1000).toISOString().replace(".000Z", "Z"));

    // Not extended: other audiences, other durations, not pod-bound, or extension switched off.
    const custom = decodeJwt((await tokens.issue({ ...account, expirationSeconds: 3607, boundObject: pod, audiences: ["vault"] })).token);
    expect(custom.exp).toBe(t + 3607);
    expect((custom["kubernetes.io"] as Record<string, unknown>).warnafter).toBeUndefined();
    const secretBound = decodeJwt((await tokens.issue({ ...account, expirationSeconds: 3607, boundObject: { kind: "Secret", name: "s", uid: "s-uid" } })).token);
    expect(secretBound.exp).toBe(t + 3607);
    expect(secretBound["kubernetes.io"]).toEqual({ namespace: "team-a", secret: { name: "s", uid: "s-uid" }, serviceaccount: { name: "builder", uid: account.uid } });
    const off = ServiceAccountTokens.open({ dataDir: dir, now, extendExpiration: false });
    expect(decodeJwt((await off.issue({ ...account, expirationSeconds: 3607, boundObject: pod })).token).exp).toBe(t + 3607);
  });

  it("embeds just the node name when the pod's node object is missing", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const { token } = await tokens.issue({ ...account, boundObject: { kind: "Pod", name: "p", uid: "u" }, node: { name: "gone-node" } });
    expect((decodeJwt(token)["kubernetes.io"] as Record<string, unknown>).node).toEqual({ name: "gone-node" });
  });

  it("shortens a request beyond the configured maximum, with kube's warning", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now, maxExpirationSeconds: 7200 });
    const issued = await tokens.issue({ ...account, expirationSeconds: 86400 });
    expect(issued.warnings).toEqual(["requested expiration of 86400 seconds shortened to 7200 seconds"]);
    expect(issued.expirationSeconds).toBe(7200);
    expect(decodeJwt(issued.token).exp).toBe(NOW_S() + 7200);
    expect(() => ServiceAccountTokens.open({ dataDir: dir, maxExpirationSeconds: 60 })).toThrow(/between 1 hour and 2\^32 seconds/);
  });

  it("refuses unvalidated durations", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir });
    await expect(tokens.issue({ ...account, expirationSeconds: 10 })).rejects.toThrow(/validateTokenRequest/);
  });
});

describe("ServiceAccountTokens.verify", () => {
  it("round-trips a bound token", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const { token } = await tokens.issue({ ...account, boundObject: { kind: "Pod", name: "web-0", uid: "pod-uid" }, node: { name: "n1", uid: "n1-uid" } });
    const jti = decodeJwt(token).jti;
    expect(await tokens.verify(token)).toEqual({
      legacy: false,
      namespace: "team-a",
      name: "builder",
      uid: account.uid,
      boundObject: { kind: "Pod", name: "web-0", uid: "pod-uid" },
      node: { name: "n1", uid: "n1-uid" },
      jti,
      credentialId: `JTI=${jti}`,
      audiences: [DEFAULT_ISSUER],
      expiresAt: NOW_S() + 3600,
    });
  });

  it("refuses an expired token after kube's 60 s leeway, and a token not yet valid", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const { token } = await tokens.issue({ ...account, expirationSeconds: 600 });
    clock += (600 + 60) * 1000;
    expect(await tokens.verify(token)).toBeDefined();
    clock += 2000;
    expect(await tokens.check(token)).toEqual({ status: "invalid", error: "service account token has expired" });

    const early = ServiceAccountTokens.open({ dataDir: dir, now: () => clock + 120_000 });
    const { token: future } = await early.issue(account);
    expect(await tokens.check(future)).toEqual({ status: "invalid", error: "service account token is not valid yet" });
  });

  it("refuses a tampered token and a forged one", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const { token } = await tokens.issue(account);
    const [h, p, s] = token.split(".");
    const claims = decodeJwt(token);
    const evil = Buffer.from(JSON.stringify({ ...claims, sub: "system:serviceaccount:kube-system:admin" })).toString("base64url");
    expect(await tokens.check(`${h}.${evil}.${s}`)).toEqual({ status: "invalid", error: "go-jose/go-jose: error in cryptographic primitive" });
    expect(await tokens.verify(`${h}.${p}.${s.slice(0, -4)}AAAA`)).toBeUndefined();

    // Signed by another key but claiming ours.
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const forged = await new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg: "ES256", kid: tokens.keyId }).sign(privateKey);
    expect(await tokens.verify(forged)).toBeUndefined();
    // alg "none" is never accepted.
    expect(await tokens.verify(`${Buffer.from('{"alg":"none"}').toString("base64url")}.${p}.`)).toBeUndefined();
  });

  it("refuses a token from another data directory's key", async () => {
    const ours = ServiceAccountTokens.open({ dataDir: dir, now });
    const other = ServiceAccountTokens.open({ dataDir: path.join(dir, "other"), now });
    expect(other.keyId).not.toBe(ours.keyId);
    const { token } = await other.issue(account);
    expect(await ours.check(token)).toEqual({ status: "invalid", error: "invalid signature, no keys found" });
    expect(await other.verify(token)).toBeDefined();
  });

  it("checks audiences against the API audiences or the requested ones", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const { token } = await tokens.issue({ ...account, audiences: ["vault", "other"] });
    expect(await tokens.check(token)).toEqual({
      status: "invalid",
      error: `token audiences ["vault" "other"] is invalid for the target audiences ["${DEFAULT_ISSUER}"]`,
    });
    expect((await tokens.verify(token, { audiences: ["other", "x"] }))?.audiences).toEqual(["other"]);
    const wide = ServiceAccountTokens.open({ dataDir: dir, now, apiAudiences: ["api", "vault"] });
    expect((await wide.verify(token))?.audiences).toEqual(["vault"]);
  });

  it("ignores what is not a service account token of ours", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const foreign = await new CompactSign(Buffer.from(JSON.stringify({ iss: "https://accounts.example", sub: "x" })))
      .setProtectedHeader({ alg: "ES256" }).sign(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey);
    for (const t of ["", "opaque-static-token", "a.b", "a.b.c.d", '{"iss":"kubernetes/serviceaccount"}', foreign]) {
      expect(await tokens.check(t)).toEqual({ status: "not-ours" });
    }
  });

  it("accepts tokens from every configured issuer and signs with the first", async () => {
    const old = ServiceAccountTokens.open({ dataDir: dir, now, issuers: ["https://old.example"] });
    const { token } = await old.issue(account);
    const both = ServiceAccountTokens.open({ dataDir: dir, now, issuers: ["https://new.example", "https://old.example"] });
    expect(both.apiAudiences).toEqual(["https://new.example", "https://old.example"]);
    expect(await both.verify(token)).toBeDefined();
    expect(decodeJwt((await both.issue(account)).token).iss).toBe("https://new.example");
  });
});

describe("legacy tokens", () => {
  it("round-trip with kube's claims and no expiry", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const token = await tokens.issueLegacy({ ...account, secretName: "builder-token-x7k2p" });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: tokens.keyId });
    const claims = decodeJwt(token);
    expect(claims).toEqual({
      iss: LEGACY_ISSUER,
      "kubernetes.io/serviceaccount/namespace": "team-a",
      "kubernetes.io/serviceaccount/secret.name": "builder-token-x7k2p",
      "kubernetes.io/serviceaccount/service-account.name": "builder",
      "kubernetes.io/serviceaccount/service-account.uid": account.uid,
      sub: "system:serviceaccount:team-a:builder",
    });
    expect(Object.keys(claims)).toEqual(Object.keys(claims).sort());
    clock += 10 * 365 * 86400 * 1000;
    expect(await tokens.verify(token)).toEqual({
      legacy: true, namespace: "team-a", name: "builder", uid: account.uid, legacySecretName: "builder-token-x7k2p", audiences: [DEFAULT_ISSUER],
    });
  });

  it("refuses a legacy token whose subject disagrees with its claims", async () => {
    const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
    const key = ensureServiceAccountKey(dir);
    const claims = {
      iss: LEGACY_ISSUER,
      "kubernetes.io/serviceaccount/namespace": "team-a",
      "kubernetes.io/serviceaccount/secret.name": "s",
      "kubernetes.io/serviceaccount/service-account.name": "builder",
      "kubernetes.io/serviceaccount/service-account.uid": "u",
      sub: "system:serviceaccount:kube-system:builder",
    };
    const token = await new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg: "ES256", kid: tokens.keyId }).sign(key);
    expect(await tokens.check(token)).toEqual({ status: "invalid", error: "sub claim is invalid" });
  });
});

describe("key file permissions", () => {
  it("are tightened when loosened", () => {
    ServiceAccountTokens.open({ dataDir: dir });
    chmodSync(serviceAccountKeyPath(dir), 0o644);
    ServiceAccountTokens.open({ dataDir: dir });
    expect(statSync(serviceAccountKeyPath(dir)).mode & 0o777).toBe(0o600);
  });
});

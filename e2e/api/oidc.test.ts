// Sign-in with an identity provider, through the real server (issue 24, items 1-3, 5-8): OIDC_* settings
// against an issuer whose keys the test controls (unreachable at start, then rotated), AUTHENTICATION_CONFIG
// against a real OpenID provider (oidc-provider) with CEL mappings and a file that changes while the server
// runs; kubectl (`auth whoami`, --token and an exec credential plugin), RBAC, impersonation, access reviews,
// audit and object history see the mapped person; a bad token is a 401 Status and never appears in a log.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { startServer, stopAll, type Server } from "./harness";
import { startFakeIssuer, startOidcProvider, testCA, type FakeIssuer, type OidcProviderServer } from "./oidc-issuers";
import type { ServingCertificate } from "../../lib/tls/certificates";

let tmp: string;
let tls: ServingCertificate;
let caFile: string;
let issuer: FakeIssuer;
let provider: OidcProviderServer;
let flagsServer: Server;
let fileServer: Server;
let authConfig: string;
let auditPath: string;
const seenTokens: string[] = [];

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("condition not met in time");
};
const pem = (indent: string) => tls.ca.trim().split("\n").map((l) => indent + l).join("\n");
const providerFile = (usernamePrefix: string, extra = "") => `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${provider.url}
    audiences: [cluster-core]
    certificateAuthority: |
${pem("      ")}
  claimValidationRules:
  - expression: claims.email_verified == true
    message: email must be verified
  claimMappings:
    username:
      expression: '"${usernamePrefix}" + claims.email'
    groups:
      expression: 'claims.groups.map(g, "corp:" + g)'
    uid:
      claim: sub
    extra:
    - key: example.com/name
      valueExpression: claims.name
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: no system names
${extra}`;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cc-oidc-e2e-"));
  tls = await testCA(path.join(tmp, "idp"));
  caFile = path.join(tmp, "idp-ca.pem");
  writeFileSync(caFile, tls.ca);
  issuer = await startFakeIssuer(tls, { listen: false }); // unreachable when the server starts
  await issuer.addKey("k1");
  provider = await startOidcProvider(tls, { accounts: {
    ann: { sub: "ann", email: "ann@example.com", email_verified: true, groups: ["devs"], name: "Ann Example" },
    eve: { sub: "eve", email: "eve@example.com", email_verified: false, groups: [], name: "Eve" },
  } });
  auditPath = path.join(tmp, "audit.log");
  authConfig = path.join(tmp, "authentication.yaml");
  writeFileSync(authConfig, providerFile("oidc:"));
  [flagsServer, fileServer] = await Promise.all([
    startServer({ env: {
      OIDC_ISSUER_URL: issuer.url, OIDC_CLIENT_ID: "cluster-core", OIDC_USERNAME_CLAIM: "email",
      OIDC_GROUPS_CLAIM: "groups", OIDC_GROUPS_PREFIX: "oidc:", OIDC_CA_FILE: caFile, AUDIT_LOG_PATH: auditPath,
    } }),
    startServer({ env: { AUTHENTICATION_CONFIG: authConfig } }),
  ]);
}, 120_000);

afterAll(async () => {
  await stopAll();
  await issuer?.stop();
  await provider?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

async function token(claims: Record<string, unknown> = {}, opts: { kid?: string; alg?: string } = {}) {
  const t = await issuer.token({ sub: "u-1", email: "ann@example.com", email_verified: true, groups: ["devs"], jti: "jti-1", ...claims }, opts);
  seenTokens.push(t);
  return t;
}
const whoami = async (server: Server, t: string) => {
  const r = await server.kubectl(["--token", t, "auth", "whoami", "-o", "json"]);
  return JSON.parse(r.stdout).status.userInfo;
};

describe("OIDC_* settings (an issuer the test controls)", { timeout: 120_000 }, () => {
  test("an issuer unreachable at start does not stop it: its tokens get 401 until discovery succeeds", async () => {
    const t = await token();
    const refused = await flagsServer.request("GET", "/api/v1/namespaces", { token: t });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Unauthorized", code: 401 });
    const lines = () => flagsServer.logs().split("\n").filter((l) => l.includes("oidc authenticator"));
    await until(async () => lines().length > 0);
    await new Promise((r) => setTimeout(r, 2500)); // a few retries later: still that one line
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toContain(`issuer "${issuer.url}" cannot be initialized`);
    await issuer.start();
    await until(async () => (await flagsServer.request("GET", "/apis", { token: t })).status === 200);
    expect(lines()[1]).toContain("is reachable again");
  });

  test("kubectl auth whoami shows the mapped user, groups and credential id", async () => {
    expect(await whoami(flagsServer, await token())).toEqual({
      username: "ann@example.com",
      groups: ["oidc:devs", "system:authenticated"],
      extra: { "authentication.kubernetes.io/credential-id": ["JTI=jti-1"] },
    });
  });

  test("RBAC applies to the mapped group; impersonation and access reviews know the person", async () => {
    const t = await token();
    const denied = await flagsServer.kubectl(["--token", t, "get", "pods", "-n", "default"], { allowFail: true });
    expect(denied.stderr).toContain('pods is forbidden: User "ann@example.com" cannot list resource "pods" in API group "" in the namespace "default"');
    await flagsServer.kubectl(["create", "rolebinding", "devs-edit", "--clusterrole=edit", "--group=oidc:devs", "-n", "default"]);
    expect((await flagsServer.kubectl(["--token", t, "get", "pods", "-n", "default"])).code).toBe(0);
    expect((await flagsServer.kubectl(["--token", t, "get", "pods", "-n", "kube-system"], { allowFail: true })).code).not.toBe(0);
    // The admin acting as the person, and a SubjectAccessReview about them.
    expect((await flagsServer.kubectl(["auth", "can-i", "create", "configmaps", "-n", "default", "--as=ann@example.com", "--as-group=oidc:devs"])).stdout.trim()).toBe("yes");
    expect((await flagsServer.kubectl(["auth", "can-i", "create", "configmaps", "-n", "default", "--as=ann@example.com"], { allowFail: true })).stdout.trim()).toBe("no");
    const sar = await flagsServer.request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", { body: {
      kind: "SubjectAccessReview", apiVersion: "authorization.k8s.io/v1",
      spec: { user: "ann@example.com", groups: ["oidc:devs"], resourceAttributes: { namespace: "default", verb: "delete", resource: "pods" } },
    } });
    expect(sar.body.status.allowed).toBe(true);
    // The person may not impersonate anyone until granted.
    const imp = await flagsServer.kubectl(["--token", t, "get", "pods", "-n", "default", "--as=bob"], { allowFail: true });
    expect(imp.stderr).toContain('users "bob" is forbidden: User "ann@example.com" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  test("their writes are audited and recorded in object history under their name", async () => {
    const t = await token({ jti: "jti-write" });
    await flagsServer.kubectl(["--token", t, "create", "configmap", "by-ann", "-n", "default", "--from-literal=a=1"]);
    const history = await flagsServer.request("GET", "/api/v1/namespaces/default/configmaps/by-ann/history");
    expect(history.status, history.text).toBe(200);
    expect(history.body.items[0].user).toMatchObject({ username: "ann@example.com", groups: ["oidc:devs", "system:authenticated"] });
    const created = () => readFileSync(auditPath, "utf8").trim().split("\n").map((l) => JSON.parse(l))
      .find((e) => e.verb === "create" && e.objectRef?.name === "by-ann");
    await until(async () => created() !== undefined); // the audit log is written asynchronously
    const create = created();
    expect(create.user).toMatchObject({ username: "ann@example.com", extra: { "authentication.kubernetes.io/credential-id": ["JTI=jti-write"] } });
  });

  test("expired, wrong-audience, unknown-key, wrong-algorithm and unverified-email tokens get 401, never 500", async () => {
    const now = Math.floor(Date.now() / 1000);
    await issuer.addKey("ec", { alg: "ES256" });
    await issuer.addKey("stray", { publish: false });
    const bad = [
      await token({ exp: now - 1 }),
      await token({ exp: undefined }),
      await token({ aud: "someone-else" }),
      await token({ nbf: now + 300 }),
      await token({}, { kid: "stray" }),
      await token({}, { kid: "ec" }), // ES256 while OIDC_SIGNING_ALGS is RS256
      await token({}, { alg: "HS256" }),
      await token({ email_verified: "true" }),
      await token({ email_verified: false }),
      `${(await token()).slice(0, -4)}AAAA`,
    ];
    for (const t of bad) {
      const r = await flagsServer.request("GET", "/api/v1/namespaces", { token: t });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ kind: "Status", reason: "Unauthorized", message: "Unauthorized" });
    }
    // TokenReview says why.
    const review = await flagsServer.request("POST", "/apis/authentication.k8s.io/v1/tokenreviews", { body: { kind: "TokenReview", apiVersion: "authentication.k8s.io/v1", spec: { token: bad[2] } } });
    expect(review.body.status.authenticated).not.toBe(true);
    expect(review.body.status.error).toBe('oidc: verify token: oidc: expected audience "cluster-core" got ["someone-else"]');
    const ok = await flagsServer.request("POST", "/apis/authentication.k8s.io/v1/tokenreviews", { body: { kind: "TokenReview", apiVersion: "authentication.k8s.io/v1", spec: { token: await token() } } });
    expect(ok.body.status).toMatchObject({ authenticated: true, user: { username: "ann@example.com" } });
  });

  test("a key rotation at the provider is followed without a restart", async () => {
    await issuer.addKey("k2", { publish: false });
    const rotated = await token({}, { kid: "k2" });
    expect((await flagsServer.request("GET", "/apis", { token: rotated })).status).toBe(401);
    issuer.publish("k2");
    issuer.unpublish("k1");
    expect((await flagsServer.request("GET", "/apis", { token: rotated })).status).toBe(200);
  });

  test("no token appears in the server's output or the audit log", async () => {
    const logs = flagsServer.logs() + readFileSync(auditPath, "utf8");
    for (const t of seenTokens) {
      expect(logs).not.toContain(t);
      expect(logs).not.toContain(t.split(".")[2]);
    }
  });
});

describe("AUTHENTICATION_CONFIG (a real OpenID provider)", { timeout: 120_000 }, () => {
  test("a person signed in at the provider is who the CEL mappings say, with kubectl --token and an exec plugin", async () => {
    const { idToken } = await provider.signIn("ann");
    seenTokens.push(idToken);
    const expected = { username: "oidc:ann@example.com", uid: "ann", groups: ["corp:devs", "system:authenticated"], extra: { "example.com/name": ["Ann Example"] } };
    await until(async () => (await fileServer.request("GET", "/apis", { token: idToken })).status === 200);
    expect(await whoami(fileServer, idToken)).toEqual(expected);
    // A kubeconfig user with an exec credential plugin, as kubelogin would be configured.
    const tokenFile = path.join(tmp, "id-token");
    writeFileSync(tokenFile, idToken, { mode: 0o600 });
    const plugin = path.join(tmp, "credential-plugin.sh");
    writeFileSync(plugin, `#!/bin/sh\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$(cat ${tokenFile})"\n`);
    chmodSync(plugin, 0o755);
    const kubeconfig = path.join(tmp, "oidc.kubeconfig");
    const config = parse(readFileSync(fileServer.kubeconfig, "utf8"));
    config.users[0].user = { exec: { apiVersion: "client.authentication.k8s.io/v1", command: plugin, interactiveMode: "Never" } };
    writeFileSync(kubeconfig, stringify(config));
    const viaPlugin = await fileServer.kubectl(["--kubeconfig", kubeconfig, "auth", "whoami", "-o", "json"]);
    expect(JSON.parse(viaPlugin.stdout).status.userInfo).toEqual(expected);
  });

  test("claim validation rules refuse a person whose email is not verified", async () => {
    const { idToken } = await provider.signIn("eve");
    seenTokens.push(idToken);
    const review = await fileServer.request("POST", "/apis/authentication.k8s.io/v1/tokenreviews", { body: { kind: "TokenReview", apiVersion: "authentication.k8s.io/v1", spec: { token: idToken } } });
    expect(review.body.status.error).toBe("oidc: error evaluating claim validation expression: validation expression 'claims.email_verified == true' failed: email must be verified");
    expect((await fileServer.request("GET", "/apis", { token: idToken })).status).toBe(401);
  });

  test("a changed file takes effect without a restart; a broken one keeps the last good one and says why", async () => {
    const { idToken } = await provider.signIn("ann");
    writeFileSync(authConfig, providerFile("corp:", "unknownField: true\n"));
    await until(async () => fileServer.logs().includes('strict decoding error: unknown field "unknownField"'));
    expect(fileServer.logs()).toContain("keeping the last good configuration");
    expect((await whoami(fileServer, idToken)).username).toBe("oidc:ann@example.com");
    writeFileSync(authConfig, providerFile("corp:"));
    await until(async () => (await whoami(fileServer, idToken)).username === "corp:ann@example.com");
    expect(fileServer.logs()).not.toContain(idToken);
  });
});

describe("bad settings stop the start, naming the problem", { timeout: 120_000 }, () => {
  test("OIDC_* with AUTHENTICATION_CONFIG, a bad CEL expression, the ServiceAccount issuer, a disallowed algorithm", async () => {
    await expect(startServer({ env: { AUTHENTICATION_CONFIG: authConfig, OIDC_ISSUER_URL: issuer.url, OIDC_CLIENT_ID: "x" } }))
      .rejects.toThrow("authentication-config file and oidc-* flags are mutually exclusive");
    const badCel = path.join(tmp, "bad-cel.yaml");
    writeFileSync(badCel, providerFile("x:").replace("claims.groups.map", "claim.groups.map"));
    await expect(startServer({ env: { AUTHENTICATION_CONFIG: badCel } })).rejects.toThrow(
      /jwt\[0\]\.claimMappings\.groups\.expression: Invalid value: .*undeclared reference to 'claim'/);
    await expect(startServer({ env: { OIDC_ISSUER_URL: "https://kubernetes.default.svc.cluster.local", OIDC_CLIENT_ID: "x" } })).rejects.toThrow(
      'jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc.cluster.local": URL must not overlap with disallowed issuers');
    await expect(startServer({ env: { OIDC_ISSUER_URL: issuer.url, OIDC_CLIENT_ID: "x", OIDC_SIGNING_ALGS: "HS256" } })).rejects.toThrow(
      'oidc: unsupported signing alg: "HS256"');
  });
});

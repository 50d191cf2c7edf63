// The union of issuers and the structured file's reloads: a broken new version keeps the last good one (and
// says why), a valid one takes effect once its issuers' discovery succeeds.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIssuer, testCA, type FakeIssuer } from "../../e2e/api/oidc-issuers";
import type { ServingCertificate } from "../tls/certificates";
import { createOidcAuthenticator, type OidcAuthenticator } from "./oidc-authenticator";

let dir: string;
let tls: ServingCertificate;
let a: FakeIssuer;
let b: FakeIssuer;
const closers: OidcAuthenticator[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oidc-reload-"));
  tls = await testCA(dir);
  a = await startFakeIssuer(tls);
  b = await startFakeIssuer(tls);
  await a.addKey("a1");
  await b.addKey("b1", { alg: "ES256" });
});
afterAll(async () => {
  closers.forEach((c) => c.close());
  await a?.stop();
  await b?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const file = (issuers: { url: string; prefix: string }[], extra = "") => `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
${issuers.map((i) => `- issuer:
    url: ${i.url}
    audiences: [cluster-core]
    certificateAuthority: |
${tls.ca.trim().split("\n").map((l) => `      ${l}`).join("\n")}
  claimMappings:
    username: {claim: sub, prefix: "${i.prefix}"}
`).join("")}${extra}`;

const until = async (check: () => Promise<boolean> | boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("condition not met in time");
};

describe("createOidcAuthenticator", () => {
  it("is undefined without settings and refuses a bad start file naming it", () => {
    expect(createOidcAuthenticator({ serviceAccountIssuers: [] })).toBeUndefined();
    const missing = path.join(dir, "missing.yaml");
    expect(() => createOidcAuthenticator({ configFile: missing, serviceAccountIssuers: [] })).toThrow(
      `failed to load authentication configuration from file ${JSON.stringify(missing)}: open ${missing}: no such file or directory`);
    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, file([{ url: a.url, prefix: "a:" }]).replace("prefix: \"a:\"", "prefix: \"a:\", expression: claims.sub"));
    expect(() => createOidcAuthenticator({ configFile: bad, serviceAccountIssuers: [] })).toThrow(
      `failed to load authentication configuration from file ${JSON.stringify(bad)}: invalid authentication configuration: jwt[0].claimMappings.username: Invalid value: "": claim and expression can't both be set`);
  });

  it("routes a token to the issuer it names; the flags' algorithm list is theirs alone", async () => {
    const caFile = path.join(dir, "ca.pem");
    writeFileSync(caFile, tls.ca);
    const flags = createOidcAuthenticator({
      flags: { issuerURL: b.url, clientID: "cluster-core", usernameClaim: "sub", requiredClaims: [], signingAlgs: ["ES256"], caFile },
      serviceAccountIssuers: [],
    })!;
    closers.push(flags);
    await until(async () => (await flags.authenticate(await b.token({ sub: "bo" }))).status === "ok");
    expect(await flags.authenticate(await b.token({ sub: "bo" }))).toMatchObject({ user: { username: `${b.url}#bo` } });
    expect((await flags.authenticate(await a.token())).status).toBe("not-ours");
  });

  it("reloads a changed file; a broken one keeps the last good configuration and says why", async () => {
    const cfg = path.join(dir, "auth.yaml");
    writeFileSync(cfg, file([{ url: a.url, prefix: "a:" }]));
    const lines: string[] = [];
    let reloads = 0;
    const authn = createOidcAuthenticator({ configFile: cfg, serviceAccountIssuers: [], log: (l) => lines.push(l), pollIntervalMs: 100, onReload: () => reloads++ })!;
    closers.push(authn);
    await until(async () => (await authn.authenticate(await a.token({ sub: "ann" }))).status === "ok");
    expect((await authn.authenticate(await b.token())).status).toBe("not-ours");

    writeFileSync(cfg, file([{ url: a.url, prefix: "a:" }], "unknownField: 1\n"));
    await until(() => lines.some((l) => l.includes('strict decoding error: unknown field "unknownField"')));
    expect(lines.at(-1)).toContain("keeping the last good configuration");
    expect(await authn.authenticate(await a.token({ sub: "ann" }))).toMatchObject({ user: { username: "a:ann" } });
    expect(reloads).toBe(0);

    writeFileSync(cfg, file([{ url: a.url, prefix: "first:" }, { url: b.url, prefix: "b:" }]));
    await until(() => authn.issuers().length === 2);
    expect(await authn.authenticate(await a.token({ sub: "ann" }))).toMatchObject({ user: { username: "first:ann" } });
    expect(await authn.authenticate(await b.token({ sub: "bo" }))).toMatchObject({ user: { username: "b:bo" } });
    expect(lines.at(-1)).toContain("reloaded");
    // The token cache in front of it is told, so no answer given under the old version stands.
    expect(reloads).toBe(1);
  });

  it("puts a new version in force only once its issuers' discovery succeeds", async () => {
    const down = await startFakeIssuer(tls, { listen: false });
    const cfg = path.join(dir, "auth2.yaml");
    writeFileSync(cfg, file([{ url: a.url, prefix: "a:" }]));
    const lines: string[] = [];
    const authn = createOidcAuthenticator({ configFile: cfg, serviceAccountIssuers: [], log: (l) => lines.push(l), pollIntervalMs: 100, readyTimeoutMs: 500 })!;
    closers.push(authn);
    await until(async () => (await authn.authenticate(await a.token({ sub: "ann" }))).status === "ok");
    writeFileSync(cfg, file([{ url: a.url, prefix: "new:" }, { url: down.url, prefix: "d:" }]));
    await until(() => lines.some((l) => l.includes("is not in force yet")));
    expect(lines.find((l) => l.includes("is not in force yet"))).toContain(JSON.stringify(down.url));
    expect(await authn.authenticate(await a.token({ sub: "ann" }))).toMatchObject({ user: { username: "a:ann" } });
    expect(authn.issuers()).toEqual([a.url]);
  });
});

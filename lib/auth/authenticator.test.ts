import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuthenticator, type LookedUpObject, type LookedUpSecret } from "./authenticator";
import { DEFAULT_ISSUER, ServiceAccountTokens } from "./service-account-token";
import { parseTokenFile } from "./token-file";
import type { TokenLease } from "./token-lease";

let dir: string;
let clock: number;
const now = () => clock;
let serviceAccounts: Map<string, LookedUpObject>;
let secrets: Map<string, LookedUpSecret>;
let pods: Map<string, LookedUpObject>;
let nodes: Map<string, LookedUpObject>;
const lookup = {
  serviceAccount: (ns: string, name: string) => serviceAccounts.get(`${ns}/${name}`),
  secret: (ns: string, name: string) => secrets.get(`${ns}/${name}`),
  pod: (ns: string, name: string) => pods.get(`${ns}/${name}`),
  node: (name: string) => nodes.get(name),
};

const SA_UID = "11111111-1111-4111-8111-111111111111";
const account = { namespace: "apps", name: "deployer", uid: SA_UID };

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cc-authn-"));
  clock = Date.UTC(2025, 5, 1, 8, 0, 0);
  serviceAccounts = new Map([["apps/deployer", { uid: SA_UID }]]);
  secrets = new Map();
  pods = new Map();
  nodes = new Map();
});
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

function setup(extra: Partial<Parameters<typeof createAuthenticator>[0]> = {}) {
  const tokens = ServiceAccountTokens.open({ dataDir: dir, now });
  const authenticate = createAuthenticator({
    adminToken: "admin-SECRET",
    staticTokens: parseTokenFile('viewer-token,viewer,uid-v,"readers,ops"\n', "tokens.csv"),
    serviceAccountTokens: tokens,
    lookup,
    now,
    ...extra,
  });
  return { tokens, authenticate };
}

describe("static tokens", () => {
  it("authenticate the admin and token-file users", async () => {
    const { authenticate } = setup();
    expect(await authenticate("admin-SECRET")).toEqual({ username: "admin", groups: ["system:masters", "system:authenticated"] });
    expect(await authenticate("viewer-token")).toEqual({ username: "viewer", uid: "uid-v", groups: ["readers", "ops", "system:authenticated"] });
    expect(await authenticate("admin-SECRE")).toBeUndefined();
    expect(await authenticate("")).toBeUndefined();
  });

  it("answer TokenReview only for the API audiences", async () => {
    const { authenticate } = setup();
    expect(await authenticate.authenticate("viewer-token")).toMatchObject({ authenticated: true, audiences: [DEFAULT_ISSUER] });
    expect(await authenticate.authenticate("viewer-token", { audiences: ["vault"] })).toEqual({ authenticated: false });
  });

  it("refuses the admin token in the token file, naming users but not the token", () => {
    let message = "";
    try {
      createAuthenticator({ adminToken: "dup-SECRET", staticTokens: parseTokenFile("dup-SECRET,alice,1\n", "f") });
    } catch (e) { message = (e as Error).message; }
    expect(message).toBe('users "admin" and "alice" have the same token');
  });

  it("works without service account tokens", async () => {
    const authenticate = createAuthenticator({ adminToken: "a" });
    expect((await authenticate("a"))?.username).toBe("admin");
    expect(await authenticate("x.y.z")).toBeUndefined();
  });
});

describe("bound service account tokens", () => {
  it("authenticate as the account with kube's groups and credential id", async () => {
    const { tokens, authenticate } = setup();
    const issued = await tokens.issue(account);
    expect(await authenticate(issued.token)).toEqual({
      username: "system:serviceaccount:apps:deployer",
      uid: SA_UID,
      groups: ["system:serviceaccounts", "system:serviceaccounts:apps", "system:authenticated"],
      extra: { "authentication.kubernetes.io/credential-id": [issued.credentialId] },
    });
  });

  it("carry pod and node extras for a pod-bound token, and die with the pod", async () => {
    const { tokens, authenticate } = setup();
    pods.set("apps/web-0", { uid: "pod-1" });
    const issued = await tokens.issue({ ...account, boundObject: { kind: "Pod", name: "web-0", uid: "pod-1" }, node: { name: "n1", uid: "n1-uid" } });
    expect((await authenticate(issued.token))?.extra).toEqual({
      "authentication.kubernetes.io/pod-name": ["web-0"],
      "authentication.kubernetes.io/pod-uid": ["pod-1"],
      "authentication.kubernetes.io/credential-id": [issued.credentialId],
      "authentication.kubernetes.io/node-name": ["n1"],
      "authentication.kubernetes.io/node-uid": ["n1-uid"],
    });
    pods.set("apps/web-0", { uid: "pod-2" }); // recreated under the same name
    expect(await authenticate.authenticate(issued.token)).toEqual({
      authenticated: false, error: "pod UID (pod-2) does not match service account pod ref claim (pod-1)",
    });
    pods.delete("apps/web-0");
    expect(await authenticate.authenticate(issued.token)).toEqual({ authenticated: false, error: "service account token has been invalidated" });
  });

  it("stop working as soon as the account is deleted or recreated, even when the signature is cached", async () => {
    const { tokens, authenticate } = setup();
    const { token } = await tokens.issue(account);
    expect(await authenticate(token)).toBeDefined();
    expect(await authenticate(token)).toBeDefined(); // served from the signature cache
    serviceAccounts.set("apps/deployer", { uid: "22222222-2222-4222-8222-222222222222" });
    expect(await authenticate.authenticate(token)).toEqual({
      authenticated: false, error: `service account UID (22222222-2222-4222-8222-222222222222) does not match claim (${SA_UID})`,
    });
    serviceAccounts.delete("apps/deployer");
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: 'serviceaccounts "deployer" not found' });
  });

  it("honour kube's deletion leeway for an account being deleted", async () => {
    const { tokens, authenticate } = setup();
    const { token } = await tokens.issue(account);
    serviceAccounts.set("apps/deployer", { uid: SA_UID, deletionTimestamp: new Date(clock - 30_000).toISOString() });
    expect(await authenticate(token)).toBeDefined();
    serviceAccounts.set("apps/deployer", { uid: SA_UID, deletionTimestamp: new Date(clock - 61_000).toISOString() });
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: "service account apps/deployer has been deleted" });
  });

  it("die with the Secret or Node they are bound to", async () => {
    const { tokens, authenticate } = setup();
    secrets.set("apps/bound", { uid: "sec-1" });
    const secretBound = (await tokens.issue({ ...account, boundObject: { kind: "Secret", name: "bound", uid: "sec-1" } })).token;
    expect(await authenticate(secretBound)).toBeDefined();
    secrets.delete("apps/bound");
    expect(await authenticate(secretBound)).toBeUndefined();

    nodes.set("n2", { uid: "node-2" });
    const nodeBound = (await tokens.issue({ ...account, boundObject: { kind: "Node", name: "n2", uid: "node-2" } })).token;
    expect((await authenticate(nodeBound))?.extra?.["authentication.kubernetes.io/node-name"]).toEqual(["n2"]);
    nodes.delete("n2");
    expect(await authenticate(nodeBound)).toBeUndefined();
  });

  it("report expiry and audience refusals for TokenReview", async () => {
    const { tokens, authenticate } = setup();
    const { token } = await tokens.issue({ ...account, audiences: ["vault"] });
    expect(await authenticate(token)).toBeUndefined();
    expect(await authenticate.authenticate(token, { audiences: ["vault"] })).toMatchObject({ authenticated: true, audiences: ["vault"] });
    clock += 3600_000 + 61_000;
    expect(await authenticate.authenticate(token, { audiences: ["vault"] })).toEqual({ authenticated: false, error: "service account token has expired" });
  });

  it("refuses a token signed with another data directory's key", async () => {
    const { authenticate } = setup();
    const stranger = ServiceAccountTokens.open({ dataDir: path.join(dir, "elsewhere"), now });
    const { token } = await stranger.issue(account);
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: "invalid signature, no keys found" });
  });
});

describe("legacy service account tokens", () => {
  async function legacySetup(onLegacyTokenUsed?: Parameters<typeof createAuthenticator>[0]["onLegacyTokenUsed"]) {
    const { tokens, authenticate } = setup({ onLegacyTokenUsed });
    const token = await tokens.issueLegacy({ ...account, secretName: "deployer-token" });
    secrets.set("apps/deployer-token", { uid: "s-1", data: { token }, annotations: { "kubernetes.io/service-account.name": "deployer" } });
    return { token, authenticate };
  }

  it("authenticate while their Secret holds them", async () => {
    const used: unknown[] = [];
    const { token, authenticate } = await legacySetup((u) => used.push(u));
    expect(await authenticate(token)).toEqual({
      username: "system:serviceaccount:apps:deployer",
      uid: SA_UID,
      groups: ["system:serviceaccounts", "system:serviceaccounts:apps", "system:authenticated"],
    });
    expect(used).toEqual([{ namespace: "apps", secretName: "deployer-token", today: "2025-06-01" }]);
    secrets.get("apps/deployer-token")!.labels = { "kubernetes.io/legacy-token-last-used": "2025-06-01" };
    await authenticate(token);
    expect(used).toHaveLength(1);
  });

  it("are refused once the Secret is deleted or holds another token", async () => {
    const { token, authenticate } = await legacySetup();
    secrets.get("apps/deployer-token")!.data = { token: "something-else" };
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: "Token does not match server's copy" });
    secrets.delete("apps/deployer-token");
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: "Token has been invalidated" });
  });

  it("are refused when the account is gone or recreated, or the Secret is marked invalid", async () => {
    const { token, authenticate } = await legacySetup();
    secrets.get("apps/deployer-token")!.labels = { "kubernetes.io/legacy-token-invalid-since": "2025-01-01" };
    expect((await authenticate.authenticate(token)) as { error: string }).toMatchObject({ authenticated: false, error: expect.stringContaining("has been marked invalid") });
    secrets.get("apps/deployer-token")!.labels = {};
    serviceAccounts.set("apps/deployer", { uid: "other" });
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: `ServiceAccount UID (other) does not match claim (${SA_UID})` });
    serviceAccounts.delete("apps/deployer");
    expect(await authenticate(token)).toBeUndefined();
  });
});

describe("JWT (OIDC) authenticators after ServiceAccount tokens", () => {
  const oidcUser = { username: "oidc:ann", groups: ["oidc:devs"], extra: { "authentication.kubernetes.io/credential-id": ["JTI=1"] } };
  const jwt = async (token: string) =>
    token === "oidc-ok" ? { status: "ok" as const, user: oidcUser }
      : token === "oidc-bad" ? { status: "refused" as const, error: "oidc: verify token: oidc: token is expired" }
        : { status: "not-ours" as const };

  it("are asked only for tokens the others do not take, and their users are system:authenticated", async () => {
    const asked: string[] = [];
    const { authenticate } = setup({ jwtAuthenticator: (t) => { asked.push(t); return jwt(t); } });
    expect(await authenticate("oidc-ok")).toEqual({ ...oidcUser, groups: ["oidc:devs", "system:authenticated"] });
    expect(await authenticate("admin-SECRET")).toMatchObject({ username: "admin" });
    expect(asked).toEqual(["oidc-ok"]);
    expect(await authenticate.authenticate("oidc-bad")).toEqual({ authenticated: false, error: "oidc: verify token: oidc: token is expired" });
    expect(await authenticate.authenticate("nobody")).toEqual({ authenticated: false });
  });

  it("answer TokenReview only for the API audiences, as kube's audience-agnostic wrapper", async () => {
    const { authenticate } = setup({ jwtAuthenticator: jwt });
    expect(await authenticate.authenticate("oidc-ok")).toMatchObject({ authenticated: true, audiences: [DEFAULT_ISSUER] });
    expect(await authenticate.authenticate("oidc-ok", { audiences: ["other"] })).toEqual({ authenticated: false });
  });
});

describe("the token cache (kube's 10 s success cache)", () => {
  it("answers a ServiceAccount token from memory until an object it was checked against changes", async () => {
    const { tokens, authenticate } = setup({ successCacheTtlMs: 10_000 });
    pods.set("apps/web-0", { uid: "pod-1" });
    const { token } = await tokens.issue({ ...account, boundObject: { kind: "Pod", name: "web-0", uid: "pod-1" } });
    expect(await authenticate(token)).toMatchObject({ username: "system:serviceaccount:apps:deployer" });
    // Gone from the lookup, but nobody said so: the cached answer stands (this is what the cache saves).
    serviceAccounts.delete("apps/deployer");
    expect(await authenticate(token)).toMatchObject({ username: "system:serviceaccount:apps:deployer" });
    // An unrelated object changes: still cached. The account's deletion is reported: refused at once.
    authenticate.forget("serviceaccounts", "apps", "other");
    expect(await authenticate(token)).toBeDefined();
    authenticate.forget("serviceaccounts", "apps", "deployer");
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: 'serviceaccounts "deployer" not found' });
    // Failures are not cached: the account back, the token works again at once.
    serviceAccounts.set("apps/deployer", { uid: SA_UID });
    expect(await authenticate(token)).toBeDefined();
    // The bound Pod goes: its token goes with it.
    pods.delete("apps/web-0");
    authenticate.forget("pods", "apps", "web-0");
    expect(await authenticate.authenticate(token)).toEqual({ authenticated: false, error: "service account token has been invalidated" });
  });

  it("keeps an answer 10 s at most and never past the token's own expiry", async () => {
    const { tokens, authenticate } = setup({ successCacheTtlMs: 10_000 });
    const { token } = await tokens.issue(account);
    expect(await authenticate(token)).toBeDefined();
    serviceAccounts.delete("apps/deployer");
    clock += 9_000;
    expect(await authenticate(token)).toBeDefined();
    clock += 1_001;
    expect(await authenticate(token)).toBeUndefined();

    const asked: string[] = [];
    const oidc = setup({
      successCacheTtlMs: 10_000,
      // An OIDC token that expires in 3 s.
      jwtAuthenticator: async (t) => { asked.push(t); return t === "oidc-short" && clock <= expiry * 1000 ? { status: "ok", user: { username: "ann", groups: [] }, expiresAt: expiry } : { status: "not-ours" }; },
    }).authenticate;
    const expiry = Math.floor(clock / 1000) + 3;
    expect(await oidc("oidc-short")).toMatchObject({ username: "ann", groups: ["system:authenticated"] });
    expect(await oidc("oidc-short")).toBeDefined();
    expect(asked).toHaveLength(1);
    clock = expiry * 1000 + 1;
    expect(await oidc("oidc-short")).toBeUndefined();
    expect(asked).toHaveLength(2);
  });

  it("drops the issuers' cached answers when their configuration is reloaded (an issuer removed stops authenticating at once)", async () => {
    let issuerTrusted = true;
    const asked: string[] = [];
    const authn = setup({
      successCacheTtlMs: 10_000,
      jwtAuthenticator: async (t) => { asked.push(t); return issuerTrusted ? { status: "ok", user: { username: "ann", groups: [] } } : { status: "not-ours" }; },
    }).authenticate;
    expect(await authn("oidc-token")).toMatchObject({ username: "ann" });
    issuerTrusted = false;
    // Within the 10 s the answer stands (kube's cache), until the configuration behind it changes.
    expect(await authn("oidc-token")).toBeDefined();
    authn.forgetIssuers();
    expect(await authn("oidc-token")).toBeUndefined();
    expect(asked).toHaveLength(2);
  });

  it("is not used for TokenReview's own audiences, and a cached user cannot be changed by its reader", async () => {
    const { tokens, authenticate } = setup({ successCacheTtlMs: 10_000 });
    const { token } = await tokens.issue({ ...account, audiences: ["vault"] });
    expect(await authenticate.authenticate(token, { audiences: ["vault"] })).toMatchObject({ authenticated: true, audiences: ["vault"] });
    serviceAccounts.delete("apps/deployer");
    expect(await authenticate.authenticate(token, { audiences: ["vault"] })).toMatchObject({ authenticated: false });
    serviceAccounts.set("apps/deployer", { uid: SA_UID });
    const api = (await tokens.issue(account)).token;
    const user = (await authenticate(api))!;
    expect(() => user.groups.push("system:masters")).toThrow();
    expect((await authenticate(api))!.groups).not.toContain("system:masters");
  });
});

describe("leases (what a connection may keep of an answer)", () => {
  it("stand exactly as long as the token cache answers from memory", async () => {
    const { tokens, authenticate } = setup({ successCacheTtlMs: 10_000 });
    const admin = authenticate.lease("admin-SECRET") as TokenLease;
    expect(admin).toMatchObject({ user: { username: "admin", groups: ["system:masters", "system:authenticated"] } });
    expect(await authenticate.lease("nobody's")).toBeUndefined();

    const { token } = await tokens.issue(account);
    // Verified first (a promise), then known at once.
    const first = (await authenticate.lease(token))!;
    expect(first.user.username).toBe("system:serviceaccount:apps:deployer");
    const kept = authenticate.lease(token);
    expect(kept).not.toBeInstanceOf(Promise);
    expect((kept as typeof first).user).toBe(first.user);
    // A change to another object leaves it standing; one to the account ends it, for good.
    authenticate.forget("serviceaccounts", "apps", "other");
    expect(first.valid()).toBe(true);
    authenticate.forget("serviceaccounts", "apps", "deployer");
    expect(first.valid()).toBe(false);
    serviceAccounts.delete("apps/deployer");
    expect(await authenticate.lease(token)).toBeUndefined();
    serviceAccounts.set("apps/deployer", { uid: SA_UID });
    expect(first.valid()).toBe(false);

    // The cache's time: 10 s, and never past the token's own expiry (exp plus kube's 60 s leeway).
    const again = (await authenticate.lease(token))!;
    clock += 9_999;
    expect(again.valid()).toBe(true);
    clock += 1;
    expect(again.valid()).toBe(false);
    const short = (await tokens.issue({ ...account, expirationSeconds: 600 })).token;
    const expiring = (await authenticate.lease(short))!;
    clock += 5_000;
    const stillKept = (await authenticate.lease(short))!;
    clock = (Math.floor(clock / 1000) + 600 + 60) * 1000;
    expect([expiring.valid(), stillKept.valid()]).toEqual([false, false]);
    expect(admin.valid()).toBe(true);
  });

  it("of an issuer's token end when the issuers' configuration is reloaded", async () => {
    const authn = setup({ successCacheTtlMs: 10_000, jwtAuthenticator: async () => ({ status: "ok", user: { username: "ann", groups: [] } }) }).authenticate;
    const lease = (await authn.lease("oidc-token"))!;
    expect(lease.user).toMatchObject({ username: "ann", groups: ["system:authenticated"] });
    expect(lease.valid()).toBe(true);
    authn.forgetIssuers();
    expect(lease.valid()).toBe(false);
  });
});

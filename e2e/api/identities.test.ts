// Identities beyond the admin token: the token file (and a clear refusal to start on a malformed one),
// TokenRequest tokens other systems can verify from the issuer's discovery documents, legacy token Secrets
// filled in by the server, and the audit log that records who did what without ever recording a secret.
import { createLocalJWKSet, jwtVerify } from "jose";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, stopAll, type Server } from "./harness";

const CAROL = "carol-token-abcdefghijkl";
let server: Server;
let tmp: string;
let auditPath: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-identities-"));
  const tokens = path.join(tmp, "tokens.csv");
  writeFileSync(tokens, `${CAROL},carol,uid-carol,"ops"\n`);
  auditPath = path.join(tmp, "audit", "audit.log");
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens, AUDIT_LOG_PATH: auditPath } });
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const auditLines = () => readFileSync(auditPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("identities", () => {
  test("a malformed token file stops the start with a message naming the line", async () => {
    const bad = path.join(tmp, "bad.csv");
    writeFileSync(bad, `good-token-1234567,ann,uid-ann\nsecret-token-value\n`);
    await expect(startServer({ env: { TOKEN_AUTH_FILE: bad } })).rejects.toThrow(/line 2/);
    // The refusal never shows the token it could not parse.
    await expect(startServer({ env: { TOKEN_AUTH_FILE: bad } })).rejects.not.toThrow(/secret-token-value/);
  });

  test("a token-file user is who the file says, with no rights until bound", async () => {
    const who = await server.request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", { token: CAROL, body: { kind: "SelfSubjectReview" } });
    expect(who.status).toBe(201);
    expect(who.body.status.userInfo).toEqual({ username: "carol", uid: "uid-carol", groups: ["ops", "system:authenticated"] });
    const pods = await server.request("GET", "/api/v1/namespaces/default/pods", { token: CAROL });
    expect(pods.status).toBe(403);
    // Discovery is open to every authenticated user, as kube's system:discovery binding makes it.
    expect((await server.request("GET", "/apis", { token: CAROL })).status).toBe(200);
    expect((await server.kubectl(["--token", CAROL, "api-resources", "-o", "name"])).stdout).toContain("roles.rbac.authorization.k8s.io");
  });

  test("TokenRequest tokens verify against the issuer's published keys and carry kube's claims", async () => {
    await server.kubectl(["create", "serviceaccount", "builder", "-n", "default"]);
    const sa = JSON.parse((await server.kubectl(["get", "sa", "builder", "-n", "default", "-o", "json"])).stdout);
    const token = (await server.kubectl(["create", "token", "builder", "-n", "default", "--duration=20m"])).stdout.trim();
    const config = await server.request("GET", "/.well-known/openid-configuration", { token });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ issuer: "https://kubernetes.default.svc.cluster.local", response_types_supported: ["id_token"], subject_types_supported: ["public"] });
    expect(config.body.jwks_uri).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/openid\/v1\/jwks$/);
    const keys = await server.request("GET", "/openid/v1/jwks", { token });
    expect(keys.headers["content-type"]).toBe("application/jwk-set+json");
    const verified = await jwtVerify(token, createLocalJWKSet(JSON.parse(keys.text)), { issuer: config.body.issuer });
    expect(verified.payload.sub).toBe("system:serviceaccount:default:builder");
    expect(verified.payload["kubernetes.io"]).toMatchObject({ namespace: "default", serviceaccount: { name: "builder", uid: sa.metadata.uid } });
    expect(Number(verified.payload.exp) - Number(verified.payload.iat)).toBe(1200);
    // Shorter than kube's minimum: refused with kube's 422.
    const short = await server.kubectl(["create", "token", "builder", "-n", "default", "--duration=5m"], { allowFail: true });
    expect(short.stderr).toContain("may not specify a duration less than 10 minutes");
    // An account that does not exist has no tokens.
    const none = await server.request("POST", "/api/v1/namespaces/default/serviceaccounts/ghost/token", { body: { kind: "TokenRequest", apiVersion: "authentication.k8s.io/v1", spec: {} } });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(`serviceaccounts "ghost" not found`);
  });

  test("a legacy token Secret is filled in by the server, works, and dies with its account", async () => {
    await server.kubectl(["create", "serviceaccount", "legacy", "-n", "default"]);
    await server.kubectl(["apply", "-f", "-"], {
      input: `apiVersion: v1
kind: Secret
metadata:
  name: legacy-token
  namespace: default
  annotations: {kubernetes.io/service-account.name: legacy}
type: kubernetes.io/service-account-token
`,
    });
    const filled = await (async () => {
      for (let i = 0; i < 100; i++) {
        const s = (await server.request("GET", "/api/v1/namespaces/default/secrets/legacy-token")).body;
        if (s.data?.token) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("token never filled in");
    })();
    expect(Buffer.from(filled.data.namespace, "base64").toString()).toBe("default");
    expect(Buffer.from(filled.data["ca.crt"], "base64").toString()).toBe(server.ca);
    const token = Buffer.from(filled.data.token, "base64").toString();
    const who = await server.request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", { token, body: { kind: "SelfSubjectReview" } });
    expect(who.body.status.userInfo.username).toBe("system:serviceaccount:default:legacy");
    // kube's legacy-token tracking marks the Secret with the day its token was used.
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 100; i++) {
      const labels = (await server.request("GET", "/api/v1/namespaces/default/secrets/legacy-token")).body.metadata.labels ?? {};
      if (labels["kubernetes.io/legacy-token-last-used"]) { expect(labels["kubernetes.io/legacy-token-last-used"]).toBe(today); break; }
      if (i === 99) throw new Error("last-used label never set");
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.kubectl(["delete", "serviceaccount", "legacy", "-n", "default"]);
    expect((await server.request("GET", "/api", { token })).status).toBe(401);
  });

  test("a deleted ServiceAccount's token is refused on the very next request of the same keep-alive connection and HTTP/2 session", async () => {
    await server.kubectl(["create", "serviceaccount", "keeper", "-n", "default"]);
    const token = (await server.kubectl(["create", "token", "keeper", "-n", "default", "--duration=20m"])).stdout.trim();
    // One HTTP/1.1 connection (the agent keeps exactly one socket) and one HTTP/2 session, each asked as the
    // ServiceAccount repeatedly: authenticated (a 403: it may not read Secrets), answered from memory after the first.
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: server.ca });
    const sockets = new Set<string>();
    const overH1 = (auth: string) => new Promise<number>((resolve, reject) => {
      const req = https.request({ host: "127.0.0.1", port: server.port, path: "/api/v1/namespaces/default/secrets", agent, headers: { authorization: auth } }, (res) => {
        sockets.add(`${res.socket.localPort}`);
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });
    const session = http2.connect(`https://127.0.0.1:${server.port}`, { ca: server.ca, servername: "localhost" });
    const overH2 = (auth: string) => new Promise<number>((resolve, reject) => {
      const stream = session.request({ ":method": "GET", ":path": "/api/v1/namespaces/default/secrets", authorization: auth });
      let status = 0;
      stream.on("response", (h) => { status = Number(h[":status"]); });
      stream.on("error", reject);
      stream.resume();
      stream.on("end", () => resolve(status));
    });
    try {
      for (let i = 0; i < 3; i++) expect([await overH1(`Bearer ${token}`), await overH2(`Bearer ${token}`)]).toEqual([403, 403]);
      // Another header on the same connection is verified afresh: a token nobody holds is refused, the admin's works.
      expect([await overH1("Bearer not-a-token"), await overH2("Bearer not-a-token")]).toEqual([401, 401]);
      expect([await overH1(`Bearer ${server.token}`), await overH2(`Bearer ${server.token}`)]).toEqual([200, 200]);
      expect([await overH1(`Bearer ${token}`), await overH2(`Bearer ${token}`)]).toEqual([403, 403]);
      await server.kubectl(["delete", "serviceaccount", "keeper", "-n", "default"]);
      expect([await overH1(`Bearer ${token}`), await overH2(`Bearer ${token}`)]).toEqual([401, 401]);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
      session.close();
    }
  });

  test("the audit log records each request's user, verb, resource and code, never a token or a Secret's data", async () => {
    await server.request("POST", "/api/v1/namespaces/default/secrets", { body: { metadata: { name: "audited" }, stringData: { password: "hunter2-audit" } } });
    await server.request("GET", "/api/v1/namespaces/default/pods", { token: CAROL });
    await server.request("GET", "/api/v1/namespaces/default/pods", { token: "wrong-token-zzz" });
    await new Promise((r) => setTimeout(r, 200));
    const lines = auditLines();
    const create = lines.find((l) => l.verb === "create" && l.objectRef?.resource === "secrets" && l.objectRef?.name === "audited");
    expect(create).toMatchObject({
      kind: "Event", apiVersion: "audit.k8s.io/v1", level: "Metadata", stage: "ResponseComplete",
      user: { username: "admin", groups: ["system:masters", "system:authenticated"] },
      objectRef: { resource: "secrets", namespace: "default", apiVersion: "v1" }, responseStatus: { code: 201 },
    });
    expect(create.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const forbidden = lines.find((l) => l.user?.username === "carol" && l.objectRef?.resource === "pods");
    expect(forbidden).toMatchObject({ verb: "list", responseStatus: { code: 403 }, annotations: { "authorization.k8s.io/decision": "forbid" } });
    expect(lines.some((l) => l.responseStatus?.code === 401)).toBe(true);
    const text = readFileSync(auditPath, "utf8");
    for (const secret of [server.token, CAROL, "wrong-token-zzz", "hunter2-audit", Buffer.from("hunter2-audit").toString("base64")]) {
      expect(text).not.toContain(secret);
    }
  });
});

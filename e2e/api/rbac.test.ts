// Authorization as a namespace-bound team sees it: kubectl 1.32 driven as three identities (the admin, a
// token-file user bound to one namespace, a ServiceAccount token) over every path form, watch included,
// allowed and forbidden, with kube's exact 403 messages; plus can-i, impersonation and escalation prevention.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, stopAll, type Server } from "./harness";
import { ALICE, BOB, TEAM_A_WITH_ALICE_ADMIN, writeTeamTokens } from "./team-a";

let server: Server;
let tmp: string;
let robot: string;

const asAlice = (args: string[]) => server.kubectl(["--token", ALICE, ...args], { allowFail: true });
const asBob = (args: string[]) => server.kubectl(["--token", BOB, ...args], { allowFail: true });
const asRobot = (args: string[]) => server.kubectl(["--token", robot, ...args], { allowFail: true });
const apply = (yaml: string) => server.kubectl(["apply", "-f", "-"], { input: yaml });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-rbac-"));
  const tokens = writeTeamTokens(tmp);
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens } });
  await apply(`${TEAM_A_WITH_ALICE_ADMIN}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: team-a}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm-reader, namespace: team-a}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}
- {apiGroups: [""], resources: [pods/status], verbs: [get]}
- {apiGroups: [""], resources: [secrets], verbs: [get], resourceNames: [shown]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: robot-reads, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}
subjects: [{kind: ServiceAccount, name: robot, namespace: team-a}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
data: {mode: fast}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: private, namespace: team-b}
data: {mode: slow}
---
apiVersion: v1
kind: Secret
metadata: {name: shown, namespace: team-a}
stringData: {k: v}
---
apiVersion: v1
kind: Secret
metadata: {name: hidden, namespace: team-a}
stringData: {k: v}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: team-a}
spec: {containers: [{name: c, image: nginx}]}
`);
  const token = await server.kubectl(["create", "token", "robot", "-n", "team-a", "--duration=1h"]);
  robot = token.stdout.trim();
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe("who is asking", () => {
  test("kubectl auth whoami names each identity with kube's groups", async () => {
    const admin = JSON.parse((await server.kubectl(["auth", "whoami", "-o", "json"])).stdout);
    expect(admin.status.userInfo).toMatchObject({ username: "admin", groups: ["system:masters", "system:authenticated"] });
    const alice = JSON.parse((await asAlice(["auth", "whoami", "-o", "json"])).stdout);
    expect(alice.status.userInfo).toEqual({ username: "alice", uid: "uid-alice", groups: ["team-a-devs", "people", "system:authenticated"] });
    const sa = JSON.parse((await asRobot(["auth", "whoami", "-o", "json"])).stdout);
    expect(sa.status.userInfo.username).toBe("system:serviceaccount:team-a:robot");
    expect(sa.status.userInfo.groups).toEqual(["system:serviceaccounts", "system:serviceaccounts:team-a", "system:authenticated"]);
    expect(sa.status.userInfo.extra["authentication.kubernetes.io/credential-id"][0]).toMatch(/^JTI=/);
  });

  test("a wrong token gets 401 on every path, even one that does not exist", async () => {
    const r = await server.kubectl(["--token", "not-a-token", "get", "configmaps", "-n", "team-a"], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Unauthorized");
    for (const p of ["/api/v1/namespaces/team-a/configmaps", "/apis/apps/v1", "/api/v1/namespaces/team-a/configmaps/x/status", "/api/v1/nosuchresource", "/openapi/v3"]) {
      const res = await server.request("GET", p, { token: null });
      expect(res.status, p).toBe(401);
      expect(res.body).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
    }
    expect((await server.request("GET", "/healthz", { token: null })).status).toBe(200);
    expect((await server.request("GET", "/version", { token: null })).status).toBe(200);
  });
});

describe("a token-file user bound to one namespace (ClusterRole admin through a RoleBinding)", () => {
  test("reads, writes, watches and deletes in its namespace", async () => {
    expect((await asAlice(["get", "configmaps", "-n", "team-a", "-o", "name"])).stdout).toContain("configmap/settings");
    expect((await asAlice(["create", "configmap", "mine", "-n", "team-a", "--from-literal=a=b"])).code).toBe(0);
    expect((await asAlice(["label", "configmap", "mine", "-n", "team-a", "tier=web"])).code).toBe(0);
    expect((await asAlice(["patch", "configmap", "mine", "-n", "team-a", "-p", '{"data":{"a":"c"}}'])).code).toBe(0);
    const got = JSON.parse((await asAlice(["get", "configmap", "mine", "-n", "team-a", "-o", "json"])).stdout);
    expect(got.data).toEqual({ a: "c" });
    const watch = await asAlice(["get", "configmaps", "-n", "team-a", "--watch", "--request-timeout=2s", "-o", "name"]);
    expect(watch.stdout).toContain("configmap/settings");
    expect((await asAlice(["delete", "configmap", "mine", "-n", "team-a"])).code).toBe(0);
    expect((await asAlice(["delete", "configmaps", "-n", "team-a", "-l", "tier=none"])).code).toBe(0);
    // Its own namespace object is readable through the RoleBinding (the request's namespace is team-a).
    expect((await asAlice(["get", "namespace", "team-a", "-o", "name"])).stdout.trim()).toBe("namespace/team-a");
  });

  test("is refused elsewhere with kube's messages", async () => {
    const other = await asAlice(["get", "configmaps", "-n", "team-b"]);
    expect(other.stderr).toContain(`configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-b"`);
    const named = await asAlice(["get", "configmap", "private", "-n", "team-b"]);
    expect(named.stderr).toContain(`configmaps "private" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "team-b"`);
    const all = await asAlice(["get", "configmaps", "-A"]);
    expect(all.stderr).toContain(`configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" at the cluster scope`);
    const watchAll = await server.request("GET", "/api/v1/configmaps?watch=true", { token: ALICE });
    expect(watchAll.status).toBe(403);
    expect(watchAll.body.message).toBe(`configmaps is forbidden: User "alice" cannot watch resource "configmaps" in API group "" at the cluster scope`);
    const nsList = await asAlice(["get", "namespaces"]);
    expect(nsList.stderr).toContain(`namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope`);
    const create = await server.request("POST", "/api/v1/namespaces/team-b/configmaps", { token: ALICE, body: { metadata: { name: "x" } } });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ reason: "Forbidden", details: { kind: "configmaps" } });
    const dc = await server.request("DELETE", "/api/v1/namespaces/team-b/configmaps", { token: ALICE });
    expect(dc.body.message).toBe(`configmaps is forbidden: User "alice" cannot deletecollection resource "configmaps" in API group "" in the namespace "team-b"`);
    const crb = await server.request("GET", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", { token: ALICE });
    expect(crb.body.message).toBe(`clusterrolebindings.rbac.authorization.k8s.io is forbidden: User "alice" cannot list resource "clusterrolebindings" in API group "rbac.authorization.k8s.io" at the cluster scope`);
    expect(crb.body.details).toEqual({ group: "rbac.authorization.k8s.io", kind: "clusterrolebindings" });
    // An unknown resource is refused before anything reveals whether it exists.
    const unknown = await server.request("GET", "/apis/example.com/v1/widgets", { token: ALICE });
    expect(unknown.status).toBe(403);
    // Nothing was written by the refused create (the root CA ConfigMap is the publisher's, in every namespace).
    expect((await server.kubectl(["get", "configmaps", "-n", "team-b", "-o", "name"])).stdout.trim().split("\n").sort())
      .toEqual(["configmap/kube-root-ca.crt", "configmap/private"]);
  });

  test("kubectl auth can-i and can-i --list answer from the same rules", async () => {
    expect((await asAlice(["auth", "can-i", "create", "configmaps", "-n", "team-a"])).stdout.trim()).toBe("yes");
    expect((await asAlice(["auth", "can-i", "create", "configmaps", "-n", "team-b"])).stdout.trim()).toBe("no");
    expect((await asAlice(["auth", "can-i", "list", "namespaces"])).stdout.trim()).toBe("no");
    const list = (await asAlice(["auth", "can-i", "--list", "-n", "team-a"])).stdout;
    expect(list).toMatch(/configmaps\s+\[\]\s+\[\]\s+\[.*create.*\]/);
    expect(list).toContain("selfsubjectaccessreviews.authorization.k8s.io");
  });

  test("cannot grant what it does not hold (escalation) nor bind a role it does not hold (bind)", async () => {
    const role = await server.request("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles", {
      token: ALICE,
      body: { metadata: { name: "too-much" }, rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }] },
    });
    expect(role.status).toBe(403);
    expect(role.body.message).toContain(`roles.rbac.authorization.k8s.io "too-much" is forbidden: user "alice" (groups=["team-a-devs" "people" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:`);
    const bind = await server.request("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", {
      token: ALICE,
      body: { metadata: { name: "take-over" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" }, subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }] },
    });
    expect(bind.status).toBe(403);
    expect(bind.body.message).toContain("is attempting to grant RBAC permissions not currently held");
    // Rules it does hold may be granted on: a Role and a binding for its own team.
    const ok = await asAlice(["create", "role", "cm-viewer", "-n", "team-a", "--verb=get", "--resource=configmaps"]);
    expect(ok.code, ok.stderr).toBe(0);
    const okBind = await asAlice(["create", "rolebinding", "bob-views", "-n", "team-a", "--role=cm-viewer", "--user=bob"]);
    expect(okBind.code, okBind.stderr).toBe(0);
    expect((await asBob(["get", "configmap", "settings", "-n", "team-a", "-o", "name"])).stdout.trim()).toBe("configmap/settings");
    // Deleting the binding revokes at once.
    await server.kubectl(["delete", "rolebinding", "bob-views", "-n", "team-a"]);
    expect((await asBob(["get", "configmap", "settings", "-n", "team-a"])).stderr).toContain("is forbidden");
  });
});

describe("a ServiceAccount token (TokenRequest) bound through a Role", () => {
  test("resourceNames, subresources and verbs are enforced exactly", async () => {
    expect((await asRobot(["get", "configmap", "settings", "-n", "team-a", "-o", "name"])).stdout.trim()).toBe("configmap/settings");
    expect((await asRobot(["get", "secret", "shown", "-n", "team-a", "-o", "name"])).stdout.trim()).toBe("secret/shown");
    expect((await asRobot(["get", "secret", "hidden", "-n", "team-a"])).stderr).toContain(
      `secrets "hidden" is forbidden: User "system:serviceaccount:team-a:robot" cannot get resource "secrets" in API group "" in the namespace "team-a"`);
    expect((await asRobot(["get", "secrets", "-n", "team-a"])).stderr).toContain("cannot list resource \"secrets\"");
    const status = await server.request("GET", "/api/v1/namespaces/team-a/pods/web/status", { token: robot });
    expect(status.status).toBe(200);
    const pod = await server.request("GET", "/api/v1/namespaces/team-a/pods/web", { token: robot });
    expect(pod.body.message).toBe(`pods "web" is forbidden: User "system:serviceaccount:team-a:robot" cannot get resource "pods" in API group "" in the namespace "team-a"`);
    const putStatus = await server.request("PUT", "/api/v1/namespaces/team-a/pods/web/status", { token: robot, body: status.body });
    expect(putStatus.body.message).toBe(`pods "web" is forbidden: User "system:serviceaccount:team-a:robot" cannot update resource "pods/status" in API group "" in the namespace "team-a"`);
    expect((await asRobot(["delete", "configmap", "settings", "-n", "team-a"])).stderr).toContain("cannot delete resource \"configmaps\"");
  });

  test("a watch is authorized at its start and streams events", async () => {
    const r = await asRobot(["get", "configmaps", "-n", "team-a", "--watch", "--request-timeout=2s", "-o", "name"]);
    expect(r.stdout).toContain("configmap/settings");
    const all = await server.request("GET", "/api/v1/watch/configmaps", { token: robot });
    expect(all.body.message).toBe(`configmaps is forbidden: User "system:serviceaccount:team-a:robot" cannot watch resource "configmaps" in API group "" at the cluster scope`);
  });

  test("the token stops working when its ServiceAccount is deleted", async () => {
    await server.kubectl(["create", "serviceaccount", "short-lived", "-n", "team-a"]);
    const token = (await server.kubectl(["create", "token", "short-lived", "-n", "team-a"])).stdout.trim();
    expect((await server.request("GET", "/api", { token })).status).toBe(200);
    await server.kubectl(["delete", "serviceaccount", "short-lived", "-n", "team-a"]);
    expect((await server.request("GET", "/api", { token })).status).toBe(401);
  });
});

describe("impersonation", () => {
  test("the admin acts as alice with --as and sees alice's refusals", async () => {
    const r = await server.kubectl(["--as", "alice", "get", "configmaps", "-n", "team-b"], { allowFail: true });
    expect(r.stderr).toContain(`User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-b"`);
    const g = await server.kubectl(["--as", "carol", "--as-group", "team-a-devs", "auth", "whoami", "-o", "json"]);
    expect(JSON.parse(g.stdout).status.userInfo).toMatchObject({ username: "carol", groups: ["team-a-devs", "system:authenticated"] });
  });

  test("a user without the impersonate verb is refused; granted it, may act as that user only", async () => {
    const r = await asAlice(["--as", "bob", "get", "configmaps", "-n", "team-a"]);
    expect(r.stderr).toContain(`users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`);
    await apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: impersonate-bob}
rules: [{apiGroups: [""], resources: [users], verbs: [impersonate], resourceNames: [bob]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: alice-impersonates-bob}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-bob}
subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}]
`);
    const who = await asAlice(["--as", "bob", "auth", "whoami", "-o", "json"]);
    expect(JSON.parse(who.stdout).status.userInfo.username).toBe("bob");
    expect((await asAlice(["--as", "dave", "get", "configmaps", "-n", "team-a"])).stderr).toContain(`users "dave" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`);
  });
});

describe("review APIs", () => {
  test("TokenReview and SubjectAccessReview answer for other users", async () => {
    const tr = await server.request("POST", "/apis/authentication.k8s.io/v1/tokenreviews", { body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token: robot } } });
    expect(tr.status).toBe(201);
    expect(tr.body.status).toMatchObject({ authenticated: true, user: { username: "system:serviceaccount:team-a:robot" } });
    expect(JSON.stringify(tr.body)).not.toContain(robot);
    const bad = await server.request("POST", "/apis/authentication.k8s.io/v1/tokenreviews", { body: { kind: "TokenReview", spec: { token: "nope" } } });
    expect(bad.body.status.authenticated).toBeFalsy();
    const sar = await server.request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
      body: { kind: "SubjectAccessReview", spec: { user: "alice", resourceAttributes: { namespace: "team-a", verb: "delete", resource: "configmaps" } } },
    });
    expect(sar.body.status.allowed).toBe(true);
    expect(sar.body.status.reason).toBe(`RBAC: allowed by RoleBinding "alice-admin/team-a" of ClusterRole "admin" to User "alice"`);
    const denied = await server.request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
      body: { kind: "SubjectAccessReview", spec: { user: "alice", resourceAttributes: { namespace: "team-b", verb: "get", resource: "configmaps" } } },
    });
    expect(denied.body.status.allowed).toBe(false);
    const aliceTries = await server.request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", { token: ALICE, body: { kind: "SubjectAccessReview", spec: { user: "bob", resourceAttributes: { verb: "get", resource: "pods" } } } });
    expect(aliceTries.status).toBe(403);
  });
});

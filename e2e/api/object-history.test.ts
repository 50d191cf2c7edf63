// Object history through the real server (issue 14, item 8): revisions kept past the watch window (a 2 s
// COMPACTION_WINDOW_SECONDS here) up to HISTORY_REVISIONS, deleted objects kept and listed, who made each
// write (the request's authenticated user), authorization like get/list on what is shown, Secret history
// encrypted at rest, and the history of acknowledged writes surviving kill -9.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sqliteBytes } from "../../lib/snapshot/test-stores";
import { startServer, stopAll, waitFor, type Server } from "./harness";
import { ALICE, BOB, TEAM_A_WITH_ALICE_ADMIN, writeTeamTokens } from "./team-a";

const HISTORY = "/apis/history.cluster-core.dev/v1";
const VALUE = `first-${randomBytes(8).toString("hex")}`;
const VALUE2 = `second-${randomBytes(8).toString("hex")}`;
const b64 = (s: string) => Buffer.from(s).toString("base64");

let server: Server;
let tmp: string;
afterAll(stopAll);

const asAlice = (method: string, p: string, body?: unknown) => server.request(method, p, { token: ALICE, body });
const asBob = (method: string, p: string) => server.request(method, p, { token: BOB });
const cmPath = (name: string) => `/api/v1/namespaces/team-a/configmaps/${name}`;
const cm = (name: string, v: string, resourceVersion?: string) =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "team-a", ...(resourceVersion ? { resourceVersion } : {}) }, data: { v } });

async function put(name: string, v: string): Promise<string> {
  const cur = await asAlice("GET", cmPath(name));
  const r = cur.status === 404
    ? await asAlice("POST", "/api/v1/namespaces/team-a/configmaps", cm(name, v))
    : await asAlice("PUT", cmPath(name), cm(name, v, cur.body.metadata.resourceVersion));
  expect(r.status, r.text).toBeLessThan(300);
  return r.body.metadata.resourceVersion as string;
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cc-history-e2e-"));
  const tokens = writeTeamTokens(tmp);
  const encryption = path.join(tmp, "encryption.yaml");
  writeFileSync(encryption, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${randomBytes(32).toString("base64")}
      - identity: {}
`);
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens, ENCRYPTION_CONFIG: encryption, COMPACTION_WINDOW_SECONDS: "2", HISTORY_REVISIONS: "3" } });
  await server.kubectl(["apply", "-f", "-"], { input: `${TEAM_A_WITH_ALICE_ADMIN}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm-reader, namespace: team-a}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list]}
- {apiGroups: [""], resources: [secrets], verbs: [get], resourceNames: [shown]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: bob-reads, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}
subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
` });
}, 120_000);

describe("object history", { timeout: 120_000 }, () => {
  test("keeps the last HISTORY_REVISIONS revisions past the watch window, each with who made it", async () => {
    const revs: string[] = [];
    for (let i = 1; i <= 5; i++) revs.push(await put("settings", String(i)));
    // Once compaction has passed them, the watch window no longer serves the first revisions ...
    await waitFor("compaction past the first revision", async () => {
      const r = await asAlice("GET", `/api/v1/namespaces/team-a/configmaps?resourceVersion=${revs[1]}&resourceVersionMatch=Exact`);
      return r.status === 410 ? true : undefined;
    }, 20_000, 200);
    // ... while the history keeps the last 3 (HISTORY_REVISIONS), newest first.
    const h = await waitFor("pruning to HISTORY_REVISIONS", async () => {
      const r = await asAlice("GET", `${cmPath("settings")}/history`);
      return r.status === 200 && r.body.items.length === 3 ? r : undefined;
    }, 20_000, 200);
    expect(h.headers["content-type"]).toMatch(/application\/json/);
    expect(h.body).toMatchObject({ kind: "ObjectHistory", apiVersion: "history.cluster-core.dev/v1", resource: "configmaps", namespace: "team-a", name: "settings" });
    expect(h.body.items.map((i: any) => i.resourceVersion)).toEqual([revs[4], revs[3], revs[2]]);
    expect(h.body.items.map((i: any) => i.object.data.v)).toEqual(["5", "4", "3"]);
    expect(h.body.items.map((i: any) => i.type)).toEqual(["MODIFIED", "MODIFIED", "MODIFIED"]);
    for (const item of h.body.items) {
      expect(item.user.username).toBe("alice");
      expect(item.user.groups).toEqual(expect.arrayContaining(["team-a-devs", "people", "system:authenticated"]));
      expect(Date.parse(item.time)).toBeGreaterThan(Date.now() - 120_000);
    }
    // Paging and limits.
    const page = await asAlice("GET", `${cmPath("settings")}/history?limit=1&before=${revs[4]}`);
    expect(page.body.items.map((i: any) => i.resourceVersion)).toEqual([revs[3]]);
    // A change made by the admin (kubectl) is recorded as the admin.
    await server.kubectl(["label", "configmap", "settings", "-n", "team-a", "by=kubectl"]);
    const latest = await asAlice("GET", `${cmPath("settings")}/history?limit=1`);
    expect(latest.body.items[0].user.username).not.toBe("alice");
    expect(latest.body.items[0].object.metadata.labels).toEqual({ by: "kubectl" });
  });

  test("keeps deleted objects and lists them with their last revision", async () => {
    await put("doomed", "a");
    await put("doomed", "b");
    expect((await asAlice("DELETE", cmPath("doomed"))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 4000)); // past the watch window and a compaction round
    const list = await asAlice("GET", `${HISTORY}/namespaces/team-a/deleted/configmaps`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.kind).toBe("DeletedObjectList");
    const doomed = list.body.items.find((i: any) => i.object.metadata.name === "doomed");
    expect(doomed).toMatchObject({ type: "DELETED", user: { username: "alice" }, object: { data: { v: "b" } } });
    expect(list.body.items.some((i: any) => i.object.metadata.name === "settings")).toBe(false);
    const h = await asAlice("GET", `${cmPath("doomed")}/history`);
    expect(h.body.items.map((i: any) => `${i.type} ${i.object.data.v}`)).toEqual(["DELETED b", "MODIFIED b", "ADDED a"]);
    // Re-created from its last revision, it is no longer listed as deleted.
    const { uid: _u, resourceVersion: _r, creationTimestamp: _c, ...meta } = doomed.object.metadata;
    expect((await asAlice("POST", "/api/v1/namespaces/team-a/configmaps", { ...doomed.object, metadata: meta })).status).toBe(201);
    const after = await asAlice("GET", `${HISTORY}/namespaces/team-a/deleted/configmaps`);
    expect(after.body.items.some((i: any) => i.object.metadata.name === "doomed")).toBe(false);
    // All namespaces (cluster-wide list) for the admin.
    expect((await server.request("GET", `${HISTORY}/deleted/configmaps`)).status).toBe(200);
  });

  test("a namespace's recent changes across kinds, of the kinds the user may list", async () => {
    await put("replayed", "1");
    expect((await asAlice("POST", "/api/v1/namespaces/team-a/secrets", { metadata: { name: "replay-secret" }, stringData: { k: "v" } })).status).toBe(201);
    const all = await asAlice("GET", `${HISTORY}/namespaces/team-a/changes?sinceSeconds=3600`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.kind).toBe("ChangeList");
    const kinds = all.body.items.map((i: any) => `${i.resource}/${i.object.metadata.name}`);
    expect(kinds.indexOf("secrets/replay-secret")).toBeLessThan(kinds.indexOf("configmaps/replayed"));
    expect(kinds).toContain("configmaps/settings");
    const revs = all.body.items.map((i: any) => Number(i.resourceVersion));
    expect(revs).toEqual([...revs].sort((a, b) => b - a));
    // bob may list configmaps only: no Secret in his replay.
    const bobs = await asBob("GET", `${HISTORY}/namespaces/team-a/changes`);
    expect(bobs.status, bobs.text).toBe(200);
    expect(bobs.body.items.length).toBeGreaterThan(0);
    expect(bobs.body.items.every((i: any) => i.resource === "configmaps")).toBe(true);
  });

  test("is authorized like get on the object (list for deleted objects), with 4xx Status for bad input", async () => {
    // bob may get configmaps in team-a, and the Secret "shown" only.
    expect((await asBob("GET", `${cmPath("settings")}/history`)).status).toBe(200);
    await asAlice("POST", "/api/v1/namespaces/team-a/secrets", { metadata: { name: "hidden" }, stringData: { k: "v" } });
    await asAlice("POST", "/api/v1/namespaces/team-a/secrets", { metadata: { name: "shown" }, stringData: { k: "v" } });
    const hidden = await asBob("GET", "/api/v1/namespaces/team-a/secrets/hidden/history");
    expect(hidden.status).toBe(403);
    expect(hidden.body).toMatchObject({ kind: "Status", reason: "Forbidden" });
    expect(hidden.body.message).toContain('cannot get resource "secrets"');
    expect(hidden.text).not.toContain(b64("v"));
    expect((await asBob("GET", "/api/v1/namespaces/team-a/secrets/shown/history")).status).toBe(200);
    expect((await asBob("GET", `${HISTORY}/namespaces/team-a/deleted/secrets`)).status).toBe(403);
    expect((await asBob("GET", `${HISTORY}/namespaces/team-a/deleted/configmaps`)).status).toBe(200);
    // Elsewhere bob has nothing: 403 before anything is revealed, for what exists or not.
    expect((await asBob("GET", "/api/v1/namespaces/default/configmaps/kube-root-ca.crt/history")).status).toBe(403);
    expect((await asBob("GET", "/api/v1/namespaces/default/configmaps/nothing-here/history")).status).toBe(403);
    expect((await asBob("GET", `${HISTORY}/namespaces/default/changes`)).status).toBe(403);
    // Bad input, as the admin: unknown object, unknown kind, bad limit, writes.
    const missing = await server.request("GET", `${cmPath("never-existed")}/history`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: "Status", reason: "NotFound", message: 'configmaps "never-existed" not found' });
    expect((await server.request("GET", "/api/v1/namespaces/team-a/widgets/x/history")).status).toBe(404);
    expect((await server.request("GET", `${HISTORY}/namespaces/team-a/deleted/widgets`)).status).toBe(404);
    const bad = await server.request("GET", `${cmPath("settings")}/history?limit=zero`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: "Status", reason: "BadRequest" });
    expect((await server.request("PUT", `${cmPath("settings")}/history`, { body: {} })).status).toBe(404);
    // The history is no subresource kube clients know of: discovery and kubectl are unchanged.
    const groups = await server.request("GET", "/apis");
    expect(JSON.stringify(groups.body)).not.toContain("history.cluster-core.dev");
    const core = await server.request("GET", "/api/v1");
    expect(core.body.resources.some((r: any) => r.name.endsWith("/history"))).toBe(false);
    // An object named "history" is still an object.
    await put("history", "x");
    expect((await asAlice("GET", cmPath("history"))).body.data).toEqual({ v: "x" });
    expect((await asAlice("GET", `${cmPath("history")}/history`)).body.items[0].object.data).toEqual({ v: "x" });
  });

  test("a Secret's history is encrypted at rest and served in clear to who may get it", async () => {
    const created = await asAlice("POST", "/api/v1/namespaces/team-a/secrets", { metadata: { name: "db" }, stringData: { password: VALUE } });
    expect(created.status).toBe(201);
    const updated = await asAlice("PUT", "/api/v1/namespaces/team-a/secrets/db",
      { metadata: { name: "db", resourceVersion: created.body.metadata.resourceVersion }, stringData: { password: VALUE2 } });
    expect(updated.status, updated.text).toBe(200);
    await new Promise((r) => setTimeout(r, 4000)); // past the window: held only as history now
    const h = await asAlice("GET", "/api/v1/namespaces/team-a/secrets/db/history");
    expect(h.body.items.map((i: any) => i.object.data.password)).toEqual([b64(VALUE2), b64(VALUE)]);
    const db = `file:${path.join(server.dataDir, "cluster-core.db")}`;
    const bytes = sqliteBytes(db);
    for (const v of [VALUE, VALUE2]) {
      expect(bytes.includes(v)).toBe(false);
      expect(bytes.includes(b64(v))).toBe(false);
    }
    expect(server.logs()).not.toContain(VALUE);
  });

  test("the history of every acknowledged write survives kill -9", async () => {
    const acked: string[] = [];
    for (let i = 0; i < 8; i++) acked.push(await put(`crash-${i % 2}`, String(i)));
    await server.kill9();
    server = await server.restart();
    for (const name of ["crash-0", "crash-1"]) {
      const h = await asAlice("GET", `${cmPath(name)}/history`);
      expect(h.status, h.text).toBe(200);
      // HISTORY_REVISIONS (3) may have pruned older ones; the newest acknowledged ones are there, by alice.
      const want = acked.filter((_, i) => `crash-${i % 2}` === name).reverse().slice(0, 3);
      expect(h.body.items.slice(0, want.length).map((i: any) => i.resourceVersion)).toEqual(want);
      expect(h.body.items.every((i: any) => i.user.username === "alice")).toBe(true);
    }
  });
});

// Encryption at rest with the real server and kubectl, following kube's documentation: turn encryption on and
// rewrite existing Secrets, rotate a key (add it second, restart, move it first, restart, rewrite every Secret,
// remove the old key, restart), and a bad ENCRYPTION_CONFIG stops the start with a message naming the problem.
// The database is read directly: it never holds a new Secret's value, while the API and watches serve it.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { rawState, sqliteBytes } from "../../lib/snapshot/test-stores";
import { openWatch } from "./cluster";
import { freePort, startServer, stopAll, type Server } from "./harness";

afterAll(stopAll);

const dir = mkdtempSync(path.join(os.tmpdir(), "cc-encryption-e2e-"));
const configFile = path.join(dir, "encryption-config.yaml");
const key1 = randomBytes(32).toString("base64");
const key2 = randomBytes(32).toString("base64");
const VALUE = `v-${randomBytes(8).toString("hex")}`;
const OLD_VALUE = `old-${randomBytes(8).toString("hex")}`;
const b64 = (s: string) => Buffer.from(s).toString("base64");

/** Writes ENCRYPTION_CONFIG's file: kube's EncryptionConfiguration for secrets with these providers (YAML, as in kube's docs). */
function writeConfig(providers: string): void {
  writeFileSync(configFile, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
${providers}`);
}
const aescbc = (...keys: [string, string][]) => `      - aescbc:
          keys:
${keys.map(([name, secret]) => `            - name: ${name}\n              secret: ${secret}\n`).join("")}`;
const identity = "      - identity: {}\n";

describe("encryption at rest (ENCRYPTION_CONFIG)", { timeout: 300_000 }, () => {
  test("encrypts Secrets, rotates keys as kube documents, and refuses bad configurations", async () => {
    const dataDir = mkdtempSync(path.join(dir, "data-"));
    const port = await freePort();
    const env = { ENCRYPTION_CONFIG: configFile };
    const db = `file:${path.join(dataDir, "cluster-core.db")}`;
    const logs: string[] = [];
    let server: Server | undefined;
    const start = async () => {
      if (server) { await server.stop(); logs.push(server.logs()); }
      server = await startServer({ env, dataDir, port });
      return server;
    };
    const secretRows = async () => (await rawState(db))!.rows.filter((r) => r.resource === "secrets" && r.namespace === "default");
    const prefixOf = (o: string) => (o.startsWith("k8s:enc:") ? o.split(":", 5).join(":") : "plain");
    const replaceAll = async (s: Server) => {
      const all = await s.kubectl(["get", "secrets", "-A", "-o", "json"]);
      await s.kubectl(["replace", "-f", "-"], { input: all.stdout });
    };

    // Before encryption: identity only, a Secret is stored in clear.
    writeConfig(identity);
    let s = await start();
    await s.kubectl(["create", "secret", "generic", "old", "-n", "default", `--from-literal=password=${OLD_VALUE}`]);
    expect((await secretRows()).map((r) => prefixOf(r.object))).toEqual(["plain"]);

    // Encrypt: aescbc first, identity second; new Secrets are encrypted, existing ones after a rewrite.
    writeConfig(aescbc(["key1", key1]) + identity);
    s = await start();
    await s.kubectl(["create", "secret", "generic", "db", "-n", "default", `--from-literal=password=${VALUE}`]);
    expect(Object.fromEntries((await secretRows()).map((r) => [r.name, prefixOf(r.object)]))).toEqual({ db: "k8s:enc:aescbc:v1:key1", old: "plain" });
    expect(sqliteBytes(db).includes(VALUE)).toBe(false);
    expect(sqliteBytes(db).includes(b64(VALUE))).toBe(false);
    await replaceAll(s);
    expect((await secretRows()).map((r) => prefixOf(r.object))).toEqual(["k8s:enc:aescbc:v1:key1", "k8s:enc:aescbc:v1:key1"]);
    // The revision log rows of the encrypted Secret (what a watch replays) are encrypted too.
    const logged = (await rawState(db))!.log.filter((l) => l.object.includes(b64(VALUE)) || l.object.includes(VALUE));
    expect(logged).toEqual([]);

    // The API and watches serve plaintext.
    expect((await s.kubectl(["get", "secret", "db", "-n", "default", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(VALUE));

    // Rotation, step 1: key2 added second; restart.
    writeConfig(aescbc(["key1", key1], ["key2", key2]) + identity);
    s = await start();
    expect((await s.kubectl(["get", "secret", "old", "-n", "default", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(OLD_VALUE));
    // Step 2: key2 first; restart. Step 3: rewrite every Secret (a watch sees the rewrite, in clear).
    writeConfig(aescbc(["key2", key2], ["key1", key1]) + identity);
    s = await start();
    const list = await s.request("GET", "/api/v1/namespaces/default/secrets");
    const watch = await openWatch(s, `/api/v1/namespaces/default/secrets?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
    await replaceAll(s);
    const seen = await watch.waitForEvent((e) => e.type === "MODIFIED" && e.object.metadata.name === "db");
    expect(seen.object.data).toEqual({ password: b64(VALUE) });
    watch.close();
    expect((await secretRows()).map((r) => prefixOf(r.object))).toEqual(["k8s:enc:aescbc:v1:key2", "k8s:enc:aescbc:v1:key2"]);
    // Step 4: key1 removed; restart; everything reads.
    writeConfig(aescbc(["key2", key2]) + identity);
    s = await start();
    expect((await s.kubectl(["get", "secret", "db", "-n", "default", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(VALUE));
    expect((await s.kubectl(["get", "secret", "old", "-n", "default", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(OLD_VALUE));
    expect(sqliteBytes(db).includes(b64(VALUE))).toBe(false);

    // A bad configuration stops the start with a message naming the problem, never a key.
    await s.stop();
    logs.push(s.logs());
    server = undefined;
    const refused = async (): Promise<string> => {
      try {
        server = await startServer({ env, dataDir, port });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error("the server started with a bad ENCRYPTION_CONFIG");
    };
    writeConfig(`      - aesgcm:\n          keys:\n            - name: short\n              secret: ${b64("0123456789")}\n`);
    let message = await refused();
    expect(message).toMatch(/cluster-core: cannot start: ENCRYPTION_CONFIG .*encryption-config.yaml: error while parsing file: resources\[0\].providers\[0\].aesgcm.keys\[0\].secret: Invalid value: "REDACTED": secret is not of the expected length, got 10, expected one of \[16 24 32\]/);
    expect(message).not.toContain(b64("0123456789"));
    writeConfig(`      - aescbc:\n          keys: []\n`);
    expect(await refused()).toMatch(/cannot start: .*providers\[0\].aescbc.keys: Required value: at least one keys is required/);
    // A configuration that cannot read the stored Secrets (key2 missing) names the object and the key.
    writeConfig(aescbc(["key1", key1]) + identity);
    message = await refused();
    expect(message).toMatch(/cluster-core: cannot start: cannot read secrets default\/(db|old), stored as k8s:enc:aescbc:v1:key2: ENCRYPTION_CONFIG lists no such provider and key/);
    expect(message).not.toContain(key1);
    logs.push(message);

    // Back to a good configuration: the server starts and serves the Secret.
    writeConfig(aescbc(["key2", key2]) + identity);
    s = await start();
    expect((await s.kubectl(["get", "secret", "db", "-n", "default", "-o", "jsonpath={.data.password}"])).stdout).toBe(b64(VALUE));
    await s.stop();
    logs.push(s.logs());
    const allLogs = logs.join("\n");
    for (const secret of [VALUE, b64(VALUE), OLD_VALUE, b64(OLD_VALUE), key1, key2]) expect(allLogs).not.toContain(secret);
  });
});

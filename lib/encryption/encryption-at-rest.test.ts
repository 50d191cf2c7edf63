// Encryption at rest on real stores (SQLite and PostgreSQL): the database never holds a Secret in clear, in
// its current rows or in its revision log; the cache, other processes tailing the log and the registry see
// plaintext; an unchanged update of a stale Secret rewrites it with the current key (kube's rotation).
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { kinds, type AnyKind } from "../kinds";
import type { KubeObject } from "../kinds/types";
import { Registry } from "../registry/registry";
import { backends, freshUrl, rawState, sqliteBytes } from "../snapshot/test-stores";
import { openStore, type Store, type ValueTransformer } from "../storage";
import { EncryptionTransformer, groupsOfKinds, parseEncryptionConfiguration } from "./index";

const VALUE = `plain-${randomBytes(6).toString("hex")}`;
const VALUE_B64 = Buffer.from(VALUE).toString("base64");
const key1 = { name: "key1", secret: randomBytes(32).toString("base64") };
const key2 = { name: "key2", secret: randomBytes(32).toString("base64") };

const transformer = (providers: unknown[]): ValueTransformer => new EncryptionTransformer(parseEncryptionConfiguration(JSON.stringify({
  apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration", resources: [{ resources: ["secrets"], providers }],
})), groupsOfKinds(kinds));

const stores: Store[] = [];
const registries: Registry[] = [];
afterEach(async () => {
  while (registries.length) registries.pop()!.close();
  while (stores.length) await stores.pop()!.close();
});
async function open(url: string, t?: ValueTransformer): Promise<Store> {
  const s = await openStore({ databaseUrl: url, compactionWindowSeconds: 300, pollIntervalMs: 20, transformer: t });
  stores.push(s);
  return s;
}
async function closeAll(): Promise<void> {
  while (registries.length) registries.pop()!.close();
  while (stores.length) await stores.pop()!.close();
}
const secretKind = kinds.find((k) => k.kind === "Secret") as AnyKind;
const write = { dryRun: false, fieldValidation: "Strict" as const };
const secret = (name: string): KubeObject => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: "default" }, stringData: { password: VALUE } } as KubeObject);

/** Every place the database could hold the value: current rows and log rows (and, for SQLite, the file bytes). */
async function leaks(url: string): Promise<string[]> {
  const state = (await rawState(url))!;
  const found = [...state.rows.map((r) => r.object), ...state.log.map((r) => r.object)].filter((o) => o.includes(VALUE) || o.includes(VALUE_B64));
  if (!url.startsWith("postgres")) {
    const bytes = sqliteBytes(url);
    if (bytes.includes(VALUE) || bytes.includes(VALUE_B64)) found.push("the SQLite file");
  }
  return found;
}

describe.each(backends)("encryption at rest on %s", (backend) => {
  it("keeps Secrets out of the database in clear, and serves them in clear", async () => {
    const url = await freshUrl(backend);
    const t = transformer([{ aescbc: { keys: [key1] } }]);
    const store = await open(url, t);
    const registry = new Registry(store, kinds);
    registries.push(registry);
    const other = await open(url, t); // a second process on the same store, reading the log

    const created = await registry.create(secretKind, "default", secret("db"), write);
    expect(created.code).toBe(201);
    const rv = Number((created as { object: KubeObject }).object.metadata.resourceVersion);
    await registry.update(secretKind, "default", "db", { ...secret("db"), metadata: { name: "db", namespace: "default", labels: { a: "b" } } } as KubeObject, write);
    expect(store.objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.data).toEqual({ password: VALUE_B64 });
    await other.objects.waitFor(rv + 1);
    expect(other.objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.data).toEqual({ password: VALUE_B64 });
    expect(other.objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.metadata.labels).toEqual({ a: "b" });

    const state = (await rawState(url))!;
    const rows = state.rows.filter((r) => r.resource === "secrets");
    expect(rows).toHaveLength(1);
    expect(rows[0].object).toMatch(/^k8s:enc:aescbc:v1:key1:[A-Za-z0-9+/=]+$/);
    expect(state.log.filter((l) => l.object.startsWith("k8s:enc:aescbc:v1:key1:"))).toHaveLength(2); // both revisions in the log, encrypted
    expect(await leaks(url)).toEqual([]);

    // After a restart the cache is rebuilt from the encrypted rows.
    await closeAll();
    const again = await open(url, t);
    expect(again.objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.data).toEqual({ password: VALUE_B64 });
  });

  it("rotates keys as kube documents: an unchanged replace of a stale Secret rewrites it with the new key", async () => {
    const url = await freshUrl(backend);
    // Secrets written before encryption was turned on are plaintext in the database.
    let store = await open(url);
    let registry = new Registry(store, kinds);
    registries.push(registry);
    for (const name of ["a", "b"]) await registry.create(secretKind, "default", secret(name), write);
    expect((await leaks(url)).length).toBeGreaterThan(0);
    await closeAll();

    const replaceAll = async () => {
      for (const o of store.objects.list("secrets")) {
        const r = await registry.update(secretKind, o.key.namespace, o.key.name, structuredClone(o.object), write);
        expect(r.code).toBe(200);
      }
    };
    const prefixes = async () => (await rawState(url))!.rows.filter((r) => r.resource === "secrets").map((r) => r.object.split(":", 5).join(":"));

    // Encrypt existing data: aescbc key1 first, identity second, then rewrite every Secret.
    store = await open(url, transformer([{ aescbc: { keys: [key1] } }, { identity: {} }]));
    registry = new Registry(store, kinds);
    registries.push(registry);
    expect(store.objects.get({ resource: "secrets", namespace: "default", name: "a" })!.stale).toBe(true);
    await replaceAll();
    expect(await prefixes()).toEqual(["k8s:enc:aescbc:v1:key1", "k8s:enc:aescbc:v1:key1"]);
    // A second unchanged replace is a no-op again (same resourceVersion), as in kube.
    const rvBefore = store.objects.get({ resource: "secrets", namespace: "default", name: "a" })!.rev;
    const noop = await registry.update(secretKind, "default", "a", structuredClone(store.objects.get({ resource: "secrets", namespace: "default", name: "a" })!.object), write);
    expect((noop as { object: KubeObject }).object.metadata.resourceVersion).toBe(String(rvBefore));
    await closeAll();

    // Step 1: key2 added second (every replica restarted with it), step 2: key2 moved first, rewrite.
    store = await open(url, transformer([{ aescbc: { keys: [key1, key2] } }]));
    expect(store.objects.get({ resource: "secrets", namespace: "default", name: "a" })!.stale ?? false).toBe(false);
    await closeAll();
    store = await open(url, transformer([{ aescbc: { keys: [key2, key1] } }]));
    registry = new Registry(store, kinds);
    registries.push(registry);
    expect(store.objects.list("secrets").map((o) => o.stale)).toEqual([true, true]);
    await replaceAll();
    expect(await prefixes()).toEqual(["k8s:enc:aescbc:v1:key2", "k8s:enc:aescbc:v1:key2"]);
    await closeAll();

    // Step 4: key1 removed: everything still reads. The log entries written with key1 (or in clear) can no
    // longer be read: the watch history starts after them, as if compacted there, and the store still opens.
    store = await open(url, transformer([{ aescbc: { keys: [key2] } }]));
    expect(store.objects.list("secrets").map((o) => o.object.data)).toEqual([{ password: VALUE_B64 }, { password: VALUE_B64 }]);
    const log = (await rawState(url))!.log;
    const lastOld = Math.max(...log.filter((l) => !l.object.startsWith("k8s:enc:aescbc:v1:key2:")).map((l) => l.rev));
    expect(lastOld).toBeGreaterThan(0);
    expect(store.objects.historyStartRev).toBeGreaterThanOrEqual(lastOld);
    expect(store.objects.rev).toBe(lastOld + 2);
    await closeAll();
    // Without key2 the store refuses to open, naming the object and the key, never the value.
    const error = await openStore({ databaseUrl: url, compactionWindowSeconds: 300, transformer: transformer([{ aescbc: { keys: [key1] } }]) }).catch((e: Error) => e);
    expect((error as Error).message).toBe("cannot read secrets default/a, stored as k8s:enc:aescbc:v1:key2: ENCRYPTION_CONFIG lists no such provider and key");
    const plain = await openStore({ databaseUrl: url, compactionWindowSeconds: 300 }).catch((e: Error) => e);
    expect((plain as Error).message).toBe("secrets default/a is stored encrypted (k8s:enc:aescbc:v1:key2) but ENCRYPTION_CONFIG is not set");
  });

  it.each(["aesgcm", "secretbox"] as const)("works with %s", async (provider) => {
    const url = await freshUrl(backend);
    const t = transformer([{ [provider]: { keys: [key1] } }]);
    const store = await open(url, t);
    const registry = new Registry(store, kinds);
    registries.push(registry);
    await registry.create(secretKind, "default", secret("db"), write);
    expect((await rawState(url))!.rows.find((r) => r.resource === "secrets")!.object.startsWith(`k8s:enc:${provider}:v1:key1:`)).toBe(true);
    expect(await leaks(url)).toEqual([]);
    await closeAll();
    expect((await open(url, t)).objects.get({ resource: "secrets", namespace: "default", name: "db" })!.object.data).toEqual({ password: VALUE_B64 });
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { kindByPlural, kinds } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { AdmissionChain, type AdmissionRequest } from "./admission-chain";
import { NamespaceLifecycle } from "./namespace-lifecycle";

const configMaps = kindByPlural("configmaps")!;
const persistentVolumes = kindByPlural("persistentvolumes")!;
const write = { dryRun: false, fieldValidation: "Warn" as const };
const admin = { username: "admin", groups: ["system:masters", "system:authenticated"] };

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (e instanceof StatusError) return e; throw e; }
  throw new Error("expected the request to fail");
}

let store: Store;
let registry: Registry;
beforeAll(async () => {
  const databaseUrl = `file:${mkdtempSync(path.join(tmpdir(), "cc-admission-"))}/a.db`;
  // Content written before admission existed, in a namespace that has no object (as an old data directory).
  const before = await openStore({ databaseUrl, compactionWindowSeconds: 300 });
  const unadmitted = new Registry(before, kinds);
  await unadmitted.create(configMaps, "orphaned", { metadata: { name: "old" } }, write);
  unadmitted.close();
  await before.close();
  store = await openStore({ databaseUrl, compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds, {
    admission: new AdmissionChain([
      new NamespaceLifecycle((name) => store.objects.get({ resource: "namespaces", namespace: "", name })?.object, () => store.objects.catchUp()),
    ]),
  });
  for (const name of ["default", "live", "ending"]) await registry.create(namespaceKind, undefined, { metadata: { name } }, write);
  await registry.create(configMaps, "ending", { metadata: { name: "kept" } }, write);
  await registry.delete(namespaceKind, "", "ending", { dryRun: false });
});
afterAll(async () => { registry.close(); await store.close(); });

describe("NamespaceLifecycle", () => {
  it("refuses content in a namespace that does not exist, even from the server itself", async () => {
    for (const user of [admin, undefined]) {
      const err = await failure(registry.create(configMaps, "missing", { metadata: { name: "a" } }, { ...write, user }));
      expect(err.toStatus()).toMatchObject({ code: 404, reason: "NotFound", message: 'namespaces "missing" not found', details: { name: "missing", kind: "namespaces" } });
    }
  });

  it("refuses updates in a namespace that does not exist, and allows deletes there", async () => {
    const old = (await registry.get(configMaps, "orphaned", "old")) as { object: KubeObject };
    const err = await failure(registry.update(configMaps, "orphaned", "old", { ...old.object, data: { a: "b" } }, write));
    expect(err.message).toBe('namespaces "orphaned" not found');
    expect((await registry.delete(configMaps, "orphaned", "old", { dryRun: false })).code).toBe(200);
  });

  it("accepts content in an Active namespace and cluster-scoped objects anywhere", async () => {
    expect((await registry.create(configMaps, "live", { metadata: { name: "a" } }, write)).code).toBe(201);
    const pv = structuredClone(persistentVolumes.template);
    expect((await registry.create(persistentVolumes, undefined, pv, write)).code).toBe(201);
  });

  it("refuses new content in a terminating namespace with kube's message and cause", async () => {
    const err = await failure(registry.create(configMaps, "ending", { metadata: { name: "late" } }, { ...write, user: admin }));
    expect(err.toStatus()).toEqual({
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 403, reason: "Forbidden",
      message: 'configmaps "late" is forbidden: unable to create new content in namespace ending because it is being terminated',
      details: {
        name: "late", kind: "configmaps",
        causes: [{ reason: "NamespaceTerminating", message: "namespace ending is being terminated", field: "metadata.namespace" }],
      },
    });
  });

  it("lets content in a terminating namespace be updated and deleted (the namespace controller empties it)", async () => {
    const kept = (await registry.get(configMaps, "ending", "kept")) as { object: KubeObject };
    expect((await registry.update(configMaps, "ending", "kept", { ...kept.object, data: { x: "y" } }, write)).code).toBe(200);
    expect((await registry.delete(configMaps, "ending", "kept", { dryRun: false })).code).toBe(200);
  });

  it("never lets default, kube-system or kube-public be deleted", async () => {
    const err = await failure(registry.delete(namespaceKind, "", "default", { dryRun: false, user: admin }));
    expect(err.toStatus()).toMatchObject({
      code: 403, reason: "Forbidden", message: 'namespaces "default" is forbidden: this namespace may not be deleted',
      details: { name: "default", kind: "namespaces" },
    });
    const plugin = new NamespaceLifecycle(() => undefined);
    for (const name of ["kube-system", "kube-public"]) {
      expect(() => plugin.validate({ operation: "DELETE", kind: namespaceKind, namespace: "", name, subresource: "", dryRun: false }))
        .toThrow(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
    expect(() => plugin.validate({ operation: "DELETE", kind: namespaceKind, namespace: "", name: "kube-node-lease", subresource: "", dryRun: false })).not.toThrow();
  });

  it("does not trust a cached Active phase right after the namespace was deleted", async () => {
    let fresh = false;
    const active = { metadata: { name: "x" }, status: { phase: "Active" } };
    const terminating = { metadata: { name: "x", deletionTimestamp: "2025-01-01T00:00:00Z" }, status: { phase: "Terminating" } };
    const plugin = new NamespaceLifecycle(() => (fresh ? terminating : active), async () => { fresh = true; });
    const create: AdmissionRequest = { operation: "CREATE", kind: configMaps, namespace: "x", name: "a", subresource: "", object: { metadata: { name: "a" } }, dryRun: false };
    await expect(plugin.admit(create)).resolves.toBeUndefined();
    plugin.validate({ operation: "DELETE", kind: namespaceKind, namespace: "", name: "x", subresource: "", dryRun: false });
    await expect(plugin.admit(create)).rejects.toThrow("because it is being terminated");
  });

  it("looks again after catching up before refusing a namespace it has not seen", async () => {
    let caughtUp = false;
    const plugin = new NamespaceLifecycle(() => (caughtUp ? { metadata: { name: "new" }, status: { phase: "Active" } } : undefined), async () => { caughtUp = true; });
    await expect(plugin.admit({ operation: "CREATE", kind: configMaps, namespace: "new", name: "a", subresource: "", dryRun: false })).resolves.toBeUndefined();
  });
});

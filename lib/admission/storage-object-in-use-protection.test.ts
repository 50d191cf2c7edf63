import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kindByPlural, kinds } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { AdmissionChain } from "./admission-chain";
import { StorageObjectInUseProtection } from "./storage-object-in-use-protection";

const claims = kindByPlural("persistentvolumeclaims")!;
const volumes = kindByPlural("persistentvolumes")!;
const configMaps = kindByPlural("configmaps")!;
const write = { dryRun: false, fieldValidation: "Warn" as const };
const claimBody = (name: string, finalizers?: string[]) => ({
  metadata: { name, ...(finalizers ? { finalizers } : {}) },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
});
const volumeBody = (name: string) => ({
  metadata: { name }, spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/data" } },
});
const objectOf = (a: unknown) => (a as { object: KubeObject }).object;

let store: Store;
let registry: Registry;
beforeAll(async () => {
  store = await openStore({ databaseUrl: `file:${mkdtempSync(path.join(tmpdir(), "cc-admission-"))}/a.db`, compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds, { admission: new AdmissionChain([new StorageObjectInUseProtection()]) });
  await registry.create(namespaceKind, undefined, { metadata: { name: "shop" } }, write);
});
afterAll(async () => { registry.close(); await store.close(); });

describe("StorageObjectInUseProtection", () => {
  it("gives new claims and volumes their protection finalizer, dry runs included", async () => {
    expect(objectOf(await registry.create(claims, "shop", claimBody("data"), write)).metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
    expect(objectOf(await registry.create(volumes, undefined, volumeBody("pv"), write)).metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
    const dry = objectOf(await registry.create(claims, "shop", claimBody("dry"), { ...write, dryRun: true }));
    expect(dry.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
    expect(store.objects.get({ resource: "persistentvolumeclaims", namespace: "shop", name: "dry" })).toBeUndefined();
  });

  it("keeps the client's finalizers and never adds a second copy", async () => {
    const kept = objectOf(await registry.create(claims, "shop", claimBody("mine", ["example.com/hold"]), write));
    expect(kept.metadata.finalizers).toEqual(["example.com/hold", "kubernetes.io/pvc-protection"]);
    const once = objectOf(await registry.create(claims, "shop", claimBody("once", ["kubernetes.io/pvc-protection"]), write));
    expect(once.metadata.finalizers).toEqual(["kubernetes.io/pvc-protection"]);
  });

  it("leaves updates and other kinds alone (a user may remove the finalizer)", async () => {
    const created = objectOf(await registry.create(claims, "shop", claimBody("edited"), write));
    const updated = objectOf(await registry.update(claims, "shop", "edited", { ...created, metadata: { ...created.metadata, finalizers: [] } }, write));
    expect(updated.metadata.finalizers).toBeUndefined();
    expect(objectOf(await registry.create(configMaps, "shop", { metadata: { name: "cm" } }, write)).metadata.finalizers).toBeUndefined();
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural, kinds } from "../kinds";
import type { Namespace } from "../kinds/namespace";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { bootstrap } from "./index";

let store: Store;
let registry: Registry;
afterEach(async () => { registry.close(); await store.close(); });

async function open(file = `file:${mkdtempSync(path.join(tmpdir(), "cc-bootstrap-"))}/b.db`) {
  store = await openStore({ databaseUrl: file, compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds);
  return file;
}
const namespaces = () => store.objects.list("namespaces").map((o) => o.object as Namespace);

describe("bootstrap namespaces", () => {
  it("creates kube's system namespaces, Active, once", async () => {
    const file = await open();
    await bootstrap(registry);
    const created = namespaces();
    expect(created.map((n) => n.metadata.name)).toEqual(["default", "kube-node-lease", "kube-public", "kube-system"]);
    for (const ns of created) {
      expect(ns.status?.phase).toBe("Active");
      expect(ns.spec?.finalizers).toEqual(["kubernetes"]);
      expect(ns.metadata.labels).toEqual({ "kubernetes.io/metadata.name": ns.metadata.name });
    }
    registry.close(); await store.close();
    await open(file);
    await bootstrap(registry);
    expect(namespaces().map((n) => n.metadata.uid)).toEqual(created.map((n) => n.metadata.uid));
  });

  it("gives namespaces that only hold objects (older data directories) their Namespace object", async () => {
    await open();
    await registry.create(kindByPlural("configmaps")!, "legacy", { metadata: { name: "settings" } }, { dryRun: false, fieldValidation: "Warn" });
    await bootstrap(registry);
    expect(namespaces().map((n) => n.metadata.name)).toContain("legacy");
  });
});

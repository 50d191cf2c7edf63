// One suite for every kind, fed by each kind's template: the generic registry over a real store (SQLite and PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { kinds } from "../kinds";
import type { KubeObject } from "../kinds/types";
import { openStore, type Store } from "../storage";
import { freshDatabaseUrl, testBackends } from "../storage/test-databases";
import { parseDeleteOptions, parseListOptions } from "./options";
import { Registry, type Answer } from "./registry";

// SQLite and PostgreSQL (TEST_PG_URL; a fresh database per run; fails without it unless SKIP_POSTGRES=1).
const backends = testBackends.map((b) => [b, () => freshDatabaseUrl(b, "cc_registry")] as const);

describe.each(backends)("registry on %s", (_backend, databaseUrl) => {
let store: Store;
let registry: Registry;
beforeAll(async () => {
  store = await openStore({ databaseUrl: await databaseUrl(), compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds);
});
afterAll(async () => { registry.close(); await store.close(); });

const write = { dryRun: false, fieldValidation: "Warn" as const };
const obj = (a: Answer) => ("object" in a ? a.object : undefined) as KubeObject;
const list = (q = "") => parseListOptions(new URLSearchParams(q));
async function status(p: Promise<unknown>): Promise<number> {
  try { await p; return 0; } catch (e) { if (e instanceof StatusError) return e.code; throw e; }
}

describe.each(kinds.map((k) => [k.kind, k] as const))("%s", (_, kind) => {
  // "default": templates are ready to create there (an Event naming no involvedObject.namespace must live in default).
  const ns = kind.namespaced ? "default" : "";
  const template = () => structuredClone(kind.template) as KubeObject;

  it("creates, reads, lists, updates, patches and deletes", async () => {
    const created = await registry.create(kind, kind.namespaced ? ns : undefined, { ...template(), metadata: { ...template().metadata, labels: { suite: "conformance" } } }, write);
    expect(created.code).toBe(201);
    const c = obj(created);
    expect(c.kind).toBe(kind.kind);
    expect(c.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    // kube 1.32 writes neither for the kinds served today (reference decision 7), apart from the kinds whose
    // strategy keeps a generation (CustomResourceDefinition).
    expect(c.metadata.generation).toBe(kind.generation ? 1 : undefined);
    expect(c.metadata.selfLink).toBeUndefined();
    const name = c.metadata.name!;
    expect(obj(await registry.get(kind, ns, name)).metadata.resourceVersion).toBe(c.metadata.resourceVersion);
    expect(await status(registry.create(kind, kind.namespaced ? ns : undefined, template(), write))).toBe(409);

    const listed = await registry.list(kind, kind.namespaced ? ns : undefined, list("labelSelector=suite%3Dconformance"));
    expect(listed.items.map((i) => i.key.name)).toEqual([name]);
    expect((await registry.list(kind, undefined, list("labelSelector=suite%3Dother"))).items).toEqual([]);

    const stale = { ...c, metadata: { ...c.metadata, resourceVersion: "1" } };
    if (c.metadata.resourceVersion !== "1") expect(await status(registry.update(kind, ns, name, stale, write))).toBe(409);
    const updated = obj(await registry.update(kind, ns, name, { ...c, metadata: { ...c.metadata, labels: { suite: "conformance", step: "put" } } }, write));
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(c.metadata.resourceVersion));
    expect(updated.metadata.uid).toBe(c.metadata.uid);

    const patched = obj(await registry.patch(kind, ns, name, (cur) => ({ ...cur, metadata: { ...cur.metadata, annotations: { a: "b" } } }), write));
    expect(patched.metadata.annotations).toEqual({ a: "b" });
    expect(patched.metadata.labels?.step).toBe("put");

    const deleted = await registry.delete(kind, ns, name, parseDeleteOptions(new URLSearchParams("gracePeriodSeconds=0"), undefined));
    expect(deleted.code).toBe(200);
    if (kind.beginDeletion) {
      const held = obj(await registry.get(kind, ns, name));
      expect(held.metadata.deletionTimestamp).toBeTruthy();
      if (kind.updateSubresources?.finalize) {
        // A namespace is only marked Terminating: the namespace controller (not running here) empties it, then
        // clears spec.finalizers through /finalize, which is what removes it.
        expect((held.status as { phase?: string }).phase).toBe("Terminating");
        await registry.update(kind, ns, name, { ...held, spec: { ...(held.spec as object), finalizers: [] } }, { ...write, subresource: "finalize" });
      } else {
        // A CustomResourceDefinition keeps its cleanup finalizer until its controller (not running here) removes it.
        expect(held.metadata.finalizers?.length).toBeGreaterThan(0);
        await registry.update(kind, ns, name, { ...held, metadata: { ...held.metadata, finalizers: [] } }, write);
      }
    }
    expect(await status(registry.get(kind, ns, name))).toBe(404);
    expect(await status(registry.delete(kind, ns, name, parseDeleteOptions(new URLSearchParams(), undefined)))).toBe(404);
  });

  // Registered only for kinds with a status subresource: for the others it could not fail (and a skipped test
  // counts as failed in scripts/test.sh).
  if (kind.hasStatus) it("keeps status on main-resource writes when the kind has a status subresource", async () => {
    // A namespace's phase must follow its deletion timestamp (Active here), so its mark is a condition instead.
    type Marked = { phase?: string; conditions?: { reason?: string }[] };
    const isNamespace = kind.plural === "namespaces";
    // A CRD's status has no phase and its name must be <plural>.<group>: it is marked by a condition, under its template's name.
    const isDefinition = kind.plural === "customresourcedefinitions";
    const statusMarked = (reason: string): Marked =>
      isNamespace ? { phase: "Active", conditions: [{ type: "NamespaceContentRemaining", status: "False", reason } as { reason: string }] }
        : isDefinition ? { conditions: [{ type: "Established", status: "False", reason } as { reason: string }] } : { phase: reason };
    const mark = (s: unknown) => (isNamespace || isDefinition ? (s as Marked).conditions?.[0]?.reason : (s as Marked).phase);
    const name = isDefinition ? template().metadata.name! : "status-check";
    const c = obj(await registry.create(kind, kind.namespaced ? ns : undefined, { ...template(), metadata: { name } }, write));
    const withStatus = obj(await registry.update(kind, ns, name, { ...c, status: statusMarked("Zzz") }, { ...write, subresource: "status" }));
    expect(mark(withStatus.status)).toBe("Zzz");
    const main = obj(await registry.update(kind, ns, name, { ...withStatus, status: statusMarked("Other"), metadata: { ...withStatus.metadata, labels: { x: "y" } } }, write));
    expect(mark(main.status)).toBe("Zzz");
    // kube-apiserver always labels a namespace with its own name.
    expect(main.metadata.labels).toEqual({ x: "y", ...(isNamespace ? { "kubernetes.io/metadata.name": "status-check" } : {}) });
    await registry.delete(kind, ns, name, parseDeleteOptions(new URLSearchParams("gracePeriodSeconds=0"), undefined));
  });
});

describe("generic rules", () => {
  const cm = kinds.find((k) => k.plural === "configmaps")!;
  it("read answers a GET from the cache without a promise when nothing else committed (SQLite), as get answers it", async () => {
    const made = obj(await registry.create(cm, "default", { metadata: { name: "read-now" }, data: { a: "b" } }, write));
    // The first consistent read catches up (asks the counter); this process's own writes keep it current.
    await registry.get(cm, "default", "read-now");
    const now = registry.read(cm, "default", "read-now");
    expect(now instanceof Promise).toBe(_backend === "postgresql");
    expect(obj(await now)).toEqual(made);
    expect(registry.read(cm, "default", "read-now", "0") instanceof Promise).toBe(false);
    expect(await status(Promise.resolve().then(() => registry.read(cm, "default", "absent")))).toBe(404);
    expect(await status(Promise.resolve().then(() => registry.read(cm, "default", "read-now", "x")))).toBe(400);
  });
  it("generateName adds a random five-character suffix", async () => {
    const a = obj(await registry.create(cm, "gen", { metadata: { generateName: "web-" } }, write));
    expect(a.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
  it("writes no generation nor selfLink: a client's generation is kept on create and never changed by an update; its selfLink is dropped", async () => {
    const a = obj(await registry.create(cm, "gen", { metadata: { name: "g" }, data: { a: "1" } }, write));
    expect(a.metadata.generation).toBeUndefined();
    const b = obj(await registry.update(cm, "gen", "g", { ...a, data: { a: "2" }, metadata: { ...a.metadata, generation: 5, selfLink: "/x" } }, write));
    expect(b.metadata.generation).toBeUndefined();
    expect(b.metadata.selfLink).toBeUndefined();
    expect(obj(await registry.get(cm, "gen", "g")).metadata).not.toHaveProperty("selfLink");

    const sent = obj(await registry.create(cm, "gen", { metadata: { name: "g7", generation: 7, selfLink: "/api/v1/elsewhere" } }, write));
    expect(sent.metadata.generation).toBe(7);
    expect(sent.metadata).not.toHaveProperty("selfLink");
    const changed = obj(await registry.update(cm, "gen", "g7", { ...sent, data: { a: "1" }, metadata: { ...sent.metadata, generation: 1 } }, write));
    expect(changed.metadata.generation).toBe(7);
    // Storage never keeps a selfLink, so an update that only sends one changes nothing.
    const same = obj(await registry.update(cm, "gen", "g7", { ...changed, metadata: { ...changed.metadata, selfLink: "/x" } }, write));
    expect(same.metadata.resourceVersion).toBe(changed.metadata.resourceVersion);
    // A dry run answers before storage, with what was sent (kube's dry-run storage).
    const dry = obj(await registry.create(cm, "gen", { metadata: { name: "g8", selfLink: "/x" } }, { ...write, dryRun: true }));
    expect(dry.metadata.selfLink).toBe("/x");
  });
  it("a kind that keeps a generation (custom resources): 1 at create, +1 when something outside metadata and status changes", async () => {
    const kept = { ...cm, generation: true };
    const a = obj(await registry.create(kept, "gen", { metadata: { name: "kept", generation: 9 }, data: { a: "1" } }, write));
    expect(a.metadata.generation).toBe(1);
    const b = obj(await registry.update(kept, "gen", "kept", { ...a, metadata: { ...a.metadata, labels: { l: "v" } } }, write));
    expect(b.metadata.generation).toBe(1);
    const c = obj(await registry.update(kept, "gen", "kept", { ...b, data: { a: "2" } }, write));
    expect(c.metadata.generation).toBe(2);
    const forged = obj(await registry.update(kept, "gen", "kept", { ...c, metadata: { ...c.metadata, generation: 40 } }, write));
    expect(forged.metadata.generation).toBe(2);
    expect(forged.metadata.resourceVersion).toBe(c.metadata.resourceVersion);
  });
  it("stores kind, apiVersion and metadata first whatever order the body had (kube's field order, found by kube's test/cmd)", async () => {
    const lead = (o: KubeObject) => Object.keys(o).slice(0, 3);
    const a = obj(await registry.create(cm, "gen", { metadata: { name: "order" }, data: { a: "1" }, apiVersion: "v1", kind: "ConfigMap" }, write));
    expect(lead(a)).toEqual(["kind", "apiVersion", "metadata"]);
    expect(lead(obj(await registry.get(cm, "gen", "order")))).toEqual(["kind", "apiVersion", "metadata"]);
    const b = obj(await registry.update(cm, "gen", "order", { data: { a: "2" }, metadata: a.metadata, apiVersion: "v1" }, write));
    expect(Object.keys(b)).toEqual(["kind", "apiVersion", "metadata", "data"]);
  });
  it("an identical update writes nothing", async () => {
    const a = obj(await registry.create(cm, "gen", { metadata: { name: "same" }, data: { a: "1" } }, write));
    const b = obj(await registry.update(cm, "gen", "same", a, write));
    expect(b.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
  });
  it("dry run stores nothing", async () => {
    const a = await registry.create(cm, "gen", { metadata: { name: "dry" } }, { ...write, dryRun: true });
    expect(a.code).toBe(201);
    expect(await status(registry.get(cm, "gen", "dry"))).toBe(404);
  });
  it("finalizers hold a deleted object until they are removed", async () => {
    const a = obj(await registry.create(cm, "gen", { metadata: { name: "fin", finalizers: ["example.com/hold"] } }, write));
    const d = obj(await registry.delete(cm, "gen", "fin", parseDeleteOptions(new URLSearchParams(), undefined)));
    expect(d.metadata.deletionTimestamp).toBeTruthy();
    expect(await status(registry.update(cm, "gen", "fin", { ...d, metadata: { ...d.metadata, finalizers: ["example.com/hold", "example.com/new"] } }, write))).toBe(422);
    await registry.update(cm, "gen", "fin", { ...d, metadata: { ...d.metadata, finalizers: [] } }, write);
    expect(await status(registry.get(cm, "gen", "fin"))).toBe(404);
    expect(a.metadata.uid).toBe(d.metadata.uid);
  });
  it("paginates one consistent snapshot", async () => {
    for (let i = 0; i < 25; i++) await registry.create(cm, "page", { metadata: { name: `p${String(i).padStart(2, "0")}` } }, write);
    const first = await registry.list(cm, "page", list("limit=10"));
    expect(first.items.length).toBe(10);
    expect(first.remainingItemCount).toBe(15);
    await registry.create(cm, "page", { metadata: { name: "p99" } }, write);
    await registry.delete(cm, "page", "p20", parseDeleteOptions(new URLSearchParams(), undefined));
    const names = first.items.map((i) => i.key.name);
    let token = first.continue;
    while (token) {
      const next = await registry.list(cm, "page", list(`limit=10&continue=${token}`));
      expect(next.resourceVersion).toBe(first.resourceVersion);
      names.push(...next.items.map((i) => i.key.name));
      token = next.continue;
    }
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `p${String(i).padStart(2, "0")}`));
  });
});
});

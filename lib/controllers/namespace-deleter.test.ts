import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { namespace as namespaceKind, type Namespace } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { cached, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "./test-cluster";

const configMaps = kindByPlural("configmaps")!;
const secrets = kindByPlural("secrets")!;
const pods = kindByPlural("pods")!;

let open: TestCluster[] = [];
afterEach(async () => { for (const c of open) await c.close(); open = []; });
async function cluster(file?: string, opts?: Parameters<typeof openCluster>[1]): Promise<TestCluster> {
  const c = await openCluster(file, opts);
  open.push(c);
  return c;
}

const gone = (c: TestCluster, name: string) => () => !cached(c, "namespaces", "", name);
const conditions = (ns: KubeObject | undefined) =>
  Object.fromEntries(((ns as Namespace | undefined)?.status?.conditions ?? []).map((x) => [x.type, [x.status, x.reason, x.message]]));

describe("namespace deletion", () => {
  it("removes an empty namespace in well under a second", async () => {
    const c = await cluster();
    await createNamespace(c, "quick");
    const started = Date.now();
    const answer = objectOf(await c.registry.delete(namespaceKind, "", "quick", del)) as Namespace;
    expect(answer.status?.phase).toBe("Terminating");
    expect(answer.metadata.deletionTimestamp).toBeTruthy();
    await eventually(gone(c, "quick"), 1000, "namespace removal");
    expect(Date.now() - started).toBeLessThan(1000);
    const last = c.events.filter((e) => e.key.resource === "namespaces" && e.key.name === "quick").at(-1)!;
    expect(last.type).toBe("DELETED");
    expect(last.object.spec).toEqual({});
  });

  it("deletes every object in the namespace first, then the namespace (as a watch sees it)", async () => {
    const c = await cluster();
    await createNamespace(c, "busy");
    for (const name of ["a", "b"]) await c.registry.create(configMaps, "busy", { metadata: { name }, data: { k: "v" } }, write);
    await c.registry.create(secrets, "busy", { metadata: { name: "s" }, stringData: { token: "x" } }, write);
    await createNamespace(c, "other");
    await c.registry.create(configMaps, "other", { metadata: { name: "elsewhere" } }, write);
    await c.registry.delete(namespaceKind, "", "busy", del);
    await eventually(gone(c, "busy"), 2000, "namespace removal");

    const deletions = c.events.filter((e) => e.type === "DELETED").map((e) => `${e.key.resource}/${e.key.namespace}/${e.key.name}`);
    expect(deletions.at(-1)).toBe("namespaces//busy");
    expect(deletions).toEqual(expect.arrayContaining(["configmaps/busy/a", "configmaps/busy/b", "secrets/busy/s", "serviceaccounts/busy/default"]));
    expect(c.store.objects.list("configmaps", { namespace: "busy" })).toEqual([]);
    expect(cached(c, "configmaps", "other", "elsewhere")).toBeDefined();
  });

  it("keeps the namespace Terminating, with kube's conditions, until a finalizer on its content is removed", async () => {
    const c = await cluster();
    await createNamespace(c, "held");
    await c.registry.create(configMaps, "held", { metadata: { name: "keep", finalizers: ["example.com/hold"] } }, write);
    await c.registry.delete(namespaceKind, "", "held", del);

    const ns = await eventually(() => {
      const n = cached(c, "namespaces", "", "held");
      return conditions(n).NamespaceContentRemaining?.[0] === "True" && n;
    }, 2000, "conditions");
    expect((ns as Namespace).status?.phase).toBe("Terminating");
    expect(conditions(ns)).toEqual({
      NamespaceDeletionDiscoveryFailure: ["False", "ResourcesDiscovered", "All resources successfully discovered"],
      NamespaceDeletionGroupVersionParsingFailure: ["False", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
      NamespaceDeletionContentFailure: ["False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
      NamespaceContentRemaining: ["True", "SomeResourcesRemain", "Some resources are remaining: configmaps. has 1 resource instances"],
      NamespaceFinalizersRemaining: ["True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"],
    });
    const held = cached(c, "configmaps", "held", "keep")!;
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    await new Promise((r) => setTimeout(r, 100));
    expect(cached(c, "namespaces", "", "held")).toBeDefined();

    // Content may still be updated in a terminating namespace: releasing the finalizer lets everything go.
    await c.registry.update(configMaps, "held", "keep", { ...held, metadata: { ...held.metadata, finalizers: [] } }, write);
    await eventually(gone(c, "held"), 2000, "namespace removal");
  });

  it("waits for pods to finish their grace period", async () => {
    const c = await cluster();
    await createNamespace(c, "graceful");
    await c.registry.create(pods, "graceful", {
      metadata: { name: "web" },
      // Bound to a node: an unscheduled pod would go at once.
      spec: { nodeName: "node-1", terminationGracePeriodSeconds: 1, containers: [{ name: "web", image: "nginx" }] },
    }, write);
    const started = Date.now();
    await c.registry.delete(namespaceKind, "", "graceful", del);
    await eventually(() => cached(c, "pods", "graceful", "web")?.metadata.deletionTimestamp, 1000, "pod deletion start");
    expect(cached(c, "namespaces", "", "graceful")).toBeDefined();
    await eventually(gone(c, "graceful"), 4000, "namespace removal");
    const order = c.events.filter((e) => e.type === "DELETED").map((e) => e.key.resource);
    expect(order.indexOf("pods")).toBeLessThan(order.indexOf("namespaces"));
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("finishes a deletion after a restart", async () => {
    const first = await cluster(undefined, { controllers: false });
    await createNamespace(first, "interrupted");
    await first.registry.create(configMaps, "interrupted", { metadata: { name: "left" } }, write);
    await first.registry.delete(namespaceKind, "", "interrupted", del);
    expect((cached(first, "namespaces", "", "interrupted") as Namespace).status?.phase).toBe("Terminating");
    await first.close();
    open = open.filter((c) => c !== first);

    const second = await cluster(first.file);
    await eventually(gone(second, "interrupted"), 2000, "namespace removal after restart");
    expect(second.store.objects.list("configmaps", { namespace: "interrupted" })).toEqual([]);
  });

  it("answers a repeated delete of a terminating namespace with kube's 409 and changes nothing", async () => {
    const c = await cluster(undefined, { controllers: false });
    await createNamespace(c, "twice");
    const first = objectOf(await c.registry.delete(namespaceKind, "", "twice", del));
    expect((first as Namespace).status?.phase).toBe("Terminating");
    await expect(c.registry.delete(namespaceKind, "", "twice", del)).rejects.toMatchObject({
      code: 409, reason: "Conflict",
      message: `Operation cannot be fulfilled on namespaces "twice": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`,
    });
    const stored = c.registry.store.objects.get({ resource: "namespaces", namespace: "", name: "twice" })!.object;
    expect(stored.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });
});

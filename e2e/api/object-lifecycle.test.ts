// Object lifecycle through the real server: graceful pod deletion, finalizers, preconditions, the garbage
// collector's three propagation policies on an owner tree, delete collection, races, and a restart in the
// middle of a foreground deletion — with kubectl and raw HTTPS.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWatch, sleep, startSharedServers } from "./cluster";
import { createNamespaces, startServer, stopAll, waitFor, type Server } from "./harness";
import { expectStatus } from "./kinds";

let server: Server;
const NS = "life";
const cmPath = (name = "") => `/api/v1/namespaces/${NS}/configmaps${name ? `/${name}` : ""}`;
const podPath = (name = "") => `/api/v1/namespaces/${NS}/pods${name ? `/${name}` : ""}`;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);
afterAll(stopAll);

async function createCM(s: Server, name: string, owners: any[] = [], extra: Record<string, unknown> = {}): Promise<any> {
  const res = await s.request("POST", cmPath(), { body: { metadata: { name, ownerReferences: owners, ...extra }, data: { k: name } } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const ownerRef = (o: any, block = true) => ({ apiVersion: "v1", kind: "ConfigMap", name: o.metadata.name, uid: o.metadata.uid, blockOwnerDeletion: block });
const exists = async (s: Server, path: string) => (await s.request("GET", path)).status === 200;

/** prefix-owner <- prefix-child <- prefix-grandchild, each reference blocking. */
async function tree(s: Server, prefix: string): Promise<any[]> {
  const owner = await createCM(s, `${prefix}-owner`);
  const child = await createCM(s, `${prefix}-child`, [ownerRef(owner)]);
  const grandchild = await createCM(s, `${prefix}-grandchild`, [ownerRef(child)]);
  return [owner, child, grandchild];
}

async function createPod(s: Server, name: string, opts: { nodeName?: string; grace?: number; finalizers?: string[] } = {}): Promise<any> {
  const res = await s.request("POST", podPath(), {
    body: {
      metadata: { name, ...(opts.finalizers ? { finalizers: opts.finalizers } : {}) },
      spec: {
        containers: [{ name: "app", image: "nginx" }],
        ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
        ...(opts.grace !== undefined ? { terminationGracePeriodSeconds: opts.grace } : {}),
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("graceful pod deletion", () => {
  test("kubectl: a scheduled pod is Terminating for its grace period; --grace-period=0 --force removes it", async () => {
    await createPod(server, "web", { nodeName: "node-1", grace: 60 });
    const del = await server.kubectl(["delete", "pod", "web", "-n", NS, "--wait=false"]);
    expect(del.stdout.trim()).toBe('pod "web" deleted');
    const got = await server.request("GET", podPath("web"));
    expect(got.body.metadata.deletionGracePeriodSeconds).toBe(60);
    expect(Date.parse(got.body.metadata.deletionTimestamp) - Date.now()).toBeGreaterThan(50_000);
    const table = await server.kubectl(["get", "pod", "web", "-n", NS]);
    expect(table.stdout).toMatch(/web\s+0\/1\s+Terminating/);
    const forced = await server.kubectl(["delete", "pod", "web", "-n", NS, "--grace-period=0", "--force"]);
    expect(forced.stderr).toContain("Immediate deletion does not wait for confirmation");
    expect(forced.stdout.trim()).toBe('pod "web" force deleted');
    expect(await exists(server, podPath("web"))).toBe(false);
  });

  test("kubectl delete waits for the grace period the server finishes; watchers see MODIFIED, MODIFIED, DELETED", async () => {
    await createPod(server, "short", { nodeName: "node-1", grace: 2 });
    const w = await openWatch(server, `${podPath()}?watch=true&fieldSelector=metadata.name=short&resourceVersion=0`);
    try {
      await w.until((e) => e.length >= 1, 10_000, "initial ADDED");
      const started = Date.now();
      const del = await server.kubectl(["delete", "pod", "short", "-n", NS]);
      expect(del.code).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(await exists(server, podPath("short"))).toBe(false);
      await w.until((e) => e.some((x) => x.type === "DELETED"), 10_000, "DELETED");
      const seen = w.events.slice(1).map((e) => [e.type, e.object.metadata.deletionGracePeriodSeconds]);
      expect(seen).toEqual([["MODIFIED", 2], ["MODIFIED", 0], ["DELETED", 0]]);
    } finally {
      w.close();
    }
  });

  test("an unscheduled pod goes at once, but watchers still see the deletionTimestamp written first", async () => {
    await createPod(server, "pending");
    const w = await openWatch(server, `${podPath()}?watch=true&fieldSelector=metadata.name=pending&resourceVersion=0`);
    try {
      await w.until((e) => e.length >= 1, 10_000, "initial ADDED");
      const res = await server.request("DELETE", podPath("pending"));
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe("Pod");
      expect(res.body.metadata.deletionTimestamp).toBeTruthy();
      await w.until((e) => e.some((x) => x.type === "DELETED"), 10_000, "DELETED");
      expect(w.events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    } finally {
      w.close();
    }
  });

  test("a second delete shortens the period but never extends it", async () => {
    await createPod(server, "slow", { nodeName: "node-1", grace: 300 });
    const first = await server.request("DELETE", podPath("slow"));
    const longer = await server.request("DELETE", podPath("slow"), { body: { kind: "DeleteOptions", apiVersion: "v1", gracePeriodSeconds: 600 } });
    expect(longer.status).toBe(200);
    expect(longer.body.metadata.deletionTimestamp).toBe(first.body.metadata.deletionTimestamp);
    const shorter = await server.request("DELETE", `${podPath("slow")}?gracePeriodSeconds=100`);
    expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(100);
    expect(Date.parse(first.body.metadata.deletionTimestamp) - Date.parse(shorter.body.metadata.deletionTimestamp)).toBe(200_000);
    await server.request("DELETE", `${podPath("slow")}?gracePeriodSeconds=0`);
    expect(await exists(server, podPath("slow"))).toBe(false);
  });
});

describe("finalizers and preconditions", () => {
  test("a finalizer holds the object; no new finalizers; deletion fields immutable; the last finalizer out removes it", async () => {
    await createCM(server, "held", [], { finalizers: ["example.com/hold"] });
    const first = await server.request("DELETE", cmPath("held"));
    expect(first.status).toBe(200);
    expect(first.body.kind).toBe("ConfigMap");
    expect(first.body.metadata.deletionGracePeriodSeconds).toBe(0);
    const accepted = await server.request("DELETE", `${cmPath("held")}?orphanDependents=false`);
    expect(accepted.status).toBe(202);

    const added = await server.request("PATCH", cmPath("held"), {
      body: { metadata: { finalizers: ["example.com/hold", "example.com/late"] } }, contentType: "application/merge-patch+json",
    });
    expectStatus(added, 422, "Invalid", `ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/late"}`);
    const grace = await server.request("PATCH", cmPath("held"), {
      body: { metadata: { deletionGracePeriodSeconds: 30 } }, contentType: "application/merge-patch+json",
    });
    expectStatus(grace, 422, "Invalid", `ConfigMap "held" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable`);

    const w = await openWatch(server, `${cmPath()}?watch=true&fieldSelector=metadata.name=held`);
    try {
      const release = await server.kubectl(["patch", "configmap", "held", "-n", NS, "--type=json", "-p", '[{"op":"remove","path":"/metadata/finalizers"}]']);
      expect(release.code).toBe(0);
      await w.until((e) => e.some((x) => x.type === "DELETED"), 10_000, "DELETED after the last finalizer");
    } finally {
      w.close();
    }
    expect(await exists(server, cmPath("held"))).toBe(false);
  });

  test("uid and resourceVersion preconditions answer 409 with kube's message; policy and orphanDependents together 422", async () => {
    const cm = await createCM(server, "guarded");
    const uid = await server.request("DELETE", cmPath("guarded"), { body: { kind: "DeleteOptions", apiVersion: "v1", preconditions: { uid: "0000" } } });
    expectStatus(uid, 409, "Conflict", `Operation cannot be fulfilled on ConfigMap "guarded": the UID in the precondition (0000) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`);
    const rv = await server.request("DELETE", cmPath("guarded"), { body: { preconditions: { resourceVersion: "1" } } });
    expectStatus(rv, 409, "Conflict", `Operation cannot be fulfilled on ConfigMap "guarded": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cm.metadata.resourceVersion}). The object might have been modified`);
    const both = await server.request("DELETE", cmPath("guarded"), { body: { propagationPolicy: "Foreground", orphanDependents: true } });
    expectStatus(both, 422, "Invalid", `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set`);
    const ok = await server.request("DELETE", cmPath("guarded"), { body: { preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: "Status", status: "Success", details: { name: "guarded", kind: "configmaps", uid: cm.metadata.uid } });
  });
});

describe("garbage collection of an owner tree", () => {
  test("kubectl --cascade=foreground returns once the dependents and then the owner are gone", async () => {
    await tree(server, "fg");
    const del = await server.kubectl(["delete", "configmap", "fg-owner", "-n", NS, "--cascade=foreground"]);
    expect(del.stdout.trim()).toBe('configmap "fg-owner" deleted');
    for (const n of ["fg-owner", "fg-child", "fg-grandchild"]) expect(await exists(server, cmPath(n)), n).toBe(false);
  });

  test("a foreground owner shows foregroundDeletion while a blocking dependent is held by its own finalizer", async () => {
    const owner = await createCM(server, "fgh-owner");
    await createCM(server, "fgh-child", [ownerRef(owner)], { finalizers: ["example.com/hold"] });
    const res = await server.request("DELETE", cmPath("fgh-owner"), { body: { propagationPolicy: "Foreground" } });
    expect(res.body.metadata.finalizers).toEqual(["foregroundDeletion"]);
    const child = await waitFor("child marked for deletion", async () => {
      const c = (await server.request("GET", cmPath("fgh-child"))).body;
      return c.metadata?.deletionTimestamp ? c : undefined;
    });
    await sleep(300);
    expect((await server.request("GET", cmPath("fgh-owner"))).body.metadata.finalizers).toEqual(["foregroundDeletion"]);
    await server.request("PATCH", cmPath("fgh-child"), { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
    await waitFor("owner gone after its blocking dependent", async () => ((await exists(server, cmPath("fgh-owner"))) ? undefined : true));
    expect(child.metadata.name).toBe("fgh-child");
  });

  test("kubectl --cascade=background returns at once; the collector then removes the dependents", async () => {
    await tree(server, "bg");
    const del = await server.kubectl(["delete", "configmap", "bg-owner", "-n", NS, "--cascade=background"]);
    expect(del.code).toBe(0);
    expect(await exists(server, cmPath("bg-owner"))).toBe(false);
    await waitFor("dependents collected", async () =>
      (await exists(server, cmPath("bg-child"))) || (await exists(server, cmPath("bg-grandchild"))) ? undefined : true);
  });

  test("kubectl --cascade=orphan: dependents stay without the owner reference", async () => {
    await tree(server, "or");
    const del = await server.kubectl(["delete", "configmap", "or-owner", "-n", NS, "--cascade=orphan"]);
    expect(del.code).toBe(0);
    expect(await exists(server, cmPath("or-owner"))).toBe(false);
    await sleep(300);
    const child = (await server.request("GET", cmPath("or-child"))).body;
    expect(child.metadata.ownerReferences).toBeUndefined();
    const grandchild = (await server.request("GET", cmPath("or-grandchild"))).body;
    expect(grandchild.metadata.ownerReferences[0].uid).toBe(child.metadata.uid);
  });

  test("a dependent of two owners stays until both are gone", async () => {
    const a = await createCM(server, "two-a"), b = await createCM(server, "two-b");
    await createCM(server, "two-dep", [ownerRef(a, false), ownerRef(b, false)]);
    await server.kubectl(["delete", "configmap", "two-a", "-n", NS]);
    await waitFor("reference to the dead owner dropped", async () => {
      const dep = (await server.request("GET", cmPath("two-dep"))).body;
      return dep.metadata?.ownerReferences?.length === 1 ? dep : undefined;
    });
    await server.kubectl(["delete", "configmap", "two-b", "-n", NS]);
    await waitFor("dependent collected", async () => ((await exists(server, cmPath("two-dep"))) ? undefined : true));
  });
});

describe("repeated owner references", () => {
  const dedupText = "contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ";
  test("create, update and patch drop an entry equal to an earlier one and warn as kube does", async () => {
    const owner = await createCM(server, "dup-owner");
    const ref = ownerRef(owner, false);
    const differing = { ...ref, controller: true }; // same UID, not equal: kept
    const created = await server.request("POST", cmPath(), { body: { metadata: { name: "dup-dep", ownerReferences: [ref, ref, differing] } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata.ownerReferences).toEqual([ref, differing]);
    expect(created.headers.warning).toBe(`299 - ".metadata.ownerReferences ${dedupText}${owner.metadata.uid}"`);

    const updated = await server.request("PUT", cmPath("dup-dep"), { body: { ...created.body, metadata: { ...created.body.metadata, ownerReferences: [ref, ref] } } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata.ownerReferences).toEqual([ref]);
    expect(updated.headers.warning).toBe(`299 - ".metadata.ownerReferences ${dedupText}${owner.metadata.uid}"`);

    const patched = await server.request("PATCH", cmPath("dup-dep"), { contentType: "application/merge-patch+json", body: { metadata: { ownerReferences: [ref, ref] } } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.metadata.ownerReferences).toEqual([ref]);
    expect(patched.headers.warning).toBe(`299 - ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${owner.metadata.uid}"`);
  });
});

describe("delete collection", () => {
  test("applies finalizers and grace per object, answers the list, one DELETED per removed object", async () => {
    for (const n of ["b1", "b2"]) await createCM(server, n, [], { labels: { batch: "x" } });
    await createCM(server, "b3", [], { labels: { batch: "x" }, finalizers: ["example.com/hold"] });
    const w = await openWatch(server, `${cmPath()}?watch=true&labelSelector=batch%3Dx`);
    try {
      const res = await server.request("DELETE", `${cmPath()}?labelSelector=batch%3Dx`);
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe("ConfigMapList");
      expect(res.body.items.map((i: any) => i.metadata.name).sort()).toEqual(["b1", "b2", "b3"]);
      await w.until((e) => e.filter((x) => x.type === "DELETED").length === 2 && e.some((x) => x.type === "MODIFIED"), 10_000, "events");
      await sleep(200);
      expect(w.events.filter((x) => x.type === "DELETED").map((x) => x.object.metadata.name).sort()).toEqual(["b1", "b2"]);
    } finally {
      w.close();
    }
    const held = (await server.request("GET", cmPath("b3"))).body;
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    await server.request("PATCH", cmPath("b3"), { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
  });

  test("pods: scheduled ones get their grace, others go; Foreground puts its finalizer on each", async () => {
    await createPod(server, "c-run", { nodeName: "node-1", grace: 120 });
    await createPod(server, "c-wait");
    // The collector may release foregroundDeletion at once (the pod has no dependents): watch for it.
    const w = await openWatch(server, `${podPath()}?watch=true&fieldSelector=metadata.name%3Dc-run`);
    let marked: any;
    try {
      const res = await server.request("DELETE", `${podPath()}?fieldSelector=metadata.name%3Dc-run`, { body: { propagationPolicy: "Foreground" } });
      expect(res.status).toBe(200);
      marked = (await w.waitForEvent((e) => e.type === "MODIFIED" && !!e.object.metadata.deletionTimestamp, 10_000)).object;
    } finally {
      w.close();
    }
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(120);
    expect(marked.metadata.finalizers).toEqual(["foregroundDeletion"]);
    const running = (await server.request("GET", podPath("c-run"))).body;
    expect(running.metadata.deletionGracePeriodSeconds).toBe(120);
    await server.request("DELETE", `${podPath()}?fieldSelector=metadata.name%3Dc-wait`);
    expect(await exists(server, podPath("c-wait"))).toBe(false);
    // A body wins over the query, as in kube-apiserver: the grace goes in it too.
    await server.request("DELETE", podPath("c-run"), { body: { gracePeriodSeconds: 0, propagationPolicy: "Background" } });
    await waitFor("forced pod gone", async () => ((await exists(server, podPath("c-run"))) ? undefined : true));
  });
});

describe("races", () => {
  test("two deletes of one pod at once: both answer, neither 5xx, the pod is gone", async () => {
    await createPod(server, "race", { nodeName: "node-1", grace: 30 });
    const [a, b] = await Promise.all([
      server.request("DELETE", podPath("race")),
      server.request("DELETE", `${podPath("race")}?gracePeriodSeconds=0`),
    ]);
    for (const r of [a, b]) expect([200, 404], r.text).toContain(r.status);
    await waitFor("pod gone", async () => ((await exists(server, podPath("race"))) ? undefined : true));
  });

  test("delete during update: the update either lands or conflicts, the deletion always holds", async () => {
    const cm = await createCM(server, "busy", [], { finalizers: ["example.com/hold"] });
    const [upd, del] = await Promise.all([
      server.request("PUT", cmPath("busy"), { body: { ...cm, data: { k: "changed" } } }),
      server.request("DELETE", cmPath("busy")),
    ]);
    expect([200, 409], upd.text).toContain(upd.status);
    expect(del.status).toBe(200);
    const now = (await server.request("GET", cmPath("busy"))).body;
    expect(now.metadata.deletionTimestamp).toBeTruthy();
    await server.request("PATCH", cmPath("busy"), { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
    await waitFor("gone", async () => ((await exists(server, cmPath("busy"))) ? undefined : true));
  });
});

describe("restart", () => {
  test("a foreground deletion and a grace period interrupted by kill -9 both finish after the restart", async () => {
    let s = await startServer();
    try {
      await createNamespaces(s, NS);
      await createPod(s, "after", { nodeName: "node-1", grace: 3 });
      const owner = await createCM(s, "r-owner");
      await createCM(s, "r-child", [ownerRef(owner)], { finalizers: ["example.com/hold"] });
      await s.request("DELETE", cmPath("r-owner"), { body: { propagationPolicy: "Foreground" } });
      await s.request("DELETE", podPath("after"));
      await s.kill9();
      s = await s.restart();
      expect((await s.request("GET", cmPath("r-owner"))).body.metadata.finalizers).toEqual(["foregroundDeletion"]);
      await waitFor("pod removed when its grace ends", async () => ((await exists(s, podPath("after"))) ? undefined : true), 30_000);
      await s.request("PATCH", cmPath("r-child"), { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
      await waitFor("owner removed after restart", async () => ((await exists(s, cmPath("r-owner"))) ? undefined : true), 30_000);
    } finally {
      await s.stop();
    }
  }, 120_000);

  test("two processes on one store: one collects; when it dies the other takes the work over", async () => {
    const [a, b] = await startSharedServers(2);
    const leasePath = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/cluster-core-controllers";
    try {
      await createNamespaces(b, NS);
      const leader = (await b.request("GET", leasePath)).body.spec.holderIdentity;
      expect(leader).toBeTruthy();
      const owner = await createCM(b, "m-owner");
      await createCM(b, "m-child", [ownerRef(owner)], { finalizers: ["example.com/hold"] });
      await b.request("DELETE", cmPath("m-owner"), { body: { propagationPolicy: "Foreground" } });
      await waitFor("child marked by the collector", async () =>
        (await b.request("GET", cmPath("m-child"))).body.metadata?.deletionTimestamp ? true : undefined);
      // The first process took the controllers' Lease; it dies with the owner still waiting.
      await a.kill9();
      await b.request("PATCH", cmPath("m-child"), { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
      await waitFor("owner removed by the surviving process", async () => ((await exists(b, cmPath("m-owner"))) ? undefined : true), 40_000);
      expect((await b.request("GET", leasePath)).body.spec.holderIdentity).not.toBe(leader);
    } finally {
      await b.stop();
    }
  }, 150_000);
});

describe("namespace deletion", () => {
  test("propagationPolicy=Foreground marks the namespace; it waits for the finalizers of its content", async () => {
    await createNamespaces(server, "life-ns");
    await server.request("POST", "/api/v1/namespaces/life-ns/configmaps", { body: { metadata: { name: "held", finalizers: ["example.com/hold"] } } });
    const del = await server.request("DELETE", "/api/v1/namespaces/life-ns", { body: { propagationPolicy: "Foreground" } });
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(["foregroundDeletion"]);
    expect(del.body.status.phase).toBe("Terminating");
    // The collector releases the namespace's own finalizer (nothing depends on it); the content still holds it.
    const waiting = await waitFor("namespace waiting on content finalizers", async () => {
      const ns = (await server.request("GET", "/api/v1/namespaces/life-ns")).body;
      const cond = (ns.status?.conditions ?? []).find((c: any) => c.type === "NamespaceFinalizersRemaining");
      return !ns.metadata?.finalizers && cond?.status === "True" ? ns : undefined;
    });
    expect(waiting.status.conditions.find((c: any) => c.type === "NamespaceFinalizersRemaining").message)
      .toBe("Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances");
    await server.request("PATCH", "/api/v1/namespaces/life-ns/configmaps/held", { body: { metadata: { finalizers: null } }, contentType: "application/merge-patch+json" });
    await waitFor("namespace gone", async () => ((await exists(server, "/api/v1/namespaces/life-ns")) ? undefined : true), 20_000);
  });

  test("kubectl delete namespace --cascade=orphan returns once the namespace is gone", async () => {
    await createNamespaces(server, "life-orphan");
    const del = await server.kubectl(["delete", "namespace", "life-orphan", "--cascade=orphan"], { timeoutMs: 60_000 });
    expect(del.stdout.trim()).toBe('namespace "life-orphan" deleted');
    expect(await exists(server, "/api/v1/namespaces/life-orphan")).toBe(false);
  });
});

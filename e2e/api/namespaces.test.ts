// Namespaces as real objects, through kubectl: the system namespaces exist from the first start, content
// needs its namespace, deletion goes through Terminating (refusing new content, honouring finalizers) and
// finishes even across a restart; the protected namespaces cannot be deleted.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, stopAll, waitFor, type Server } from "./harness";

let server: Server;

beforeAll(async () => {
  server = await startServer();
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

describe("namespaces", () => {
  test("the system namespaces exist from the first start, each with a default ServiceAccount", async () => {
    const r = await server.kubectl(["get", "ns", "-o", "jsonpath={range .items[*]}{.metadata.name}={.status.phase} {end}"]);
    expect(r.stdout.trim().split(" ").sort()).toEqual(["default=Active", "kube-node-lease=Active", "kube-public=Active", "kube-system=Active"]);
    const ns = await server.request("GET", "/api/v1/namespaces/default");
    expect(ns.body).toMatchObject({ kind: "Namespace", apiVersion: "v1", metadata: { labels: { "kubernetes.io/metadata.name": "default" } }, spec: { finalizers: ["kubernetes"] } });
    await waitFor("default ServiceAccount", async () => (await server.request("GET", "/api/v1/namespaces/kube-system/serviceaccounts/default")).status === 200 || undefined);
  });

  test("kubectl create ns / get ns; content in a missing namespace is refused with 404", async () => {
    expect((await server.kubectl(["create", "ns", "shop"])).stdout.trim()).toBe("namespace/shop created");
    expect((await server.kubectl(["get", "ns", "shop"])).stdout).toMatch(/shop\s+Active/);
    const missing = await server.kubectl(["create", "configmap", "c", "-n", "nowhere", "--from-literal=a=b"], { allowFail: true });
    expect(missing.stderr).toContain(`namespaces "nowhere" not found`);
    const raw = await server.request("POST", "/api/v1/namespaces/nowhere/configmaps", { body: { metadata: { name: "c" } } });
    expect(raw.status).toBe(404);
    expect(raw.body).toMatchObject({ reason: "NotFound", details: { name: "nowhere", kind: "namespaces" } });
  });

  test("the protected namespaces cannot be deleted", async () => {
    for (const name of ["default", "kube-system", "kube-public"]) {
      const r = await server.request("DELETE", `/api/v1/namespaces/${name}`);
      expect(r.status, name).toBe(403);
      expect(r.body.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  test("kubectl delete ns returns once the namespace and its content are gone", async () => {
    await server.kubectl(["create", "ns", "temp"]);
    await server.kubectl(["create", "configmap", "a", "-n", "temp", "--from-literal=x=y"]);
    await server.kubectl(["create", "secret", "generic", "b", "-n", "temp", "--from-literal=x=y"]);
    const r = await server.kubectl(["delete", "ns", "temp", "--timeout=30s"]);
    expect(r.stdout).toContain(`namespace "temp" deleted`);
    expect((await server.request("GET", "/api/v1/namespaces/temp")).status).toBe(404);
    expect((await server.request("GET", "/api/v1/namespaces/temp/configmaps/a")).status).toBe(404);
  });

  test("a finalizer keeps the namespace Terminating, which refuses new content; a restart still finishes the job", async () => {
    await server.kubectl(["create", "ns", "held"]);
    await server.request("POST", "/api/v1/namespaces/held/configmaps", { body: { metadata: { name: "kept", finalizers: ["example.com/keep"] } } });
    const del = await server.request("DELETE", "/api/v1/namespaces/held");
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe("Terminating");
    const ns = await waitFor("content-remaining condition", async () => {
      const r = await server.request("GET", "/api/v1/namespaces/held");
      return r.body.status?.conditions?.some((c: { type: string; status: string }) => c.type === "NamespaceFinalizersRemaining" && c.status === "True") ? r.body : undefined;
    });
    expect(ns.metadata.deletionTimestamp).toBeTruthy();
    const refused = await server.request("POST", "/api/v1/namespaces/held/configmaps", { body: { metadata: { name: "new" } } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`configmaps "new" is forbidden: unable to create new content in namespace held because it is being terminated`);
    expect((await server.kubectl(["get", "ns", "held"])).stdout).toMatch(/held\s+Terminating/);
    const again = await server.kubectl(["delete", "ns", "held", "--wait=false"], { allowFail: true });
    expect(again.stderr).toContain(`Operation cannot be fulfilled on namespaces "held": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`);

    server = await server.restart();
    expect((await server.request("GET", "/api/v1/namespaces/held")).body.status.phase).toBe("Terminating");
    await server.request("PATCH", "/api/v1/namespaces/held/configmaps/kept", {
      contentType: "application/merge-patch+json", body: { metadata: { finalizers: null } },
    });
    await waitFor("namespace removal", async () => (await server.request("GET", "/api/v1/namespaces/held")).status === 404 || undefined);
  });

  test("a watch on namespaces sees MODIFIED (Terminating) then DELETED", async () => {
    await server.kubectl(["create", "ns", "watched"]);
    const rv = (await server.request("GET", "/api/v1/namespaces/watched")).body.metadata.resourceVersion;
    const del = server.kubectl(["delete", "ns", "watched"]);
    const w = await server.request("GET", `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dwatched&resourceVersion=${rv}&timeoutSeconds=3`);
    await del;
    const events = w.text.trim().split("\n").map((l) => JSON.parse(l));
    // Controllers may annotate the new namespace first (SCC ranges): only MODIFIED events come before DELETED,
    // and the first one that carries the deletion shows it Terminating.
    const marked = events.find((e: any) => e.object.metadata.deletionTimestamp);
    expect(marked).toMatchObject({ type: "MODIFIED", object: { status: { phase: "Terminating" } } });
    expect(events.slice(0, -1).every((e: any) => e.type === "MODIFIED")).toBe(true);
    expect(events.at(-1).type).toBe("DELETED");
  });
});

// Kube details of custom resources (issue 25, items 2 and 10) through the real server with kubectl 1.32:
// server-side apply by the CRD's schema (two field managers keep their own entries of a list-map, a change to the
// other's field of the same key is kube's 409 naming that manager, --force-conflicts takes it), a ratcheted CEL
// rule failure answered as a Warning header, the deleted-objects and changes history finding custom resources, and a
// ResourceQuota's `count/<plural>.<group>` refusing the one past it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backendEnv } from "./cluster";
import { scratchFolder, startServer, type Server } from "./harness";
import { testBackends } from "../../lib/storage/test-databases";

let server: Server;
const scratch = scratchFolder("cluster-core-crd-details-");
const file = (name: string, text: string) => scratch.file(name, text);

const GATEWAYS = (rule: boolean) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.net.example.com
spec:
  group: net.example.com
  scope: Namespaced
  names: {plural: gateways, singular: gateway, kind: Gateway}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              note: {type: string}
              replicas:
                type: integer${rule ? `
                x-kubernetes-validations:
                - rule: "self <= 3"
                  message: at most 3 replicas` : ""}
              hosts:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              listeners:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, protocol]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    protocol: {type: string, default: TCP}
                    port: {type: integer}
`;

const gateway = (spec: string) => `apiVersion: net.example.com/v1\nkind: Gateway\nmetadata:\n  name: edge\n  namespace: default\nspec:\n${spec}`;



describe.each(testBackends)("custom resource details on %s", { timeout: 120_000 }, (backend) => {
  beforeAll(async () => {
    server = await startServer({ env: await backendEnv(backend) });
    const applied = await server.kubectl(["apply", "-f", file("gateways.yaml", GATEWAYS(false))]);
    expect(applied.code, applied.stderr).toBe(0);
    const waited = await server.kubectl(["wait", "--for", "condition=Established", "crd/gateways.net.example.com", "--timeout=20s"]);
    expect(waited.code, waited.stderr).toBe(0);
  }, 90_000);
  afterAll(async () => { await server.stop(); }, 60_000);

  test("server-side apply by the CRD's list-map keys: two managers keep their entries, a same-key conflict is kube's 409", async () => {
    const ssa = (manager: string, spec: string, ...extra: string[]) =>
      server.kubectl(["apply", "--server-side", `--field-manager=${manager}`, ...extra, "-f", "-"], { input: gateway(spec), allowFail: true });
    const alice = await ssa("alice", "  hosts: [a.example]\n  listeners:\n  - {name: http, port: 80}\n");
    expect(alice.code, alice.stderr).toBe(0);
    const bob = await ssa("bob", "  hosts: [b.example]\n  listeners:\n  - {name: https, protocol: TLS, port: 443}\n");
    expect(bob.code, bob.stderr).toBe(0);
    let obj = JSON.parse((await server.kubectl(["get", "gateways", "edge", "-o", "json", "--show-managed-fields"])).stdout);
    expect(obj.spec.listeners).toEqual([{ name: "http", protocol: "TCP", port: 80 }, { name: "https", protocol: "TLS", port: 443 }]);
    expect(obj.spec.hosts).toEqual(["a.example", "b.example"]);
    const bobs = obj.metadata.managedFields.find((e: any) => e.manager === "bob");
    expect(bobs.fieldsV1["f:spec"]).toEqual({
      "f:hosts": { 'v:"b.example"': {} },
      "f:listeners": { 'k:{"name":"https","protocol":"TLS"}': { ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {} } },
    });

    // bob changes alice's port of the same key: kube's 409, as kubectl prints it.
    const conflict = await ssa("bob", "  listeners:\n  - {name: http, port: 8080}\n");
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "alice": .spec.listeners[name="http",protocol="TCP"].port');
    const raw = await server.request("PATCH", "/apis/net.example.com/v1/namespaces/default/gateways/edge?fieldManager=bob", {
      contentType: "application/apply-patch+yaml", body: gateway("  listeners:\n  - {name: http, port: 8080}\n"),
    });
    expect(raw.status).toBe(409);
    expect(raw.body).toMatchObject({
      kind: "Status", reason: "Conflict",
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.listeners[name="http",protocol="TCP"].port',
      details: { causes: [{ reason: "FieldManagerConflict", message: 'conflict with "alice"', field: '.spec.listeners[name="http",protocol="TCP"].port' }] },
    });

    const forced = await ssa("bob", "  listeners:\n  - {name: http, port: 8080}\n", "--force-conflicts");
    expect(forced.code, forced.stderr).toBe(0);
    obj = JSON.parse((await server.kubectl(["get", "gateways", "edge", "-o", "json", "--show-managed-fields"])).stdout);
    expect(obj.spec.listeners).toEqual([{ name: "http", protocol: "TCP", port: 8080 }]);
    const alices = obj.metadata.managedFields.find((e: any) => e.manager === "alice");
    expect(alices.fieldsV1["f:spec"]["f:listeners"]).toEqual({ 'k:{"name":"http","protocol":"TCP"}': { ".": {}, "f:name": {} } });
  });

  test("a field the schema does not declare is refused by server-side apply as kube's typed patch error", async () => {
    const r = await server.kubectl(["apply", "--server-side", "-f", "-"], { input: gateway("  color: blue\n"), allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("failed to create typed patch object (default/edge; net.example.com/v1, Kind=Gateway): .spec.color: field not declared in schema");
  });

  test("an unchanged value that now fails a CEL rule is a Warning on update, a changed one is refused", async () => {
    const created = await server.kubectl(["create", "-f", file("big.yaml", gateway("  replicas: 5\n").replace("name: edge", "name: big"))]);
    expect(created.code, created.stderr).toBe(0);
    const ruled = await server.kubectl(["apply", "-f", file("gateways-rule.yaml", GATEWAYS(true))]);
    expect(ruled.code, ruled.stderr).toBe(0);
    // The rule applies to later writes: wait until a new object is refused by it.
    const p = "/apis/net.example.com/v1/namespaces/default/gateways";
    for (let i = 0; ; i++) {
      const probe = await server.request("POST", `${p}?dryRun=All`, { body: { apiVersion: "net.example.com/v1", kind: "Gateway", metadata: { name: "probe" }, spec: { replicas: 9 } } });
      if (probe.status === 422) break;
      expect(i).toBeLessThan(50);
      await new Promise((r) => setTimeout(r, 100));
    }
    const patched = await server.request("PATCH", `${p}/big`, { contentType: "application/merge-patch+json", body: { spec: { note: "still 5" } } });
    expect(patched.status).toBe(200);
    expect(patched.body.spec).toEqual({ replicas: 5, note: "still 5" });
    expect(patched.headers.warning).toBe('299 - "spec.replicas: Invalid value: \\"integer\\": at most 3 replicas"');
    const viaKubectl = await server.kubectl(["label", "gateways", "big", "tier=gold"]);
    expect(viaKubectl.code, viaKubectl.stderr).toBe(0);
    expect(viaKubectl.stderr).toContain('Warning: spec.replicas: Invalid value: "integer": at most 3 replicas');
    const refused = await server.request("PATCH", `${p}/big`, { contentType: "application/merge-patch+json", body: { spec: { replicas: 6 } } });
    expect(refused.status).toBe(422);
    expect(refused.headers.warning).toBeUndefined();
  });

  test("the deleted-objects and changes history find custom resources", async () => {
    const made = await server.kubectl(["create", "-f", file("gone.yaml", gateway("  note: soon gone\n").replace("name: edge", "name: gone"))]);
    expect(made.code, made.stderr).toBe(0);
    expect((await server.kubectl(["delete", "gateways", "gone"])).code).toBe(0);
    const H = "/apis/history.cluster-core.dev/v1";
    const deleted = await server.request("GET", `${H}/namespaces/default/deleted/gateways.net.example.com`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ kind: "DeletedObjectList", resource: "gateways", group: "net.example.com" });
    expect(deleted.body.items).toEqual([expect.objectContaining({ type: "DELETED", object: expect.objectContaining({ spec: { note: "soon gone" } }) })]);
    expect((await server.request("GET", `${H}/deleted/gateways.net.example.com`)).body.items.map((i: any) => i.object.metadata.name)).toEqual(["gone"]);
    expect((await server.request("GET", `${H}/namespaces/default/deleted/gateways.other.example.com`)).status).toBe(404);
    const changes = await server.request("GET", `${H}/namespaces/default/changes`);
    expect(changes.status).toBe(200);
    const gone = changes.body.items.filter((i: any) => i.object.metadata.name === "gone");
    expect(gone.map((i: any) => [i.type, i.resource, i.group])).toEqual([["DELETED", "gateways", "net.example.com"], ["ADDED", "gateways", "net.example.com"]]);
  });

  test("a ResourceQuota counts custom resources as count/<plural>.<group>: the one past it is kube's 403, status.used follows", async () => {
    const ns = "crd-quota";
    expect((await server.kubectl(["create", "namespace", ns])).code).toBe(0);
    const quota = await server.kubectl(["create", "quota", "gw", "-n", ns, "--hard=count/gateways.net.example.com=2"]);
    expect(quota.code, quota.stderr).toBe(0);
    const make = (name: string) => server.kubectl(["create", "-n", ns, "-f", "-"],
      { input: gateway("  note: counted\n").replace("name: edge", `name: ${name}`).replace("namespace: default", `namespace: ${ns}`), allowFail: true });
    expect((await make("one")).code).toBe(0);
    expect((await make("two")).code).toBe(0);
    const third = await make("three");
    expect(third.code).not.toBe(0);
    expect(third.stderr.trim()).toBe(`Error from server (Forbidden): error when creating "STDIN": gateways.net.example.com "three" is forbidden: exceeded quota: gw, requested: count/gateways.net.example.com=1, used: count/gateways.net.example.com=2, limited: count/gateways.net.example.com=2`);
    expect((await server.kubectl(["delete", "gateways", "one", "-n", ns])).code).toBe(0);
    // The quota controller gives the unit back once the object is gone; then the create fits again.
    const used = async () => JSON.parse((await server.kubectl(["get", "quota", "gw", "-n", ns, "-o", "json"])).stdout).status?.used?.["count/gateways.net.example.com"];
    const deadline = Date.now() + 20_000;
    while ((await used()) !== "1" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await used()).toBe("1");
    expect((await make("three")).code).toBe(0);
    expect(await used()).toBe("2");
  });
});

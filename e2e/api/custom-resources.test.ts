// kubectl 1.32 against custom resources served from CustomResourceDefinitions (issue 25 item 2, first cut): a
// namespaced two-version CRD (one storage version, printer columns, status subresource, defaults, an enum and a CEL
// rule) applied and Established, then its custom resources applied, listed with their printer columns, read as
// YAML with defaults filled and an unknown field pruned (kubectl prints the Warning), refused with kube's 422s,
// watched, patched, deleted; a cluster-scoped CRD; and the kind gone once its CRD is deleted.
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backendEnv, startSharedServers } from "./cluster";
import { scratchFolder, startServer, waitFor, type Server } from "./harness";
import { testBackends } from "../../lib/storage/test-databases";

let server: Server;
const scratch = scratchFolder("cluster-core-cr-");
const file = (name: string, text: string) => scratch.file(name, text);

/** A namespaced CRD: v1beta1 still served, v1 the storage version. */
const DATABASES = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.data.example.com
spec:
  group: data.example.com
  scope: Namespaced
  names:
    plural: databases
    singular: database
    kind: Database
    shortNames: [db]
    categories: [data]
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              engine: {type: string}
              replicas: {type: integer}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [engine]
            properties:
              engine: {type: string, enum: [postgres, mysql]}
              replicas: {type: integer, default: 1, minimum: 1}
              storage: {type: string, default: 10Gi}
            x-kubernetes-validations:
            - rule: "self.engine != 'mysql' || self.replicas <= 3"
              message: mysql runs at most 3 replicas
          status:
            type: object
            properties:
              phase: {type: string}
              replicas: {type: integer}
              selector: {type: string}
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.selector
    additionalPrinterColumns:
    - {name: Engine, type: string, jsonPath: .spec.engine}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Phase, type: string, jsonPath: .status.phase}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    selectableFields:
    - jsonPath: .spec.engine
`;

/** A cluster-scoped CRD with no printer columns (kube's default Age column). */
const REGIONS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: regions.geo.example.com
spec:
  group: geo.example.com
  scope: Cluster
  names: {plural: regions, singular: region, kind: Region}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              zones: {type: integer}
`;

const ORDERS = `
apiVersion: data.example.com/v1
kind: Database
metadata:
  name: orders
  namespace: default
spec:
  engine: postgres
  color: blue
`;


async function established(name: string): Promise<void> {
  const waited = await server.kubectl(["wait", "--for", "condition=Established", `crd/${name}`, "--timeout=20s"]);
  expect(waited.code, waited.stderr).toBe(0);
}


describe.each(testBackends)("custom resources with kubectl on %s", { timeout: 120_000 }, (backend) => {
  beforeAll(async () => {
    server = await startServer({ env: { ...(await backendEnv(backend)), AUDIT_LOG_PATH: path.join(scratch.dir, `audit-${backend}.log`) } });
  }, 90_000);
  afterAll(async () => { await server.stop(); }, 60_000);

  test("an Established CRD's group and versions are discovered, preferred version the highest", async () => {
    const applied = await server.kubectl(["apply", "-f", file("databases.yaml", DATABASES)]);
    expect(applied.code, applied.stderr).toBe(0);
    await established("databases.data.example.com");

    const group = await waitFor("group discovered", async () => {
      const r = await server.request("GET", "/apis/data.example.com");
      return r.status === 200 ? r.body : undefined;
    }, 5_000);
    expect(group.preferredVersion).toEqual({ groupVersion: "data.example.com/v1", version: "v1" });
    expect(group.versions.map((v: any) => v.version)).toEqual(["v1", "v1beta1"]);

    const list = await server.request("GET", "/apis/data.example.com/v1");
    expect(list.status).toBe(200);
    expect(list.body.resources).toEqual([
      expect.objectContaining({
        name: "databases", singularName: "database", namespaced: true, kind: "Database", shortNames: ["db"], categories: ["data"],
        verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
      }),
      { name: "databases/scale", singularName: "", namespaced: true, group: "autoscaling", version: "v1", kind: "Scale", verbs: ["get", "patch", "update"] },
      { name: "databases/status", singularName: "", namespaced: true, kind: "Database", verbs: ["get", "patch", "update"] },
    ]);
    const all = await server.request("GET", "/apis", { headers: { accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" } });
    const entry = all.body.items.find((g: any) => g.metadata.name === "data.example.com");
    expect(entry.versions.map((v: any) => v.version)).toEqual(["v1", "v1beta1"]);
    expect(entry.versions[0].resources[0]).toMatchObject({ resource: "databases", scope: "Namespaced", singularResource: "database", shortNames: ["db"] });

    const resources = await server.kubectl(["api-resources", "--api-group=data.example.com", "--no-headers"]);
    expect(resources.code, resources.stderr).toBe(0);
    expect(resources.stdout.trim().split(/\s+/)).toEqual(["databases", "db", "data.example.com/v1", "true", "Database"]);
  });

  test("apply creates a custom resource: defaults filled, unknown field pruned with kubectl's Warning", async () => {
    const applied = await server.kubectl(["apply", "--validate=warn", "-f", file("orders.yaml", ORDERS)]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe("database.data.example.com/orders created");
    expect(applied.stderr).toContain('Warning: unknown field "spec.color"');

    const got = await server.kubectl(["get", "db", "orders", "-o", "yaml"]);
    expect(got.code, got.stderr).toBe(0);
    const obj = YAML.parse(got.stdout);
    expect(obj.apiVersion).toBe("data.example.com/v1");
    expect(obj.spec).toEqual({ engine: "postgres", replicas: 1, storage: "10Gi" });
    expect(obj.metadata.generation).toBe(1);

    // Strict (kubectl's default) refuses the unknown field with kube's strict decoding message.
    const strict = await server.kubectl(["create", "-f", file("orders2.yaml", ORDERS.replace("name: orders", "name: orders2"))], { allowFail: true });
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('Database in version "v1" cannot be handled as a Database: strict decoding error: unknown field "spec.color"');
  });

  test("server-side apply creates and updates a custom resource, owning its fields", async () => {
    const manifest = (replicas: number) => `apiVersion: data.example.com/v1\nkind: Database\nmetadata:\n  name: ssa\n  namespace: default\nspec:\n  engine: postgres\n  replicas: ${replicas}\n`;
    const created = await server.kubectl(["apply", "--server-side", "-f", "-"], { input: manifest(2) });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe("database.data.example.com/ssa serverside-applied");
    const updated = await server.kubectl(["apply", "--server-side", "-f", "-"], { input: manifest(3) });
    expect(updated.code, updated.stderr).toBe(0);
    const obj = JSON.parse((await server.kubectl(["get", "db", "ssa", "-o", "json", "--show-managed-fields"])).stdout);
    expect(obj.spec).toEqual({ engine: "postgres", replicas: 3, storage: "10Gi" });
    expect(obj.metadata.generation).toBe(2);
    expect(obj.metadata.managedFields).toEqual([expect.objectContaining({ manager: "kubectl", operation: "Apply", apiVersion: "data.example.com/v1" })]);
    const conflict = await server.kubectl(["apply", "--server-side", "--field-manager=other", "-f", "-"], { input: manifest(4), allowFail: true });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('conflict with "kubectl": .spec.replicas');
    expect((await server.kubectl(["delete", "db", "ssa"])).code).toBe(0);
  });

  test("kubectl get shows the printer columns; the older version reads the same object with its apiVersion", async () => {
    const table = await server.kubectl(["get", "databases"]);
    expect(table.code, table.stderr).toBe(0);
    const [header, row] = table.stdout.trim().split("\n");
    expect(header.split(/\s{2,}/)).toEqual(["NAME", "ENGINE", "REPLICAS", "PHASE", "AGE"]);
    expect(row.split(/\s+/).slice(0, 4)).toEqual(["orders", "postgres", "1", "<none>"]);

    const old = await server.request("GET", "/apis/data.example.com/v1beta1/namespaces/default/databases/orders");
    expect(old.status).toBe(200);
    expect(old.body.apiVersion).toBe("data.example.com/v1beta1");
    // Read through v1beta1's schema: the fields only v1 knows are not shown.
    expect(old.body.spec).toEqual({ engine: "postgres", replicas: 1 });
    // The deprecated version warns with kube's default text, naming the newer version to use.
    expect(old.headers.warning).toBe('299 - "data.example.com/v1beta1 Database is deprecated; use data.example.com/v1 Database"');
    const viaOld = await server.kubectl(["get", "databases.v1beta1.data.example.com", "orders", "-o", "jsonpath={.apiVersion}"]);
    expect(viaOld.stdout).toBe("data.example.com/v1beta1");
    expect(viaOld.stderr).toContain("Warning: data.example.com/v1beta1 Database is deprecated; use data.example.com/v1 Database");
    // Audit names the version asked for.
    const audited = await waitFor("audited", async () => {
      const events = readFileSync(path.join(scratch.dir, `audit-${backend}.log`), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      return events.find((e) => e.requestURI === "/apis/data.example.com/v1beta1/namespaces/default/databases/orders");
    }, 5_000);
    expect(audited.objectRef).toEqual({ resource: "databases", apiGroup: "data.example.com", apiVersion: "v1beta1", namespace: "default", name: "orders" });
    // Written through the old version, stored with the storage version's apiVersion (conversion None).
    const put = await server.request("POST", "/apis/data.example.com/v1beta1/namespaces/default/databases", {
      body: { apiVersion: "data.example.com/v1beta1", kind: "Database", metadata: { name: "legacy" }, spec: { engine: "mysql" } },
    });
    expect(put.status).toBe(201);
    expect(put.body.apiVersion).toBe("data.example.com/v1beta1");
    const asV1 = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/legacy");
    expect(asV1.body.apiVersion).toBe("data.example.com/v1");
    expect((await server.request("DELETE", "/apis/data.example.com/v1/namespaces/default/databases/legacy")).status).toBe(200);
    const byCategory = await server.kubectl(["get", "data", "-o", "name"]);
    expect(byCategory.stdout.trim()).toBe("database.data.example.com/orders");
  });

  test("a default added to the CRD's schema later shows on objects stored before it (defaulted as read)", async () => {
    const updated = DATABASES.replace("storage: {type: string, default: 10Gi}", "storage: {type: string, default: 10Gi}\n              tier: {type: string, default: standard}");
    expect((await server.kubectl(["apply", "-f", file("databases-tier.yaml", updated)])).code).toBe(0);
    const obj = await waitFor("the new default shows", async () => {
      const r = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/orders");
      return r.body.spec?.tier === "standard" ? r.body : undefined;
    }, 5_000);
    expect(obj.spec).toEqual({ engine: "postgres", replicas: 1, storage: "10Gi", tier: "standard" });
    const list = await server.request("GET", "/apis/data.example.com/v1/databases");
    expect(list.body.items[0].spec.tier).toBe("standard");
    // kubectl get's Table sees it too, and the generation did not move: nothing was written.
    const table = await server.kubectl(["get", "db", "orders", "-o", "custom-columns=TIER:.spec.tier,GEN:.metadata.generation", "--no-headers"]);
    expect(table.stdout.trim().split(/\s+/)).toEqual(["standard", "1"]);
    expect((await server.kubectl(["apply", "-f", file("databases.yaml", DATABASES)])).code).toBe(0);
  });

  test("invalid objects get kube's 422: enum, and a CEL rule", async () => {
    const bad = await server.kubectl(["apply", "-f", file("bad.yaml", ORDERS.replace("engine: postgres", "engine: oracle").replace("  color: blue\n", ""))], { allowFail: true });
    expect(bad.code).not.toBe(0);
    // The schema failed, so the CEL rules were not run: kube says so in an extra cause.
    expect(bad.stderr).toContain([
      'The Database "orders" is invalid: ',
      '* spec.engine: Unsupported value: "oracle": supported values: "postgres", "mysql"',
      '* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ].join("\n"));

    const cel = await server.kubectl(["apply", "-f", file("cel.yaml", ORDERS.replace("engine: postgres", "engine: mysql\n  replicas: 5").replace("  color: blue\n", ""))], { allowFail: true });
    expect(cel.code).not.toBe(0);
    expect(cel.stderr).toContain('The Database "orders" is invalid: spec: Invalid value: "object": mysql runs at most 3 replicas');
  });

  test("status is written only through /status; generation follows spec changes only; strategic merge patch is 415", async () => {
    const st = await server.kubectl(["patch", "db", "orders", "--subresource=status", "--type=merge", "-p", '{"status":{"phase":"Ready"},"spec":{"replicas":2}}']);
    expect(st.code, st.stderr).toBe(0);
    let obj = JSON.parse((await server.kubectl(["get", "db", "orders", "-o", "json"])).stdout);
    expect(obj.status).toEqual({ phase: "Ready" });
    expect(obj.spec.replicas).toBe(1);
    expect(obj.metadata.generation).toBe(1);

    const spec = await server.kubectl(["patch", "db", "orders", "--type=merge", "-p", '{"spec":{"replicas":2},"status":{"phase":"Lost"}}']);
    expect(spec.code, spec.stderr).toBe(0);
    obj = JSON.parse((await server.kubectl(["get", "db", "orders", "-o", "json"])).stdout);
    expect(obj.spec.replicas).toBe(2);
    expect(obj.status).toEqual({ phase: "Ready" });
    expect(obj.metadata.generation).toBe(2);
    // The object's history lists its revisions (create, the status write, the spec write).
    const history = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/orders/history");
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ kind: "ObjectHistory", resource: "databases", group: "data.example.com", name: "orders" });
    expect(history.body.items.length).toBeGreaterThanOrEqual(3);

    const smp = await server.request("PATCH", "/apis/data.example.com/v1/namespaces/default/databases/orders", {
      body: JSON.stringify({ spec: { replicas: 3 } }), contentType: "application/strategic-merge-patch+json",
    });
    expect(smp.status).toBe(415);
    expect(smp.body.message).toBe("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");

    // JSON and YAML only, as kube's custom resource handler: protobuf refused both ways with kube's lists.
    const proto = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/orders", { headers: { accept: "application/vnd.kubernetes.protobuf" } });
    expect(proto.status).toBe(406);
    expect(proto.body.message).toBe("only the following media types are accepted: application/json, application/yaml");
    const protoMeta = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/orders", { headers: { accept: "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1" } });
    expect(protoMeta.status).toBe(406);
    const either = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/orders", { headers: { accept: "application/vnd.kubernetes.protobuf, application/json" } });
    expect(either.status).toBe(200);
    expect(either.headers["content-type"]).toBe("application/json");
    const protoBody = await server.request("POST", "/apis/data.example.com/v1/namespaces/default/databases", { body: Buffer.from([0x6b, 0x38, 0x73, 0x00]), contentType: "application/vnd.kubernetes.protobuf" });
    expect(protoBody.status).toBe(415);
    expect(protoBody.body.message).toBe("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml");
  });

  test("/scale reads and writes the replicas as an autoscaling/v1 Scale; kubectl scale works", async () => {
    const path0 = "/apis/data.example.com/v1/namespaces/default/databases/orders";
    expect((await server.request("PATCH", `${path0}/status`, { body: JSON.stringify({ status: { replicas: 2, selector: "app=orders" } }), contentType: "application/merge-patch+json" })).status).toBe(200);
    const before = await server.request("GET", `${path0}/scale`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ kind: "Scale", apiVersion: "autoscaling/v1", metadata: { name: "orders", namespace: "default" }, spec: { replicas: 2 }, status: { replicas: 2, selector: "app=orders" } });
    const generation = (await server.request("GET", path0)).body.metadata.generation;

    const scaledUp = await server.kubectl(["scale", "db", "orders", "--replicas=3"]);
    expect(scaledUp.code, scaledUp.stderr).toBe(0);
    expect(scaledUp.stdout.trim()).toBe("database.data.example.com/orders scaled");
    const obj = (await server.request("GET", path0)).body;
    expect(obj.spec.replicas).toBe(3);
    expect(obj.metadata.generation).toBe(generation + 1);

    const put = await server.request("PUT", `${path0}/scale`, { body: { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "orders" }, spec: { replicas: 1 } } });
    expect(put.status).toBe(200);
    expect(put.body.spec).toEqual({ replicas: 1 });
    const negative = await server.request("PUT", `${path0}/scale`, { body: { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "orders" }, spec: { replicas: -1 } } });
    expect(negative.status).toBe(422);
    expect(negative.body.message).toBe('Scale.autoscaling "orders" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const stale = await server.request("PUT", `${path0}/scale`, { body: { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: "orders", resourceVersion: "1" }, spec: { replicas: 2 } } });
    expect(stale.status).toBe(409);
    // The object's own schema still governs: the minimum of spec.replicas.
    const zero = await server.request("PATCH", `${path0}/scale`, { body: JSON.stringify({ spec: { replicas: 0 } }), contentType: "application/merge-patch+json" });
    expect(zero.status).toBe(422);
    expect(zero.body.message).toContain("spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1");

    const list = await server.request("GET", "/apis/data.example.com/v1");
    expect(list.body.resources.find((r: any) => r.name === "databases/scale")).toEqual({ name: "databases/scale", singularName: "", namespaced: true, group: "autoscaling", version: "v1", kind: "Scale", verbs: ["get", "patch", "update"] });
  });

  test("lists select by labels and metadata fields, page with limit/continue, answer YAML; dry run stores nothing", async () => {
    const base = "/apis/data.example.com/v1/namespaces/default/databases";
    for (const [name, tier] of [["a1", "gold"], ["a2", "silver"], ["a3", "gold"]]) {
      const r = await server.request("POST", base, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name, labels: { tier } }, spec: { engine: "postgres" } } });
      expect(r.status).toBe(201);
    }
    const gold = await server.request("GET", `${base}?labelSelector=tier%3Dgold`);
    expect(gold.body.kind).toBe("DatabaseList");
    expect(gold.body.apiVersion).toBe("data.example.com/v1");
    expect(gold.body.items.map((o: any) => o.metadata.name)).toEqual(["a1", "a3"]);
    const named = await server.request("GET", `${base}?fieldSelector=metadata.name%3Da2`);
    expect(named.body.items.map((o: any) => o.metadata.name)).toEqual(["a2"]);
    const mysql = await server.request("POST", base, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "a4" }, spec: { engine: "mysql" } } });
    expect(mysql.status).toBe(201);
    // v1 declares spec.engine selectable; v1beta1 declares nothing, so only the metadata fields select there.
    const byEngine = await server.request("GET", `${base}?fieldSelector=spec.engine%3Dmysql`);
    expect(byEngine.body.items.map((o: any) => o.metadata.name)).toEqual(["a4"]);
    const notPostgres = await server.kubectl(["get", "databases", "--field-selector=spec.engine!=postgres", "-o", "name"]);
    expect(notPostgres.stdout.trim()).toBe("database.data.example.com/a4");
    expect((await server.request("DELETE", `${base}/a4`)).status).toBe(200);
    const badField = await server.request("GET", `${base.replace("/v1/", "/v1beta1/")}?fieldSelector=spec.engine%3Dpostgres`);
    expect(badField.status).toBe(400);
    expect(badField.body.message).toBe('"spec.engine" is not a known field selector: only "metadata.name", "metadata.namespace"');

    const page1 = await server.request("GET", `${base}?labelSelector=tier&limit=2`);
    expect(page1.body.items).toHaveLength(2);
    const page2 = await server.request("GET", `${base}?labelSelector=tier&limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
    expect(page2.body.items.map((o: any) => o.metadata.name)).toEqual(["a3"]);
    expect(page2.body.metadata.continue).toBeUndefined();

    const yaml = await server.request("GET", `${base}/a1`, { headers: { accept: "application/yaml" } });
    expect(yaml.headers["content-type"]).toBe("application/yaml");
    expect(YAML.parse(yaml.text).spec).toEqual({ engine: "postgres", replicas: 1, storage: "10Gi" });

    const dry = await server.request("POST", `${base}?dryRun=All`, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "dry" }, spec: { engine: "mysql" } } });
    expect(dry.status).toBe(201);
    expect(dry.body.spec.replicas).toBe(1);
    expect((await server.request("GET", `${base}/dry`)).status).toBe(404);

    // An update without a resourceVersion is refused (kube's custom resource strategy allows no unconditional update).
    const noRv = await server.request("PUT", `${base}/a1`, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "a1" }, spec: { engine: "mysql" } } });
    expect(noRv.status).toBe(422);
    const del = await server.request("DELETE", `${base}?labelSelector=tier`);
    expect(del.status).toBe(200);
    expect((await server.request("GET", base)).body.items.map((o: any) => o.metadata.name)).toEqual(["orders"]);
  });

  test("garbage collection runs to and from custom resources; deleting a namespace removes its custom resources", async () => {
    const ns = "cr-gc";
    expect((await server.kubectl(["create", "namespace", ns])).code).toBe(0);
    const base = `/apis/data.example.com/v1/namespaces/${ns}/databases`;
    const owner = await server.request("POST", base, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "owner" }, spec: { engine: "postgres" } } });
    expect(owner.status).toBe(201);
    const ref = (o: any, apiVersion: string, kind: string) => [{ apiVersion, kind, name: o.metadata.name, uid: o.metadata.uid }];
    // A ConfigMap owned by the custom resource (through its older version's apiVersion: the same object).
    const cm = await server.request("POST", `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: "owned", ownerReferences: ref(owner.body, "data.example.com/v1beta1", "Database") } } });
    expect(cm.status).toBe(201);
    // A custom resource owned by a ConfigMap.
    const parent = await server.request("POST", `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: "parent" } } });
    const child = await server.request("POST", base, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "child", ownerReferences: ref(parent.body, "v1", "ConfigMap") }, spec: { engine: "mysql" } } });
    expect(child.status).toBe(201);

    expect((await server.request("DELETE", `${base}/owner`)).status).toBe(200);
    await waitFor("the owned ConfigMap collected", async () => ((await server.request("GET", `/api/v1/namespaces/${ns}/configmaps/owned`)).status === 404 ? true : undefined), 10_000);
    expect((await server.request("DELETE", `/api/v1/namespaces/${ns}/configmaps/parent`)).status).toBe(200);
    await waitFor("the owned custom resource collected", async () => ((await server.request("GET", `${base}/child`)).status === 404 ? true : undefined), 10_000);

    const kept = await server.request("POST", base, { body: { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "kept" }, spec: { engine: "postgres" } } });
    expect(kept.status).toBe(201);
    const deleted = await server.kubectl(["delete", "namespace", ns, "--timeout=30s"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await server.request("GET", `${base}/kept`)).status).toBe(404);
  });

  test("watch sees ADDED, MODIFIED and DELETED; kubectl delete removes the object", async () => {
    const child = spawn("kubectl", ["--kubeconfig", server.kubeconfig, "get", "databases", "--watch", "--output-watch-events", "-o", "custom-columns=EVENT:.type,NAME:.object.metadata.name,REPLICAS:.object.spec.replicas", "--no-headers"]);
    let out = "";
    child.stdout.on("data", (c: Buffer) => { out += c.toString(); });
    try {
      await waitFor("ADDED", async () => (/ADDED\s+orders/.test(out) ? true : undefined), 10_000);
      expect((await server.kubectl(["patch", "db", "orders", "--type=json", "-p", '[{"op":"replace","path":"/spec/replicas","value":3}]'])).code).toBe(0);
      await waitFor("MODIFIED", async () => (/MODIFIED\s+orders\s+3/.test(out) ? true : undefined), 10_000);
      const deleted = await server.kubectl(["delete", "db", "orders"]);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout.trim()).toBe('database.data.example.com "orders" deleted');
      await waitFor("DELETED", async () => (/DELETED\s+orders/.test(out) ? true : undefined), 10_000);
    } finally {
      child.kill();
    }
    const gone = await server.kubectl(["get", "db", "orders"], { allowFail: true });
    expect(gone.stderr).toContain('databases.data.example.com "orders" not found');
  });

  test("a cluster-scoped CRD serves its kind at the cluster level, with kube's default Age column", async () => {
    expect((await server.kubectl(["apply", "-f", file("regions.yaml", REGIONS)])).code).toBe(0);
    await established("regions.geo.example.com");
    const created = await server.kubectl(["apply", "-f", "-"], { input: "apiVersion: geo.example.com/v1alpha1\nkind: Region\nmetadata:\n  name: eu-west\nspec:\n  zones: 3\n" });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe("region.geo.example.com/eu-west created");
    const table = await server.kubectl(["get", "regions"]);
    expect(table.stdout.trim().split("\n")[0].split(/\s{2,}/)).toEqual(["NAME", "AGE"]);
    const ns = await server.request("GET", "/apis/geo.example.com/v1alpha1/namespaces/default/regions/eu-west");
    expect(ns.status).toBe(404);
  });

  test("RBAC authorizes the custom resource's plural in its group", async () => {
    const can = await server.kubectl(["auth", "can-i", "list", "databases.data.example.com", "--as=jane"], { allowFail: true });
    expect(can.stdout.trim()).toBe("no");
    const role = await server.kubectl(["create", "clusterrole", "db-reader", "--verb=get,list", "--resource=databases.data.example.com"]);
    expect(role.code, role.stderr).toBe(0);
    expect((await server.kubectl(["create", "clusterrolebinding", "jane-db", "--clusterrole=db-reader", "--user=jane"])).code).toBe(0);
    await waitFor("jane may list", async () => {
      const r = await server.kubectl(["get", "databases", "-A", "--as=jane"], { allowFail: true });
      return r.code === 0 ? true : undefined;
    }, 5_000);
    const write = await server.kubectl(["delete", "regions", "eu-west", "--as=jane"], { allowFail: true });
    expect(write.stderr).toContain('regions.geo.example.com "eu-west" is forbidden: User "jane" cannot delete resource "regions" in API group "geo.example.com" at the cluster scope');
  });

  test("while a CRD terminates (a custom resource held by its finalizer), creates get kube's 405", async () => {
    const base = "/apis/geo.example.com/v1alpha1/regions";
    const held = await server.request("POST", base, { body: { apiVersion: "geo.example.com/v1alpha1", kind: "Region", metadata: { name: "held", finalizers: ["geo.example.com/hold"] } } });
    expect(held.status).toBe(201);
    expect((await server.kubectl(["delete", "crd", "regions.geo.example.com", "--wait=false"])).code).toBe(0);
    const refused = await waitFor("creates refused", async () => {
      const r = await server.request("POST", base, { body: { apiVersion: "geo.example.com/v1alpha1", kind: "Region", metadata: { name: "late" } } });
      return r.status === 405 ? r : undefined;
    }, 10_000);
    expect(refused.body).toMatchObject({ reason: "MethodNotAllowed", message: "create not allowed while custom resource definition is terminating", details: { group: "geo.example.com", kind: "regions" } });
    // The held object is marked for deletion; releasing it lets the CRD go.
    await waitFor("held object marked for deletion", async () => {
      const marked = await server.request("GET", `${base}/held`);
      return marked.body.metadata?.deletionTimestamp ? true : undefined;
    }, 10_000);
    expect((await server.request("PATCH", `${base}/held`, { body: JSON.stringify({ metadata: { finalizers: null } }), contentType: "application/merge-patch+json" })).status).toBe(200);
    await waitFor("CRD gone", async () => ((await server.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/regions.geo.example.com")).status === 404 ? true : undefined), 15_000);
    expect((await server.request("GET", base)).status).toBe(404);
  });

  test("deleting the CRD removes its custom resources and stops serving the kind", async () => {
    expect((await server.kubectl(["apply", "--validate=false", "-f", file("orders3.yaml", ORDERS.replace("  color: blue\n", ""))])).code).toBe(0);
    const deleted = await server.kubectl(["delete", "crd", "databases.data.example.com", "--timeout=30s"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    await waitFor("kind no longer served", async () => {
      const r = await server.request("GET", "/apis/data.example.com/v1/namespaces/default/databases");
      return r.status === 404 ? true : undefined;
    }, 10_000);
    expect((await server.request("GET", "/apis/data.example.com")).status).toBe(404);
    const groups = await server.request("GET", "/apis");
    expect(groups.body.groups.map((g: any) => g.name)).not.toContain("data.example.com");

    // Its custom resources went with it: the same CRD created again serves an empty kind.
    expect((await server.kubectl(["apply", "-f", file("databases.yaml", DATABASES)])).code).toBe(0);
    await established("databases.data.example.com");
    const list = await waitFor("served again", async () => {
      const r = await server.request("GET", "/apis/data.example.com/v1/databases");
      return r.status === 200 ? r.body : undefined;
    }, 5_000);
    expect(list.items).toEqual([]);
  });
});

describe("custom resources across replicas", { timeout: 120_000 }, () => {
  test("a CRD applied on one replica is served by the other within seconds, and after a restart before it answers", async () => {
    const [a, b] = await startSharedServers(2);
    server = a;
    expect((await a.kubectl(["apply", "-f", file("databases-r.yaml", DATABASES)])).code).toBe(0);
    await established("databases.data.example.com");
    const body = { apiVersion: "data.example.com/v1", kind: "Database", metadata: { name: "shared" }, spec: { engine: "mysql" } };
    const created = await waitFor("served on the other replica", async () => {
      const r = await b.request("POST", "/apis/data.example.com/v1/namespaces/default/databases", { body });
      return r.status === 201 ? r : undefined;
    }, 5_000);
    expect(created.body.spec.replicas).toBe(1);
    const restarted = await b.restart();
    const got = await restarted.request("GET", "/apis/data.example.com/v1/namespaces/default/databases/shared");
    expect(got.status).toBe(200);
    expect(got.body.metadata.generation).toBe(1);
  });
});

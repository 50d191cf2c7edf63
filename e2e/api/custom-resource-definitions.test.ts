// kubectl 1.32 against apiextensions.k8s.io/v1 CustomResourceDefinitions: apply of a realistic two-version CRD,
// the naming and establishing conditions (kubectl wait), get (table, category, YAML), describe, explain, a name
// conflict in the same group, an invalid CRD refused with kube's 422, and delete through the cleanup finalizer.
// Custom resources themselves are not served yet (issue 25's next step).
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshPostgresDatabase, testBackends } from "../../lib/storage/test-databases";
import { scratchFolder, startServer, waitFor, type Server } from "./harness";

let server: Server;
const scratch = scratchFolder("cluster-core-crd-");
const file = (name: string, text: string) => scratch.file(name, text);

/** An operator's CRD: v1alpha1 still served but deprecated, v1 the storage version with status and scale. */
const BACKUPS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backups.ops.example.com
  labels:
    app.kubernetes.io/part-of: backup-operator
spec:
  group: ops.example.com
  scope: Namespaced
  names:
    plural: backups
    singular: backup
    kind: Backup
    shortNames: [bk]
    categories: [all, backup-operator]
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: ops.example.com/v1alpha1 Backup is deprecated; use ops.example.com/v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              source: {type: string}
              schedule: {type: string}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          spec:
            type: object
            required: [source]
            properties:
              source: {type: string, description: "The PersistentVolumeClaim to back up."}
              schedule: {type: string, pattern: '^(@(hourly|daily|weekly))|((\\S+\\s+){4}\\S+)$'}
              retention:
                type: integer
                minimum: 1
                default: 7
              replicas: {type: integer}
              tags:
                type: array
                items: {type: string}
                x-kubernetes-list-type: set
            x-kubernetes-validations:
            - rule: "self.retention <= 365"
              message: retention is at most a year
          status:
            type: object
            properties:
              replicas: {type: integer}
              lastBackup: {type: string, format: date-time}
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - {name: Source, type: string, jsonPath: .spec.source}
    - {name: Schedule, type: string, jsonPath: .spec.schedule}
    - {name: Last Backup, type: date, jsonPath: .status.lastBackup}
    selectableFields:
    - jsonPath: .spec.source
`;

/** Same group, a short name already taken by backups. */
const RESTORES = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: restores.ops.example.com
spec:
  group: ops.example.com
  scope: Namespaced
  names: {plural: restores, kind: Restore, shortNames: [bk]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`;

/** Two storage versions and a name that is not <plural>.<group>. */
const INVALID = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: shop.example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`;


async function crd(name: string): Promise<any> {
  const r = await server.kubectl(["get", "crd", name, "-o", "yaml"]);
  expect(r.code, r.stderr).toBe(0);
  return YAML.parse(r.stdout);
}

const condition = (obj: any, type: string) => obj.status?.conditions?.find((c: any) => c.type === type);


describe.each(testBackends)("CustomResourceDefinitions with kubectl on %s", { timeout: 120_000 }, (backend) => {
  beforeAll(async () => {
    server = await startServer(backend === "postgresql" ? { env: { DATABASE_URL: await freshPostgresDatabase() } } : {});
  }, 90_000);
  afterAll(() => server.stop(), 60_000);

  test("apply creates the CRD; it is named, Established, and shows as kube shows it", async () => {
    const applied = await server.kubectl(["apply", "-f", file("backups.yaml", BACKUPS)]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/backups.ops.example.com created");

    const waited = await server.kubectl(["wait", "--for", "condition=Established", "crd/backups.ops.example.com", "--timeout=20s"]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/backups.ops.example.com condition met");

    const obj = await crd("backups.ops.example.com");
    expect(obj.metadata.generation).toBe(1);
    expect(obj.metadata.finalizers).toBeUndefined();
    expect(obj.spec.conversion).toEqual({ strategy: "None" });
    expect(obj.spec.names.listKind).toBe("BackupList");
    expect(obj.status.acceptedNames).toEqual({
      plural: "backups", singular: "backup", shortNames: ["bk"], kind: "Backup", listKind: "BackupList", categories: ["all", "backup-operator"],
    });
    expect(obj.status.storedVersions).toEqual(["v1"]);
    expect(condition(obj, "NamesAccepted")).toMatchObject({ status: "True", reason: "NoConflicts", message: "no conflicts found" });
    expect(condition(obj, "Established")).toMatchObject({ status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" });
    // The schema round-trips untouched, extensions included.
    const v1 = obj.spec.versions.find((v: any) => v.name === "v1");
    expect(v1.schema.openAPIV3Schema.properties.spec.properties.tags["x-kubernetes-list-type"]).toBe("set");
    expect(v1.schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"]).toEqual([{ rule: "self.retention <= 365", message: "retention is at most a year" }]);

    const table = await server.kubectl(["get", "crd"]);
    expect(table.code, table.stderr).toBe(0);
    const [header, ...rows] = table.stdout.trim().split("\n");
    expect(header.split(/\s{2,}/)).toEqual(["NAME", "CREATED AT"]);
    expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(["backups.ops.example.com"]);
    expect(rows[0].split(/\s+/)[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Its category and short name reach it too.
    const byCategory = await server.kubectl(["get", "api-extensions", "-o", "name"]);
    expect(byCategory.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/backups.ops.example.com");
    const byShortName = await server.kubectl(["get", "crds", "-o", "jsonpath={.items[*].metadata.name}"]);
    expect(byShortName.stdout).toBe("backups.ops.example.com");
  });

  test("apply again is unchanged; a spec change is configured and bumps the generation", async () => {
    const again = await server.kubectl(["apply", "-f", file("backups.yaml", BACKUPS)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/backups.ops.example.com unchanged");

    const changed = await server.kubectl(["apply", "-f", file("backups2.yaml", BACKUPS.replace("categories: [all, backup-operator]", "categories: [backup-operator]"))]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/backups.ops.example.com configured");
    const obj = await waitFor("accepted categories follow", async () => {
      const o = await crd("backups.ops.example.com");
      return JSON.stringify(o.status.acceptedNames.categories) === JSON.stringify(["backup-operator"]) ? o : undefined;
    });
    expect(obj.metadata.generation).toBe(2);
    expect(condition(obj, "Established")).toMatchObject({ status: "True" });
  });

  test("server-side apply creates and updates a CRD, owning its fields", async () => {
    const manifest = RESTORES.replace(/restores/g, "schedules").replace("kind: Restore, shortNames: [bk]", "kind: Schedule, shortNames: [sch]");
    const created = await server.kubectl(["apply", "--server-side", "-f", file("schedules.yaml", manifest)]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe("customresourcedefinition.apiextensions.k8s.io/schedules.ops.example.com serverside-applied");
    const updated = await server.kubectl(["apply", "--server-side", "-f", file("schedules2.yaml", manifest.replace("shortNames: [sch]", "shortNames: [sch, scheds]"))]);
    expect(updated.code, updated.stderr).toBe(0);
    const obj = await waitFor("short names accepted", async () => {
      const o = await crd("schedules.ops.example.com");
      return o.status?.acceptedNames?.shortNames?.length === 2 ? o : undefined;
    });
    expect(obj.spec.names.shortNames).toEqual(["sch", "scheds"]);
    // kubectl hides managedFields; the API has them.
    const raw = await server.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/schedules.ops.example.com");
    const managers = raw.body.metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}${m.subresource ? `/${m.subresource}` : ""}`);
    expect(managers).toContain("kubectl/Apply");
    const deleted = await server.kubectl(["delete", "crd", "schedules.ops.example.com"]);
    expect(deleted.code, deleted.stderr).toBe(0);
  });

  test("describe and explain", async () => {
    const described = await server.kubectl(["describe", "crd", "backups.ops.example.com"]);
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toMatch(/^Name:\s+backups\.ops\.example\.com$/m);
    expect(described.stdout).toMatch(/^API Version:\s+apiextensions\.k8s\.io\/v1$/m);
    expect(described.stdout).toMatch(/^Kind:\s+CustomResourceDefinition$/m);
    expect(described.stdout).toMatch(/Reason:\s+InitialNamesAccepted/);

    const explained = await server.kubectl(["explain", "customresourcedefinitions.spec"]);
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toMatch(/^GROUP:\s+apiextensions\.k8s\.io$/m);
    expect(explained.stdout).toMatch(/^KIND:\s+CustomResourceDefinition$/m);
    for (const f of ["conversion", "group", "names", "preserveUnknownFields", "scope", "versions"]) {
      expect(explained.stdout).toMatch(new RegExp(`^  ${f}\\s`, "m"));
    }
    const deep = await server.kubectl(["explain", "crd.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations"]);
    expect(deep.code, deep.stderr).toBe(0);
    expect(deep.stdout).toMatch(/^  rule\s+<string> -required-$/m);
  });

  test("a name already accepted in the group is reported as kube reports it", async () => {
    const applied = await server.kubectl(["apply", "-f", file("restores.yaml", RESTORES)]);
    expect(applied.code, applied.stderr).toBe(0);
    const obj = await waitFor("NamesAccepted set", async () => {
      const o = await crd("restores.ops.example.com");
      return condition(o, "NamesAccepted") ? o : undefined;
    });
    expect(condition(obj, "NamesAccepted")).toMatchObject({ status: "False", reason: "ShortNamesConflict", message: '"bk" is already in use' });
    expect(condition(obj, "Established")).toMatchObject({ status: "False", reason: "NotAccepted", message: "not all names are accepted" });
    expect(obj.status.acceptedNames).toEqual({ plural: "restores", singular: "restore", kind: "Restore", listKind: "RestoreList" });
  });

  test("an invalid CRD is refused with kube's 422", async () => {
    const r = await server.kubectl(["apply", "-f", file("invalid.yaml", INVALID)], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The CustomResourceDefinition "widgets.example.com" is invalid:');
    expect(r.stderr).toContain('metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group');
    expect(r.stderr).toMatch(/spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version/);

    const raw = await server.request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { body: YAML.parse(INVALID) });
    expect(raw.status).toBe(422);
    expect(raw.body).toMatchObject({ kind: "Status", reason: "Invalid", code: 422, details: { name: "widgets.example.com", group: "apiextensions.k8s.io", kind: "CustomResourceDefinition" } });
    expect(raw.body.details.causes).toContainEqual({ reason: "FieldValueInvalid", field: "metadata.name", message: 'Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group' });
  });

  test("answers JSON and YAML, and 406 to a protobuf-only Accept", async () => {
    const pb = await server.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { headers: { accept: "application/vnd.kubernetes.protobuf" } });
    expect(pb.status).toBe(406);
    // The Status itself has a protobuf form, so the refusal is written in the media type asked for.
    expect(pb.headers["content-type"]).toBe("application/vnd.kubernetes.protobuf");
    expect(pb.text).toContain("only the following media types are accepted: application/json, application/yaml");
    const both = await server.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { headers: { accept: "application/vnd.kubernetes.protobuf, application/json" } });
    expect(both.status).toBe(200);
    expect(both.body.kind).toBe("CustomResourceDefinitionList");
  });

  test("delete goes through Terminating and the cleanup finalizer, then the CRD is gone and its names free", async () => {
    const deleted = await server.kubectl(["delete", "crd", "backups.ops.example.com"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io "backups.ops.example.com" deleted');
    const gone = await server.kubectl(["get", "crd", "backups.ops.example.com"], { allowFail: true });
    expect(gone.code).not.toBe(0);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "backups.ops.example.com" not found');

    // The short name is free now: restores takes it and is established.
    const waited = await server.kubectl(["wait", "--for", "condition=Established", "crd/restores.ops.example.com", "--timeout=20s"]);
    expect(waited.code, waited.stderr).toBe(0);
    expect((await crd("restores.ops.example.com")).status.acceptedNames.shortNames).toEqual(["bk"]);
  });

  test("the first DELETE answers the CRD kept with its finalizer and Terminating condition", async () => {
    const first = await server.request("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/restores.ops.example.com");
    expect(first.status).toBe(200);
    expect(first.body.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
    expect(first.body.metadata.deletionTimestamp).toBeTruthy();
    expect(condition(first.body, "Terminating")).toMatchObject({
      status: "True", reason: "InstanceDeletionPending", message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    });
    await waitFor("CRD removed", async () => {
      const r = await server.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/restores.ops.example.com");
      return r.status === 404 ? true : undefined;
    });
  });
});

// Server-side apply and managedFields against the real server, over raw HTTPS and with kubectl 1.32: create
// on apply, two managers sharing an object, kube's 409 for a conflict, `--force-conflicts`, a field removed
// when its applier stops applying it, the managedFields kubectl's create/edit/replace/patch leave, the
// upgrade from client-side to server-side apply, and `kubectl get --show-managed-fields`. One server.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";
import { expectStatus } from "./kinds";

const NS = "e2e-ssa";
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const APPLY = "application/apply-patch+yaml";
const KUBECTL = process.env.KUBECTL ?? "/usr/bin/kubectl";

let server: Server;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-ssa-"));
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });

function apply(name: string, body: unknown, query: string) {
  return server.request("PATCH", `${CM}/${name}?${query}`, { body: typeof body === "string" ? body : JSON.stringify(body), contentType: APPLY });
}

async function get(name: string): Promise<any> {
  const res = await server.request("GET", `${CM}/${name}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const managers = (obj: any) => (obj.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}`).sort();
const entry = (obj: any, manager: string) => obj.metadata.managedFields.find((e: any) => e.manager === manager);

function manifest(name: string, data: Record<string, string>): string {
  const file = path.join(tmp, `${name}-${Object.keys(data).join("-")}-${Date.now()}.yaml`);
  writeFileSync(file, YAML.stringify({ ...configMap(name, data), metadata: { name, namespace: NS } }));
  return file;
}

describe("PATCH application/apply-patch+yaml", () => {
  test("creates the object (201), records an Apply entry, and answers 200 once it exists", async () => {
    const created = await apply("created", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: created\ndata:\n  a: '1'\n", "fieldManager=alice");
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toEqual({ a: "1" });
    expect(created.body.metadata.managedFields).toEqual([{
      manager: "alice", operation: "Apply", apiVersion: "v1", time: expect.stringMatching(/Z$/), fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { "f:a": {} } },
    }]);
    const again = await apply("created", configMap("created", { a: "1", b: "2" }), "fieldManager=alice");
    expect(again.status, again.text).toBe(200);
    expect((await get("created")).data).toEqual({ a: "1", b: "2" });
  });

  test("needs a fieldManager and refuses force on other patches, as kube's PatchOptions validation", async () => {
    expectStatus(await apply("x", configMap("x", {}), ""), 422, "Invalid",
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    await apply("forced", configMap("forced", { a: "1" }), "fieldManager=alice");
    const res = await server.request("PATCH", `${CM}/forced?force=true`, { body: { data: { a: "2" } }, contentType: "application/merge-patch+json" });
    expectStatus(res, 422, "Invalid", 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    expectStatus(await server.request("PATCH", `${CM}/forced`, { body: "x", contentType: "text/plain" }), 415, "UnsupportedMediaType",
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml");
  });

  test("refuses a configuration it cannot apply, and writes nothing on a dry run", async () => {
    expectStatus(await apply("bad", { ...configMap("bad", {}), spec: {} }, "fieldManager=alice"), 400, "BadRequest",
      "failed to create typed patch object (/bad; /v1, Kind=ConfigMap): .spec: field not declared in schema");
    expectStatus(await apply("bad", { ...configMap("bad", {}), kind: "Secret" }, "fieldManager=alice"), 400, "BadRequest", "invalid object type: /v1, Kind=Secret");
    expectStatus(await apply("bad", "data: [", "fieldManager=alice"), 400, "BadRequest", /^error decoding YAML: /);
    const repeated = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}';
    expectStatus(await apply("dup", repeated, "fieldManager=alice&fieldValidation=Strict"), 400, "BadRequest",
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key "a" already set in map');
    expectStatus(await server.request("GET", `${CM}/dup`), 404, "NotFound");
    const warned = await apply("dup", repeated, "fieldManager=alice");
    expect(warned.status, warned.text).toBe(201);
    expect(warned.headers.warning).toBe('299 - "error converting YAML to JSON: yaml: unmarshal errors:   line 1: key \\"a\\" already set in map"');
    const dry = await apply("dry", configMap("dry", { a: "1" }), "fieldManager=alice&dryRun=All");
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.metadata.managedFields[0].manager).toBe("alice");
    expectStatus(await server.request("GET", `${CM}/dry`), 404, "NotFound");
  });

  test("two managers share an object; a conflict is kube's 409 until forced; a field goes when its applier drops it", async () => {
    expect((await apply("shared", configMap("shared", { key: "1", a: "a" }), "fieldManager=alice")).status).toBe(201);
    expect((await apply("shared", configMap("shared", { key: "1", b: "b" }), "fieldManager=bob")).status).toBe(200);
    const both = await get("shared");
    expect(both.data).toEqual({ key: "1", a: "a", b: "b" });
    expect(managers(both)).toEqual(["alice/Apply", "bob/Apply"]);
    expect(entry(both, "bob").fieldsV1).toEqual({ "f:data": { "f:b": {}, "f:key": {} } });

    await apply("shared", configMap("shared", { a: "a" }), "fieldManager=alice");
    const conflict = await apply("shared", configMap("shared", { key: "2", b: "c" }), "fieldManager=carol");
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body).toEqual({
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", reason: "Conflict", code: 409,
      message: 'Apply failed with 2 conflicts: conflicts with "bob":\n- .data.b\n- .data.key',
      details: { causes: [
        { reason: "FieldManagerConflict", message: 'conflict with "bob"', field: ".data.b" },
        { reason: "FieldManagerConflict", message: 'conflict with "bob"', field: ".data.key" },
      ] },
    });
    const forced = await apply("shared", configMap("shared", { key: "2" }), "fieldManager=carol&force=true");
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.data).toEqual({ key: "2", a: "a", b: "b" });
    expect(entry(forced.body, "bob").fieldsV1).toEqual({ "f:data": { "f:b": {} } });

    // bob stops applying b: nobody else owns it, so it goes
    await apply("shared", configMap("shared", {}), "fieldManager=bob");
    expect((await get("shared")).data).toEqual({ key: "2", a: "a" });
  });

  test("records a status write under its subresource", async () => {
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "ssa-pod" }, spec: { containers: [{ name: "app", image: "nginx" }] } };
    const pods = `/api/v1/namespaces/${NS}/pods`;
    const created = await server.request("PATCH", `${pods}/ssa-pod?fieldManager=deployer`, { body: JSON.stringify(pod), contentType: APPLY });
    expect(created.status, created.text).toBe(201);
    const status = { apiVersion: "v1", kind: "Pod", metadata: { name: "ssa-pod" }, status: { conditions: [{ type: "Ready", status: "False" }] } };
    const res = await server.request("PATCH", `${pods}/ssa-pod/status?fieldManager=kubelet`, { body: JSON.stringify(status), contentType: APPLY });
    expect(res.status, res.text).toBe(200);
    const kubelet = res.body.metadata.managedFields.find((e: any) => e.manager === "kubelet");
    expect(kubelet).toMatchObject({ operation: "Apply", subresource: "status", fieldsV1: { "f:status": { "f:conditions": { 'k:{"type":"Ready"}': { ".": {}, "f:status": {}, "f:type": {} } } } } });
    expect(res.body.metadata.managedFields.find((e: any) => e.manager === "deployer").fieldsV1).toEqual({
      "f:spec": { "f:containers": { 'k:{"name":"app"}': { ".": {}, "f:image": {}, "f:name": {} } } },
    });
  });
});

describe("kubectl", () => {
  test("apply --server-side creates and updates as manager kubectl; --force-conflicts takes a field over", async () => {
    const first = await server.kubectl(["apply", "--server-side", "-f", manifest("ssa-kubectl", { a: "1" })]);
    expect(first.stdout.trim()).toBe("configmap/ssa-kubectl serverside-applied");
    expect(managers(await get("ssa-kubectl"))).toEqual(["kubectl/Apply"]);
    await server.kubectl(["apply", "--server-side", "--field-manager=other", "-f", manifest("ssa-kubectl", { b: "2" })]);
    const conflict = await server.kubectl(["apply", "--server-side", "-f", manifest("ssa-kubectl", { a: "1", b: "3" })], { allowFail: true });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "other": .data.b');
    expect(conflict.stderr).toContain("--force-conflicts");
    await server.kubectl(["apply", "--server-side", "--force-conflicts", "-f", manifest("ssa-kubectl", { a: "1", b: "3" })]);
    const taken = await get("ssa-kubectl");
    expect(taken.data).toEqual({ a: "1", b: "3" });
    expect(managers(taken)).toEqual(["kubectl/Apply"]);
  });

  test("a conflict with client-side apply names kubectl-client-side-apply", async () => {
    await server.kubectl(["apply", "-f", manifest("csa-owned", { key: "1" })]);
    const res = await server.kubectl(["apply", "--server-side", "--field-manager=tool", "-f", manifest("csa-owned", { key: "2" })], { allowFail: true });
    expect(res.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key');
  });

  test("client-side apply, then server-side apply: kubectl takes client-side apply's fields over and drops what the manifest dropped", async () => {
    await server.kubectl(["apply", "-f", manifest("migrated", { keep: "1", change: "old", drop: "x" })]);
    const csa = await get("migrated");
    expect(managers(csa)).toEqual(["kubectl-client-side-apply/Update"]);
    expect(entry(csa, "kubectl-client-side-apply").fieldsV1).toEqual({
      "f:data": { ".": {}, "f:change": {}, "f:drop": {}, "f:keep": {} },
      "f:metadata": { "f:annotations": { ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {} } },
    });
    const res = await server.kubectl(["apply", "--server-side", "-f", manifest("migrated", { keep: "1", change: "new" })]);
    expect(res.stderr).toBe("");
    const ssa = await get("migrated");
    expect(ssa.data).toEqual({ keep: "1", change: "new" });
    expect(managers(ssa)).toEqual(["kubectl-last-applied/Apply", "kubectl/Apply"]);
    expect(entry(ssa, "kubectl").fieldsV1).toMatchObject({ "f:data": { "f:change": {}, "f:keep": {} } });
    expect(JSON.parse(ssa.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).data).toEqual({ keep: "1", change: "new" });
  });

  test("create, edit, replace and patch each leave an Update entry for their manager", async () => {
    const file = manifest("edited", { a: "one" });
    await server.kubectl(["create", "-f", file]);
    const created = await get("edited");
    expect(managers(created)).toEqual(["kubectl-create/Update"]);
    expect(entry(created, "kubectl-create").fieldsV1).toEqual({ "f:data": { ".": {}, "f:a": {} } });

    await kubectlEdit(["configmap/edited", "-n", NS], "a: one", "a: two");
    const edited = await get("edited");
    expect(edited.data).toEqual({ a: "two" });
    expect(managers(edited)).toEqual(["kubectl-create/Update", "kubectl-edit/Update"]);
    expect(entry(edited, "kubectl-edit").fieldsV1).toEqual({ "f:data": { "f:a": {} } });
    // kubectl-create keeps the map itself (it created it), no longer its key
    expect(entry(edited, "kubectl-create").fieldsV1).toEqual({ "f:data": {} });

    const replaced = { ...edited, data: { a: "two", b: "three" } };
    await server.kubectl(["replace", "-f", "-"], { input: JSON.stringify(replaced) });
    expect(entry(await get("edited"), "kubectl-replace").fieldsV1).toEqual({ "f:data": { "f:b": {} } });

    await server.kubectl(["patch", "configmap", "edited", "-n", NS, "-p", '{"data":{"c":"four"}}']);
    const patched = await get("edited");
    expect(managers(patched)).toEqual(["kubectl-create/Update", "kubectl-edit/Update", "kubectl-patch/Update", "kubectl-replace/Update"]);
    expect(entry(patched, "kubectl-patch").fieldsV1).toEqual({ "f:data": { "f:c": {} } });
  });

  test("get hides managedFields unless --show-managed-fields", async () => {
    await apply("shown", configMap("shown", { a: "1" }), "fieldManager=alice");
    const hidden = YAML.parse((await server.kubectl(["get", "configmap", "shown", "-n", NS, "-o", "yaml"])).stdout);
    expect(hidden.metadata.managedFields).toBeUndefined();
    const shown = YAML.parse((await server.kubectl(["get", "configmap", "shown", "-n", NS, "-o", "yaml", "--show-managed-fields"])).stdout);
    expect(shown.metadata.managedFields).toEqual([expect.objectContaining({ manager: "alice", operation: "Apply", fieldsV1: { "f:data": { "f:a": {} } } })]);
  });
});

/** `kubectl edit` with an editor that replaces `from` with `to` in the opened file. */
function kubectlEdit(args: string[], from: string, to: string): Promise<void> {
  const editor = path.join(tmp, "editor.cjs");
  writeFileSync(editor, `const fs = require("fs"); const f = process.argv[2]; fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(${JSON.stringify(from)}, ${JSON.stringify(to)}));\n`);
  const home = mkdtempSync(path.join(tmp, "home-"));
  return new Promise((resolve, reject) => {
    const proc = spawn(KUBECTL, [`--cache-dir=${path.join(home, "cache")}`, "edit", ...args], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: home, KUBECONFIG: server.kubeconfig,
        KUBE_EDITOR: `${process.execPath} ${editor}`,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    proc.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
    proc.on("error", reject);
    proc.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`kubectl edit exited ${code}: ${stderr}`));
    });
  });
}

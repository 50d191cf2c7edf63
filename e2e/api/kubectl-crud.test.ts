// kubectl 1.32 as a real client: for every one of the twelve kinds, create from the fixture manifest,
// read (table, short name, YAML), list with label and field selectors, replace, patch (json, merge),
// delete, and see NotFound afterwards. One server for the whole file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, FIXTURES_DIR, rv, startServer, stopAll, subsetMismatch, type Server } from "./harness";
import { KINDS, loadFixture, type KindCase } from "./kinds";

const NS = "e2e-kubectl-crud";
const NS_VALIDATE = "e2e-kubectl-validate";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

let server: Server;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-crud-"));
  server = await startServer();
  await createNamespaces(server, NS, NS_VALIDATE);
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** `-n NS` for namespaced kinds; kubectl needs nothing for cluster-scoped ones. */
const nsArgs = (k: KindCase) => (k.namespaced ? ["-n", NS] : []);

async function getJson(k: KindCase, name: string): Promise<any> {
  const r = await server.kubectl(["get", k.plural, name, ...nsArgs(k), "-o", "json"]);
  return JSON.parse(r.stdout);
}

async function listNames(k: KindCase, extra: string[]): Promise<string[]> {
  const r = await server.kubectl(["get", k.plural, ...extra, "-o", "jsonpath={.items[*].metadata.name}"]);
  return r.stdout.split(/\s+/).filter(Boolean);
}

describe("kubectl against the server", { timeout: 120_000 }, () => {
  test("admin.kubeconfig works with no flags: get pods -A, version, api-resources", async () => {
    const pods = await server.kubectl(["get", "pods", "-A"]);
    expect(pods.code).toBe(0);

    const version = JSON.parse((await server.kubectl(["version", "-o", "json"])).stdout);
    expect(version.serverVersion?.major).toBe("1");
    expect(version.serverVersion?.gitVersion).toMatch(/^v1\.\d+\.\d+/);

    const res = await server.kubectl(["api-resources", "--api-group=", "--no-headers"]);
    const rows = res.stdout.trim().split("\n").map((l) => l.trim().split(/\s+/));
    for (const k of KINDS) {
      // Columns: NAME [SHORTNAMES] APIVERSION NAMESPACED KIND
      const row = rows.find((r) => r[0] === k.plural);
      expect(row, `api-resources lacks ${k.plural}:\n${res.stdout}`).toBeDefined();
      expect(row![row!.length - 1]).toBe(k.kind);
      expect(row![row!.length - 2]).toBe(String(k.namespaced));
      if (k.shortNames.length) expect(row![1]).toBe(k.shortNames.join(","));
    }
  });

  test.each(KINDS.map((k) => [k.kind, k] as const))("%s: create, get, list, replace, patch, delete", async (_, k) => {
    const fixture = loadFixture(k, NS);
    const name: string = fixture.metadata.name;
    const ref = `${k.kind.toLowerCase()}/${name}`;
    const file =
      k.kind === "Event"
        ? (() => {
            const f = path.join(tmp, k.fixtureFile);
            writeFileSync(f, YAML.stringify(fixture));
            return f;
          })()
        : path.join(FIXTURES_DIR, k.fixtureFile);

    // create -f (YAML manifest). Client-side validation is covered by its own test below, so that a
    // missing OpenAPI document does not hide everything else this test checks.
    const created = await server.kubectl(["create", "-f", file, ...nsArgs(k), "--validate=false"]);
    expect(created.stdout.trim()).toBe(`${ref} created`);

    // get <plural> <name>: a table with a NAME column and the object's row
    const table = await server.kubectl(["get", k.plural, name, ...nsArgs(k)]);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^(NAME|LAST SEEN)\s/);
    // (an Event row shows its involved object, `pod/<name>`, rather than its own name)
    const rowMark = k.kind === "Event" ? `pod/${fixture.involvedObject.name}` : name;
    expect(lines.slice(1).some((l) => l.split(/\s+/).includes(name) || l.includes(rowMark)), table.stdout).toBe(true);

    // the short name resolves through discovery
    for (const short of k.shortNames) {
      const viaShort = await server.kubectl(["get", short, name, ...nsArgs(k), "-o", "name"]);
      expect(viaShort.stdout.trim()).toBe(ref);
    }

    // get -o yaml: every field of the manifest round-trips, server-owned metadata is set
    const yamlOut = await server.kubectl(["get", k.plural, name, ...nsArgs(k), "-o", "yaml"]);
    const obj = YAML.parse(yamlOut.stdout);
    expect(obj.kind).toBe(k.kind);
    expect(obj.apiVersion).toBe("v1");
    const { metadata: fixtureMeta, ...fixtureBody } = fixture;
    expect(subsetMismatch(fixtureBody, obj)).toBeUndefined();
    expect(subsetMismatch(fixtureMeta, obj.metadata)).toBeUndefined();
    expect(obj.metadata.uid).toMatch(UUID);
    expect(obj.metadata.creationTimestamp).toMatch(RFC3339_SECONDS);
    expect(Math.abs(Date.parse(obj.metadata.creationTimestamp) - Date.now())).toBeLessThan(10 * 60_000);
    expect(obj.metadata.resourceVersion).toMatch(/^\d+$/);
    if (k.namespaced) expect(obj.metadata.namespace).toBe(NS);
    else expect(obj.metadata.namespace).toBeUndefined();

    // list with label selectors
    const scope = k.namespaced ? ["-n", NS] : [];
    expect(await listNames(k, [...scope, "-l", "app.kubernetes.io/part-of=shop"])).toEqual([name]);
    expect(await listNames(k, [...scope, "-l", "app.kubernetes.io/part-of=other"])).toEqual([]);
    expect(await listNames(k, [...scope, "-l", "app.kubernetes.io/part-of in (shop,web),!not-there"])).toEqual([name]);
    // list with field selectors
    expect(await listNames(k, [...scope, "--field-selector", `metadata.name=${name}`])).toEqual([name]);
    expect(await listNames(k, [...scope, "--field-selector", "metadata.name=does-not-exist"])).toEqual([]);
    if (k.namespaced) {
      expect(await listNames(k, ["-A", "--field-selector", `metadata.name=${name}`])).toEqual([name]);
      expect(await listNames(k, ["-n", "some-other-namespace"])).toEqual([]);
    }

    // replace -f with a changed label (the file carries the current resourceVersion)
    const edited = structuredClone(obj);
    edited.metadata.labels["app.kubernetes.io/part-of"] = "shop-v2";
    const editedFile = path.join(tmp, `replace-${k.fixtureFile}`);
    writeFileSync(editedFile, YAML.stringify(edited));
    const replaced = await server.kubectl(["replace", "-f", editedFile, ...nsArgs(k), "--validate=false"]);
    expect(replaced.stdout.trim()).toBe(`${ref} replaced`);
    const afterReplace = await getJson(k, name);
    expect(afterReplace.metadata.labels["app.kubernetes.io/part-of"]).toBe("shop-v2");
    expect(afterReplace.metadata.uid).toBe(obj.metadata.uid);
    expect(afterReplace.metadata.creationTimestamp).toBe(obj.metadata.creationTimestamp);
    expect(rv(afterReplace.metadata.resourceVersion)).toBeGreaterThan(rv(obj.metadata.resourceVersion));
    expect(await listNames(k, [...scope, "-l", "app.kubernetes.io/part-of=shop"])).toEqual([]);
    expect(await listNames(k, [...scope, "-l", "app.kubernetes.io/part-of=shop-v2"])).toEqual([name]);

    // replacing with the stale version (the original object) is a conflict
    const staleFile = path.join(tmp, `stale-${k.fixtureFile}`);
    writeFileSync(staleFile, YAML.stringify(obj));
    const stale = await server.kubectl(["replace", "-f", staleFile, ...nsArgs(k), "--validate=false"], { allowFail: true });
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toContain("Error from server (Conflict)");

    // patch --type json on the kind's own fields
    const jsonPatched = await server.kubectl([
      "patch", k.plural, name, ...nsArgs(k), "--type", "json", "-p", JSON.stringify([k.jsonPatch]),
    ]);
    expect(jsonPatched.stdout.trim()).toBe(`${ref} patched`);
    const afterJson = await getJson(k, name);
    expect(k.patchedValue(afterJson)).toEqual(k.jsonPatch.value);
    expect(rv(afterJson.metadata.resourceVersion)).toBeGreaterThan(rv(afterReplace.metadata.resourceVersion));

    // patch --type merge adds a label and keeps the others
    const mergePatched = await server.kubectl([
      "patch", k.plural, name, ...nsArgs(k), "--type", "merge",
      "-p", JSON.stringify({ metadata: { labels: { "shop.example.com/merged": "yes" } } }),
    ]);
    expect(mergePatched.stdout.trim()).toBe(`${ref} patched`);
    const afterMerge = await getJson(k, name);
    expect(afterMerge.metadata.labels).toMatchObject({
      "shop.example.com/merged": "yes",
      "app.kubernetes.io/part-of": "shop-v2",
    });
    expect(k.patchedValue(afterMerge)).toEqual(k.jsonPatch.value);

    // delete, then the object is gone
    const deleted = await server.kubectl(["delete", k.plural, name, ...nsArgs(k), "--timeout=60s"], {
      timeoutMs: 90_000,
    });
    expect(deleted.stdout.trim()).toBe(`${k.kind.toLowerCase()} "${name}" deleted`);
    const gone = await server.kubectl(["get", k.plural, name, ...nsArgs(k)], { allowFail: true });
    expect(gone.code).toBe(1);
    expect.soft(gone.stderr.trim()).toBe(`Error from server (NotFound): ${k.plural} "${name}" not found`);
    expect(await listNames(k, scope)).toEqual(k.namespaced ? k.inEveryNamespace : (k.onFreshCluster ?? []));
  });

  // kubectl create/replace/apply validate manifests by default (--validate=strict): kubectl fetches the
  // server's /openapi/v3 and sends fieldValidation=Strict, or aborts with "failed to download openapi".
  test.each(KINDS.map((k) => [k.kind, k] as const))("%s: kubectl create -f with default validation", async (_, k) => {
    const fixture = loadFixture(k, NS_VALIDATE);
    fixture.metadata.name = `${fixture.metadata.name}-validated`;
    const ns = k.namespaced ? ["-n", NS_VALIDATE] : [];
    const created = await server.kubectl(["create", "-f", "-", ...ns], { input: YAML.stringify(fixture) });
    expect(created.stdout.trim()).toBe(`${k.kind.toLowerCase()}/${fixture.metadata.name} created`);

    // A manifest with a field the kind does not have is refused, not silently stored.
    const bogus = { ...loadFixture(k, NS_VALIDATE), bogusField: "x" };
    bogus.metadata.name = `${bogus.metadata.name}-bogus`;
    const refused = await server.kubectl(["create", "-f", "-", ...ns], { input: YAML.stringify(bogus), allowFail: true });
    expect(refused.code, refused.stdout).not.toBe(0);
    expect(refused.stderr).toMatch(/unknown field "bogusField"/);

    await server.kubectl(["delete", k.plural, fixture.metadata.name, ...ns, "--timeout=60s"], { timeoutMs: 90_000 });
  });
});

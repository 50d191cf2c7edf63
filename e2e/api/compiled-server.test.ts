// `npm start` runs the server compiled by scripts/build-server.mjs (one ES module, no TypeScript loader at
// start). The compiled server must be the same server: it starts, serves the API to kubectl, keeps what was
// written across a restart, and runs its controllers (the namespace's default ServiceAccount and root CA).
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, startServer, stopAll, waitFor, type Server } from "./harness";
// @ts-expect-error: a plain ES module script, without type declarations
import { buildServer, bundleIsStale } from "../../scripts/build-server.mjs";

// Inside the tree (git-ignored), so the bundle's package imports resolve from its node_modules.
const OUT = path.join(".server", `test-${process.pid}`);
let server: Server;
let bundle: string;

beforeAll(async () => {
  bundle = await buildServer({ root: REPO_ROOT, outDir: OUT });
  server = await startServer({ nodeArgs: [bundle] });
}, 120_000);

afterAll(async () => {
  await stopAll();
  rmSync(path.join(REPO_ROOT, OUT), { recursive: true, force: true });
});

describe("the compiled server (npm start)", () => {
  test("is up to date once built", () => {
    expect(bundleIsStale({ root: REPO_ROOT, outDir: OUT })).toBe(false);
  });

  test("serves the API to kubectl, runs the controllers and keeps its data across a restart", async () => {
    const created = await server.kubectl(["create", "namespace", "compiled"]);
    expect(created.stdout).toContain("namespace/compiled created");
    await server.kubectl(["create", "configmap", "settings", "-n", "compiled", "--from-literal=mode=fast"]);
    await waitFor("the namespace's default ServiceAccount", async () =>
      (await server.request("GET", "/api/v1/namespaces/compiled/serviceaccounts/default")).status === 200 || undefined);
    await waitFor("the namespace's kube-root-ca.crt", async () =>
      (await server.request("GET", "/api/v1/namespaces/compiled/configmaps/kube-root-ca.crt")).status === 200 || undefined);
    server = await server.restart();
    const got = await server.kubectl(["get", "configmap", "settings", "-n", "compiled", "-o", "jsonpath={.data.mode}"]);
    expect(got.stdout).toBe("fast");
    const missing = await server.request("GET", "/api/v1/namespaces/compiled/configmaps/absent");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: "Status", reason: "NotFound" });
  });
});

// `kubectl edit` with KUBE_EDITOR set to a small node script that rewrites the opened YAML (text
// replacements) and keeps a copy of every file kubectl opens. A valid edit is stored; an edit that breaks
// validation makes kubectl report the server's error, reopen the file with the causes as comments, and
// store nothing. One server for the whole file.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, FIXTURES_DIR, rv, startServer, stopAll, type Server } from "./harness";

const NS = "e2e-kubectl-edit";
const KUBECTL = process.env.KUBECTL ?? "/usr/bin/kubectl";

let server: Server;
let tmp: string;
let editor: string;

// The editor: applies EDIT_REPLACEMENTS ([[from, to], ...], each must match on the first opening) to the
// file kubectl hands it, after saving what it was given as EDIT_CAPTURE/open-<n>.yaml.
const EDITOR_SOURCE = `
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import path from "node:path";
const file = process.argv[process.argv.length - 1];
const dir = process.env.EDIT_CAPTURE;
const n = readdirSync(dir).length;
let text = readFileSync(file, "utf8");
writeFileSync(path.join(dir, "open-" + n + ".yaml"), text);
for (const [from, to] of JSON.parse(process.env.EDIT_REPLACEMENTS)) {
  if (n === 0 && !text.includes(from)) { console.error("editor: " + JSON.stringify(from) + " not in the file"); process.exit(3); }
  text = text.split(from).join(to);
}
writeFileSync(file, text);
`;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-edit-"));
  editor = path.join(tmp, "editor.mjs");
  writeFileSync(editor, EDITOR_SOURCE);
  server = await startServer();
  await createNamespaces(server, NS);
  // fixtures used below, created through the API as they are
  for (const f of ["configmap.yaml", "pod.yaml", "service.yaml", "persistentvolumeclaim.yaml", "persistentvolume.yaml"]) {
    await server.kubectl(["create", "-f", path.join(FIXTURES_DIR, f), "-n", NS]);
  }
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

interface EditResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The files kubectl opened in the editor, in order. */
  openings: string[];
}

let editRuns = 0;

/** Runs `kubectl edit <args>` with the editor script applying `replacements`. */
function kubectlEdit(args: string[], replacements: [string, string][]): Promise<EditResult> {
  const run = ++editRuns;
  const capture = path.join(tmp, `capture-${run}`);
  const home = path.join(tmp, `home-${run}`);
  mkdirSync(capture);
  mkdirSync(home);
  return new Promise((resolve, reject) => {
    const proc = spawn(KUBECTL, [`--cache-dir=${path.join(tmp, "cache")}`, "edit", ...args], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        TMPDIR: home,
        KUBECONFIG: server.kubeconfig,
        KUBE_EDITOR: `${process.execPath} ${editor}`,
        EDIT_CAPTURE: capture,
        EDIT_REPLACEMENTS: JSON.stringify(replacements),
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    proc.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
    proc.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.on("close", (code) => {
      clearTimeout(timer);
      const openings = readdirSync(capture)
        .sort((a, b) => Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, "")))
        .map((f) => readFileSync(path.join(capture, f), "utf8"));
      resolve({ code: code ?? -1, stdout, stderr, openings });
    });
  });
}

async function getJson(resource: string, name: string, namespaced = true): Promise<any> {
  const r = await server.kubectl(["get", resource, name, ...(namespaced ? ["-n", NS] : []), "-o", "json"]);
  return JSON.parse(r.stdout);
}

/** The YAML part of an opened file (kubectl's instructions and error causes are `#` comment lines). */
const yamlOf = (opened: string) => YAML.parse(opened.split("\n").filter((l) => !l.startsWith("#")).join("\n"));
const commentsOf = (opened: string) => opened.split("\n").filter((l) => l.startsWith("#")).join("\n");

describe("kubectl edit", { timeout: 120_000 }, () => {
  test("ConfigMap: the editor gets the live object; a changed value and annotation are stored", async () => {
    const before = await getJson("configmap", "storefront-config");
    const res = await kubectlEdit(["configmap", "storefront-config", "-n", NS], [
      ["LOG_LEVEL: info", "LOG_LEVEL: debug"],
      ["shop.example.com/owner: team-checkout", "shop.example.com/owner: team-search"],
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe("configmap/storefront-config edited");
    expect(res.openings).toHaveLength(1);
    const opened = yamlOf(res.openings[0]);
    expect(opened.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(opened.data).toEqual(before.data);

    const after = await getJson("configmap", "storefront-config");
    expect(after.data.LOG_LEVEL).toBe("debug");
    expect(after.data.FEATURE_FLAGS).toBe("search,recommendations");
    expect(after.data["nginx.conf"]).toBe(before.data["nginx.conf"]);
    expect(after.metadata.annotations["shop.example.com/owner"]).toBe("team-search");
    expect(rv(after.metadata.resourceVersion)).toBeGreaterThan(rv(before.metadata.resourceVersion));
  });

  test("Pod: a new container image is stored, defaults and status stay", async () => {
    const before = await getJson("pod", "storefront-web");
    const res = await kubectlEdit(["pod", "storefront-web", "-n", NS], [["image: nginx:1.27.0", "image: nginx:1.28.0"]]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe("pod/storefront-web edited");
    const after = await getJson("pod", "storefront-web");
    expect(after.spec.containers[0].image).toBe("nginx:1.28.0");
    expect(after.spec.containers[0].terminationMessagePath).toBe("/dev/termination-log");
    expect(after.spec.dnsPolicy).toBe("ClusterFirst");
    expect(after.status).toEqual(before.status);
  });

  test("Service and PersistentVolume: spec edits are stored", async () => {
    const svc = await kubectlEdit(["service", "storefront", "-n", NS], [["targetPort: 8080", "targetPort: 8081"]]);
    expect(svc.code, svc.stderr).toBe(0);
    expect(svc.stdout.trim()).toBe("service/storefront edited");
    const s = await getJson("service", "storefront");
    expect(s.spec.ports.map((p: any) => [p.name, p.targetPort])).toEqual([["http", 8081], ["metrics", "metrics"]]);

    const pv = await kubectlEdit(["pv", "nfs-shop-uploads"], [["storage: 10Gi", "storage: 25Gi"]]);
    expect(pv.code, pv.stderr).toBe(0);
    expect(pv.stdout.trim()).toBe("persistentvolume/nfs-shop-uploads edited");
    expect((await getJson("pv", "nfs-shop-uploads", false)).spec.capacity).toEqual({ storage: "25Gi" });
  });

  test("an edit that changes nothing is cancelled without a write", async () => {
    const before = await getJson("configmap", "storefront-config");
    const res = await kubectlEdit(["configmap", "storefront-config", "-n", NS], []);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.trim()).toBe("Edit cancelled, no changes made.");
    expect((await getJson("configmap", "storefront-config")).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  test("Service: an invalid type is reported, the file is reopened with the cause, nothing is stored", async () => {
    const before = await getJson("service", "storefront");
    const res = await kubectlEdit(["service", "storefront", "-n", NS], [["type: ClusterIP", "type: Bogus"]]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: services "storefront" is invalid');
    expect(res.stderr).toContain("Edit cancelled, no valid changes were saved.");
    // kubectl reopened the editor with the server's causes on top of the edited object
    expect(res.openings).toHaveLength(2);
    const comments = commentsOf(res.openings[1]);
    expect(comments).toContain('# services "storefront" was not valid:');
    expect(comments).toContain(
      '# * spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    expect(yamlOf(res.openings[1]).spec.type).toBe("Bogus");
    expect(await getJson("service", "storefront")).toEqual(before);
  });

  test("Pod: changing a field other than the image is refused with the pod update rule", async () => {
    const before = await getJson("pod", "storefront-web");
    const res = await kubectlEdit(["pod", "storefront-web", "-n", NS], [["restartPolicy: Always", "restartPolicy: Never"]]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: pods "storefront-web" is invalid');
    expect(res.openings).toHaveLength(2);
    expect(commentsOf(res.openings[1])).toContain(
      "# * spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
    );
    expect(await getJson("pod", "storefront-web")).toEqual(before);
  });

  test("PersistentVolumeClaim: the spec is immutable; a label edit goes through", async () => {
    const before = await getJson("pvc", "storefront-uploads");
    const refused = await kubectlEdit(["pvc", "storefront-uploads", "-n", NS], [["storageClassName: standard", "storageClassName: fast"]]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: persistentvolumeclaims "storefront-uploads" is invalid');
    expect(refused.openings).toHaveLength(2);
    expect(commentsOf(refused.openings[1])).toContain(
      "# * spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
    );
    expect(await getJson("pvc", "storefront-uploads")).toEqual(before);

    const ok = await kubectlEdit(["pvc", "storefront-uploads", "-n", NS], [["app.kubernetes.io/component: storage", "app.kubernetes.io/component: uploads"]]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim()).toBe("persistentvolumeclaim/storefront-uploads edited");
    const after = await getJson("pvc", "storefront-uploads");
    expect(after.metadata.labels["app.kubernetes.io/component"]).toBe("uploads");
    expect(after.spec).toEqual(before.spec);
  });

  test("ConfigMap: an invalid data key is refused and nothing is stored", async () => {
    const before = await getJson("configmap", "storefront-config");
    const res = await kubectlEdit(["configmap", "storefront-config", "-n", NS], [["FEATURE_FLAGS:", "FEATURE FLAGS:"]]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('error: configmaps "storefront-config" is invalid');
    expect(commentsOf(res.openings[1])).toContain(
      `# * data[FEATURE FLAGS]: Invalid value: "FEATURE FLAGS": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
    expect(await getJson("configmap", "storefront-config")).toEqual(before);
  });
});

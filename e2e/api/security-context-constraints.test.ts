// OpenShift's SecurityContextConstraints as a cluster user meets them: the default SCC set listed by kubectl,
// SCC manifests applied under security.openshift.io/v1, namespaces given UID ranges, pods defaulted by the
// first SCC they may use and refused with OpenShift's message otherwise.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

const ALICE = "alice-scc-token-0123456789";
let server: Server;

const podYaml = (name: string, extra = "", container = "") => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: scc-team}
spec:
  ${extra}
  containers:
  - name: app
    image: nginx
    ${container}
`;

async function namespaceAnnotations(name: string): Promise<Record<string, string>> {
  for (let i = 0; i < 100; i++) {
    const ns = await server.request("GET", `/api/v1/namespaces/${name}`);
    const a = ns.body.metadata.annotations ?? {};
    if (a["openshift.io/sa.scc.uid-range"]) return a;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`namespace ${name} never got its SCC ranges`);
}

beforeAll(async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-scc-"));
  const tokens = path.join(tmp, "tokens.csv");
  writeFileSync(tokens, `${ALICE},alice,uid-alice,"people"\n`);
  server = await startServer({ env: { TOKEN_AUTH_FILE: tokens } });
  await createNamespaces(server, "scc-team");
  await server.kubectl(["create", "rolebinding", "alice-edit", "-n", "scc-team", "--clusterrole=edit", "--user=alice"]);
});

afterAll(async () => {
  await stopAll();
});

describe("SecurityContextConstraints", () => {
  test("kubectl get scc lists OpenShift's defaults, also under security.openshift.io", async () => {
    const out = await server.kubectl(["get", "scc", "-o", "custom-columns=NAME:.metadata.name,PRIORITY:.priority,APIVERSION:.apiVersion", "--no-headers"]);
    const rows = out.stdout.trim().split("\n").map((l) => l.trim().split(/\s+/));
    const names = rows.map((r) => r[0]);
    for (const n of ["anyuid", "hostaccess", "hostmount-anyuid", "hostnetwork", "hostnetwork-v2", "nonroot", "nonroot-v2", "privileged", "restricted", "restricted-v2"]) {
      expect(names).toContain(n);
    }
    expect(rows.find((r) => r[0] === "anyuid")?.[1]).toBe("10");
    const privileged = await server.request("GET", "/apis/security.openshift.io/v1/securitycontextconstraints/privileged");
    expect(privileged.status).toBe(200);
    expect(privileged.body.apiVersion).toBe("security.openshift.io/v1");
    expect(privileged.body.groups).toEqual(["system:cluster-admins", "system:nodes", "system:masters"]);
    expect(privileged.body.users).toEqual(["system:admin", "system:serviceaccount:openshift-infra:build-controller"]);
    const legacy = await server.request("GET", "/api/v1/securitycontextconstraints/privileged");
    expect(legacy.body.apiVersion).toBe("v1");
    const crb = await server.request("GET", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:openshift:scc:restricted-v2");
    expect(crb.body.subjects).toEqual([{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:authenticated" }]);
  });

  test("discovery and OpenAPI serve the security.openshift.io group", async () => {
    const group = await server.request("GET", "/apis/security.openshift.io");
    expect(group.body.preferredVersion.groupVersion).toBe("security.openshift.io/v1");
    const list = await server.request("GET", "/apis/security.openshift.io/v1");
    expect(list.body.resources.map((r: { name: string }) => r.name)).toEqual(["securitycontextconstraints"]);
    expect(list.body.resources[0].shortNames).toEqual(["scc"]);
    const doc = await server.request("GET", "/openapi/v3/apis/security.openshift.io/v1");
    expect(doc.body.paths["/apis/security.openshift.io/v1/securitycontextconstraints/{name}"].patch["x-kubernetes-group-version-kind"])
      .toEqual({ group: "security.openshift.io", kind: "SecurityContextConstraints", version: "v1" });
  });

  test("an OpenShift SCC manifest applies unchanged and is watched in its group", async () => {
    const manifest = `
kind: SecurityContextConstraints
apiVersion: security.openshift.io/v1
metadata:
  name: team-scc
allowHostDirVolumePlugin: false
allowHostIPC: false
allowHostNetwork: false
allowHostPID: false
allowHostPorts: false
allowPrivilegeEscalation: true
allowPrivilegedContainer: true
allowedCapabilities: null
readOnlyRootFilesystem: false
runAsUser:
  type: RunAsAny
seLinuxContext:
  type: RunAsAny
fsGroup:
  type: RunAsAny
supplementalGroups:
  type: RunAsAny
groups:
- "system:serviceaccounts:scc-team"
`;
    const first = await server.kubectl(["apply", "-f", "-"], { input: manifest });
    expect(first.stdout).toContain("securitycontextconstraints.security.openshift.io/team-scc created");
    const again = await server.kubectl(["apply", "-f", "-"], { input: manifest.replace("allowHostIPC: false", "allowHostIPC: true") });
    expect(again.stdout).toContain("securitycontextconstraints.security.openshift.io/team-scc configured");
    const got = await server.kubectl(["get", "securitycontextconstraints.security.openshift.io", "team-scc", "-o", "json"]);
    const obj = JSON.parse(got.stdout);
    expect(obj.apiVersion).toBe("security.openshift.io/v1");
    expect(obj.allowHostIPC).toBe(true);
    const watch = await server.request("GET", "/apis/security.openshift.io/v1/securitycontextconstraints?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dteam-scc");
    const first_ = JSON.parse(watch.text.trim().split("\n")[0]);
    expect(first_.type).toBe("ADDED");
    expect(first_.object.apiVersion).toBe("security.openshift.io/v1");
    await server.kubectl(["delete", "scc", "team-scc"]);
  });

  test("a namespace user's plain pod is admitted by restricted-v2 with a UID from the namespace range", async () => {
    const annotations = await namespaceAnnotations("scc-team");
    const range = annotations["openshift.io/sa.scc.uid-range"];
    expect(range).toMatch(/^1\d{9}\/10000$/);
    expect(annotations["openshift.io/sa.scc.supplemental-groups"]).toBe(range);
    expect(annotations["openshift.io/sa.scc.mcs"]).toMatch(/^s0:c\d+,c\d+$/);
    const res = await server.kubectl(["--token", ALICE, "apply", "-f", "-"], { input: podYaml("plain") });
    expect(res.stdout).toContain("pod/plain created");
    const pod = (await server.request("GET", "/api/v1/namespaces/scc-team/pods/plain")).body;
    const min = Number(range.split("/")[0]);
    expect(pod.metadata.annotations["openshift.io/scc"]).toBe("restricted-v2");
    expect(pod.spec.containers[0].securityContext).toMatchObject({ runAsUser: min, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
    expect(pod.spec.securityContext).toMatchObject({ fsGroup: min, seLinuxOptions: { level: annotations["openshift.io/sa.scc.mcs"] } });
  });

  test("a host-network pod is refused to the user with OpenShift's message, and admitted as privileged for the admin", async () => {
    const yaml = podYaml("hostnet", "hostNetwork: true", "securityContext: {privileged: true}");
    const res = await server.kubectl(["--token", ALICE, "create", "-f", "-"], { input: yaml, allowFail: true });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('pods "hostnet" is forbidden: unable to validate against any security context constraint: [provider "anyuid": Forbidden: not usable by user or serviceaccount, provider restricted-v2: .spec.securityContext.hostNetwork: Invalid value: true: Host network is not allowed to be used');
    expect(res.stderr).toContain('provider restricted-v2: .containers[0].privileged: Invalid value: true: Privileged containers are not allowed');
    expect(res.stderr).toContain('provider "privileged": Forbidden: not usable by user or serviceaccount]');
    const admin = await server.kubectl(["create", "-f", "-"], { input: yaml });
    expect(admin.stdout).toContain("pod/hostnet created");
    const pod = (await server.request("GET", "/api/v1/namespaces/scc-team/pods/hostnet")).body;
    expect(pod.metadata.annotations["openshift.io/scc"]).toBe("privileged");
  });

  test("a user granted use of anyuid gets anyuid for a pod running as root", async () => {
    const yaml = podYaml("root", "", "securityContext: {runAsUser: 0}");
    const before = await server.kubectl(["--token", ALICE, "create", "-f", "-"], { input: yaml, allowFail: true });
    expect(before.stderr).toContain("provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in the ranges:");
    await server.kubectl(["create", "rolebinding", "alice-anyuid", "-n", "scc-team", "--clusterrole=system:openshift:scc:anyuid", "--user=alice"]);
    const after = await server.kubectl(["--token", ALICE, "create", "-f", "-"], { input: yaml });
    expect(after.stdout).toContain("pod/root created");
    const pod = (await server.request("GET", "/api/v1/namespaces/scc-team/pods/root")).body;
    expect(pod.metadata.annotations["openshift.io/scc"]).toBe("anyuid");
    expect(pod.spec.containers[0].securityContext.runAsUser).toBe(0);
  });

  test("openshift.io/required-scc: an admin's pod gets the named SCC, not anyuid; an SCC the user may not use, or none by that name, is refused", async () => {
    const annotations = await namespaceAnnotations("scc-team");
    const min = Number(annotations["openshift.io/sa.scc.uid-range"].split("/")[0]);
    const pinned = (name: string, scc: string) => podYaml(name).replace(`{name: ${name},`, `{name: ${name}, annotations: {openshift.io/required-scc: ${scc}},`);
    const free = await server.kubectl(["create", "-f", "-"], { input: podYaml("admin-free") });
    expect(free.stdout).toContain("pod/admin-free created");
    expect((await server.request("GET", "/api/v1/namespaces/scc-team/pods/admin-free")).body.metadata.annotations["openshift.io/scc"]).toBe("anyuid");
    const created = await server.kubectl(["create", "-f", "-"], { input: pinned("admin-pinned", "restricted-v2") });
    expect(created.stdout).toContain("pod/admin-pinned created");
    const pod = (await server.request("GET", "/api/v1/namespaces/scc-team/pods/admin-pinned")).body;
    expect(pod.metadata.annotations["openshift.io/scc"]).toBe("restricted-v2");
    expect(pod.spec.containers[0].securityContext).toMatchObject({ runAsUser: min, runAsNonRoot: true });
    // The annotation may not change afterwards.
    const changed = await server.kubectl(["annotate", "pod", "admin-pinned", "-n", "scc-team", "--overwrite", "openshift.io/required-scc=anyuid"], { allowFail: true });
    expect(changed.stderr).toContain('pods "admin-pinned" is forbidden: invalid change of required security context constraint annotation: openshift.io/required-scc');

    const denied = await server.kubectl(["--token", ALICE, "create", "-f", "-"], { input: pinned("alice-pinned", "privileged"), allowFail: true });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('pods "alice-pinned" is forbidden: unable to validate against any security context constraint: provider "privileged": Forbidden: not usable by user or serviceaccount');
    const missing = await server.kubectl(["create", "-f", "-"], { input: pinned("nowhere", "no-such-scc"), allowFail: true });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('pods "nowhere" is forbidden: failed to retrieve the required SCC "no-such-scc": securitycontextconstraints.security.openshift.io "no-such-scc" not found');
  });

  test("namespace ranges survive a restart and new namespaces get a different block", async () => {
    const before = await namespaceAnnotations("scc-team");
    server = await server.restart();
    await createNamespaces(server, "scc-other");
    const other = await namespaceAnnotations("scc-other");
    expect((await namespaceAnnotations("scc-team"))["openshift.io/sa.scc.uid-range"]).toBe(before["openshift.io/sa.scc.uid-range"]);
    expect(other["openshift.io/sa.scc.uid-range"]).not.toBe(before["openshift.io/sa.scc.uid-range"]);
    expect(other["openshift.io/sa.scc.mcs"]).not.toBe(before["openshift.io/sa.scc.mcs"]);
  });
});

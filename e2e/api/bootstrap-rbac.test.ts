// kube-apiserver 1.32's bootstrap RBAC through kubectl: every default ClusterRole, ClusterRoleBinding and
// kube-system/kube-public Role and RoleBinding exists from the first start, the bindings give kube's
// components their access through RBAC (kubectl auth can-i --as), and a restart reconciles the defaults:
// a removed kube rule comes back, an admin's rule stays, an autoupdate "false" role is left alone.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, stopAll, type Server } from "./harness";

let server: Server;

beforeAll(async () => {
  server = await startServer();
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const namesOf = async (args: string[]) =>
  (await server.kubectl(["get", ...args, "-o", "name"])).stdout.trim().split("\n").map((l) => l.slice(l.indexOf("/") + 1));
const canI = async (as: string, ...args: string[]) => (await server.kubectl(["auth", "can-i", `--as=${as}`, ...args], { allowFail: true })).stdout.trim();
const json = async (args: string[]) => JSON.parse((await server.kubectl(["get", ...args, "-o", "json"])).stdout);
const replace = (obj: unknown) => server.kubectl(["replace", "-f", "-"], { input: JSON.stringify(obj) });

describe("bootstrap RBAC", () => {
  test("kubectl lists kube's default ClusterRoles and ClusterRoleBindings and the kube-system and kube-public Roles and RoleBindings", async () => {
    const kube = (names: string[]) => names.filter((n) => !n.startsWith("system:openshift:"));
    const clusterRoles = kube(await namesOf(["clusterroles"]));
    expect(clusterRoles).toHaveLength(64);
    expect(clusterRoles).toEqual(expect.arrayContaining([
      "system:node", "system:kube-scheduler", "system:kube-controller-manager", "system:node-proxier", "system:volume-scheduler",
      "system:controller:namespace-controller", "system:controller:generic-garbage-collector", "system:controller:legacy-service-account-token-cleaner",
      "system:certificates.k8s.io:kubelet-serving-approver",
    ]));
    expect(kube(await namesOf(["clusterrolebindings"]))).toHaveLength(45);
    const expectedKubeSystem = [
      "extension-apiserver-authentication-reader", "system::leader-locking-kube-controller-manager", "system::leader-locking-kube-scheduler",
      "system:controller:bootstrap-signer", "system:controller:cloud-provider", "system:controller:token-cleaner",
    ];
    expect(await namesOf(["roles", "-n", "kube-system"])).toEqual(expectedKubeSystem);
    expect(await namesOf(["rolebindings", "-n", "kube-system"])).toEqual(expectedKubeSystem.map((n) => (n === "extension-apiserver-authentication-reader" ? `system::${n}` : n)).sort());
    expect(await namesOf(["roles", "-n", "kube-public"])).toEqual(["system:controller:bootstrap-signer"]);
    expect(await namesOf(["rolebindings", "-n", "kube-public"])).toEqual(["system:controller:bootstrap-signer"]);
    const binding = await json(["rolebinding", "system::extension-apiserver-authentication-reader", "-n", "kube-system"]);
    expect(binding.metadata.labels).toEqual({ "kubernetes.io/bootstrapping": "rbac-defaults" });
    expect(binding.metadata.annotations).toEqual({ "rbac.authorization.kubernetes.io/autoupdate": "true" });
    expect(binding.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "extension-apiserver-authentication-reader" });
  }, 60_000);

  test("the bindings give kube's components their access through RBAC", async () => {
    const checks: [string, string[], string][] = [
      ["system:kube-scheduler", ["create", "pods", "--subresource=binding", "-n", "default"], "yes"],
      ["system:kube-scheduler", ["update", "leases/kube-scheduler", "-n", "kube-system"], "yes"],
      ["system:kube-scheduler", ["list", "leases", "-n", "kube-system"], "yes"],
      ["system:kube-scheduler", ["list", "leases", "-n", "default"], "no"],
      ["system:kube-scheduler", ["get", "configmaps/extension-apiserver-authentication", "-n", "kube-system"], "yes"],
      ["system:kube-scheduler", ["get", "configmaps/other", "-n", "kube-system"], "no"],
      ["system:kube-scheduler", ["delete", "nodes"], "no"],
      ["system:kube-controller-manager", ["list", "secrets", "--all-namespaces"], "yes"],
      ["system:kube-controller-manager", ["update", "leases/kube-controller-manager", "-n", "kube-system"], "yes"],
      ["system:kube-proxy", ["watch", "endpoints", "--all-namespaces"], "yes"],
      ["system:kube-proxy", ["get", "secrets"], "no"],
      ["system:serviceaccount:kube-system:namespace-controller", ["delete", "namespaces"], "yes"],
      ["system:serviceaccount:kube-system:namespace-controller", ["create", "pods"], "no"],
      ["system:serviceaccount:kube-system:bootstrap-signer", ["update", "configmaps/cluster-info", "-n", "kube-public"], "yes"],
      ["system:serviceaccount:kube-system:bootstrap-signer", ["list", "secrets", "-n", "kube-system"], "yes"],
      ["system:serviceaccount:kube-system:bootstrap-signer", ["list", "secrets", "-n", "default"], "no"],
      ["system:serviceaccount:kube-system:token-cleaner", ["delete", "secrets", "-n", "kube-system"], "yes"],
      ["system:serviceaccount:kube-system:kube-dns", ["watch", "services", "--all-namespaces"], "yes"],
    ];
    for (const [as, args, answer] of checks) expect(`${as} ${args.join(" ")}: ${await canI(as, ...args)}`).toBe(`${as} ${args.join(" ")}: ${answer}`);
  }, 120_000);

  test("a restart reconciles the defaults: kube's rules come back, an admin's stay, autoupdate \"false\" roles are left alone", async () => {
    const dns = await json(["clusterrole", "system:kube-dns"]);
    const kubeRules = dns.rules;
    dns.rules = [{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }];
    await replace(dns);
    const heapster = await json(["clusterrole", "system:heapster"]);
    heapster.metadata.annotations["rbac.authorization.kubernetes.io/autoupdate"] = "false";
    heapster.rules = [{ apiGroups: [""], resources: ["nodes"], verbs: ["get"] }];
    await replace(heapster);
    const reader = await json(["rolebinding", "system::extension-apiserver-authentication-reader", "-n", "kube-system"]);
    reader.subjects = [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "my-apiserver" }];
    await replace(reader);
    expect(await canI("system:kube-scheduler", "get", "configmaps/extension-apiserver-authentication", "-n", "kube-system")).toBe("no");

    server = await server.restart();

    const rules = (await json(["clusterrole", "system:kube-dns"])).rules;
    expect(rules[0]).toEqual({ apiGroups: [""], resources: ["pods"], verbs: ["list"] });
    expect(rules.slice(1)).toEqual(
      kubeRules[0].resources.flatMap((resource: string) => kubeRules[0].verbs.map((verb: string) => ({ apiGroups: [""], resources: [resource], verbs: [verb] }))),
    );
    expect((await json(["clusterrole", "system:heapster"])).rules).toEqual([{ apiGroups: [""], resources: ["nodes"], verbs: ["get"] }]);
    expect((await json(["rolebinding", "system::extension-apiserver-authentication-reader", "-n", "kube-system"])).subjects.map((s: any) => s.name))
      .toEqual(["my-apiserver", "system:kube-controller-manager", "system:kube-scheduler"]);
    expect(await canI("system:kube-scheduler", "get", "configmaps/extension-apiserver-authentication", "-n", "kube-system")).toBe("yes");
  }, 120_000);
});

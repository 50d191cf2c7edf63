import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural, kinds } from "../kinds";
import { Registry } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { bootstrap } from "./index";

let store: Store;
let registry: Registry;
afterEach(async () => { registry.close(); await store.close(); });

async function open() {
  store = await openStore({ databaseUrl: `file:${mkdtempSync(path.join(tmpdir(), "cc-rbac-"))}/b.db`, compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds);
}
const stored = (resource: string, namespace: string, name: string) => store.objects.get({ resource, namespace, name })?.object as any;
const names = (resource: string, namespace?: string) =>
  store.objects.list(resource).map((o) => o.object as any).filter((o) => namespace === undefined || o.metadata.namespace === namespace).map((o) => o.metadata.name);
const OPTIONS = { dryRun: false, fieldValidation: "Ignore" } as const;

// kube-apiserver 1.32 as a fresh cluster shows it (kubectl get -o yaml), written out independently of the tables.
const DEFAULTS = { labels: { "kubernetes.io/bootstrapping": "rbac-defaults" }, annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" } };
const EVENTS = { apiGroups: ["", "events.k8s.io"], resources: ["events"], verbs: ["create", "patch", "update"] };
const R = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]) => ({ apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
const READ = ["get", "list", "watch"];
const LOCK = ["create", "get", "list", "update", "watch"];
const RBAC = "rbac.authorization.k8s.io";
const SA = (name: string) => ({ kind: "ServiceAccount", name, namespace: "kube-system" });
const USER = (name: string) => ({ apiGroup: RBAC, kind: "User", name });

const rulesOf = (o: any) => o.rules;
const metaOf = (o: any) => ({ labels: o.metadata.labels, annotations: o.metadata.annotations });

describe("bootstrap RBAC: kube 1.32's default policy", () => {
  it("creates kube's 64 ClusterRoles, 45 ClusterRoleBindings and the 7 Roles and 7 RoleBindings of kube-system and kube-public", async () => {
    await open();
    await bootstrap(registry);
    const kube = (resource: string) => names(resource).filter((n) => !n.startsWith("system:openshift:"));
    expect(kube("clusterroles")).toHaveLength(64);
    expect(kube("clusterroles").filter((n) => n.startsWith("system:controller:"))).toHaveLength(33);
    expect(kube("clusterrolebindings")).toHaveLength(45);
    expect(names("roles", "kube-system").sort()).toEqual([
      "extension-apiserver-authentication-reader", "system::leader-locking-kube-controller-manager", "system::leader-locking-kube-scheduler",
      "system:controller:bootstrap-signer", "system:controller:cloud-provider", "system:controller:token-cleaner",
    ]);
    expect(names("roles", "kube-public")).toEqual(["system:controller:bootstrap-signer"]);
    expect(names("rolebindings", "kube-system").sort()).toEqual([
      "system::extension-apiserver-authentication-reader", "system::leader-locking-kube-controller-manager", "system::leader-locking-kube-scheduler",
      "system:controller:bootstrap-signer", "system:controller:cloud-provider", "system:controller:token-cleaner",
    ]);
    expect(names("rolebindings", "kube-public")).toEqual(["system:controller:bootstrap-signer"]);
    for (const resource of ["clusterroles", "clusterrolebindings", "roles", "rolebindings"]) {
      for (const o of store.objects.list(resource).map((s) => s.object as any)) {
        if (o.metadata.name.startsWith("system:openshift:")) continue;
        expect(metaOf(o).labels, o.metadata.name).toMatchObject(DEFAULTS.labels);
        expect(metaOf(o).annotations, o.metadata.name).toEqual(DEFAULTS.annotations);
      }
    }
  });

  it("writes system:node, system:kube-scheduler and system:controller:namespace-controller rule for rule as kube does", async () => {
    await open();
    await bootstrap(registry);
    expect(rulesOf(stored("clusterroles", "", "system:node"))).toEqual([
      R(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
      R(["authorization.k8s.io"], ["localsubjectaccessreviews", "subjectaccessreviews"], ["create"]),
      R([""], ["services"], READ),
      R([""], ["nodes"], ["create", "get", "list", "watch"]),
      R([""], ["nodes/status"], ["patch", "update"]),
      R([""], ["nodes"], ["patch", "update"]),
      R([""], ["events"], ["create", "patch", "update"]),
      R([""], ["pods"], READ),
      R([""], ["pods"], ["create", "delete"]),
      R([""], ["pods/status"], ["patch", "update"]),
      R([""], ["pods/eviction"], ["create"]),
      R([""], ["configmaps", "secrets"], READ),
      R([""], ["persistentvolumeclaims", "persistentvolumes"], ["get"]),
      R([""], ["endpoints"], ["get"]),
      R(["certificates.k8s.io"], ["certificatesigningrequests"], ["create", "get", "list", "watch"]),
      R(["coordination.k8s.io"], ["leases"], ["create", "delete", "get", "patch", "update"]),
      R(["storage.k8s.io"], ["volumeattachments"], ["get"]),
      R([""], ["serviceaccounts/token"], ["create"]),
      R([""], ["persistentvolumeclaims/status"], ["get", "patch", "update"]),
      R(["storage.k8s.io"], ["csidrivers"], READ),
      R(["storage.k8s.io"], ["csinodes"], ["create", "delete", "get", "patch", "update"]),
      R(["node.k8s.io"], ["runtimeclasses"], READ),
    ]);
    // bound to nobody: the Node authorizer grants kubelets
    const nodeBinding = stored("clusterrolebindings", "", "system:node");
    expect(nodeBinding.roleRef).toEqual({ apiGroup: RBAC, kind: "ClusterRole", name: "system:node" });
    expect(nodeBinding.subjects ?? []).toEqual([]);

    expect(rulesOf(stored("clusterroles", "", "system:kube-scheduler"))).toEqual([
      EVENTS,
      R(["coordination.k8s.io"], ["leases"], ["create"]),
      R(["coordination.k8s.io"], ["leases"], ["get", "update"], ["kube-scheduler"]),
      R([""], ["nodes"], READ),
      R([""], ["pods"], ["delete", "get", "list", "watch"]),
      R([""], ["bindings", "pods/binding"], ["create"]),
      R([""], ["pods/status"], ["patch", "update"]),
      R([""], ["replicationcontrollers", "services"], READ),
      R(["apps", "extensions"], ["replicasets"], READ),
      R(["apps"], ["statefulsets"], READ),
      R(["policy"], ["poddisruptionbudgets"], READ),
      R([""], ["persistentvolumeclaims", "persistentvolumes"], READ),
      R(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
      R(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"]),
      R(["storage.k8s.io"], ["csinodes"], READ),
      R([""], ["namespaces"], READ),
      R(["storage.k8s.io"], ["csidrivers"], READ),
      R(["storage.k8s.io"], ["csistoragecapacities"], READ),
    ]);
    expect(stored("clusterrolebindings", "", "system:kube-scheduler").subjects).toEqual([USER("system:kube-scheduler")]);
    expect(stored("clusterrolebindings", "", "system:volume-scheduler").subjects).toEqual([USER("system:kube-scheduler")]);

    expect(rulesOf(stored("clusterroles", "", "system:controller:namespace-controller"))).toEqual([
      R([""], ["namespaces"], ["delete", "get", "list", "watch"]),
      R([""], ["namespaces/finalize", "namespaces/status"], ["update"]),
      R(["*"], ["*"], ["delete", "deletecollection", "get", "list", "watch"]),
    ]);
    const nsBinding = stored("clusterrolebindings", "", "system:controller:namespace-controller");
    expect(nsBinding.roleRef).toEqual({ apiGroup: RBAC, kind: "ClusterRole", name: "system:controller:namespace-controller" });
    expect(nsBinding.subjects).toEqual([SA("namespace-controller")]);
  });

  it("writes the kube-system and kube-public Roles and RoleBindings as kube does", async () => {
    await open();
    await bootstrap(registry);
    expect(rulesOf(stored("roles", "kube-system", "extension-apiserver-authentication-reader"))).toEqual([
      R([""], ["configmaps"], READ, ["extension-apiserver-authentication"]),
    ]);
    const leaderLocking = (component: string) => [
      R([""], ["configmaps"], ["watch"]),
      R([""], ["configmaps"], ["get", "update"], [component]),
      R(["coordination.k8s.io"], ["leases"], LOCK),
      R(["coordination.k8s.io"], ["leasecandidates"], LOCK),
    ];
    expect(rulesOf(stored("roles", "kube-system", "system::leader-locking-kube-controller-manager"))).toEqual(leaderLocking("kube-controller-manager"));
    expect(rulesOf(stored("roles", "kube-system", "system::leader-locking-kube-scheduler"))).toEqual(leaderLocking("kube-scheduler"));
    expect(rulesOf(stored("roles", "kube-system", "system:controller:bootstrap-signer"))).toEqual([R([""], ["secrets"], READ)]);
    expect(rulesOf(stored("roles", "kube-system", "system:controller:cloud-provider"))).toEqual([R([""], ["configmaps"], ["create", "get", "list", "watch"])]);
    expect(rulesOf(stored("roles", "kube-system", "system:controller:token-cleaner"))).toEqual([R([""], ["secrets"], ["delete", "get", "list", "watch"]), EVENTS]);
    expect(rulesOf(stored("roles", "kube-public", "system:controller:bootstrap-signer"))).toEqual([
      R([""], ["configmaps"], READ),
      R([""], ["configmaps"], ["update"], ["cluster-info"]),
      EVENTS,
    ]);

    const reader = stored("rolebindings", "kube-system", "system::extension-apiserver-authentication-reader");
    expect(reader.roleRef).toEqual({ apiGroup: RBAC, kind: "Role", name: "extension-apiserver-authentication-reader" });
    expect(reader.subjects).toEqual([USER("system:kube-controller-manager"), USER("system:kube-scheduler")]);
    expect(metaOf(reader)).toEqual(DEFAULTS);
    const binding = (ns: string, name: string) => stored("rolebindings", ns, name);
    expect(binding("kube-system", "system::leader-locking-kube-controller-manager").subjects).toEqual([
      USER("system:kube-controller-manager"), SA("kube-controller-manager"), SA("leader-election-controller"),
    ]);
    expect(binding("kube-system", "system::leader-locking-kube-scheduler").subjects).toEqual([USER("system:kube-scheduler"), SA("kube-scheduler")]);
    for (const [ns, name, sa] of [
      ["kube-system", "system:controller:bootstrap-signer", "bootstrap-signer"],
      ["kube-system", "system:controller:cloud-provider", "cloud-provider"],
      ["kube-system", "system:controller:token-cleaner", "token-cleaner"],
      ["kube-public", "system:controller:bootstrap-signer", "bootstrap-signer"],
    ]) {
      expect(binding(ns, name).roleRef, `${ns}/${name}`).toEqual({ apiGroup: RBAC, kind: "Role", name });
      expect(binding(ns, name).subjects, `${ns}/${name}`).toEqual([SA(sa)]);
    }
  });
});

describe("bootstrap RBAC: reconciliation at every start", () => {
  it("puts back a removed kube rule and subject, keeps what an admin added, and leaves autoupdate \"false\" objects alone", async () => {
    await open();
    await bootstrap(registry);
    const clusterRoles = kindByPlural("clusterroles")!;
    const roles = kindByPlural("roles")!;
    const roleBindings = kindByPlural("rolebindings")!;
    const ADMIN_RULE = R([""], ["configmaps"], ["get"], ["admins-own"]);

    // an admin drops one of kube's rules and adds one of their own
    const scheduler = structuredClone(stored("clusterroles", "", "system:kube-scheduler"));
    const kubeRules = structuredClone(scheduler.rules);
    scheduler.rules = [...scheduler.rules.filter((r: any) => !r.resources?.includes("csistoragecapacities")), ADMIN_RULE];
    await registry.update(clusterRoles, "", "system:kube-scheduler", scheduler, OPTIONS);
    // and a Role's rule, and one of a binding's subjects, plus a subject of their own
    const reader = structuredClone(stored("roles", "kube-system", "extension-apiserver-authentication-reader"));
    reader.rules = [];
    await registry.update(roles, "kube-system", reader.metadata.name, reader, OPTIONS);
    const locking = structuredClone(stored("rolebindings", "kube-system", "system::leader-locking-kube-scheduler"));
    const kubeSubjects = structuredClone(locking.subjects);
    locking.subjects = [SA("my-scheduler")];
    await registry.update(roleBindings, "kube-system", locking.metadata.name, locking, OPTIONS);
    // an object the admin took over
    const node = structuredClone(stored("clusterroles", "", "system:node"));
    node.metadata.annotations["rbac.authorization.kubernetes.io/autoupdate"] = "false";
    node.rules = [R([""], ["pods"], ["get"])];
    await registry.update(clusterRoles, "", "system:node", node, OPTIONS);
    const nodeBefore = stored("clusterroles", "", "system:node");

    await bootstrap(registry); // the next start

    const reconciled = stored("clusterroles", "", "system:kube-scheduler").rules;
    expect(reconciled).toContainEqual(ADMIN_RULE);
    expect(reconciled).toContainEqual(R(["storage.k8s.io"], ["csistoragecapacities"], ["get"]));
    expect(reconciled).toContainEqual(R(["storage.k8s.io"], ["csistoragecapacities"], ["list"]));
    expect(reconciled).toContainEqual(R(["storage.k8s.io"], ["csistoragecapacities"], ["watch"]));
    expect(reconciled.slice(0, kubeRules.length - 1)).toEqual(kubeRules.filter((r: any) => !r.resources.includes("csistoragecapacities")));
    expect(stored("roles", "kube-system", "extension-apiserver-authentication-reader").rules).toEqual(
      ["get", "list", "watch"].map((v) => R([""], ["configmaps"], [v], ["extension-apiserver-authentication"])),
    );
    expect(stored("rolebindings", "kube-system", "system::leader-locking-kube-scheduler").subjects).toEqual([SA("my-scheduler"), ...kubeSubjects]);
    expect(stored("clusterroles", "", "system:node")).toEqual(nodeBefore);

    // a start with nothing to add writes nothing
    const rv = stored("clusterroles", "", "system:kube-scheduler").metadata.resourceVersion;
    await bootstrap(registry);
    expect(stored("clusterroles", "", "system:kube-scheduler").metadata.resourceVersion).toBe(rv);
  });

  it("puts back a removed bootstrap label, keeping the admin's labels", async () => {
    await open();
    await bootstrap(registry);
    const role = structuredClone(stored("clusterroles", "", "system:heapster"));
    role.metadata.labels = { team: "ops" };
    await registry.update(kindByPlural("clusterroles")!, "", role.metadata.name, role, OPTIONS);
    await bootstrap(registry);
    expect(stored("clusterroles", "", "system:heapster").metadata.labels).toEqual({ team: "ops", "kubernetes.io/bootstrapping": "rbac-defaults" });
  });
});

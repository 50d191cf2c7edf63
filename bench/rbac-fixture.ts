// The RBAC objects of the `get-rbac` scenario (issue 8): 1,000 Roles and 1,000 RoleBindings spread over a few
// namespaces and subjects, plus the one ServiceAccount the scenario authenticates as and the Role and
// RoleBinding that let it read ConfigMaps. Plain data, shared by in-process and API seeding.

export const READER_SA = "reader";
export const READER_ROLE = "configmap-reader";
export const READER_BINDING = "reader";
export const RBAC_FILLER_COUNT = 1000;

const RBAC_API = "rbac.authorization.k8s.io/v1";
const RBAC_GROUP = "rbac.authorization.k8s.io";

export interface SeedObject {
  /** Resource plural; the group follows from it (roles/rolebindings are rbac, the rest core). */
  plural: "namespaces" | "serviceaccounts" | "roles" | "rolebindings" | "configmaps";
  /** undefined for cluster-scoped objects. */
  namespace?: string;
  body: Record<string, unknown>;
}

/** The API path an object is POSTed to. */
export function collectionPath(o: SeedObject): string {
  if (o.plural === "namespaces") return "/api/v1/namespaces";
  const prefix = o.plural === "roles" || o.plural === "rolebindings" ? `/apis/${RBAC_API}` : "/api/v1";
  return `${prefix}/namespaces/${o.namespace}/${o.plural}`;
}

const pad = (i: number) => String(i).padStart(4, "0");

/**
 * Rules as teams write them. None grants `get` on arbitrary ConfigMaps, so the reader's only way in is its
 * own binding, and the bindings its groups reach (variants 0 and 2) are visited and rejected first.
 */
function rulesFor(i: number): Record<string, unknown>[] {
  switch (i % 4) {
    case 0: return [
      { apiGroups: [""], resources: ["pods", "pods/log", "services", "endpoints"], verbs: ["get", "list", "watch"] },
      { apiGroups: [""], resources: ["events"], verbs: ["list", "watch"] },
    ];
    case 1: return [
      { apiGroups: ["apps"], resources: ["deployments", "replicasets", "statefulsets"], verbs: ["get", "list", "watch", "create", "update", "patch", "delete"] },
      { apiGroups: ["apps"], resources: ["deployments/scale"], verbs: ["update", "patch"] },
    ];
    case 2: return [
      { apiGroups: [""], resources: ["secrets"], resourceNames: [`tls-${i}`, `db-${i}`], verbs: ["get"] },
      { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "create", "update"] },
    ];
    default: return [
      { apiGroups: ["batch"], resources: ["jobs", "cronjobs"], verbs: ["*"] },
      { apiGroups: [""], resources: ["configmaps"], resourceNames: [`app-config-${i}`], verbs: ["get", "update"] },
    ];
  }
}

/** Subjects: users, groups and ServiceAccounts; every 50th binding is to the namespace's SA group. */
function subjectsFor(i: number, namespace: string): Record<string, unknown>[] {
  if (i % 50 === 0) return [{ kind: "Group", apiGroup: RBAC_GROUP, name: `system:serviceaccounts:${namespace}` }];
  switch (i % 3) {
    case 0: return [{ kind: "User", apiGroup: RBAC_GROUP, name: `user-${i % 97}` }];
    case 1: return [{ kind: "Group", apiGroup: RBAC_GROUP, name: `group-${i % 23}` }, { kind: "User", apiGroup: RBAC_GROUP, name: `lead-${i % 11}` }];
    default: return [{ kind: "ServiceAccount", name: `sa-${i % 31}`, namespace }];
  }
}

/**
 * The namespaces the objects live in (`benchNamespace` first, where the reader is), then 1,000 filler Roles
 * and RoleBindings round-robin over them, then the reader's ServiceAccount, Role and RoleBinding.
 */
export function rbacFixture(benchNamespace: string): { namespaces: string[]; objects: SeedObject[] } {
  const namespaces = [benchNamespace, "team-a", "team-b", "team-c", "team-d"];
  const objects: SeedObject[] = [];
  for (let i = 0; i < RBAC_FILLER_COUNT; i++) {
    const ns = namespaces[i % namespaces.length];
    objects.push({ plural: "roles", namespace: ns, body: { apiVersion: RBAC_API, kind: "Role", metadata: { name: `role-${pad(i)}`, labels: { team: ns } }, rules: rulesFor(i) } });
    objects.push({
      plural: "rolebindings", namespace: ns,
      body: { apiVersion: RBAC_API, kind: "RoleBinding", metadata: { name: `rb-${pad(i)}`, labels: { team: ns } }, subjects: subjectsFor(i, ns), roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: `role-${pad(i)}` } },
    });
  }
  objects.push({ plural: "serviceaccounts", namespace: benchNamespace, body: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: READER_SA } } });
  objects.push({ plural: "roles", namespace: benchNamespace, body: { apiVersion: RBAC_API, kind: "Role", metadata: { name: READER_ROLE }, rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }] } });
  objects.push({
    plural: "rolebindings", namespace: benchNamespace,
    body: { apiVersion: RBAC_API, kind: "RoleBinding", metadata: { name: READER_BINDING }, subjects: [{ kind: "ServiceAccount", name: READER_SA, namespace: benchNamespace }], roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: READER_ROLE } },
  });
  return { namespaces, objects };
}

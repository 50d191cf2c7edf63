import { describe, expect, it } from "vitest";
import { clusterRole, type ClusterRole } from "./cluster-role";
import { clusterRoleBinding, type ClusterRoleBinding } from "./cluster-role-binding";
import { role, type Role } from "./role";
import { roleBinding, type RoleBinding } from "./role-binding";
import type { Schema } from "./schema/schema";
import { create, created, templateOf, update, variant } from "./validation-harness";

const RBAC = "rbac.authorization.k8s.io";
const invalid = (field: string, message: string) => ({ field, reason: "FieldValueInvalid", message });
const required = (field: string, detail?: string) => ({ field, reason: "FieldValueRequired", message: detail ? `Required value: ${detail}` : "Required value" });
const notSupported = (field: string, message: string) => ({ field, reason: "FieldValueNotSupported", message });

const baseRole = templateOf<Role>(role);
const baseClusterRole = templateOf<ClusterRole>(clusterRole);
const baseBinding = templateOf<RoleBinding>(roleBinding);
const baseClusterBinding = templateOf<ClusterRoleBinding>(clusterRoleBinding);

describe("Role and ClusterRole validation", () => {
  it("accepts the templates and any path-segment name, refusing '/' and '%' as kube does", () => {
    expect(create(role, baseRole).causes).toEqual([]);
    expect(create(clusterRole, baseClusterRole).causes).toEqual([]);
    expect(create(clusterRole, variant(baseClusterRole, (r) => { r.metadata.name = "system:controller:Job_Runner"; })).causes).toEqual([]);
    expect(create(role, variant(baseRole, (r) => { r.metadata.name = "a/b%c"; })).causes).toEqual([
      invalid("metadata.name", "Invalid value: \"a/b%c\": may not contain '/'"),
      invalid("metadata.name", "Invalid value: \"a/b%c\": may not contain '%'"),
    ]);
    expect(create(role, variant(baseRole, (r) => { r.metadata.name = ".."; })).causes).toEqual([
      invalid("metadata.name", "Invalid value: \"..\": may not be '..'"),
    ]);
  });

  it("requires verbs, and api groups plus resources on resource rules", () => {
    expect(create(role, variant(baseRole, (r) => { r.rules = [{ verbs: [] }, { verbs: ["get"], apiGroups: [""] }]; })).causes).toEqual([
      required("rules[0].verbs", "verbs must contain at least one value"),
      required("rules[0].apiGroups", "resource rules must supply at least one api group"),
      required("rules[0].resources", "resource rules must supply at least one resource"),
      required("rules[1].resources", "resource rules must supply at least one resource"),
    ]);
  });

  it("allows non-resource URLs only in cluster roles, and never mixed with resources", () => {
    const urls = (r: Role) => { r.rules = [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/logs/*"] }]; };
    expect(create(clusterRole, variant(baseClusterRole, urls)).causes).toEqual([]);
    expect(create(role, variant(baseRole, urls)).causes).toEqual([
      invalid("rules[0].nonResourceURLs", "Invalid value: []string{\"/healthz\", \"/logs/*\"}: namespaced rules cannot apply to non-resource URLs"),
    ]);
    const mixed = (r: Role) => { r.rules = [{ verbs: ["get"], nonResourceURLs: ["/metrics"], resources: ["pods"] }]; };
    expect(create(clusterRole, variant(baseClusterRole, mixed)).causes).toEqual([
      invalid("rules[0].nonResourceURLs", "Invalid value: []string{\"/metrics\"}: rules cannot apply to both regular resources and non-resource URLs"),
    ]);
    expect(create(role, variant(baseRole, mixed)).causes.map((c) => c.message.split(": ").pop())).toEqual([
      "namespaced rules cannot apply to non-resource URLs",
      "rules cannot apply to both regular resources and non-resource URLs",
    ]);
  });

  it("needs at least one valid selector in an aggregation rule", () => {
    const aggregated = (selectors: unknown) => variant(baseClusterRole, (r) => { r.aggregationRule = { clusterRoleSelectors: selectors as never }; r.rules = []; });
    expect(create(clusterRole, aggregated([{ matchLabels: { "rbac.example.com/aggregate-to-view": "true" } }])).causes).toEqual([]);
    expect(create(clusterRole, variant(baseClusterRole, (r) => { r.aggregationRule = {}; })).causes).toEqual([
      required("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil"),
    ]);
    expect(create(clusterRole, aggregated([{ matchExpressions: [{ key: "tier", operator: "Near", values: ["x"] }] }])).causes).toEqual([
      invalid("aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator", "Invalid value: \"Near\": not a valid selector operator"),
      invalid("aggregationRule.clusterRoleSelectors[0]", "Invalid value: \"null\": invalid label selector."),
    ]);
  });

  it("keeps rules as sent: no defaults", () => {
    expect(created<Role>(role, baseRole)).toEqual(baseRole);
  });
});

describe("RoleBinding and ClusterRoleBinding", () => {
  it("defaults the role's API group and User/Group subjects' API group, not a ServiceAccount's", () => {
    const b = created<RoleBinding>(roleBinding, variant(baseBinding, (rb) => {
      rb.roleRef = { kind: "Role", name: "pod-reader" } as RoleBinding["roleRef"];
      rb.subjects = [{ kind: "User", name: "jane" }, { kind: "Group", name: "devs" }, { kind: "ServiceAccount", name: "builder" }];
    }));
    expect(b.roleRef).toEqual({ kind: "Role", name: "pod-reader", apiGroup: RBAC });
    expect(b.subjects).toEqual([
      { kind: "User", name: "jane", apiGroup: RBAC },
      { kind: "Group", name: "devs", apiGroup: RBAC },
      { kind: "ServiceAccount", name: "builder" },
    ]);
  });

  it("checks the role reference", () => {
    expect(create(roleBinding, variant(baseBinding, (rb) => { rb.roleRef = { apiGroup: "example.com", kind: "Pod", name: "" }; })).causes).toEqual([
      notSupported("roleRef.apiGroup", `Unsupported value: "example.com": supported values: "${RBAC}"`),
      notSupported("roleRef.kind", "Unsupported value: \"Pod\": supported values: \"Role\", \"ClusterRole\""),
      required("roleRef.name"),
    ]);
    expect(create(clusterRoleBinding, variant(baseClusterBinding, (b) => { b.roleRef = { apiGroup: RBAC, kind: "Role", name: "a/b" }; })).causes).toEqual([
      notSupported("roleRef.kind", "Unsupported value: \"Role\": supported values: \"ClusterRole\""),
      invalid("roleRef.name", "Invalid value: \"a/b\": may not contain '/'"),
    ]);
    expect(create(roleBinding, variant(baseBinding, (rb) => { rb.roleRef.kind = "ClusterRole"; })).causes).toEqual([]);
  });

  it("checks each subject's kind, name, API group and (cluster-wide) namespace", () => {
    const subjects = (list: unknown[]) => (b: RoleBinding) => { b.subjects = list as RoleBinding["subjects"]; };
    expect(create(roleBinding, variant(baseBinding, subjects([
      { kind: "Robot", name: "r2" },
      { kind: "User", name: "", apiGroup: "example.com" },
      { kind: "ServiceAccount", name: "Bad_Name", apiGroup: "v1" },
      { kind: "ServiceAccount", name: "ok" },
    ]))).causes).toEqual([
      notSupported("subjects[0].kind", "Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\""),
      required("subjects[1].name"),
      notSupported("subjects[1].apiGroup", `Unsupported value: "example.com": supported values: "${RBAC}"`),
      invalid(
        "subjects[2].name",
        "Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
      notSupported("subjects[2].apiGroup", "Unsupported value: \"v1\": supported values: \"\""),
    ]);
    const serviceAccount = subjects([{ kind: "ServiceAccount", name: "builder" }]);
    expect(create(roleBinding, variant(baseBinding, serviceAccount)).causes).toEqual([]);
    expect(create(clusterRoleBinding, variant(baseClusterBinding, serviceAccount)).causes).toEqual([required("subjects[0].namespace")]);
    expect(create(clusterRoleBinding, variant(baseClusterBinding, subjects([{ kind: "ServiceAccount", name: "builder", namespace: "ci" }]))).causes).toEqual([]);
  });

  it("refuses any change of roleRef on update, printing the new reference as kube does", () => {
    const old = created<RoleBinding>(roleBinding, baseBinding);
    expect(update(roleBinding, old, variant(old, (b) => { b.subjects = [{ kind: "Group", name: "devs" }]; })).causes).toEqual([]);
    expect(update(roleBinding, old, variant(old, (b) => { b.roleRef.name = "other"; })).causes).toEqual([
      invalid("roleRef", `Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"Role", Name:"other"}: cannot change roleRef`),
    ]);
    // Defaulting runs first, so leaving out the group it was created with is no change.
    expect(update(roleBinding, old, variant(old, (b) => { delete (b.roleRef as Partial<RoleBinding["roleRef"]>).apiGroup; })).causes).toEqual([]);
    const oldCluster = created<ClusterRoleBinding>(clusterRoleBinding, baseClusterBinding);
    expect(update(clusterRoleBinding, oldCluster, variant(oldCluster, (b) => { b.roleRef.name = "admin"; })).causes.map((c) => c.field)).toEqual(["roleRef"]);
  });
});

describe("RBAC schemas", () => {
  const fields = (s: Schema | undefined): string[] => (s?.type === "object" ? Object.keys(s.properties).sort() : []);
  const at = (s: Schema | undefined, key: string): Schema | undefined => {
    const f = s?.type === "object" ? s.properties[key] : undefined;
    return f?.type === "array" ? f.items : f;
  };

  it("have rbac.authorization.k8s.io/v1's fields exactly (k8s.io/api 1.32 generated.proto)", () => {
    expect(fields(role.schema)).toEqual(["apiVersion", "kind", "metadata", "rules"]);
    expect(fields(at(role.schema, "rules"))).toEqual(["apiGroups", "nonResourceURLs", "resourceNames", "resources", "verbs"]);
    expect(fields(clusterRole.schema)).toEqual(["aggregationRule", "apiVersion", "kind", "metadata", "rules"]);
    expect(fields(at(clusterRole.schema, "aggregationRule"))).toEqual(["clusterRoleSelectors"]);
    for (const kind of [roleBinding, clusterRoleBinding]) {
      expect(fields(kind.schema)).toEqual(["apiVersion", "kind", "metadata", "roleRef", "subjects"]);
      expect(fields(at(kind.schema, "roleRef"))).toEqual(["apiGroup", "kind", "name"]);
      expect(fields(at(kind.schema, "subjects"))).toEqual(["apiGroup", "kind", "name", "namespace"]);
    }
  });

  it("replace rules and subjects whole in a strategic merge patch (atomic lists, no merge keys)", () => {
    for (const [kind, list] of [[role, "rules"], [clusterRole, "rules"], [roleBinding, "subjects"], [clusterRoleBinding, "subjects"]] as const) {
      const s = kind.schema?.type === "object" ? kind.schema.properties[list] : undefined;
      expect(s, `${kind.kind}.${list}`).toMatchObject({ type: "array", listType: "atomic" });
      expect(s?.type === "array" && s.mergeKey).toBeFalsy();
    }
  });
});

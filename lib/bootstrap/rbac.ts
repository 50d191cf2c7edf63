// kube-apiserver's default RBAC policy (the rbac/bootstrap-roles post-start hook): the default ClusterRoles
// and ClusterRoleBindings are created when missing; ones a user has changed are left alone.
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from "../authz/bootstrap-policy";
import { isStatusError } from "../status";
import { kindByPlural } from "../kinds";
import type { Registry } from "../registry/registry";

const OPTIONS = { dryRun: false, fieldValidation: "Ignore" } as const;

export async function bootstrapRbac(registry: Registry): Promise<void> {
  const pairs: [string, { metadata: { name: string } }[]][] = [
    ["clusterroles", bootstrapClusterRoles() as { metadata: { name: string } }[]],
    ["clusterrolebindings", bootstrapClusterRoleBindings() as { metadata: { name: string } }[]],
  ];
  for (const [plural, objects] of pairs) {
    const kind = kindByPlural(plural)!;
    for (const obj of objects) {
      if (registry.store.objects.get({ resource: plural, namespace: "", name: obj.metadata.name })) continue;
      try {
        await registry.create(kind, undefined, structuredClone(obj), OPTIONS);
      } catch (err) {
        if (!(isStatusError(err) && err.code === 409)) throw err; // another replica made it first
      }
    }
  }
}

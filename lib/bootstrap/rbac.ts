// kube-apiserver's rbac/bootstrap-roles post-start hook: the default ClusterRoles, ClusterRoleBindings and
// the Roles and RoleBindings of kube-system and kube-public are created when missing and reconciled when
// present (missing rules, subjects, labels and annotations added; autoupdate "false" objects left alone).
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapNamespaceRoleBindings,
  bootstrapNamespaceRoles,
} from "../authz/bootstrap-policy";
import type { ClusterRole, RoleBinding } from "../authz/rbac-objects";
import { kindByPlural } from "../kinds";
import type { Registry } from "../registry/registry";
import { isStatusError } from "../status";
import { reconcileBinding, reconcileRole } from "./rbac-reconciliation";

const OPTIONS = { dryRun: false, fieldValidation: "Ignore" } as const;

type Named = { metadata: { name: string; namespace?: string; resourceVersion?: string } };

/** A 409 means another replica wrote first; its result is the same policy, so it is fine. */
async function tolerateConflict(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!(isStatusError(err) && err.code === 409)) throw err;
  }
}

export async function bootstrapRbac(registry: Registry): Promise<void> {
  const roles: [string, Named[]][] = [
    ["clusterroles", bootstrapClusterRoles() as Named[]],
    ["roles", bootstrapNamespaceRoles() as Named[]],
  ];
  const bindings: [string, Named[]][] = [
    ["clusterrolebindings", bootstrapClusterRoleBindings() as Named[]],
    ["rolebindings", bootstrapNamespaceRoleBindings() as Named[]],
  ];
  // One kind after the other (roles before the bindings that name them); a kind's objects at once, so their
  // writes share commits (group commit) instead of one fsync each: 150 of them took about 2 s on a first start.
  for (const [plural, objects] of [...roles, ...bindings]) {
    const kind = kindByPlural(plural)!;
    const isBinding = plural.endsWith("bindings");
    await Promise.all(objects.map(async (expected) => {
      const namespace = expected.metadata.namespace ?? "";
      const name = expected.metadata.name;
      const stored = registry.store.objects.get({ resource: plural, namespace, name })?.object as Named | undefined;
      if (!stored) {
        await tolerateConflict(() => registry.create(kind, namespace || undefined, structuredClone(expected), OPTIONS));
        return;
      }
      const update = (body: Named) => registry.update(kind, namespace, name, body, OPTIONS);
      if (!isBinding) {
        const next = reconcileRole(expected as unknown as ClusterRole, stored as unknown as ClusterRole);
        if (next) await tolerateConflict(() => update(next as unknown as Named));
        return;
      }
      const action = reconcileBinding(expected as unknown as RoleBinding, stored as unknown as RoleBinding);
      if (!action) return;
      if ("update" in action) {
        await tolerateConflict(() => update(action.update as unknown as Named));
      } else {
        await tolerateConflict(async () => {
          await registry.delete(kind, namespace, name, { dryRun: false });
          await registry.create(kind, namespace || undefined, action.recreate, OPTIONS);
        });
      }
    }));
  }
}

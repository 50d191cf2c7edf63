// The namespaces the server makes sure exist: kube-apiserver's system namespaces, plus every namespace that
// holds objects but has no Namespace object (data written before namespaces were objects opens unchanged).
import { isStatusError } from "../status";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { Registry } from "../registry/registry";

/** kube-apiserver's system namespaces (its SystemNamespaces plus `kube-node-lease`). */
export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** Creates the missing ones as the server itself; returns the names it created. */
export async function bootstrapNamespaces(registry: Registry): Promise<string[]> {
  const cache = registry.store.objects;
  await cache.catchUp();
  const wanted = new Set(SYSTEM_NAMESPACES);
  for (const o of cache.allObjects()) if (o.key.namespace) wanted.add(o.key.namespace);
  const missing = [...wanted].filter((name) => !cache.get({ resource: namespaceKind.plural, namespace: "", name }));
  // At once: the creates share commits.
  const made = await Promise.all(missing.map(async (name) => {
    try {
      await registry.create(namespaceKind, undefined, { metadata: { name } }, { dryRun: false, fieldValidation: "Ignore" });
      return name;
    } catch (err) {
      // Another replica created it first.
      if (isStatusError(err) && err.code === 409) return undefined;
      throw err;
    }
  }));
  return made.filter((name): name is string => name !== undefined);
}

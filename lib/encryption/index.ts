// lib/encryption: encryption at rest for the store, configured by kube-apiserver's EncryptionConfiguration
// (ENCRYPTION_CONFIG). lib/storage calls the transformer for every value it writes or reads; the watch
// cache and the API only ever see plaintext.
import path from "node:path";
import type { AnyKind } from "../kinds/types";
import { loadEncryptionConfiguration } from "./encryption-config";
import { EncryptionTransformer, type GroupsOf } from "./encryption-transformer";

export { EncryptionConfigError, loadEncryptionConfiguration, parseEncryptionConfiguration } from "./encryption-config";
export type { GroupResource, Provider, ResourceRule } from "./encryption-config";
export { EncryptionTransformer, storageKeyOf, storedPrefix, type GroupsOf } from "./encryption-transformer";

/**
 * The group-resources of each kind's store resource (its own, and e.g. security.openshift.io for SCCs). A store
 * resource with a dot is a custom resource's `<plural>.<group>` (built-in plurals have none): known from its name
 * alone, so values written before a restart are read before its CustomResourceDefinition is served again.
 */
export function groupsOfKinds(kinds: AnyKind[]): GroupsOf {
  const map = new Map(kinds.map((k) => [k.plural, [k.group ?? "", ...(k.alsoServedBy ?? []).map((n) => n.group)].map((group) => ({ group, resource: k.plural }))]));
  return (resource) => {
    const known = map.get(resource);
    if (known) return known;
    const dot = resource.indexOf(".");
    return dot > 0 ? [{ group: resource.slice(dot + 1), resource: resource.slice(0, dot) }] : undefined;
  };
}

/**
 * The transformer ENCRYPTION_CONFIG asks for, or undefined when it is unset. Throws EncryptionConfigError
 * (naming the file and every problem, never a key) when the file is missing or invalid.
 */
export function encryptionFromEnv(env: Readonly<Record<string, string | undefined>>, groupsOf: GroupsOf): EncryptionTransformer | undefined {
  const file = env.ENCRYPTION_CONFIG?.trim();
  if (!file) return undefined;
  return new EncryptionTransformer(loadEncryptionConfiguration(path.resolve(file)), groupsOf);
}

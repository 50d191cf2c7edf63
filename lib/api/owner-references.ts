// kube-apiserver (1.20+) drops repeated entries of metadata.ownerReferences from create, update and patch
// bodies and warns the client, naming each dropped entry's UID. An entry is a repeat only when an earlier one
// with its UID is equal to it in every field (a same-UID entry that differs is kept).

const BEFORE = ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ";
const AFTER = ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ";

const FIELDS = ["apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"] as const;
const same = (a: Record<string, unknown>, b: Record<string, unknown>) => FIELDS.every((f) => a[f] === b[f]);

/**
 * Removes repeated owner references from `value` (an object body) in place; returns kube's warning, or
 * undefined when there were none. `afterAdmission` picks the wording kube uses for patches.
 */
export function dedupOwnerReferences(value: unknown, afterAdmission: boolean): string | undefined {
  const meta = (value as { metadata?: { ownerReferences?: unknown } } | null)?.metadata;
  const refs = meta?.ownerReferences;
  if (!Array.isArray(refs) || refs.length < 2) return undefined;
  const kept: Record<string, unknown>[] = [];
  const duplicates: string[] = [];
  for (const ref of refs as Record<string, unknown>[]) {
    if (ref && typeof ref === "object" && kept.some((k) => k.uid === ref.uid && same(k, ref))) duplicates.push(String(ref.uid ?? ""));
    else kept.push(ref);
  }
  if (!duplicates.length) return undefined;
  meta!.ownerReferences = kept;
  return (afterAdmission ? AFTER : BEFORE) + duplicates.join(", ");
}

// Namespaces this browser has used or typed, for the switcher when the user may not list namespaces (kube
// answers 403 to GET /api/v1/namespaces for anyone bound only inside namespaces). Kept in localStorage,
// newest first; each is checked with a rules review before it is offered.

const STORAGE_KEY = "cc-known-namespaces";
export const MAX_KNOWN_NAMESPACES = 12;

/** A namespace name as kube validates it (DNS-1123 label). */
export function isNamespaceName(value: string): boolean {
  return value.length > 0 && value.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(value);
}

/** `list` with `namespace` moved to the front, invalid names dropped, at most `max` entries. */
export function withKnownNamespace(list: readonly string[], namespace: string, max = MAX_KNOWN_NAMESPACES): string[] {
  const rest = list.filter((n) => n !== namespace && isNamespaceName(n));
  return (isNamespaceName(namespace) ? [namespace, ...rest] : rest).slice(0, max);
}

export function readKnownNamespaces(storage: Pick<Storage, "getItem"> | undefined = safeStorage()): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === "string" && isNamespaceName(n)).slice(0, MAX_KNOWN_NAMESPACES) : [];
  } catch {
    return [];
  }
}

export function rememberKnownNamespace(namespace: string, storage: Pick<Storage, "getItem" | "setItem"> | undefined = safeStorage()): void {
  if (!storage || !isNamespaceName(namespace)) return;
  const list = readKnownNamespaces(storage);
  if (list[0] === namespace) return;
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(withKnownNamespace(list, namespace)));
  } catch {
    // storage full or unavailable: the switcher only offers fewer namespaces
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

// Pinned favourites: objects and lists the user pins, shown in the sidebar and first in the palette. Kept in
// localStorage per user (the key names the signed-in user, so two people sharing a browser keep their own),
// in the order pinned. Pure functions here; `components/layout/use-favourites.ts` is the hook.
import { consoleKind } from "./console-kinds";
import { listHref, objectHref } from "./console-routes";
import { kindTitle } from "./navigation";

/** A pinned list (no name) or object. `namespace` absent: all namespaces, or a cluster-scoped kind. */
export interface Favourite {
  plural: string;
  namespace?: string;
  name?: string;
}

export const MAX_FAVOURITES = 50;

export function favouritesStorageKey(user: string): string {
  return `cc-favourites:${user}`;
}

export function favouriteId(f: Favourite): string {
  return `${f.plural}/${f.namespace ?? ""}/${f.name ?? ""}`;
}

export function sameFavourite(a: Favourite, b: Favourite): boolean {
  return favouriteId(a) === favouriteId(b);
}

/** Pinned → unpinned, unpinned → pinned (at the end). */
export function toggleFavourite(list: readonly Favourite[], f: Favourite): Favourite[] {
  return list.some((x) => sameFavourite(x, f)) ? list.filter((x) => !sameFavourite(x, f)) : [...list, normalise(f)].slice(-MAX_FAVOURITES);
}

function normalise(f: Favourite): Favourite {
  return { plural: f.plural, ...(f.namespace ? { namespace: f.namespace } : {}), ...(f.name ? { name: f.name } : {}) };
}

/** Parses what storage holds, dropping anything malformed or naming a kind this build does not serve. */
export function parseFavourites(text: string | null): Favourite[] {
  try {
    const parsed: unknown = JSON.parse(text ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((f): f is Favourite => !!f && typeof f === "object" && typeof (f as Favourite).plural === "string" && !!consoleKind((f as Favourite).plural))
      .filter((f) => (f.namespace === undefined || typeof f.namespace === "string") && (f.name === undefined || typeof f.name === "string"))
      .map(normalise)
      .slice(0, MAX_FAVOURITES);
  } catch {
    return [];
  }
}

export function favouriteHref(f: Favourite): string {
  const kind = consoleKind(f.plural)!;
  return f.name ? objectHref(kind, f.namespace, f.name) : listHref(kind, f.namespace);
}

/** "nginx" / "Pods"; `detail` says where: "Pod in shop", "in all namespaces". */
export function favouriteLabel(f: Favourite): { title: string; detail: string } {
  const kind = consoleKind(f.plural)!;
  if (f.name) return { title: f.name, detail: f.namespace ? `${kind.kind} in ${f.namespace}` : kind.kind };
  return { title: kindTitle(kind), detail: kind.namespaced ? (f.namespace ? `in ${f.namespace}` : "in all namespaces") : "cluster" };
}

// The console's own URLs (deep links). Every view is addressable, so a reload or a shared link lands on
// the same view; filters and sort ride in the query string.
import type { AnyKind } from "../kinds";
import { kindSegment } from "./custom-kinds";

export const ALL_NAMESPACES = "";

const seg = encodeURIComponent;

export function listHref(kind: AnyKind, namespace?: string): string {
  return kind.namespaced && namespace ? `/namespaces/${seg(namespace)}/${kindSegment(kind)}` : `/${kindSegment(kind)}`;
}

export function objectHref(kind: AnyKind, namespace: string | undefined, name: string): string {
  return kind.namespaced && namespace ? `/namespaces/${seg(namespace)}/${kindSegment(kind)}/${seg(name)}` : `/${kindSegment(kind)}/${seg(name)}`;
}

/** The query parameter that tells an object's page the console has just created it. */
export const CREATED_PARAM = "created";

/** An object's page right after the console created it: the page says so once (`?created=1`). */
export function createdHref(objectPageHref: string): string {
  return `${objectPageHref}${objectPageHref.includes("?") ? "&" : "?"}${CREATED_PARAM}=1`;
}

export function createHref(kind: AnyKind, namespace?: string): string {
  return `/create/${kindSegment(kind)}${kind.namespaced && namespace ? `?namespace=${seg(namespace)}` : ""}`;
}

/** The namespace live view; without a namespace, the overview of all namespaces. */
export function namespaceHref(namespace?: string): string {
  return namespace ? `/namespaces/${seg(namespace)}` : "/";
}

/** Where the namespace switcher goes from the current path: the same view in another namespace. */
export function switchNamespaceHref(pathname: string, search: string, namespace: string): string {
  const parts = pathname.split("/").filter(Boolean);
  let rest: string[];
  if (parts[0] === "namespaces" && parts.length >= 2) rest = parts.slice(2);
  else rest = parts;
  // An object page names one object; in another namespace show the list of its kind instead.
  if (rest.length >= 2 && rest[0] !== "create") rest = rest.slice(0, 1);
  const query = search && rest.length === 1 ? search : "";
  if (rest[0] === "create") {
    const params = new URLSearchParams(search);
    if (namespace) params.set("namespace", namespace);
    else params.delete("namespace");
    const q = params.toString();
    return `/${rest.join("/")}${q ? `?${q}` : ""}`;
  }
  const base = namespace ? `/namespaces/${seg(namespace)}` : "";
  const tail = rest.length ? `/${rest.join("/")}` : "";
  return (base + tail || "/") + query;
}

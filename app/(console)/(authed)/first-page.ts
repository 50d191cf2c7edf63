// The first rows of a list, read on the server while the page renders, so a big list shows rows in the
// page's HTML instead of after the browser has loaded the console and fetched every object. The read is the
// user's own: the request goes through the API pipeline in this process with the browser's session cookie
// (authentication, flow control, authorization and audit as for any list). The browser still lists and
// watches the whole collection; these rows stand in until that list arrives.
import { headers } from "next/headers";
import { collectionPath } from "@/lib/client/resource-path";
import { maskIfSecret } from "@/lib/client/secret-mask";
import type { KubeObject } from "@/lib/kinds";
import { kindAt } from "./page-params";
import { apiRoute } from "@/lib/server/route";
import type { FirstPage } from "@/components/resource-table/first-page";

/** Enough rows to fill a tall screen (34 px each) with some to scroll. */
export const FIRST_PAGE_ROWS = 60;

type Search = Record<string, string | string[] | undefined>;

/**
 * The list view shows rows in name order unless the URL filters or sorts them (q, l, sort): only then is the
 * API's first page (in name order) the list's first rows. Events are shown newest first.
 */
export function firstPageFits(kindName: string, search: Search): boolean {
  if (kindName === "Event") return false;
  if (search.q || search.l) return false;
  return search.sort === undefined || (search.sort === "Name" && search.desc !== "1");
}

export async function firstPage(plural: string, namespace: string | undefined, search: Search): Promise<FirstPage | undefined> {
  const kind = await kindAt(plural);
  if (!kind || !firstPageFits(kind.kind, search)) return undefined;
  const cookie = (await headers()).get("cookie");
  if (!cookie) return undefined;
  const path = `${collectionPath(kind, kind.namespaced ? namespace : undefined)}?limit=${FIRST_PAGE_ROWS}`;
  try {
    const response = await apiRoute(new Request(`https://console.internal${path}`, { headers: { cookie, accept: "application/json", "user-agent": "cluster-core-console (first rows)" } }));
    if (!response.ok) return undefined;
    const body = (await response.json()) as { items?: KubeObject[]; metadata?: { remainingItemCount?: number; continue?: string } };
    const items = (body.items ?? []).map((item) => {
      const { managedFields: _dropped, ...metadata } = item.metadata ?? {};
      const stripped = { ...item, metadata } as KubeObject;
      // A Secret's values stay out of the page's HTML (its last-applied manifest included).
      return maskIfSecret(kind, stripped);
    });
    const remaining = body.metadata?.remainingItemCount ?? (body.metadata?.continue ? undefined : 0);
    return { items, total: remaining === undefined ? undefined : items.length + remaining, renderedAt: Date.now() };
  } catch {
    // The browser's own list reports what went wrong.
    return undefined;
  }
}

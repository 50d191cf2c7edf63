// The first rows of a list as the server read them while rendering the page (see
// app/(console)/(authed)/first-page.ts): shown until the browser's own list of the whole collection arrives.
import type { KubeObject } from "@/lib/kinds";

export interface FirstPage {
  /** The list's first objects in name order (managedFields dropped; a Secret's values blanked). */
  items: KubeObject[];
  /** How many objects the whole list holds (the first page plus kube's remainingItemCount), when known. */
  total?: number;
  /** The server's clock when it read them: ages render from it until the page is live, so the HTML and the browser's first render agree. */
  renderedAt: number;
}

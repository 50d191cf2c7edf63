// The custom kinds the server serves now, read while a console page renders: aggregated discovery and (when the
// user may read them) the CRDs' printer columns, through the API pipeline in this process with the browser's
// session cookie (as first-page.ts reads a list). Once per request (React's cache).
import { headers } from "next/headers";
import { cache } from "react";
import {
  AGGREGATED_DISCOVERY_ACCEPT, customKindsFromDiscovery, withPrinterColumns, type CrdColumnsSource, type CustomKindInfo, type DiscoveryList,
} from "@/lib/client/custom-kinds";
import { apiRoute } from "@/lib/server/route";

async function read<T>(path: string, cookie: string, accept: string): Promise<T | undefined> {
  try {
    const response = await apiRoute(new Request(`https://console.internal${path}`, { headers: { cookie, accept, "user-agent": "cluster-core-console (kinds)" } }));
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

export const servedCustomKinds = cache(async (): Promise<CustomKindInfo[]> => {
  const cookie = (await headers()).get("cookie");
  if (!cookie) return [];
  const [discovery, crds] = await Promise.all([
    read<DiscoveryList>("/apis", cookie, AGGREGATED_DISCOVERY_ACCEPT),
    read<{ items?: CrdColumnsSource[] }>("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", cookie, "application/json"),
  ]);
  return withPrinterColumns(customKindsFromDiscovery(discovery ?? {}), crds?.items ?? []);
});

"use client";
// Keeps the console's custom kinds (lib/client/console-kinds.ts) live: seeded by the server's render, then from
// aggregated discovery in the browser. When the user may list CRDs, a background watch on them tells when to
// ask discovery again (a CRD Established, changed or gone; asked every second until discovery agrees with the
// CRDs, since discovery follows a CRD a moment after its watch event) and gives the printer columns; otherwise
// discovery is asked every few seconds.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { apiRequest } from "@/lib/client/api-client";
import { seedCustomKinds, setCustomKinds } from "@/lib/client/console-kinds";
import {
  AGGREGATED_DISCOVERY_ACCEPT, customKindsFromDiscovery, withPrinterColumns, type CrdColumnsSource, type CustomKindInfo, type DiscoveryList,
} from "@/lib/client/custom-kinds";
import { queryKeys } from "@/lib/client/query-keys";
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByPlural, type KubeObject } from "@/lib/kinds";

const crdKind = kindByPlural("customresourcedefinitions");

/** The served `<plural>.<group>` a CRD stands for once Established (its name), or undefined. */
function establishedName(crd: KubeObject): string | undefined {
  const conditions = (crd.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
  const established = conditions.some((c) => c.type === "Established" && c.status === "True");
  const terminating = conditions.some((c) => c.type === "Terminating" && c.status === "True") || !!crd.metadata.deletionTimestamp;
  return established && !terminating ? crd.metadata.name : undefined;
}

export function CustomKindsProvider({ initial }: { initial: CustomKindInfo[] }) {
  const seeded = useRef(false);
  if (!seeded.current) {
    // Before any view renders, so the server's HTML and the first browser render agree.
    seeded.current = true;
    seedCustomKinds(initial);
  }
  const crds = useResourceList(crdKind, {}, { background: true, enabled: !!crdKind });
  const crdItems = useMemo(() => (crds.data ? [...crds.data.items.values()] : undefined), [crds.data]);
  const readable = !!crdItems;
  const wanted = useMemo(() => (crdItems ? crdItems.map(establishedName).filter((n): n is string => !!n).sort().join(",") : undefined), [crdItems]);

  const discovery = useQuery({
    queryKey: queryKeys.discovery(),
    queryFn: ({ signal }) => apiRequest<DiscoveryList>("/apis", { accept: AGGREGATED_DISCOVERY_ACCEPT, signal }),
    refetchOnWindowFocus: false,
    refetchInterval: (q) => {
      if (!readable) return 5_000;
      const served = customKindsFromDiscovery(q.state.data ?? {}).map((k) => `${k.plural}.${k.group}`).sort().join(",");
      return served === wanted ? 60_000 : 1_000;
    },
  });
  const { refetch } = discovery;
  // A CRD changed: discovery may have changed too.
  useEffect(() => {
    if (wanted !== undefined) void refetch();
  }, [wanted, refetch]);

  useEffect(() => {
    // Wait for the CRDs (when readable) so printer columns do not come and go.
    if (!discovery.data || (crds.isLoading && !crds.error)) return;
    setCustomKinds(withPrinterColumns(customKindsFromDiscovery(discovery.data), (crdItems ?? []) as CrdColumnsSource[]));
  }, [discovery.data, crdItems, crds.isLoading, crds.error]);
  return null;
}

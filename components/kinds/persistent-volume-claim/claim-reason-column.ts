"use client";
// The claims list's Reason column: why each Pending claim waits, from the binder's Events in the list's scope
// (one Events list and watch for the whole list, shared with any view that lists the same Events; never a
// request per row). The cell holds the headline, its tooltip the binder's message.
import { useMemo } from "react";
import type { ColumnView } from "@/lib/client/list-rows";
import { objectKey, type ListState } from "@/lib/client/list-state";
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByPlural, type AnyKind } from "@/lib/kinds";
import { claimPendingReasons } from "./claim-pending-reason";

const eventKind = kindByPlural("events");

/** The column, for a claims list (undefined for any other kind: nothing is listed then). */
export function useClaimReasonColumn(kind: AnyKind, namespace: string | undefined, claims: ListState | undefined): ColumnView | undefined {
  const isClaims = kind.kind === "PersistentVolumeClaim";
  const events = useResourceList(eventKind, { namespace }, { enabled: isClaims, background: true });
  const reasons = useMemo(
    () => (isClaims && claims && events.data ? claimPendingReasons(claims.items.values(), events.data.items.values()) : undefined),
    [isClaims, claims, events.data],
  );
  return useMemo(
    () =>
      isClaims
        ? {
            id: "Reason",
            name: "Reason",
            sortBy: "cell",
            // Room for the whole headline (`Storage class "fast-ssd" not found`); rows are one line high.
            width: "minmax(17rem,2fr)",
            cell: (obj) => reasons?.get(objectKey(obj))?.headline ?? "",
            title: (obj) => {
              const reason = reasons?.get(objectKey(obj));
              return reason ? `${reason.reason}: ${reason.message}` : undefined;
            },
          }
        : undefined,
    [isClaims, reasons],
  );
}

"use client";
// A view of one kind, told the kind at its route segment (built-in, or a custom kind the server serves now). A
// custom kind can stop being served while its page is open (its CRD deleted): the page then says so.
import type { ReactNode } from "react";
import { useConsoleKind } from "@/lib/client/use-console-kinds";
import type { AnyKind } from "@/lib/kinds";
import { StateMessage } from "../ui/state-message";

export function KindGate({ plural, children }: { plural: string; children: (kind: AnyKind) => ReactNode }) {
  const kind = useConsoleKind(plural);
  if (!kind) return <StateMessage title={`The server no longer serves ${plural}`} />;
  return <>{children(kind)}</>;
}

// Shared parsing of console route params: an unknown kind (or a kind used at the wrong scope) is a 404.
import { notFound } from "next/navigation";
import { kindByPlural, type AnyKind } from "@/lib/kinds";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function kindOr404(plural: string, scope?: "namespaced" | "cluster"): AnyKind {
  const kind = kindByPlural(plural);
  if (!kind) notFound();
  if (scope === "namespaced" && !kind.namespaced) notFound();
  if (scope === "cluster" && kind.namespaced) notFound();
  return kind;
}

export const decode = (segment: string) => decodeURIComponent(segment);

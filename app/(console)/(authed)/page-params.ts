// Shared parsing of console route params: an unknown kind (or a kind used at the wrong scope) is a 404. A
// built-in kind's segment is its plural; a custom kind's is `<plural>.<group>`, looked up in what the server
// serves now (served-custom-kinds.ts).
import { notFound } from "next/navigation";
import { kindByPlural, type AnyKind } from "@/lib/kinds";
import { consoleKindOf, parseKindSegment } from "@/lib/client/custom-kinds";
import { servedCustomKinds } from "./served-custom-kinds";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The kind at a route segment, or undefined. */
export async function kindAt(segment: string): Promise<AnyKind | undefined> {
  const { plural, group } = parseKindSegment(segment);
  if (group === undefined) return kindByPlural(plural);
  const info = (await servedCustomKinds()).find((k) => k.plural === plural && k.group === group);
  return info ? consoleKindOf(info) : undefined;
}

export async function kindOr404(segment: string, scope?: "namespaced" | "cluster"): Promise<AnyKind> {
  const kind = await kindAt(segment);
  if (!kind) notFound();
  if (scope === "namespaced" && !kind.namespaced) notFound();
  if (scope === "cluster" && kind.namespaced) notFound();
  return kind;
}

/**
 * The kind a page's title names: a custom kind is known only to a signed-in user (discovery is read as them), so a
 * signed-out visit gets a title from the segment and the page itself sends them to sign in.
 */
export async function titleKind(segment: string): Promise<AnyKind> {
  const kind = await kindAt(segment);
  if (kind) return kind;
  if (parseKindSegment(segment).group === undefined) notFound();
  return { kind: parseKindSegment(segment).plural } as AnyKind;
}

export const decode = (segment: string) => decodeURIComponent(segment);

import type { Metadata } from "next";
import { DeletedObjectsView } from "@/components/history/deleted-objects-view";
import { kindTitle } from "@/lib/client/navigation";
import { kindOr404, titleKind, type SearchParams } from "../../../page-params";
import { requireSession } from "../../../require-session";

type Params = Promise<{ plural: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural } = await params;
  return { title: `Deleted ${kindTitle(await titleKind(plural))}` };
}

/** A kind's deleted objects (`?namespace=` for one namespace), kept by the object history. */
export default async function DeletedObjectsPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural } = await params;
  const search = await searchParams;
  await requireSession(`/history/deleted/${plural}`, search);
  await kindOr404(plural);
  const namespace = typeof search.namespace === "string" && search.namespace ? search.namespace : undefined;
  return <DeletedObjectsView key={`${plural}/${namespace ?? ""}`} plural={plural} namespace={namespace} />;
}

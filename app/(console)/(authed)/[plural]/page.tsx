import type { Metadata } from "next";
import { ResourceListView } from "@/components/resource-table/resource-list-view";
import { kindTitle } from "@/lib/client/navigation";
import { kindOr404, titleKind, type SearchParams } from "../page-params";
import { firstPage } from "../first-page";
import { requireSession } from "../require-session";

type Params = Promise<{ plural: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural } = await params;
  return { title: kindTitle(await titleKind(plural)) };
}

export default async function KindListPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural } = await params;
  const search = await searchParams;
  await requireSession(`/${plural}`, search);
  await kindOr404(plural);
  return <ResourceListView key={plural} plural={plural} firstPage={await firstPage(plural, undefined, search)} />;
}

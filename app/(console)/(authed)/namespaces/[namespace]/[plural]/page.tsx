import type { Metadata } from "next";
import { ResourceListView } from "@/components/resource-table/resource-list-view";
import { kindTitle } from "@/lib/client/navigation";
import { decode, kindOr404, titleKind, type SearchParams } from "../../../page-params";
import { firstPage } from "../../../first-page";
import { requireSession } from "../../../require-session";

type Params = Promise<{ namespace: string; plural: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural, namespace } = await params;
  return { title: `${kindTitle(await titleKind(plural))} · ${decode(namespace)}` };
}

export default async function NamespacedListPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { namespace, plural } = await params;
  const search = await searchParams;
  await requireSession(`/namespaces/${namespace}/${plural}`, search);
  await kindOr404(plural, "namespaced");
  return <ResourceListView key={`${namespace}/${plural}`} plural={plural} namespace={decode(namespace)} firstPage={await firstPage(plural, decode(namespace), search)} />;
}

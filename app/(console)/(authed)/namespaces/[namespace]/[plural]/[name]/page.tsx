import type { Metadata } from "next";
import { ObjectView } from "@/components/resource-details/object-view";
import { decode, kindOr404, titleKind, type SearchParams } from "../../../../page-params";
import { requireSession } from "../../../../require-session";

type Params = Promise<{ namespace: string; plural: string; name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural, name } = await params;
  return { title: `${(await titleKind(plural)).kind} ${decode(name)}` };
}

export default async function NamespacedObjectPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { namespace, plural, name } = await params;
  await requireSession(`/namespaces/${namespace}/${plural}/${name}`, await searchParams);
  await kindOr404(plural, "namespaced");
  return <ObjectView key={`${namespace}/${plural}/${name}`} plural={plural} namespace={decode(namespace)} name={decode(name)} />;
}

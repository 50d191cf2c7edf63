import type { Metadata } from "next";
import { ObjectView } from "@/components/resource-details/object-view";
import { decode, kindOr404, titleKind, type SearchParams } from "../../page-params";
import { requireSession } from "../../require-session";

type Params = Promise<{ plural: string; name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural, name } = await params;
  return { title: `${(await titleKind(plural)).kind} ${decode(name)}` };
}

export default async function ClusterObjectPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural, name } = await params;
  await requireSession(`/${plural}/${name}`, await searchParams);
  await kindOr404(plural, "cluster");
  return <ObjectView key={`${plural}/${name}`} plural={plural} name={decode(name)} />;
}

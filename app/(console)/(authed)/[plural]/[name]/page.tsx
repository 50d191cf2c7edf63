import type { Metadata } from "next";
import { ObjectView } from "@/components/resource-details/object-view";
import { decode, kindOr404, type SearchParams } from "../../page-params";
import { requireSession } from "../../require-session";

type Params = Promise<{ plural: string; name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { plural, name } = await params;
  return { title: `${(await kindOr404(plural)).kind} ${decode(name)}` };
}

export default async function ClusterObjectPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural, name } = await params;
  await kindOr404(plural, "cluster");
  await requireSession(`/${plural}/${name}`, await searchParams);
  return <ObjectView key={`${plural}/${name}`} plural={plural} name={decode(name)} />;
}

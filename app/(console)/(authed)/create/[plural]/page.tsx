import type { Metadata } from "next";
import { CreateView } from "@/components/yaml-editor/create-view";
import { kindOr404, type SearchParams } from "../../page-params";
import { requireSession } from "../../require-session";

type Params = Promise<{ plural: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Create ${(await kindOr404((await params).plural)).kind}` };
}

export default async function CreatePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural } = await params;
  await kindOr404(plural);
  const query = await searchParams;
  await requireSession(`/create/${plural}`, query);
  const namespace = typeof query.namespace === "string" ? query.namespace : undefined;
  return <CreateView key={`${plural}/${namespace ?? ""}`} plural={plural} namespace={namespace} />;
}

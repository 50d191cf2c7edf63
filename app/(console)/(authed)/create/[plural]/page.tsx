import type { Metadata } from "next";
import { CreateView } from "@/components/yaml-editor/create-view";
import { kindOr404, titleKind, type SearchParams } from "../../page-params";
import { requireSession } from "../../require-session";

type Params = Promise<{ plural: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Create ${(await titleKind((await params).plural)).kind}` };
}

export default async function CreatePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { plural } = await params;
  const query = await searchParams;
  await requireSession(`/create/${plural}`, query);
  await kindOr404(plural);
  const namespace = typeof query.namespace === "string" ? query.namespace : undefined;
  return <CreateView key={`${plural}/${namespace ?? ""}`} plural={plural} namespace={namespace} />;
}

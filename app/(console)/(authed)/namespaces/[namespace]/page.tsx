import type { Metadata } from "next";
import { NamespacePage as NamespaceView } from "@/components/namespace-view/namespace-page";
import { decode, type SearchParams } from "../../page-params";
import { requireSession } from "../../require-session";

type Params = Promise<{ namespace: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Namespace ${decode((await params).namespace)}` };
}

export default async function NamespacePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { namespace } = await params;
  await requireSession(`/namespaces/${namespace}`, await searchParams);
  return <NamespaceView key={namespace} namespace={decode(namespace)} />;
}

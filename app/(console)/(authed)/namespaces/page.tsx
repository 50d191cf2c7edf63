import type { Metadata } from "next";
import { ResourceListView } from "@/components/resource-table/resource-list-view";
import { kindOr404, type SearchParams } from "../page-params";
import { requireSession } from "../require-session";

// The Namespace kind's list. `/namespaces/...` is the console's namespaced tree, so this static route,
// not `[plural]`, answers `/namespaces` itself.
export const metadata: Metadata = { title: "Namespaces" };

export default async function NamespacesPage({ searchParams }: { searchParams: SearchParams }) {
  await requireSession("/namespaces", await searchParams);
  await kindOr404("namespaces", "cluster");
  return <ResourceListView plural="namespaces" />;
}

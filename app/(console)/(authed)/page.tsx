import type { Metadata } from "next";
import { NamespaceLiveView } from "@/components/namespace-view/namespace-live-view";
import type { SearchParams } from "./page-params";
import { requireSession } from "./require-session";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: SearchParams }) {
  await requireSession("/", await searchParams);
  return <NamespaceLiveView />;
}

"use client";
// A namespace's page: its live content (counts, newest changes, Events) first, then the Namespace object
// itself (overview, YAML, Delete) as tabs of the same page, since `/namespaces/<name>` is both. Without a
// Namespace kind on the server side, only the live content.
import { kindByPlural } from "@/lib/kinds";
import { ObjectView } from "../resource-details/object-view";
import { NamespaceLiveView } from "./namespace-live-view";
import { NamespaceChanges } from "../history/namespace-changes";

export function NamespacePage({ namespace }: { namespace: string }) {
  if (!kindByPlural("namespaces")) return <NamespaceLiveView namespace={namespace} />;
  return <ObjectView plural="namespaces" name={namespace} liveTab={{ label: "Live", content: <><NamespaceLiveView namespace={namespace} embedded /><NamespaceChanges namespace={namespace} /></> }} />;
}

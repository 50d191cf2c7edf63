"use client";
// A namespace's page: its live content (counts, Events, and the changes of the last hour with who made them,
// as they happen) first, in one scrolling area, then the Namespace object itself (overview, YAML, Delete) as
// tabs of the same page, since `/namespaces/<name>` is both. Without a Namespace kind on the server side, only
// the live content.
import { kindByPlural } from "@/lib/kinds";
import { ObjectView } from "../resource-details/object-view";
import { ScrollBox } from "../ui/scroll-box";
import { NamespaceLiveView } from "./namespace-live-view";
import { NamespaceChanges } from "../history/namespace-changes";

export function NamespacePage({ namespace }: { namespace: string }) {
  if (!kindByPlural("namespaces")) return <NamespaceLiveView namespace={namespace} />;
  const live = (
    <ScrollBox label={`Namespace ${namespace}, live`} className="min-h-0 flex-1 overflow-y-auto" testId="namespace-live">
      <NamespaceLiveView namespace={namespace} embedded />
      <NamespaceChanges namespace={namespace} />
    </ScrollBox>
  );
  return <ObjectView plural="namespaces" name={namespace} liveTab={{ label: "Live", content: live }} />;
}

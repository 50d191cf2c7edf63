"use client";
// What deleting a Namespace takes with it, before the user confirms: kube's namespace lifecycle deletes every
// object in the namespace (the Namespace stays Terminating until they are gone), whatever their owners, so the
// dialog says that once and counts what is there by kind. Each count is a one-item list (`limit=1` and its
// remainingItemCount, lib/client/list-count.ts): cheap however much a namespace holds. Kinds the user may not
// list are named as not counted, never claimed empty.
import { useQueries } from "@tanstack/react-query";
import { apiRequest } from "@/lib/client/api-client";
import { countText, countUrl, listCount, type ListPage, type ObjectCount } from "@/lib/client/list-count";
import { kindTitle } from "@/lib/client/navigation";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { kindSegment } from "@/lib/client/custom-kinds";
import { isForbidden } from "../ui/forbidden";

/** Counted for at most this many namespaces at once (a bulk delete of more names them only). */
const COUNTED_NAMESPACES = 10;

export function NamespaceContents({ namespaces }: { namespaces: string[] }) {
  const counted = namespaces.slice(0, COUNTED_NAMESPACES);
  // Custom kinds too: their objects go with the namespace as well.
  const namespacedKinds = useConsoleKinds().filter((k) => k.namespaced);
  const queries = useQueries({
    queries: counted.flatMap((namespace) =>
      namespacedKinds.map((kind) => ({
        queryKey: ["cluster-core", "namespace-contents", namespace, kindSegment(kind)],
        queryFn: async () => listCount(await apiRequest<ListPage>(countUrl(kind, namespace))),
        retry: false,
        staleTime: 0,
      })),
    ),
  });
  const loading = queries.some((q) => q.isPending);
  const totals = new Map<string, ObjectCount>();
  const notCounted = new Set<string>();
  queries.forEach((q, i) => {
    const kind = namespacedKinds[i % namespacedKinds.length];
    if (q.error) {
      notCounted.add(isForbidden(q.error) ? `${kindTitle(kind)} (you may not list them)` : `${kindTitle(kind)} (${(q.error as Error).message})`);
      return;
    }
    if (!q.data) return;
    const sum = totals.get(kindSegment(kind)) ?? { count: 0, atLeast: false };
    totals.set(kindSegment(kind), { count: sum.count + q.data.count, atLeast: sum.atLeast || q.data.atLeast });
  });
  const held = namespacedKinds.filter((k) => (totals.get(kindSegment(k))?.count ?? 0) > 0);

  return (
    <div className="mb-4 rounded-md border border-red-200 px-3 py-2 text-sm dark:border-red-900" data-testid="namespace-contents" data-state={loading ? "loading" : "ready"}>
      <p className="font-medium">
        Deleting a Namespace deletes everything in it. The Namespace stays Terminating until all of {namespaces.length === 1 ? "its content is" : "their content is"} gone.
      </p>
      <p role="status" className="mt-1" data-testid="namespace-contents-summary">
        {loading
          ? "Counting what it holds…"
          : held.length === 0
            ? notCounted.size ? "Nothing found in the kinds you can list." : `${namespaces.length === 1 ? "It holds" : "They hold"} no objects.`
            : `${namespaces.length === 1 ? "It holds" : "They hold"}:`}
      </p>
      {!loading && held.length > 0 && (
        <ul className="mt-1 grid grid-cols-2 gap-x-4 font-mono text-xs" data-testid="namespace-contents-list">
          {held.map((k) => (
            <li key={kindSegment(k)} data-testid="namespace-contents-item" data-kind={k.kind}>
              {countText(k.kind, kindTitle(k), totals.get(kindSegment(k))!)}
            </li>
          ))}
        </ul>
      )}
      {!loading && notCounted.size > 0 && (
        <p className="mt-1 text-xs text-slate-700 dark:text-slate-300" data-testid="namespace-contents-unlisted">
          Not counted, and deleted all the same: {[...notCounted].join(", ")}.
        </p>
      )}
      {namespaces.length > COUNTED_NAMESPACES && (
        <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">Counted in the first {COUNTED_NAMESPACES} of the {namespaces.length} namespaces.</p>
      )}
    </div>
  );
}

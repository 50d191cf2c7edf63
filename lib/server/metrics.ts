// Wires the process's metrics (lib/metrics) to its store: object counts by kube's resource names, the watch
// cache's figures, and the store's commit and tail-lag observers. CLUSTER_CORE_METRICS=off leaves them out
// (no request instrumentation, no /metrics), for measuring what they cost.
import { groupResource, kindByPlural } from "../kinds";
import { ServerMetrics } from "../metrics/server-metrics";
import type { Store } from "../storage";

export function serverMetrics(store: Store, env: Readonly<Record<string, string | undefined>> = process.env): ServerMetrics | undefined {
  if (env.CLUSTER_CORE_METRICS === "off") return undefined;
  const metrics = new ServerMetrics({
    *objects() {
      for (const [resource, count] of store.objectCounts()) {
        const kind = kindByPlural(resource);
        yield [kind ? groupResource(kind) : resource, count] as const;
      }
    },
    cache: () => {
      const s = store.stats();
      return { rev: s.revision, historyStartRev: s.historyStartRev, history: s.historyEvents, watchers: s.watchers, objects: s.objects };
    },
  });
  store.commitObservers.add((seconds, writes) => {
    metrics.commitDuration.observe([], seconds);
    metrics.commitBatch.inc([], writes);
  });
  store.tailObservers.add((lag) => metrics.tailLag.observe([], lag));
  return metrics;
}

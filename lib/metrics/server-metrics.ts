// The server's metrics: kube-apiserver's names, labels and buckets where kube has the metric
// (k8s.io/apiserver endpoints/metrics and the cacher's), Cluster Core's own `cluster_core_*` names for what
// only this store has (group commit, tailing other processes' writes), and the process figures.
import { Counter } from "./counter";
import { Gauge } from "./gauge";
import { exponentialBuckets, Histogram } from "./histogram";
import { processMetrics } from "./process-metrics";
import { MetricsRegistry } from "./registry";

/** kube's request labels, in kube's order (apiserver_request_total adds `code`). */
export const REQUEST_LABELS = ["verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"] as const;
export const LONGRUNNING_LABELS = ["verb", "group", "version", "resource", "subresource", "scope", "component"] as const;

/** apiserver_request_duration_seconds' buckets in kube-apiserver 1.32 (its API-call latency SLO buckets). */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** Store commits and tail lag take well under a millisecond to seconds. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the store tells the metrics at scrape time. */
export interface StoreFigures {
  /** Current objects per resource, named as kube names them (`configmaps`, `roles.rbac.authorization.k8s.io`). */
  objects(): Iterable<readonly [resource: string, count: number]>;
  /** The watch cache's revision, history and watcher counts. */
  cache(): { rev: number; historyStartRev: number; history: number; watchers: number; objects: number };
}

export class ServerMetrics {
  private readonly registry = new MetricsRegistry();

  readonly requests = this.registry.add(new Counter("apiserver_request_total",
    "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
    [...REQUEST_LABELS, "code"]));

  readonly requestDuration = this.registry.add(new Histogram("apiserver_request_duration_seconds",
    "Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
    REQUEST_LABELS, REQUEST_DURATION_BUCKETS));

  readonly longRunning = this.registry.add(new Gauge("apiserver_longrunning_requests",
    "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.",
    LONGRUNNING_LABELS));

  readonly watchEvents = this.registry.add(new Counter("apiserver_watch_events_total",
    "Number of events sent in watch clients", ["group", "version", "kind"]));

  readonly watchEventSizes = this.registry.add(new Histogram("apiserver_watch_events_sizes",
    "Watch event size distribution in bytes", ["group", "version", "kind"], exponentialBuckets(1024, 2, 8)));

  readonly terminatedWatchers = this.registry.add(new Counter("apiserver_terminated_watchers_total",
    "Counter of watchers closed due to unresponsiveness broken by resource type.", ["resource"]));

  readonly commitDuration = this.registry.add(new Histogram("cluster_core_storage_commit_duration_seconds",
    "Duration of one store write transaction (a group commit of one or more writes), from its start to its commit.",
    [], STORE_BUCKETS));

  readonly commitBatch = this.registry.add(new Counter("cluster_core_storage_writes_total",
    "Writes committed to the store by this process (each group commit counts its writes)."));

  readonly tailLag = this.registry.add(new Histogram("cluster_core_storage_tail_lag_seconds",
    "Time from another process's commit on the shared store (its log row's timestamp, by that process's clock) to the write's arrival in this process's watch cache.",
    [], STORE_BUCKETS));

  constructor(store?: StoreFigures) {
    for (const m of processMetrics()) this.registry.add(m);
    if (!store) return;
    this.registry.add(new Gauge("apiserver_storage_objects", "Number of stored objects at the time of last check split by kind.",
      ["resource"], () => [...store.objects()].map(([resource, count]) => [[resource], count] as const)));
    const cache = (pick: (s: ReturnType<StoreFigures["cache"]>) => number) => () => [[[], pick(store.cache())] as const];
    this.registry.add(new Gauge("cluster_core_revision", "The store's latest revision applied by this process's watch cache.", [], cache((s) => s.rev)));
    this.registry.add(new Gauge("cluster_core_history_start_revision", "Watches and continue tokens older than this get 410 Expired.", [], cache((s) => s.historyStartRev)));
    this.registry.add(new Gauge("cluster_core_history_events", "Events kept for resumable watches and consistent pages.", [], cache((s) => s.history)));
    this.registry.add(new Gauge("cluster_core_objects", "Objects held in the cache.", [], cache((s) => s.objects)));
    this.registry.add(new Gauge("cluster_core_watchers", "Open watch streams.", [], cache((s) => s.watchers)));
  }

  /** The text exposition of every metric. */
  expose(): string {
    return this.registry.expose();
  }
}

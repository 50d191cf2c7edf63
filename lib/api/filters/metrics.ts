// Request metrics as kube-apiserver records them (k8s.io/apiserver endpoints/metrics): every request that
// reached a resource route (and the /healthz, /livez, /readyz roots) counts in apiserver_request_total and
// apiserver_request_duration_seconds with kube's labels; requests refused before routing (401, 403, unknown
// paths) are not counted, as in kube. A watch is long-running: it is in apiserver_longrunning_requests while
// open and is counted and timed when it ends (as kube's instrumented route returns only then); each event it
// sends counts in apiserver_watch_events_total/_sizes, and a watcher cut off for falling behind counts in
// apiserver_terminated_watchers_total.
import { groupResource, versionOf } from "../../kinds";
import type { ServerMetrics } from "../../metrics/server-metrics";
import type { RequestInfo } from "../../request/request-info";
import type { WatchSink } from "../../storage";
import type { Filter } from "../context";
import type { ApiRequest, ApiResponse } from "../types";

const APPLY_PATCH = "application/apply-patch+yaml";
/** Subresources kube reports as CONNECT. */
const CONNECT_SUBRESOURCES = new Set(["log", "exec", "portforward", "attach", "proxy"]);
/** Verbs kube reports; anything else is "other". */
const REPORTED_VERBS = new Set(["APPLY", "CONNECT", "CREATE", "DELETE", "DELETECOLLECTION", "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE", "WATCH", "WATCHLIST"]);

/**
 * One route's series (its request labels, kube's REQUEST_LABELS): the duration histogram's child and the
 * counter's child per code, found once and kept, so a request records with no label arrays or joined keys.
 */
class RouteSeries {
  private readonly codes = new Map<number, { inc(by?: number): void }>();
  private readonly duration: { observe(v: number): void };

  constructor(
    private readonly metrics: ServerMetrics,
    /** verb, dry_run, group, version, resource, subresource, scope, component (REQUEST_LABELS). */
    readonly request: readonly string[],
    /** For watches: the kind's group, version, kind and its group-resource. */
    readonly watch?: { event: string[]; resource: string },
  ) {
    this.duration = metrics.requestDuration.child(request);
  }

  observe(code: number, started: number): void {
    let count = this.codes.get(code);
    if (!count) this.codes.set(code, (count = this.metrics.requests.child([...this.request, String(code)])));
    count.inc();
    this.duration.observe((performance.now() - started) / 1000);
  }
}

/** A metrics instance's series by route: per kind (or review) object, then by verb, scope, dry run and subresource. */
interface SeriesCache {
  byTarget: WeakMap<object, Map<string, RouteSeries>>;
  health: Map<string, RouteSeries>;
}

const caches = new WeakMap<ServerMetrics, SeriesCache>();

function cacheOf(metrics: ServerMetrics): SeriesCache {
  let cache = caches.get(metrics);
  if (!cache) caches.set(metrics, (cache = { byTarget: new WeakMap(), health: new Map() }));
  return cache;
}

/** The keys of routes without dry run or subresource, by scope and verb, made once. */
const SCOPE_KEYS: Record<string, Record<string, string>> = Object.fromEntries(["resource", "namespace", "cluster"].map((scope) =>
  [scope, Object.fromEntries([...REPORTED_VERBS, "other"].map((v) => [v, `${v} ${scope}`]))]));

/** The routes of one kind (or review) seen so far. */
function routesOf(metrics: ServerMetrics, target: object): Map<string, RouteSeries> {
  const cache = cacheOf(metrics);
  let routes = cache.byTarget.get(target);
  if (!routes) cache.byTarget.set(target, (routes = new Map()));
  return routes;
}

function isWatch(req: ApiRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const w = req.query.get("watch");
  return w !== null && w !== "0" && w.toLowerCase() !== "false";
}

/** kube's cleanDryRun: "" without the parameter, the sorted distinct values when all are valid, else "invalid". */
function dryRunLabel(q: URLSearchParams): string {
  if (!q.has("dryRun")) return "";
  const values = q.getAll("dryRun");
  return values.every((v) => v === "All") ? "All" : "invalid";
}

/** kube's reported verb: LIST vs GET by scope, WATCH, APPLY, CONNECT, else the method; unknown ones "other". */
function reportedVerb(req: ApiRequest, scope: string, watching: boolean, subresource: string): string {
  const method = req.method;
  let verb = method === "GET" || method === "HEAD" ? method : method.toUpperCase();
  if (verb === "GET" || verb === "HEAD") verb = scope !== "resource" && scope !== "" ? "LIST" : "GET";
  if (watching) verb = "WATCH";
  if (verb === "PATCH" && req.header("content-type")?.split(";")[0].trim() === APPLY_PATCH) verb = "APPLY";
  if (subresource && CONNECT_SUBRESOURCES.has(subresource)) verb = "CONNECT";
  return REPORTED_VERBS.has(verb) ? verb : "other";
}

function seriesOf(metrics: ServerMetrics, req: ApiRequest, info: RequestInfo): RouteSeries | undefined {
  switch (info.type) {
    case "resource": {
      const { kind } = info;
      const named = info.name !== undefined || req.method === "POST";
      // kube's route scope: the object (named, or a create), the namespace, or the cluster (all namespaces).
      const scope = named ? "resource" : info.namespace !== undefined ? "namespace" : "cluster";
      const subresource = info.subresource ?? "";
      const watching = info.watchPath || isWatch(req);
      const verb = reportedVerb(req, scope, watching, subresource);
      const dryRun = dryRunLabel(req.query);
      const routes = routesOf(metrics, kind);
      // Without dry run or subresource (nearly every request), the verb and scope are the key: no string is made.
      const key = dryRun || subresource ? `${verb} ${scope} ${dryRun} ${subresource}` : SCOPE_KEYS[scope][verb] ?? `${verb} ${scope}`;
      let series = routes.get(key);
      if (!series) {
        const group = kind.group ?? "";
        const version = versionOf(kind);
        const request = [verb, dryRun, group, version, kind.plural, subresource, scope, "apiserver"];
        series = new RouteSeries(metrics, request, watching ? { event: [group, version, kind.kind], resource: groupResource(kind) } : undefined);
        routes.set(key, series);
      }
      return series;
    }
    case "review": {
      const scope = req.method === "POST" ? "resource" : info.namespace !== undefined ? "namespace" : "cluster";
      const verb = reportedVerb(req, scope, false, "");
      const dryRun = dryRunLabel(req.query);
      const { review } = info;
      const routes = routesOf(metrics, review);
      const key = `${verb} ${scope} ${dryRun}`;
      let series = routes.get(key);
      if (!series) routes.set(key, (series = new RouteSeries(metrics, [verb, dryRun, review.group, "v1", review.plural, "", scope, "apiserver"])));
      return series;
    }
    case "health": {
      // kube instruments the health roots only: the path as subresource, no scope, no component.
      if (info.check !== undefined) return undefined;
      const verb = reportedVerb(req, "", false, "");
      const health = cacheOf(metrics).health;
      const key = `${verb} ${info.endpoint}`;
      let series = health.get(key);
      if (!series) health.set(key, (series = new RouteSeries(metrics, [verb, "", "", "", "", `/${info.endpoint}`, "", ""])));
      return series;
    }
    default:
      return undefined;
  }
}

/** Measures every request the chain routes (the runtime's metrics; without them the filter is left out). */
export const withMetrics: Filter = (next, rt) => {
  const metrics = rt.metrics;
  if (!metrics) return next;
  return (ctx) => {
    const res = next(ctx);
    // Read only once answered: the router notes the route it reached on its way in.
    return res instanceof Promise
      ? res.then((r) => recordRequest(metrics, ctx.request, ctx.routed, r, ctx.started))
      : recordRequest(metrics, ctx.request, ctx.routed, res, ctx.started);
  };
};

/**
 * Records one answered request (`info`: the route it reached, undefined when refused before routing; `started`:
 * performance.now() when it arrived). A watch's answer is returned wrapped so that its events, its end and a
 * cut-off are recorded; every other answer is returned as is.
 */
export function recordRequest(metrics: ServerMetrics, req: ApiRequest, info: RequestInfo | undefined, res: ApiResponse, started: number): ApiResponse {
  if (!info) return res;
  const series = seriesOf(metrics, req, info);
  if (!series) return res;
  const inner = res.stream;
  if (!inner) {
    series.observe(res.status, started);
    return res;
  }
  const [verb, , group, version, resource, subresource, scope, component] = series.request;
  const longRunning = [verb, group, version, resource, subresource, scope, component];
  const watch = series.watch;
  return {
    ...res,
    stream: {
      timeoutMs: inner.timeoutMs,
      start(sink) {
        metrics.longRunning.inc(longRunning);
        let cut = false;
        // Every event of the watch counts under the same labels: their children are found once.
        const events = watch && metrics.watchEvents.child(watch.event);
        const sizes = watch && metrics.watchEventSizes.child(watch.event);
        const counted: WatchSink = events && sizes ? {
          send(chunk) {
            events.inc();
            sizes.observe(chunk.length);
            const keep = sink.send(chunk);
            // The adapters refuse more once a watcher's unsent backlog is too large: the cache then closes it.
            if (!keep && !cut) { cut = true; metrics.terminatedWatchers.inc([watch!.resource]); }
            return keep;
          },
          close() { sink.close(); },
          ready() { return sink.ready?.(); },
        } : sink;
        const stop = inner.start(counted);
        let done = false;
        return (reason) => {
          // Closed by the adapter for not reading (also when no event was refused: it stopped taking bytes).
          if (reason === "cut" && watch && !cut) { cut = true; metrics.terminatedWatchers.inc([watch.resource]); }
          stop(reason);
          if (done) return;
          done = true;
          metrics.longRunning.dec(longRunning);
          series.observe(res.status, started);
        };
      },
    },
  };
}

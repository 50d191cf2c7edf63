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

interface Labels {
  /** verb, dry_run, group, version, resource, subresource, scope, component (REQUEST_LABELS). */
  request: string[];
  /** For watches: the kind's group, version, kind and its group-resource. */
  watch?: { event: string[]; resource: string };
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
  let verb = req.method.toUpperCase();
  if (verb === "GET" || verb === "HEAD") verb = scope !== "resource" && scope !== "" ? "LIST" : "GET";
  if (watching) verb = "WATCH";
  if (verb === "PATCH" && req.header("content-type")?.split(";")[0].trim() === APPLY_PATCH) verb = "APPLY";
  if (subresource && CONNECT_SUBRESOURCES.has(subresource)) verb = "CONNECT";
  return REPORTED_VERBS.has(verb) ? verb : "other";
}

function labelsOf(req: ApiRequest, info: RequestInfo): Labels | undefined {
  switch (info.type) {
    case "resource": {
      const { kind } = info;
      const named = info.name !== undefined || req.method === "POST";
      // kube's route scope: the object (named, or a create), the namespace, or the cluster (all namespaces).
      const scope = named ? "resource" : info.namespace !== undefined ? "namespace" : "cluster";
      const group = kind.group ?? "";
      const subresource = info.subresource ?? "";
      const watching = info.watchPath || isWatch(req);
      const version = versionOf(kind);
      const request = [reportedVerb(req, scope, watching, subresource), dryRunLabel(req.query), group, version, kind.plural, subresource, scope, "apiserver"];
      return watching ? { request, watch: { event: [group, version, kind.kind], resource: groupResource(kind) } } : { request };
    }
    case "review": {
      const scope = req.method === "POST" ? "resource" : info.namespace !== undefined ? "namespace" : "cluster";
      return { request: [reportedVerb(req, scope, false, ""), dryRunLabel(req.query), info.review.group, "v1", info.review.plural, "", scope, "apiserver"] };
    }
    case "health":
      // kube instruments the health roots only: the path as subresource, no scope, no component.
      if (info.check !== undefined) return undefined;
      return { request: [reportedVerb(req, "", false, ""), "", "", "", "", `/${info.endpoint}`, "", ""] };
    default:
      return undefined;
  }
}

function observe(metrics: ServerMetrics, labels: string[], code: number, started: number): void {
  metrics.requests.inc([...labels, String(code)]);
  metrics.requestDuration.observe(labels, (performance.now() - started) / 1000);
}

/** Measures every request the chain routes (the runtime's metrics; without them the filter is left out). */
export const withMetrics: Filter = (next, rt) => {
  const metrics = rt.metrics;
  if (!metrics) return next;
  return async (ctx) => {
    const res = await next(ctx);
    // Read only now: the router notes the route it reached on its way in.
    return recordRequest(metrics, ctx.request, ctx.routed, res, ctx.started);
  };
};

/**
 * Records one answered request (`info`: the route it reached, undefined when refused before routing; `started`:
 * performance.now() when it arrived). A watch's answer is returned wrapped so that its events, its end and a
 * cut-off are recorded; every other answer is returned as is.
 */
export function recordRequest(metrics: ServerMetrics, req: ApiRequest, info: RequestInfo | undefined, res: ApiResponse, started: number): ApiResponse {
  if (!info) return res;
  const labels = labelsOf(req, info);
  if (!labels) return res;
  const inner = res.stream;
  if (!inner) {
    observe(metrics, labels.request, res.status, started);
    return res;
  }
  const [verb, , group, version, resource, subresource, scope, component] = labels.request;
  const longRunning = [verb, group, version, resource, subresource, scope, component];
  const watch = labels.watch;
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
          observe(metrics, labels.request, res.status, started);
        };
      },
    },
  };
}

import { describe, expect, test } from "vitest";
import { Counter } from "./counter";
import { Gauge } from "./gauge";
import { exponentialBuckets, Histogram } from "./histogram";
import { MetricsRegistry } from "./registry";
import { REQUEST_DURATION_BUCKETS, ServerMetrics } from "./server-metrics";
import { CONTENT_TYPE, encode, escapeLabelValue, formatValue } from "./text-format";
import { parseExposition, sampleValue } from "./text-parser";

describe("text format", () => {
  test("escapes label values and help text as the format requires", () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    const c = new Counter("x_total", "line one\nback\\slash", ["path"]);
    c.inc(['/a"b\\c\nd']);
    expect(encode([c])).toBe([
      "# HELP x_total line one\\nback\\\\slash",
      "# TYPE x_total counter",
      'x_total{path="/a\\"b\\\\c\\nd"} 1',
      "",
    ].join("\n"));
    // The strict parser reads the escapes back.
    const parsed = parseExposition(encode([c]));
    expect(parsed.get("x_total")!.help).toBe("line one\nback\\slash");
    expect(sampleValue(parsed, "x_total", { path: '/a"b\\c\nd' })).toBe(1);
  });

  test("special values and the content type", () => {
    expect([Infinity, -Infinity, NaN, 0.005, 131072, 1.5].map(formatValue)).toEqual(["+Inf", "-Inf", "NaN", "0.005", "131072", "1.5"]);
    expect(CONTENT_TYPE).toBe("text/plain; version=0.0.4; charset=utf-8");
  });

  test("families in name order, samples in label order, unused labelled families left out", () => {
    const r = new MetricsRegistry();
    const b = r.add(new Counter("b_total", "B.", ["code"]));
    r.add(new Counter("a_total", "A."));
    r.add(new Counter("c_total", "never used", ["x"]));
    b.inc(["404"]);
    b.inc(["200"], 2);
    expect(r.expose()).toBe([
      "# HELP a_total A.", "# TYPE a_total counter", "a_total 0",
      "# HELP b_total B.", "# TYPE b_total counter", 'b_total{code="200"} 2', 'b_total{code="404"} 1', "",
    ].join("\n"));
  });

  test("a registry refuses a name twice; families refuse bad names and wrong label counts", () => {
    const r = new MetricsRegistry();
    r.add(new Counter("a_total", "A."));
    expect(() => r.add(new Gauge("a_total", "again"))).toThrow(/twice/);
    expect(() => new Counter("bad-name", "x")).toThrow(/invalid metric name/);
    expect(() => new Counter("ok", "x", ["__reserved"])).toThrow(/invalid label name/);
    expect(() => new Histogram("h", "x", ["le"], [1])).toThrow(/invalid label name/);
    expect(() => new Histogram("h", "x", [], [2, 1])).toThrow(/increasing/);
    const c = new Counter("c_total", "x", ["a", "b"]);
    expect(() => c.inc(["only-one"])).toThrow(/1 label values for 2 labels/);
    expect(() => c.inc(["x", "y"], -1)).toThrow(/cannot decrease/);
  });
});

describe("counters, gauges, histograms", () => {
  test("counters add per label set", () => {
    const c = new Counter("req_total", "x", ["verb", "code"]);
    c.inc(["GET", "200"]);
    c.inc(["GET", "200"]);
    c.inc(["LIST", "200"], 3);
    expect(c.value(["GET", "200"])).toBe(2);
    expect(c.value(["LIST", "200"])).toBe(3);
    expect(c.value(["GET", "404"])).toBe(0);
  });

  test("gauges go up and down; collected gauges are read at scrape time only", () => {
    const g = new Gauge("open", "x", ["verb"]);
    g.inc(["WATCH"]);
    g.inc(["WATCH"]);
    g.dec(["WATCH"]);
    expect(g.value(["WATCH"])).toBe(1);
    let n = 0;
    const collected = new Gauge("objects", "x", ["resource"], () => [[["pods"], ++n]]);
    expect(n).toBe(0);
    const first = encode([collected]);
    expect(first).toContain('objects{resource="pods"} 1');
    expect(encode([collected])).toContain('objects{resource="pods"} 2');
    // A collected gauge with nothing to read is left out, not shown as 0.
    expect(encode([new Gauge("nothing", "x", [], () => [])])).toBe("");
  });

  test("histograms expose cumulative buckets, +Inf, sum and count", () => {
    const h = new Histogram("dur_seconds", "x", ["verb"], [0.1, 1, 10]);
    for (const v of [0.05, 0.1, 0.5, 5, 50]) h.observe(["GET"], v);
    const text = encode([h]);
    expect(text.split("\n").slice(2, -1)).toEqual([
      'dur_seconds_bucket{verb="GET",le="0.1"} 2',
      'dur_seconds_bucket{verb="GET",le="1"} 3',
      'dur_seconds_bucket{verb="GET",le="10"} 4',
      'dur_seconds_bucket{verb="GET",le="+Inf"} 5',
      'dur_seconds_sum{verb="GET"} 55.65',
      'dur_seconds_count{verb="GET"} 5',
    ]);
    expect(h.snapshot(["GET"])).toEqual({ count: 5, sum: 55.65, buckets: [2, 3, 4, 5] });
    parseExposition(text);
  });

  test("exponential buckets as Prometheus' ExponentialBuckets", () => {
    expect(exponentialBuckets(1024, 2, 8)).toEqual([1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]);
  });
});

describe("server metrics", () => {
  test("kube's names, labels and buckets; store figures and process metrics; the whole exposition parses strictly", () => {
    const m = new ServerMetrics({
      objects: () => [["configmaps", 3], ["roles.rbac.authorization.k8s.io", 1]],
      cache: () => ({ rev: 7, historyStartRev: 2, history: 5, watchers: 1, objects: 4 }),
    });
    const labels = ["LIST", "", "", "v1", "configmaps", "", "namespace", "apiserver"];
    m.requests.inc([...labels, "200"]);
    m.requestDuration.observe(labels, 0.003);
    m.watchEvents.inc(["", "v1", "ConfigMap"]);
    m.watchEventSizes.observe(["", "v1", "ConfigMap"], 1500);
    m.commitDuration.observe([], 0.0004);
    const families = parseExposition(m.expose());
    const q = { verb: "LIST", dry_run: "", group: "", version: "v1", resource: "configmaps", subresource: "", scope: "namespace", component: "apiserver" };
    expect(sampleValue(families, "apiserver_request_total", { ...q, code: "200" })).toBe(1);
    expect(families.get("apiserver_request_duration_seconds")!.type).toBe("histogram");
    const les = families.get("apiserver_request_duration_seconds")!.samples.filter((s) => s.name.endsWith("_bucket")).map((s) => s.labels.le);
    expect(les).toEqual([...REQUEST_DURATION_BUCKETS.map(String), "+Inf"]);
    expect(sampleValue(families, "apiserver_request_duration_seconds_bucket", { ...q, le: "0.005" })).toBe(1);
    expect(sampleValue(families, "apiserver_storage_objects", { resource: "roles.rbac.authorization.k8s.io" })).toBe(1);
    expect(sampleValue(families, "apiserver_watch_events_sizes_bucket", { group: "", version: "v1", kind: "ConfigMap", le: "1024" })).toBe(0);
    expect(sampleValue(families, "apiserver_watch_events_sizes_bucket", { group: "", version: "v1", kind: "ConfigMap", le: "2048" })).toBe(1);
    expect(sampleValue(families, "cluster_core_storage_commit_duration_seconds_count")).toBe(1);
    expect(sampleValue(families, "cluster_core_revision")).toBe(7);
    expect(sampleValue(families, "cluster_core_watchers")).toBe(1);
    expect(families.get("process_cpu_seconds_total")!.type).toBe("counter");
    expect(sampleValue(families, "process_resident_memory_bytes")).toBeGreaterThan(1e6);
    expect(sampleValue(families, "process_start_time_seconds")).toBeLessThanOrEqual(Date.now() / 1000);
    expect(sampleValue(families, "process_start_time_seconds")).toBeGreaterThan(Date.now() / 1000 - 3600);
    // Labelled families nobody used yet are not shown (as the Go client leaves out empty vectors).
    expect(families.has("apiserver_terminated_watchers_total")).toBe(false);
  });
});

describe("strict parser", () => {
  const good = "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\"} 2\n";
  test("reads a valid exposition", () => {
    expect(sampleValue(parseExposition(good), "a_total", { x: "1" })).toBe(2);
  });

  test.each([
    ["no final newline", good.slice(0, -1), /newline/],
    ["an empty line", `${good}\n`, /empty line/],
    ["a bad value", "a 1x\n", /bad value/],
    ["an unquoted label value", "a{x=1} 1\n", /without ="value"/],
    ["an unterminated label value", 'a{x="1} 1\n', /unterminated|expected/],
    ["a bad escape", 'a{x="\\t"} 1\n', /bad escape/],
    ["a repeated label", 'a{x="1",x="2"} 1\n', /repeated/],
    ["a repeated series", "a 1\na 2\n", /repeated/],
    ["two spaces", "a  1\n", /expected/],
    ["a second TYPE", "# TYPE a gauge\n# TYPE a gauge\na 1\n", /second TYPE/],
    ["an unknown type", "# TYPE a thing\n", /unknown type/],
    ["a TYPE after samples", "a 1\n# TYPE a gauge\n", /after the samples/],
    ["a family split in two", "# TYPE a gauge\na{x=\"1\"} 1\n# TYPE b gauge\nb 1\na{x=\"2\"} 1\n", /outside its family|after another family/],
    ["a negative counter", "# TYPE a_total counter\na_total -1\n", /negative counter/],
    ["a histogram without +Inf", "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n", /\+Inf/],
    ["a histogram not cumulative", "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n", /cumulative/],
    ["a histogram whose +Inf is not its count", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n", /differs/],
    ["a bucket without le", "# TYPE h histogram\nh_bucket 1\nh_sum 1\nh_count 1\n", /without le/],
    ["a malformed HELP", "# HELP\n", /malformed/],
  ])("refuses %s", (_what, text, message) => {
    expect(() => parseExposition(text)).toThrow(message);
  });
});

describe("children found once", () => {
  test("a counter's and a histogram's child update the same series as inc and observe with those labels", () => {
    const c = new Counter("events_total", "h", ["kind"]);
    const h = new Histogram("sizes", "h", ["kind"], [10, 100]);
    const cc = c.child(["ConfigMap"]);
    const hc = h.child(["ConfigMap"]);
    cc.inc();
    cc.inc(2);
    c.inc(["ConfigMap"]);
    hc.observe(5);
    hc.observe(50);
    h.observe(["ConfigMap"], 500);
    expect(c.value(["ConfigMap"])).toBe(4);
    expect(h.snapshot(["ConfigMap"])).toEqual({ count: 3, sum: 555, buckets: [1, 2, 3] });
    expect(() => cc.inc(-1)).toThrow(/cannot decrease/);
  });
});

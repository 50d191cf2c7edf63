import { describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { parseLabelSelector } from "../selectors/label-selector";
import { columnViews, createRowSelector, defaultSort, narrowTemplate, naturalCompare, parseHumanDuration, selectRows } from "./list-rows";

const obj = (name: string, ns: string, created: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({
  kind: "ConfigMap",
  metadata: { name, namespace: ns, creationTimestamp: created, labels },
  data,
});

const items: [string, ReturnType<typeof obj>][] = [
  obj("web-10", "a", "2026-01-01T00:00:10Z", { app: "web" }, { x: "1", y: "2" }),
  obj("web-2", "a", "2026-01-01T00:00:30Z", { app: "web" }),
  obj("db", "b", "2026-01-01T00:00:20Z", { app: "db" }, { x: "1" }),
].map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o] as [string, typeof o]);

const columns = columnViews(kindByPlural("configmaps")!.columns, { wide: false, allNamespaces: true });
const col = (name: string) => columns.find((c) => c.name === name)!;
const now = Date.parse("2026-01-01T01:00:00Z");

describe("selectRows", () => {
  it("adds the Namespace column for all namespaces and keeps kubectl's columns", () => {
    expect(columns.map((c) => c.name)).toEqual(["Namespace", "Name", "Data", "Age"]);
  });

  it("filters by name text and label selector", () => {
    expect(selectRows(items, { text: "WEB", selector: null, now }).map((r) => r.key)).toEqual(["a/web-2", "a/web-10"]);
    expect(selectRows(items, { text: "", selector: parseLabelSelector("app!=web"), now }).map((r) => r.key)).toEqual(["b/db"]);
  });

  it("sorts names naturally, numbers numerically and ages by time", () => {
    const byName = selectRows(items, { text: "", selector: null, now, sort: { column: col("Name"), descending: false } });
    expect(byName.map((r) => r.key)).toEqual(["b/db", "a/web-2", "a/web-10"]);
    const byData = selectRows(items, { text: "", selector: null, now, sort: { column: col("Data"), descending: true } });
    expect(byData.map((r) => r.key)).toEqual(["a/web-10", "b/db", "a/web-2"]);
    const byAge = selectRows(items, { text: "", selector: null, now, sort: { column: col("Age"), descending: false } });
    expect(byAge.map((r) => r.key)).toEqual(["a/web-2", "b/db", "a/web-10"]);
  });

  it("reads kubectl durations", () => {
    expect(parseHumanDuration("2d5h")).toBe(2 * 86400 + 5 * 3600);
    expect(parseHumanDuration("45s")).toBe(45);
    expect(parseHumanDuration("web")).toBeUndefined();
  });
});

describe("columnViews", () => {
  it("always shows the name column, even where kubectl prints it only wide", () => {
    const names = columnViews(kindByPlural("events")!.columns, { wide: false, allNamespaces: false }).map((c) => c.name);
    expect(names).toContain("Name");
    expect(names).not.toContain("Count");
  });

  it("keeps the name and Status on a phone, and an Event's last seen, reason and object (its reason opening it)", () => {
    const narrow = (plural: string, kind: string) => columnViews(kindByPlural(plural)!.columns, { wide: false, allNamespaces: true, kind }).filter((c) => c.narrow);
    expect(narrow("pods", "Pod").map((c) => c.name)).toEqual(["Name", "Status"]);
    expect(narrow("configmaps", "ConfigMap").map((c) => c.name)).toEqual(["Name"]);
    const events = narrow("events", "Event");
    expect(events.map((c) => c.name)).toEqual(["Last Seen", "Reason", "Object"]);
    const event = { kind: "Event", metadata: { name: "web.17a3", namespace: "shop" }, involvedObject: { apiVersion: "v1", kind: "Pod", name: "web" }, reason: "BackOff" };
    expect(events[1].link?.(event)).toBe("/namespaces/shop/events/web.17a3");
    expect(events[2].link?.(event)).toBe("/namespaces/shop/pods/web");
    expect(narrowTemplate(events)).toBe("2.25rem 4.25rem minmax(0,1fr) minmax(0,1fr)");
  });
});

describe("text filter over every column", () => {
  const pods = columnViews(kindByPlural("pods")!.columns, { wide: true, allNamespaces: false, kind: "Pod" });
  const pod = (name: string, node: string, waiting?: string) => ({
    kind: "Pod",
    metadata: { name, namespace: "a", creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: { nodeName: node, containers: [{ name: "app", image: "nginx" }] },
    status: {
      phase: "Running",
      containerStatuses: [{ name: "app", ready: !waiting, restartCount: waiting ? 4 : 0, state: waiting ? { waiting: { reason: waiting } } : { running: {} } }],
    },
  });
  const podItems = [pod("web-1", "node-a"), pod("web-2", "node-b", "CrashLoopBackOff"), pod("db", "node-b")].map((p) => [`a/${p.metadata.name}`, p] as [string, typeof p]);

  it("matches a status, a node or a name, case-insensitively", () => {
    const keys = (text: string) => selectRows(podItems, { text, selector: null, now, columns: pods }).map((r) => r.key);
    expect(keys("crashloop")).toEqual(["a/web-2"]);
    expect(keys("NODE-B")).toEqual(["a/db", "a/web-2"]);
    expect(keys("web")).toEqual(["a/web-1", "a/web-2"]);
    expect(keys("running")).toEqual(["a/db", "a/web-1"]);
  });

  it("does not match the ticking age, and without columns only the name", () => {
    expect(selectRows(podItems, { text: "365d", selector: null, now: Date.parse("2027-01-01T00:00:00Z"), columns: pods })).toEqual([]);
    expect(selectRows(podItems, { text: "node-b", selector: null, now })).toEqual([]);
  });

  it("matches the Data count and namespace of ConfigMaps (any visible cell)", () => {
    // "1": web-10 by name, db by its one data key; web-2 shows neither.
    expect(selectRows(items, { text: "1", selector: null, now, columns }).map((r) => r.key)).toEqual(["a/web-10", "b/db"]);
  });
});

describe("events", () => {
  const eventColumns = columnViews(kindByPlural("events")!.columns, { wide: false, allNamespaces: false, kind: "Event" });
  const ev = (name: string, times: Record<string, unknown>, type = "Normal", involved: Record<string, string> = { kind: "Pod", name: "web", namespace: "a" }) => ({
    kind: "Event",
    metadata: { name, namespace: "a", creationTimestamp: "2026-01-01T00:00:00Z" },
    involvedObject: involved,
    type,
    ...times,
  });
  const events = [
    ev("old-legacy", { firstTimestamp: "2026-01-01T00:00:00Z", lastTimestamp: "2026-01-01T00:10:00Z" }),
    ev("series", { eventTime: "2026-01-01T00:00:00.000000Z", series: { count: 3, lastObservedTime: "2026-01-01T00:30:00.000000Z" } }, "Warning"),
    ev("new-style", { eventTime: "2026-01-01T00:20:00.500000Z" }),
    ev("fresh-legacy", { firstTimestamp: "2026-01-01T00:00:00Z", lastTimestamp: "2026-01-01T00:20:00Z" }),
  ].map((e) => [`a/${e.metadata.name}`, e] as [string, typeof e]);

  it("opens newest first, by series.lastObservedTime, lastTimestamp or eventTime (sub-second too)", () => {
    const sort = defaultSort("Event")!;
    const column = eventColumns.find((c) => c.id === sort.column)!;
    const rows = selectRows(events, { text: "", selector: null, now, sort: { column, descending: sort.descending } });
    expect(rows.map((r) => r.key)).toEqual(["a/series", "a/new-style", "a/fresh-legacy", "a/old-legacy"]);
    const reversed = selectRows(events, { text: "", selector: null, now, sort: { column, descending: true } });
    expect(reversed.map((r) => r.key)).toEqual(["a/old-legacy", "a/fresh-legacy", "a/new-style", "a/series"]);
    expect(defaultSort("ConfigMap")).toBeUndefined();
  });

  it("links the involved object when the console serves its kind", () => {
    const object = eventColumns.find((c) => c.id === "Object")!;
    expect(object.link!(events[0][1])).toBe("/namespaces/a/pods/web");
    expect(object.link!(ev("x", {}, "Normal", { kind: "Namespace", name: "team-a" }))).toBe("/namespaces/team-a");
    expect(object.link!(ev("x", {}, "Normal", { kind: "Deployment", name: "web", apiVersion: "apps/v1" }))).toBeUndefined();
    expect(object.link!(ev("x", {}, "Normal", { kind: "Pod", name: "web", apiVersion: "example.com/v1" }))).toBeUndefined();
    expect(eventColumns.find((c) => c.id === "Type")!.status).toBe(true);
  });
});

describe("naturalCompare", () => {
  it("orders simple names exactly as the numeric, case-insensitive collator does", () => {
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    const alphabet = "ab-./0129Z";
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    for (let i = 0; i < 5_000; i++) {
      const a = word();
      const b = word();
      expect([a, b, Math.sign(naturalCompare(a, b))]).toEqual([a, b, Math.sign(collator.compare(a, b))]);
    }
  });
});

describe("createRowSelector", () => {
  it("after watch events gives exactly what a fresh selection gives, in every order", () => {
    const select = createRowSelector();
    let map = new Map(items);
    const sorts = [undefined, { column: col("Name"), descending: false }, { column: col("Data"), descending: true }, { column: col("Age"), descending: false }];
    for (let step = 0; step < 40; step++) {
      map = new Map(map);
      const name = `cm-${(step * 7) % 13}`;
      if (step % 5 === 4) map.delete(`a/${name}`);
      else map.set(`a/${name}`, obj(name, "a", `2026-01-01T00:0${step % 10}:00Z`, {}, Object.fromEntries(Array.from({ length: step % 4 }, (_, i) => [`k${i}`, "v"]))));
      const sort = sorts[Math.floor(step / 10)];
      const query = { text: step % 3 === 0 ? "cm" : "", selector: null, now, sort, columns };
      expect(select(map, query).map((r) => r.key)).toEqual(selectRows(map, query).map((r) => r.key));
    }
  });

  it("keeps each unchanged row the same object, so memoised rows do not re-render", () => {
    const select = createRowSelector();
    const first = select(new Map(items), { text: "", selector: null, now });
    const next = new Map(items);
    next.set("b/db", obj("db", "b", "2026-01-01T00:00:20Z", { app: "db" }, { x: "2" }));
    const second = select(next, { text: "", selector: null, now });
    expect(second.find((r) => r.key === "a/web-2")).toBe(first.find((r) => r.key === "a/web-2"));
    expect(second.find((r) => r.key === "b/db")).not.toBe(first.find((r) => r.key === "b/db"));
  });
});

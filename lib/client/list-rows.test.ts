import { describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { parseLabelSelector } from "../selectors/label-selector";
import { columnViews, parseHumanDuration, selectRows } from "./list-rows";

const obj = (name: string, ns: string, created: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({
  kind: "ConfigMap",
  metadata: { name, namespace: ns, creationTimestamp: created, labels },
  data,
});

const items = [
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
});

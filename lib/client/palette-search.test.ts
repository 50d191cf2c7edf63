import { describe, expect, it } from "vitest";
import { kindByPlural, type KubeObject } from "../kinds";
import { matchesWords, parsePaletteQuery, rank, rankGroups, Rank, searchObjects } from "./palette-search";

const pods = kindByPlural("pods")!;
const configMaps = kindByPlural("configmaps")!;
const obj = (name: string, namespace: string, labels?: Record<string, string>) => ({ metadata: { name, namespace, labels } }) as KubeObject;

describe("palette search", () => {
  const sources = [
    { kind: pods, objects: [obj("web-1", "shop", { app: "web" }), obj("api-1", "shop", { app: "api" }), obj("frontweb", "blog")] },
    { kind: configMaps, objects: [obj("settings", "shop", { app: "web" }), obj("web-config", "shop")] },
    // The same pod again, as a fetched list would hold it: counted once.
    { kind: pods, objects: [obj("web-1", "shop", { app: "web" })] },
  ];

  it("finds names across kinds, prefix before substring before label, grouped by kind", () => {
    const groups = searchObjects(sources, parsePaletteQuery("web"));
    expect(groups.map((g) => g.kind.kind)).toEqual(["ConfigMap", "Pod"]);
    expect(groups[1].hits.map((h) => [h.obj.metadata.name, h.score])).toEqual([["web-1", Rank.prefix], ["frontweb", Rank.substring]]);
    expect(groups[0].hits.map((h) => [h.obj.metadata.name, h.score, h.label])).toEqual([["web-config", Rank.prefix, undefined], ["settings", Rank.label, "app=web"]]);
    expect(groups[1].total).toBe(2);
  });

  it("reads key=value as a label selector", () => {
    const q = parsePaletteQuery("app=web");
    expect(q.selector).toBeDefined();
    const groups = searchObjects(sources, q);
    expect(groups.flatMap((g) => g.hits.map((h) => h.obj.metadata.name)).sort()).toEqual(["settings", "web-1"]);
    expect(searchObjects(sources, parsePaletteQuery("app in (api)"))[0].hits.map((h) => h.obj.metadata.name)).toEqual(["api-1"]);
  });

  it("keeps text that is not a selector as text, limits hits per kind, and matches nothing on empty input", () => {
    expect(parsePaletteQuery("web").selector).toBeUndefined();
    expect(parsePaletteQuery("=x").selector).toBeUndefined();
    const many = [{ kind: pods, objects: Array.from({ length: 30 }, (_, i) => obj(`p-${i}`, "x")) }];
    const [group] = searchObjects(many, parsePaletteQuery("p-"), 5);
    expect(group.hits).toHaveLength(5);
    expect(group.total).toBe(30);
    expect(searchObjects(sources, parsePaletteQuery("  "))).toEqual([]);
  });

  it("puts the object named exactly as typed first: the Pod kafka-2 before the Event kafka-2.unhealthy", () => {
    const events = kindByPlural("events")!;
    const groups = searchObjects(
      [
        { kind: events, objects: [obj("kafka-2.unhealthy", "data"), obj("kafka-2.started", "data")] },
        { kind: pods, objects: [obj("kafka-20", "data"), obj("kafka-2", "data"), obj("old-kafka-2", "data")] },
      ],
      parsePaletteQuery("Kafka-2"),
    );
    expect(groups.map((g) => g.kind.kind)).toEqual(["Pod", "Event"]);
    expect(groups[0].hits.map((h) => [h.obj.metadata.name, h.score])).toEqual([["kafka-2", Rank.exact], ["kafka-20", Rank.prefix], ["old-kafka-2", Rank.substring]]);
  });

  it("ranks any text: exact, then prefix, then substring, case-insensitively, the best candidate counting", () => {
    expect(rank("pods", "Pods", "pods", "po")).toBe(Rank.exact);
    expect(rank("po", "Pods", "pods", "po")).toBe(Rank.exact);
    expect(rank("pod", "Pods")).toBe(Rank.prefix);
    expect(rank("ods", "Pods")).toBe(Rank.substring);
    expect(rank("x", "Pods", undefined)).toBeUndefined();
  });

  it("orders groups by their best entry, ties in the given order, and each group's entries by rank", () => {
    const g = (id: string, ...ranks: number[]) => ({ id, items: ranks.map((r, i) => ({ id: `${id}${i}`, rank: r })) });
    const ordered = rankGroups([g("go", 1, 2), g("namespaces", 2), g("events", 1), g("pods", 2, 0, Infinity)]);
    expect(ordered.map((x) => x.id)).toEqual(["pods", "go", "events", "namespaces"]);
    expect(ordered[0].items.map((i) => i.rank)).toEqual([0, 2, Infinity]);
  });

  it("matches go-to words case-insensitively", () => {
    expect(matchesWords("cm", "ConfigMaps", "configmaps", "cm")).toBe(true);
    expect(matchesWords("POD", "Pods")).toBe(true);
    expect(matchesWords("zzz", "Pods")).toBe(false);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { ALL_RESOURCES, Informer, type InformerEvent } from "./informer";
import { del, openCluster, write, type TestCluster } from "./test-cluster";

const configMaps = kindByPlural("configmaps")!;
let c: TestCluster;
afterEach(async () => { await c.close(); });

describe("informer", () => {
  it("replays current objects as ADDED, then every change with the previous state", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    await c.registry.create(configMaps, "default", { metadata: { name: "old" }, data: { v: "1" } }, write);
    const seen: string[] = [];
    const all: InformerEvent[] = [];
    const informer = new Informer(c.store.objects)
      .on("configmaps", (e) => seen.push(`${e.type} ${e.key.name} ${String((e.old?.data as Record<string, string> | undefined)?.v ?? "-")}`))
      .on(ALL_RESOURCES, (e) => all.push(e));
    informer.start();
    const old = (await c.registry.get(configMaps, "default", "old")) as { object: { metadata: object } };
    await c.registry.update(configMaps, "default", "old", { ...old.object, data: { v: "2" } }, write);
    await c.registry.create(configMaps, "default", { metadata: { name: "new" } }, write);
    await c.registry.delete(configMaps, "default", "new", del);
    informer.stop();
    await c.registry.delete(configMaps, "default", "old", del);
    expect(seen).toEqual(["ADDED old -", "MODIFIED old 1", "ADDED new -", "DELETED new -"]);
    expect(all).toHaveLength(4);
    expect(informer.list("configmaps", "default").map((o) => o.metadata.name)).toEqual([]);
  });

  it("keeps delivering when a handler throws", async () => {
    c = await openCluster(undefined, { controllers: false, admission: false });
    const errors: unknown[] = [];
    const names: string[] = [];
    const informer = new Informer(c.store.objects, (e) => errors.push(e))
      .on("configmaps", () => { throw new Error("boom"); })
      .on("configmaps", (e) => names.push(e.key.name));
    informer.start();
    await c.registry.create(configMaps, "default", { metadata: { name: "a" } }, write);
    await c.registry.create(configMaps, "default", { metadata: { name: "b" } }, write);
    informer.stop();
    expect(names).toEqual(["a", "b"]);
    expect(errors).toHaveLength(2);
  });
});

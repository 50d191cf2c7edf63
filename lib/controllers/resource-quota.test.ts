import { afterEach, describe, expect, it } from "vitest";
import { isStatusError } from "../status";
import { resourceQuotaAdmission } from "../admission/resource-quota";
import { kindByPlural, kinds } from "../kinds";
import type { ResourceQuota } from "../kinds/resource-quota";
import { Informer } from "./informer";
import { ResourceQuotaController } from "./resource-quota";
import { cached, createNamespace, del, eventually, objectOf, openCluster, write, type TestCluster } from "./test-cluster";

const quotas = kindByPlural("resourcequotas")!;
const configMaps = kindByPlural("configmaps")!;
const pods = kindByPlural("pods")!;

let c: TestCluster;
let controller: ResourceQuotaController | undefined;
let informer: Informer | undefined;
afterEach(async () => {
  controller?.stop();
  informer?.stop();
  controller = undefined;
  informer = undefined;
  await c.close();
});

/** A cluster with quota admission and only the quota controller (a short settle window keeps tests quick). */
async function open(file?: string, withController = true): Promise<TestCluster> {
  c = await openCluster(file, { controllers: false, admission: (registry) => [resourceQuotaAdmission(registry)] });
  const cache = c.store.objects;
  if (withController) {
    informer = new Informer(cache);
    controller = new ResourceQuotaController({ registry: c.registry, informer, kinds, settleMs: 300, debounceMs: 10 });
    informer.start();
  }
  return c;
}

const status = (ns: string, name: string) => (cached(c, "resourcequotas", ns, name) as ResourceQuota | undefined)?.status;
const usedIs = (ns: string, name: string, used: Record<string, string>) =>
  eventually(() => JSON.stringify(status(ns, name)?.used) === JSON.stringify(used) && status(ns, name), 5000, `used ${JSON.stringify(used)}`);

const configMap = (name: string) => ({ metadata: { name }, data: { a: "b" } });
const pod = (name: string, resources: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: "c", image: "nginx", resources }] } });

async function refused(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try { await p; } catch (err) { if (isStatusError(err)) return { code: err.code, message: err.message }; throw err; }
  throw new Error("not refused");
}

describe("resource quota controller and admission", () => {
  it("fills status.hard and status.used, charges creates and gives deletes back", async () => {
    await open();
    await createNamespace(c, "team");
    await c.registry.create(configMaps, "team", configMap("before"), write);
    await c.registry.create(quotas, "team", { metadata: { name: "q" }, spec: { hard: { configmaps: "3", pods: "2", "requests.memory": "1Gi" } } }, write);
    const s = await usedIs("team", "q", { configmaps: "1", pods: "0", "requests.memory": "0" });
    expect(s.hard).toEqual({ configmaps: "3", pods: "2", "requests.memory": "1Gi" });

    await c.registry.create(configMaps, "team", configMap("two"), write);
    expect(status("team", "q")!.used!.configmaps).toBe("2");
    await c.registry.create(pods, "team", pod("web", { requests: { memory: "200Mi" } }), write);
    expect(status("team", "q")!.used).toEqual({ configmaps: "2", pods: "1", "requests.memory": "200Mi" });

    await c.registry.delete(configMaps, "team", "before", del);
    await usedIs("team", "q", { configmaps: "1", pods: "1", "requests.memory": "200Mi" });
  });

  it("gives back the usage of pods that finish", async () => {
    await open();
    await createNamespace(c, "jobs");
    await c.registry.create(quotas, "jobs", { metadata: { name: "q" }, spec: { hard: { pods: "1", "count/pods": "5" } } }, write);
    await usedIs("jobs", "q", { "count/pods": "0", pods: "0" });
    const created = objectOf(await c.registry.create(pods, "jobs", pod("once"), write));
    expect((await refused(c.registry.create(pods, "jobs", pod("twice"), write))).message)
      .toBe(`pods "twice" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1`);
    await c.registry.update(pods, "jobs", "once", { ...created, status: { phase: "Succeeded" } }, { ...write, subresource: "status" });
    await usedIs("jobs", "q", { "count/pods": "1", pods: "0" });
    await c.registry.create(pods, "jobs", pod("twice"), write);
  });

  it("never lets concurrent creates take more than what is left", async () => {
    await open();
    await createNamespace(c, "race");
    await c.registry.create(quotas, "race", { metadata: { name: "q" }, spec: { hard: { configmaps: "3" } } }, write);
    await usedIs("race", "q", { configmaps: "0" });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => c.registry.create(configMaps, "race", configMap(`c${i}`), write)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) {
      if (r.status === "rejected") expect(String(r.reason.message)).toMatch(/^configmaps "c\d+" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=3, limited: configmaps=3$/);
    }
    expect(c.store.objects.list("configmaps", { namespace: "race" })).toHaveLength(3);
    expect(status("race", "q")!.used).toEqual({ configmaps: "3" });
  });

  it("checks dry runs without charging", async () => {
    await open();
    await createNamespace(c, "dry");
    await c.registry.create(quotas, "dry", { metadata: { name: "q" }, spec: { hard: { configmaps: "1" } } }, write);
    await usedIs("dry", "q", { configmaps: "0" });
    for (let i = 0; i < 3; i++) await c.registry.create(configMaps, "dry", configMap(`d${i}`), { ...write, dryRun: true });
    expect(status("dry", "q")!.used).toEqual({ configmaps: "0" });
    await c.registry.create(configMaps, "dry", configMap("real"), write);
    expect((await refused(c.registry.create(configMaps, "dry", configMap("more"), { ...write, dryRun: true }))).code).toBe(403);
  });

  it("gives back a charge whose write then failed", async () => {
    await open();
    await createNamespace(c, "dup");
    await c.registry.create(quotas, "dup", { metadata: { name: "q" }, spec: { hard: { configmaps: "2" } } }, write);
    await usedIs("dup", "q", { configmaps: "0" });
    await c.registry.create(configMaps, "dup", configMap("same"), write);
    expect((await refused(c.registry.create(configMaps, "dup", configMap("same"), write))).code).toBe(409);
    // Charged before the store refused the duplicate name, then measured again once settled.
    expect(status("dup", "q")!.used).toEqual({ configmaps: "2" });
    await usedIs("dup", "q", { configmaps: "1" });
    await c.registry.create(configMaps, "dup", configMap("other"), write);
  });

  it("recomputes usage at start", async () => {
    await open(undefined, false);
    await createNamespace(c, "later");
    await c.registry.create(configMaps, "later", configMap("a"), write);
    const q = objectOf(await c.registry.create(quotas, "later", { metadata: { name: "q" }, spec: { hard: { configmaps: "5" } } }, write)) as ResourceQuota;
    // A wrong observation left behind by an earlier process.
    await c.registry.update(quotas, "later", "q", { ...q, status: { hard: { configmaps: "5" }, used: { configmaps: "4" } } }, { ...write, subresource: "status" });
    const file = c.file;
    await c.close();
    await open(file);
    await usedIs("later", "q", { configmaps: "1" });
  });

  it("refuses pods that leave tracked compute undeclared", async () => {
    await open();
    await createNamespace(c, "compute");
    await c.registry.create(quotas, "compute", { metadata: { name: "q" }, spec: { hard: { "limits.cpu": "2", "requests.memory": "1Gi" } } }, write);
    await usedIs("compute", "q", { "limits.cpu": "0", "requests.memory": "0" });
    expect((await refused(c.registry.create(pods, "compute", pod("bare"), write))).message)
      .toBe(`pods "bare" is forbidden: failed quota: q: must specify limits.cpu for: c; requests.memory for: c`);
    // Limits default the requests, so a container with both limits passes.
    await c.registry.create(pods, "compute", pod("ok", { limits: { cpu: "500m", memory: "256Mi" } }), write);
    expect(status("compute", "q")!.used).toEqual({ "limits.cpu": "500m", "requests.memory": "256Mi" });
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { kindByPlural, kinds } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { Registry, type Answer } from "../registry/registry";
import { openStore, type Store } from "../storage";
import { AdmissionChain } from "./admission-chain";
import { LIMIT_RANGER_ANNOTATION, LimitRanger } from "./limit-ranger";
import { NamespaceLifecycle } from "./namespace-lifecycle";

const pods = kindByPlural("pods")!;
const claims = kindByPlural("persistentvolumeclaims")!;
const limitRanges = kindByPlural("limitranges")!;
const write = { dryRun: false, fieldValidation: "Strict" as const };
const objectOf = (a: Answer) => ("object" in a ? a.object : undefined) as KubeObject & { spec: any };

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (e instanceof StatusError) return e; throw e; }
  throw new Error("expected the request to fail");
}

let store: Store;
let registry: Registry;
let ns = 0;

beforeAll(async () => {
  store = await openStore({ databaseUrl: `file:${mkdtempSync(path.join(tmpdir(), "cc-limitranger-"))}/a.db`, compactionWindowSeconds: 300 });
  registry = new Registry(store, kinds, {
    admission: new AdmissionChain([
      new NamespaceLifecycle((name) => store.objects.get({ resource: "namespaces", namespace: "", name })?.object, () => store.objects.catchUp()),
      new LimitRanger((namespace) => store.objects.list("limitranges", { namespace }).map((o) => o.object), () => store.objects.catchUp()),
    ]),
  });
});
afterAll(async () => { registry.close(); await store.close(); });

/** A fresh namespace holding the given LimitRange items (one LimitRange). */
async function namespaceWith(...limits: object[]): Promise<string> {
  const name = `lr-${++ns}`;
  await registry.create(namespaceKind, undefined, { metadata: { name } }, write);
  if (limits.length) await registry.create(limitRanges, name, { metadata: { name: "limits" }, spec: { limits } }, write);
  return name;
}

const container = (name: string, resources?: object) => ({ name, image: "nginx", ...(resources ? { resources } : {}) });
const pod = (name: string, containers: object[], initContainers?: object[]) =>
  ({ metadata: { name }, spec: { containers, ...(initContainers ? { initContainers } : {}) } });

describe("LimitRanger defaults", () => {
  it("fills missing container limits and requests and says so in kube's annotation", async () => {
    const namespace = await namespaceWith({ type: "Container", default: { cpu: "500m", memory: "256Mi" }, defaultRequest: { cpu: "100m" } });
    const created = objectOf(await registry.create(pods, namespace, pod("p", [
      container("app"),
      container("side", { limits: { memory: "128Mi" } }),
    ], [container("setup")]), write));
    expect(created.spec.containers[0].resources).toEqual({ limits: { cpu: "500m", memory: "256Mi" }, requests: { cpu: "100m", memory: "256Mi" } });
    // side's memory request came from its own limit (pod defaulting), before the LimitRange was consulted.
    expect(created.spec.containers[1].resources).toEqual({ limits: { memory: "128Mi", cpu: "500m" }, requests: { memory: "128Mi", cpu: "100m" } });
    expect(created.spec.initContainers[0].resources.limits).toEqual({ cpu: "500m", memory: "256Mi" });
    expect(created.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]).toBe(
      "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; "
      + "cpu request for container side; cpu limit for container side; "
      + "cpu, memory request for init container setup; cpu, memory limit for init container setup");
  });

  it("leaves a pod that sets everything alone, without annotation", async () => {
    const namespace = await namespaceWith({ type: "Container", default: { cpu: "1" } });
    const created = objectOf(await registry.create(pods, namespace, pod("p", [container("app", { limits: { cpu: "2" } })]), write));
    expect(created.spec.containers[0].resources).toEqual({ limits: { cpu: "2" }, requests: { cpu: "2" } });
    expect(created.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]).toBeUndefined();
  });

  it("defaults on a dry run too, storing nothing", async () => {
    const namespace = await namespaceWith({ type: "Container", default: { memory: "64Mi" } });
    const answer = objectOf(await registry.create(pods, namespace, pod("dry", [container("app")]), { ...write, dryRun: true }));
    expect(answer.spec.containers[0].resources.limits).toEqual({ memory: "64Mi" });
    expect(store.objects.get({ resource: "pods", namespace, name: "dry" })).toBeUndefined();
  });
});

describe("LimitRanger constraints", () => {
  it("refuses containers over the max with every reason, as one aggregate", async () => {
    const namespace = await namespaceWith({ type: "Container", max: { cpu: "500m", memory: "1Gi" } });
    const err = await failure(registry.create(pods, namespace, pod("p", [container("app", { limits: { cpu: "1", memory: "2Gi" } })]), write));
    expect(err.toStatus()).toMatchObject({
      code: 403, reason: "Forbidden", details: { name: "p", kind: "pods" },
      message: 'pods "p" is forbidden: [maximum cpu usage per Container is 500m, but limit is 1, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
    });
  });

  it("says once what several containers break alike, and names a missing limit", async () => {
    const namespace = await namespaceWith({ type: "Container", max: { cpu: "1" } });
    const err = await failure(registry.create(pods, namespace, pod("p", [
      container("a", { limits: { cpu: "2" } }), container("b", { limits: { cpu: "2" } }),
    ]), write));
    expect(err.message).toBe('pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    // The max also defaults the limit (LimitRange defaulting), so a container without one gets the max.
    expect((await registry.create(pods, namespace, pod("ok", [container("a")]), write)).code).toBe(201);
  });

  it("refuses a request under the min and a ratio over maxLimitRequestRatio", async () => {
    const namespace = await namespaceWith({ type: "Container", min: { memory: "64Mi" }, maxLimitRequestRatio: { cpu: "2" } });
    const low = await failure(registry.create(pods, namespace, pod("low", [container("a", { requests: { memory: "32Mi", cpu: "1" }, limits: { cpu: "1" } })]), write));
    expect(low.message).toBe('pods "low" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi');
    const ratio = await failure(registry.create(pods, namespace, pod("ratio", [container("a", { requests: { memory: "64Mi", cpu: "250m" }, limits: { cpu: "1" } })]), write));
    expect(ratio.message).toBe('pods "ratio" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000');
    const none = await failure(registry.create(pods, namespace, pod("none", [container("a", { requests: { memory: "64Mi", cpu: "250m" } })]), write));
    expect(none.message).toBe('pods "none" is forbidden: cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0');
    // A Container min defaults the request (LimitRange defaulting), so only a Pod min can find none.
    const defaulted = objectOf(await registry.create(pods, namespace, pod("defaulted", [container("a", { requests: { cpu: "1" }, limits: { cpu: "1" } })]), write));
    expect(defaulted.spec.containers[0].resources.requests).toEqual({ cpu: "1", memory: "64Mi" });
    const podMin = await namespaceWith({ type: "Pod", min: { memory: "64Mi" } });
    const missing = await failure(registry.create(pods, podMin, pod("missing", [container("a", { limits: { cpu: "1" } })]), write));
    expect(missing.message).toBe('pods "missing" is forbidden: minimum memory usage per Pod is 64Mi.  No request is specified');
  });

  it("holds the pod's sum over containers to a Pod max, with init containers counted at their peak", async () => {
    const namespace = await namespaceWith({ type: "Pod", max: { cpu: "1", memory: "1Gi" } });
    const over = await failure(registry.create(pods, namespace, pod("p", [
      container("a", { limits: { cpu: "600m", memory: "512Mi" } }), container("b", { limits: { cpu: "900m", memory: "512Mi" } }),
    ]), write));
    expect(over.message).toBe('pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1500m');
    // One init container alone needs more than the containers together.
    const init = await failure(registry.create(pods, namespace, pod("i", [container("a", { limits: { cpu: "500m", memory: "128Mi" } })],
      [container("setup", { limits: { cpu: "500m", memory: "2Gi" } })]), write));
    expect(init.message).toBe('pods "i" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2Gi');
    // A sidecar runs beside the containers: its share adds up.
    const sidecar = await failure(registry.create(pods, namespace, pod("s", [container("a", { limits: { cpu: "600m", memory: "128Mi" } })],
      [{ ...container("proxy", { limits: { cpu: "600m", memory: "128Mi" } }), restartPolicy: "Always" }]), write));
    expect(sidecar.message).toBe('pods "s" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
    expect((await registry.create(pods, namespace, pod("fits", [container("a", { limits: { cpu: "500m", memory: "512Mi" } }), container("b", { limits: { cpu: "500m", memory: "512Mi" } })]), write)).code).toBe(201);
  });

  it("does not look at pod updates", async () => {
    const namespace = await namespaceWith();
    const created = objectOf(await registry.create(pods, namespace, pod("p", [container("a", { limits: { cpu: "2" } })]), write));
    await registry.create(limitRanges, namespace, { metadata: { name: "late" }, spec: { limits: [{ type: "Container", max: { cpu: "1" } }] } }, write);
    const updated = { ...created, metadata: { ...created.metadata, labels: { touched: "yes" } } };
    expect((await registry.update(pods, namespace, "p", updated, write)).code).toBe(200);
  });

  it("holds claims to the PersistentVolumeClaim min and max of requests.storage, on create and resize", async () => {
    const namespace = await namespaceWith({ type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "10Gi" } });
    const claim = (name: string, storage: string) => ({ metadata: { name }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } } });
    const small = await failure(registry.create(claims, namespace, claim("small", "500Mi"), write));
    expect(small.toStatus()).toMatchObject({ code: 403, details: { name: "small", kind: "persistentvolumeclaims" } });
    expect(small.message).toBe('persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    const big = await failure(registry.create(claims, namespace, claim("big", "20Gi"), write));
    expect(big.message).toBe('persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
    const ok = objectOf(await registry.create(claims, namespace, claim("ok", "5Gi"), write));
    ok.spec.resources.requests.storage = "50Gi";
    const resized = await failure(registry.update(claims, namespace, "ok", ok, write));
    expect(resized.message).toBe('persistentvolumeclaims "ok" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 50Gi');
  });

  it("sees a LimitRange written by another process before its cache does", async () => {
    const namespace = await namespaceWith();
    let caughtUp = false;
    const plugin = new LimitRanger(() => (caughtUp ? [{ metadata: { name: "l" }, spec: { limits: [{ type: "Container", default: { cpu: "1" } }] } }] : []),
      async () => { caughtUp = true; });
    const object = pod("p", [container("a")]) as unknown as KubeObject;
    await plugin.admit({ operation: "CREATE", kind: pods, namespace, name: "p", subresource: "", object, dryRun: false });
    expect((object.spec as any).containers[0].resources.limits).toEqual({ cpu: "1" });
  });
});

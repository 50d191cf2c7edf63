import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { Informer } from "./informer";
import { DESCRIPTION_ANNOTATION, ROOT_CA_DESCRIPTION, RootCAPublisher } from "./root-ca-publisher";
import { cached, createNamespace, del, eventually, openCluster, write, type TestCluster } from "./test-cluster";

const configMaps = kindByPlural("configmaps")!;
const CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
type ConfigMap = KubeObject & { data?: Record<string, string> };

let c: TestCluster;
let stop: () => void = () => {};
afterEach(async () => { stop(); await c.close(); });

/** A cluster whose only controller is the publisher (so nothing else writes ConfigMaps). */
async function withPublisher(file?: string): Promise<RootCAPublisher> {
  c = await openCluster(file, { controllers: false });
  const informer = new Informer(c.store.objects);
  const publisher = new RootCAPublisher({ registry: c.registry, informer, caPem: CA });
  informer.start();
  stop = () => { publisher.stop(); informer.stop(); };
  return publisher;
}

const rootCA = (ns: string) => cached(c, "configmaps", ns, "kube-root-ca.crt") as ConfigMap | undefined;

describe("root CA publisher", () => {
  it("publishes kube-root-ca.crt with the cluster CA in every new namespace", async () => {
    await withPublisher();
    await createNamespace(c, "apps");
    const cm = await eventually(() => rootCA("apps"), 2000, "kube-root-ca.crt");
    expect(cm.data).toEqual({ "ca.crt": CA });
    expect(cm.metadata.annotations).toEqual({ [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION });
  });

  it("recreates it when deleted and puts back its content when edited", async () => {
    await withPublisher();
    await createNamespace(c, "apps");
    const first = await eventually(() => rootCA("apps"), 2000, "kube-root-ca.crt");
    await c.registry.delete(configMaps, "apps", "kube-root-ca.crt", del);
    const second = await eventually(() => { const cm = rootCA("apps"); return cm && cm.metadata.uid !== first.metadata.uid && cm; }, 2000, "recreated");
    await c.registry.update(configMaps, "apps", "kube-root-ca.crt", { ...second, data: { "ca.crt": "tampered", extra: "x" } }, write);
    const restored = await eventually(() => { const cm = rootCA("apps"); return cm && cm.data?.["ca.crt"] === CA && cm; }, 2000, "restored");
    expect(restored.data).toEqual({ "ca.crt": CA });
    expect(restored.metadata.uid).toBe(second.metadata.uid);
  });

  it("fills namespaces that existed before it started, and leaves terminating ones alone", async () => {
    c = await openCluster(undefined, { controllers: false });
    await createNamespace(c, "before");
    await createNamespace(c, "ending");
    await c.registry.delete(namespaceKind, "", "ending", del);
    const file = c.file;
    await c.close();
    const publisher = await withPublisher(file);
    await eventually(() => rootCA("before"), 2000, "kube-root-ca.crt in an existing namespace");
    await publisher.queue.idle();
    await publisher.sync("ending");
    expect(rootCA("ending")).toBeUndefined();
  });
});

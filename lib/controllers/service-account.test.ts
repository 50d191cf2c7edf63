import { afterEach, describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import { cached, createNamespace, del, eventually, openCluster, type TestCluster } from "./test-cluster";

const serviceAccounts = kindByPlural("serviceaccounts")!;

let c: TestCluster;
afterEach(async () => { await c.close(); });

describe("service account controller", () => {
  it("gives every new namespace a default ServiceAccount", async () => {
    c = await openCluster();
    await createNamespace(c, "apps");
    const sa = await eventually(() => cached(c, "serviceaccounts", "apps", "default"), 2000, "default service account");
    expect(sa.metadata.uid).toBeTruthy();
  });

  it("recreates it when it is deleted", async () => {
    c = await openCluster();
    await createNamespace(c, "apps");
    const first = await eventually(() => cached(c, "serviceaccounts", "apps", "default"), 2000, "default service account");
    await c.registry.delete(serviceAccounts, "apps", "default", del);
    const second = await eventually(() => {
      const sa = cached(c, "serviceaccounts", "apps", "default");
      return sa && sa.metadata.uid !== first.metadata.uid && sa;
    }, 2000, "recreated service account");
    expect(second.metadata.name).toBe("default");
  });

  it("creates the missing ones at start for namespaces that already exist", async () => {
    c = await openCluster(undefined, { controllers: false });
    await createNamespace(c, "before");
    const file = c.file;
    await c.close();
    c = await openCluster(file);
    await eventually(() => cached(c, "serviceaccounts", "before", "default"), 2000, "default service account");
  });

  it("leaves a terminating namespace alone", async () => {
    c = await openCluster(undefined, { controllers: false });
    await createNamespace(c, "ending");
    await c.registry.delete(namespaceKind, "", "ending", del);
    const file = c.file;
    await c.close();
    // Only the service account controller would act here; the namespace is kept by its finalizer meanwhile.
    c = await openCluster(file, { controllers: false });
    const { ServiceAccountController } = await import("./service-account");
    const { Informer } = await import("./informer");
    const informer = new Informer(c.store.objects);
    const controller = new ServiceAccountController({ registry: c.registry, informer });
    informer.start();
    await controller.queue.idle();
    await controller.sync("ending");
    expect(cached(c, "serviceaccounts", "ending", "default")).toBeUndefined();
    controller.stop();
    informer.stop();
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { namespace as namespaceKind } from "../kinds/namespace";
import { cached, del, eventually, openCluster, type TestCluster } from "./test-cluster";

let c: TestCluster;
afterEach(async () => { await c.close(); });

describe("system namespaces controller", () => {
  it("creates the system namespaces at start when missing", async () => {
    c = await openCluster();
    for (const name of ["kube-system", "kube-public", "kube-node-lease"]) {
      await eventually(() => cached(c, "namespaces", "", name), 2000, name);
    }
  });

  it("brings kube-node-lease back once its deletion has finished (kubectl delete ns --all)", async () => {
    c = await openCluster();
    const first = await eventually(() => cached(c, "namespaces", "", "kube-node-lease"), 2000, "kube-node-lease");
    await c.registry.delete(namespaceKind, "", "kube-node-lease", del);
    const again = await eventually(() => {
      const ns = cached(c, "namespaces", "", "kube-node-lease");
      return ns && ns.metadata.uid !== first.metadata.uid && ns;
    }, 5000, "kube-node-lease again");
    expect(again.metadata.labels).toEqual({ "kubernetes.io/metadata.name": "kube-node-lease" });
  });
});
